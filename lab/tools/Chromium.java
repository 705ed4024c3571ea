package lab.tools;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

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
        for (String name : List.of("chromium", "chromium-browser", "google-chrome")) {
            for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
                if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, name))) {
                    return Optional.of(Path.of(dir, name));
                }
            }
        }
        return Optional.empty();
    }

    /** Headless, quiet and offline, in {@code profile}: Chromium's command, before what it is asked to do. */
    public static List<String> headless(Path chromium, Path profile) {
        return List.of(chromium.toString(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars",
                "--virtual-time-budget=10000", "--user-data-dir=" + profile);
    }

    /**
     * Draws {@code page} into {@code png}, {@code widthPx} by {@code heightPx}: headless, quiet and
     * offline ({@link #headless}), in a fresh profile each time, so runs never share state. False when Chromium failed or
     * ran out of time; true says only that it ended well, not that the PNG is whole.
     */
    public static boolean screenshot(Path chromium, String page, Path png, int widthPx, int heightPx) throws IOException {
        Path profile = Files.createTempDirectory("chart-chromium-");
        try {
            List<String> command = new ArrayList<>(headless(chromium, profile));
            command.addAll(List.of("--screenshot=" + png.toAbsolutePath(), "--window-size=" + widthPx + "," + heightPx, page));
            ChildProcess.Ended ended = ChildProcess.of(command).timeLimit(DRAWING_LIMIT, 0).run("Chromium", note -> {});
            return !ended.timedOut() && ended.status() == 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            try (var paths = Files.walk(profile)) {
                for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(path);
                }
            }
        }
    }
}
