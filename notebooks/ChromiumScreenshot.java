// A chart's PNG, drawn from its page by headless Chromium. No package line: JShell, which runs the
// notebooks, cannot take one.

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Headless Chromium, drawing a chart's page into its PNG. */
final class ChromiumScreenshot {

    static final int CHROMIUM_SECONDS = 120;

    private ChromiumScreenshot() {}

    /**
     * Draws {@code page} into {@code png} with headless Chromium, through a temporary file so that a
     * failed drawing never leaves half a PNG, and marks it as a chart of this class. When the result
     * shows a blank block (drawn before the plot was painted, which a busy machine can cause), it is
     * drawn once more. False when Chromium failed.
     */
    static boolean screenshot(String chromium, Path page, Path png, int heightPx) throws IOException {
        Path profile = Files.createTempDirectory("chart-chromium-");
        Path drawing = png.resolveSibling("." + png.getFileName() + ".drawing.png");
        try {
            for (int attempt = 1; attempt <= 2; attempt++) {
                Files.deleteIfExists(drawing);
                List<String> command = new ArrayList<>(chromiumCommand(chromium, profile));
                command.add("--screenshot=" + drawing.toAbsolutePath());
                command.add("--window-size=" + ChartPage.CHART_WIDTH_PX + "," + heightPx);
                command.add(page.toAbsolutePath().toUri() + "?png");
                if (!runChromium(command) || !Files.isRegularFile(drawing)) {
                    return false;
                }
                if (ChartImage.problem(drawing, null) == null || attempt == 2) {
                    ChartImage.mark(drawing);
                    Files.move(drawing, png, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                    return true;
                }
            }
            return false;
        } finally {
            Files.deleteIfExists(drawing);
            deleteTree(profile);
        }
    }

    /** The Chromium on PATH, or null; {@code -Dchromium=PATH} names one, {@code -Dchromium=none} draws pages only. */
    static String chromium() {
        String chosen = System.getProperty("chromium");
        if (chosen != null && !chosen.isBlank()) {
            return chosen.equals("none") ? null : chosen;
        }
        for (String name : List.of("chromium", "chromium-browser", "google-chrome")) {
            for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
                if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, name))) {
                    return Path.of(dir, name).toString();
                }
            }
        }
        return null;
    }

    /** Headless, quiet and offline; a fresh profile each time, so runs never share state. */
    static List<String> chromiumCommand(String chromium, Path profile) {
        return List.of(chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--hide-scrollbars", "--virtual-time-budget=10000", "--user-data-dir=" + profile);
    }

    private static boolean runChromium(List<String> command) throws IOException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            if (!process.waitFor(CHROMIUM_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return false;
            }
            return process.exitValue() == 0;
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Removes the temporary Chromium profile this class created. */
    private static void deleteTree(Path dir) throws IOException {
        try (var paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
