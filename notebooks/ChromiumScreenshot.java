// A chart's PNG, drawn from its page by headless Chromium.

package notebooks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import lab.tools.Chromium;

/** Headless Chromium, drawing a chart's page into its PNG. */
public final class ChromiumScreenshot {

    /**
     * The time the page gets to draw before each try, in Chromium's virtual time: a page that had
     * not finished is given longer the next time.
     */
    public static final List<Duration> DRAWING_TIMES = List.of(Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofSeconds(90));

    private ChromiumScreenshot() {}

    /**
     * Draws {@code page} into {@code png} with headless Chromium, through a temporary file so that a
     * failed drawing never leaves half a PNG, and marks it as a chart of this class. The picture is
     * kept only when it is whole ({@link ChartImage#drawingProblem}, {@link ChartImage#problem}): the page had said it
     * finished drawing, with every axis's tick labels and title and the chart's title, and the
     * picture has no blank block. Otherwise it is drawn again, up to {@link #DRAWING_TIMES} times,
     * and then not kept. Null when {@code png} was written, or why it was not.
     */
    public static String screenshot(Path chromium, Path page, Path png, int heightPx) throws IOException {
        Path drawing = png.resolveSibling("." + png.getFileName() + ".drawing.png");
        String pageUri = page.toAbsolutePath().toUri() + "?png";
        String problem = null;
        try {
            for (Duration virtualTime : DRAWING_TIMES) {
                Files.deleteIfExists(drawing);
                Optional<String> rootTag = Chromium.screenshot(chromium, pageUri, drawing, ChartPage.CHART_WIDTH_PX, heightPx, virtualTime);
                if (rootTag.isEmpty() || !Files.isRegularFile(drawing)) {
                    return "Chromium failed to draw it";
                }
                // the page's root element, as Chromium found it just before it took the picture, says what was drawn
                problem = ChartImage.drawingProblem(rootTag.get());
                problem = problem != null ? problem : ChartImage.problem(drawing);
                if (problem == null) {
                    ChartImage.mark(drawing);
                    Files.move(drawing, png, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                    return null;
                }
            }
            return "Chromium drew it " + DRAWING_TIMES.size() + " times, never whole; the last time " + problem;
        } finally {
            Files.deleteIfExists(drawing);
        }
    }
}
