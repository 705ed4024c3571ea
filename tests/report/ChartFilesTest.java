import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import notebooks.*;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.plotly.components.Figure;
import tech.tablesaw.plotly.components.Layout;
import tech.tablesaw.plotly.traces.BarTrace;

/**
 * A chart replaces only what a notebook drew, and a page an older run left cut does not stop later
 * charts (the page itself is written whole: tests/lib/AtomicWriteTest.java).
 */
class ChartFilesTest {

    private static String chromiumBefore;

    @BeforeAll
    static void drawPagesOnlyAndQuitByThrowing() {
        System.setProperty("report.quit", "throw");
        chromiumBefore = System.getProperty("chromium");
        System.setProperty("chromium", "none"); // the page is what is tested; no PNG is drawn
    }

    @AfterAll
    static void restoreChromium() {
        if (chromiumBefore == null) {
            System.clearProperty("chromium");
        } else {
            System.setProperty("chromium", chromiumBefore);
        }
    }

    private static Figure figure() {
        return new Figure(Layout.builder().title("a chart").build(),
                BarTrace.builder(StringColumn.create("name", List.of("V01 read all")), DoubleColumn.create("mbps", new double[] {1000})).build());
    }

    private static List<Path> filesIn(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.sorted().toList();
        }
    }

    @Test
    void aPageAnOlderRunLeftCutIsRedrawn(@TempDir Path dir) throws IOException {
        for (String cut : List.of("", ChartFiles.PAGE_MARK.substring(0, 20))) {
            Path charts = Files.createDirectories(dir.resolve("charts-" + cut.length()));
            Path page = charts.resolve("scoreboard.html");
            Files.writeString(page, cut);
            assertNull(ChartFiles.whyNotReplace(page, charts.resolve("scoreboard.png")), "a page cut at " + cut.length() + " bytes");
            assertEquals(page, Notebook.chart(charts, "scoreboard", figure(), List.of(), ChartPage.Extras.NONE));
            String drawn = Files.readString(page);
            assertTrue(drawn.startsWith(ChartFiles.PAGE_MARK) && drawn.strip().endsWith("</html>"), "redrawn whole");
            assertEquals(List.of(page), filesIn(charts));
        }
    }

    @Test
    void aFileThatIsNoCutPageIsStillLeftAlone(@TempDir Path dir) throws IOException {
        Path page = dir.resolve("scoreboard.html"), png = dir.resolve("scoreboard.png");
        Files.writeString(page, "<!DOCTYPE html><html>someone's page</html>");
        assertFalse(ChartFiles.cutShort(page));
        assertNotNull(ChartFiles.whyNotReplace(page, png));
        Files.writeString(page, "");
        Files.write(png, new byte[] {(byte) 0x89, 'P', 'N', 'G'});
        assertNotNull(ChartFiles.whyNotReplace(page, png), "an empty page does not make someone's PNG a notebook's");
    }

    /** A fresh clone has the committed PNGs without their pages: each must carry the mark, or no study could redraw it. */
    @Test
    void everyCommittedChartCarriesTheMarkSoAFreshCloneRedrawsIt() throws IOException {
        List<Path> pngs = new java.util.ArrayList<>();
        for (String machine : Files.readAllLines(Path.of("results", "committed-machines.txt"))) {
            Path charts = Path.of("results", machine.strip(), "charts");
            if (!machine.startsWith("#") && Files.isDirectory(charts)) {
                try (Stream<Path> files = Files.list(charts)) {
                    files.filter(file -> file.toString().endsWith(".png")).forEach(pngs::add);
                }
            }
        }
        assertFalse(pngs.isEmpty(), "the committed machines have charts");
        for (Path png : pngs) {
            assertTrue(ChartImage.isMarked(png), png + " carries no mark: a study would refuse to redraw it");
        }
    }
}
