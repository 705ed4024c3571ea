// A chart's PNG, drawn from its page by headless Chromium. No package line: JShell, which runs the
// notebooks, cannot take one.

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import lab.tools.Chromium;

/** Headless Chromium, drawing a chart's page into its PNG. */
final class ChromiumScreenshot {

    private ChromiumScreenshot() {}

    /**
     * Draws {@code page} into {@code png} with headless Chromium, through a temporary file so that a
     * failed drawing never leaves half a PNG, and marks it as a chart of this class. When the result
     * shows a blank block (drawn before the plot was painted, which a busy machine can cause), it is
     * drawn once more. False when Chromium failed.
     */
    static boolean screenshot(Path chromium, Path page, Path png, int heightPx) throws IOException {
        Path drawing = png.resolveSibling("." + png.getFileName() + ".drawing.png");
        try {
            for (int attempt = 1; attempt <= 2; attempt++) {
                Files.deleteIfExists(drawing);
                String pageUri = page.toAbsolutePath().toUri() + "?png";
                if (!Chromium.screenshot(chromium, pageUri, drawing, ChartPage.CHART_WIDTH_PX, heightPx) || !Files.isRegularFile(drawing)) {
                    return false;
                }
                if (ChartImage.problem(drawing) == null || attempt == 2) {
                    ChartImage.mark(drawing);
                    Files.move(drawing, png, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                    return true;
                }
            }
            return false;
        } finally {
            Files.deleteIfExists(drawing);
        }
    }
}
