package lab.tools;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/** Headless Chromium, which draws the charts' PNGs: found once, the same way for the study and the notebooks. */
public final class Chromium {

    /** The longest one drawing may take before Chromium is stopped. */
    static final Duration DRAWING_LIMIT = Duration.ofSeconds(120);

    private Chromium() {}

    /** {@code -Dchromium=PATH} names one, {@code -Dchromium=none} none; otherwise the first Chromium on PATH. */
    public static Optional<Path> find() {
        String chosen = System.getProperty("chromium");
        if (chosen != null && !chosen.isBlank()) {
            return chosen.equals("none") ? Optional.empty() : Optional.of(Path.of(chosen));
        }
        return Stream.of("chromium", "chromium-browser", "google-chrome").map(ChildProcess::onPath).flatMap(Optional::stream).findFirst();
    }

    /** The time a page gets to load and draw, in Chromium's virtual time, unless told otherwise. */
    static final Duration VIRTUAL_TIME = Duration.ofSeconds(10);

    /** Headless, quiet and offline, in {@code profile}: Chromium's command, before what it is asked to do. */
    public static List<String> headless(Path chromium, Path profile) {
        return headless(chromium, profile, VIRTUAL_TIME);
    }

    /**
     * {@link #headless(Path, Path)}, the page given {@code virtualTime} to load and draw: Chromium
     * runs its timers ahead of the clock until that much has passed on the page, then does what it is asked.
     */
    public static List<String> headless(Path chromium, Path profile, Duration virtualTime) {
        return List.of(chromium.toString(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars",
                "--virtual-time-budget=" + virtualTime.toMillis(), "--user-data-dir=" + profile);
    }

    /**
     * Draws {@code page} into {@code png}, {@code widthPx} by {@code heightPx}, after
     * {@code virtualTime} on the page: headless, quiet and offline ({@link #headless}), in a fresh
     * profile each time, so runs never share state. In the same visit Chromium first dumps the page's
     * DOM, then takes the picture: what is returned is the opening tag of the page's root element as
     * it stood then, where a page can say whether it had finished drawing. Empty when Chromium failed
     * or ran out of time; a tag says only that it ended well, not that the PNG is whole.
     */
    public static Optional<String> screenshot(Path chromium, String page, Path png, int widthPx, int heightPx, Duration virtualTime)
            throws IOException {
        Path profile = Files.createTempDirectory("chart-chromium-");
        try {
            List<String> command = new ArrayList<>(headless(chromium, profile, virtualTime));
            command.addAll(List.of("--dump-dom", "--screenshot=" + png.toAbsolutePath(), "--window-size=" + widthPx + "," + heightPx, page));
            String[] rootTag = {null};
            ChildProcess.Ended ended = ChildProcess.of(command).timeLimit(DRAWING_LIMIT, 0).relayOut(line -> {
                int at = line.indexOf("<html");
                if (rootTag[0] == null && at >= 0) { // the DOM's first element; the rest (plotly.js inlined) is let go
                    int end = line.indexOf('>', at);
                    rootTag[0] = end < 0 ? line.substring(at) : line.substring(at, end + 1);
                }
            }).run("Chromium", note -> {});
            return !ended.timedOut() && ended.status() == 0 ? Optional.of(rootTag[0] == null ? "" : rootTag[0]) : Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } finally {
            try (var paths = Files.walk(profile)) {
                for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(path);
                }
            }
        }
    }
}
