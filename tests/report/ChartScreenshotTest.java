import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import lab.tools.Chromium;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import notebooks.*;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.plotly.components.Axis;
import tech.tablesaw.plotly.components.Figure;
import tech.tablesaw.plotly.components.Layout;
import tech.tablesaw.plotly.traces.ScatterTrace;

/**
 * A chart's PNG is taken only once its page says plotly.js has finished drawing, and kept only when
 * the page drew every axis's tick labels and title (notebooks/ChromiumScreenshot.java). A stand-in
 * for plotly.js that is slow as on a busy machine draws the plot's lines and gridlines at once, and
 * the axes' labels and titles later: a screenshot of it is no blank page, and must not be kept.
 */
class ChartScreenshotTest {

    /**
     * Wraps plotly.js's own newPlot, under the page's scripts: it draws the figure without tick
     * labels or axis titles, then, after {@code later} (JavaScript), the figure as asked.
     */
    private static String slowPlotly(String later) {
        return """
                <script>(function () {
                  var newPlot = Plotly.newPlot;
                  Plotly.newPlot = function (target, data, layout, config) {
                    var bare = JSON.parse(JSON.stringify(layout || {}));
                    Object.keys(bare).forEach(function (key) {
                      if (/^[xy]axis[0-9]*$/.test(key)) { bare[key].showticklabels = false; delete bare[key].title; }
                    });
                    return newPlot.call(Plotly, target, data, bare, config).then(function (gd) {
                      var whole = function () { return newPlot.call(Plotly, target, data, layout, config); };
                      return %s;
                    });
                  };
                })();</script>
                """.formatted(later);
    }

    /** Drawn as asked ten minutes on: after every drawing time Chromium gives a page. */
    private static final String FINISHES_LATE = slowPlotly("new Promise(function (resolve) { setTimeout(function () { resolve(whole()); }, 600000); })");
    /** Says it has finished with the bare figure: the axes never get their labels and titles. */
    private static final String FINISHES_BARE = slowPlotly("gd");

    private static Path chromium() {
        Optional<Path> chromium = Chromium.find();
        assumeTrue(chromium.isPresent(), "no Chromium here (lab/setup/setup-chromium installs it)");
        return chromium.get();
    }

    /** A line chart with its gridlines, a title and both axes titled, as the notebooks draw them. */
    private static Figure figure() {
        return new Figure(Layout.builder().title("MB/s by workers").xAxis(Axis.builder().title("workers").build())
                .yAxis(Axis.builder().title("MB/s (decimal)").build()).width(ChartPage.CHART_WIDTH_PX).height(ChartPage.CHART_HEIGHT_PX).build(),
                ScatterTrace.builder(DoubleColumn.create("workers", new double[] {1, 2, 4, 8}),
                        DoubleColumn.create("mbps", new double[] {900, 1700, 3000, 3100})).mode(ScatterTrace.Mode.LINE).build());
    }

    /** The chart's page, with {@code standIn} (script elements) right after plotly.js, before every script of the page's own. */
    private static Path page(Path dir, String standIn) throws IOException {
        String page = ChartPage.page("workers", figure(), List.of(), ChartPage.Extras.NONE);
        int plotlyEnds = page.indexOf("</script>", page.indexOf("</script>") + 1) + "</script>".length(); // the error listener, then plotly.js
        Path file = dir.resolve("workers.html");
        Files.writeString(file, page.substring(0, plotlyEnds) + "\n" + standIn + page.substring(plotlyEnds));
        return file;
    }

    private static List<Path> filesIn(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.sorted().toList();
        }
    }

    @Test
    void aChartWhosePageHasNotFinishedDrawingGetsNoPng(@TempDir Path dir) throws IOException {
        Path chromium = chromium(), page = page(dir, FINISHES_LATE), png = dir.resolve("workers.png");
        Object said = ChromiumScreenshot.screenshot(chromium, page, png, ChartPage.CHART_HEIGHT_PX);
        assertFalse(Files.exists(png), "a PNG of a chart still being drawn was kept (" + said + ")");
        assertEquals(List.of(page), filesIn(dir), "nothing else is left");
        assertTrue(String.valueOf(said).contains("had not said it finished drawing"), String.valueOf(said));
    }

    @Test
    void aChartDrawnWithoutItsAxesLabelsAndTitlesGetsNoPng(@TempDir Path dir) throws IOException {
        Path chromium = chromium(), page = page(dir, FINISHES_BARE), png = dir.resolve("workers.png");
        Object said = ChromiumScreenshot.screenshot(chromium, page, png, ChartPage.CHART_HEIGHT_PX);
        assertFalse(Files.exists(png), "a PNG of a chart without its axes' labels and titles was kept (" + said + ")");
        assertEquals(List.of(page), filesIn(dir), "nothing else is left");
        assertTrue(String.valueOf(said).contains("without x-ticks, x-title, y-ticks, y-title"), String.valueOf(said));
    }

    /** What the page says of its drawing, on its root element, is read strictly: anything short of every part drawn is refused. */
    @Test
    void aPagesReportOfItsDrawingIsAcceptedOnlyWhole() {
        assertNull(ChartImage.drawingProblem("<html data-chart-drawn=\"x-ticks:8/1 x-title:1/1 y-ticks:7/1 y-title:0/0 title:1/1\">"));
        assertEquals("its page finished drawing without x-ticks, title (x-ticks:0/1 x-title:1/1 y-ticks:7/1 title:0/1)",
                ChartImage.drawingProblem("<html data-chart-drawn=\"x-ticks:0/1 x-title:1/1 y-ticks:7/1 title:0/1\">"));
        assertTrue(ChartImage.drawingProblem("<html lang=\"en\">").contains("had not said it finished drawing"));
        assertTrue(ChartImage.drawingProblem("<html data-chart-drawn=\"title:1/1\">").contains("no axis"));
        assertTrue(ChartImage.drawingProblem("<html data-chart-drawn=\"x-ticks:8/1 y-ticks:many\">").contains("not known"));
        assertTrue(ChartImage.drawingProblem("<html data-script-error=\"Plotly is not defined\" data-chart-drawn=\"x-ticks:8/1 y-ticks:7/1\">")
                .contains("script failed (Plotly is not defined)"));
        assertEquals("Chromium showed no page", ChartImage.drawingProblem(""));
    }

    @Test
    void aWholeChartGetsItsMarkedPng(@TempDir Path dir) throws IOException {
        Path chromium = chromium(), page = page(dir, ""), png = dir.resolve("workers.png");
        Object said = ChromiumScreenshot.screenshot(chromium, page, png, ChartPage.CHART_HEIGHT_PX);
        assertTrue(Files.exists(png), "no PNG of a whole chart: " + said);
        assertTrue(ChartImage.isMarked(png));
        assertEquals(List.of(page, png), filesIn(dir));
    }
}
