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
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.plotly.components.Figure;
import tech.tablesaw.plotly.components.Layout;
import tech.tablesaw.plotly.traces.BarTrace;

/**
 * A chart's page is whole or absent: a write that fails half-way (a full disk) leaves no partial
 * page and no page cut short, and a page an older run left cut does not stop later charts.
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
    void aWriteThatFailsHalfWayLeavesThePageAsItWasAndNoPartialFile(@TempDir Path dir) throws IOException {
        Path page = dir.resolve("scoreboard.html");
        IOException full = assertThrows(IOException.class, () -> ChartFiles.writeWhole(page, out -> {
            out.write((ChartFiles.PAGE_MARK + "\n<html>").getBytes(StandardCharsets.UTF_8));
            throw new IOException("No space left on device");
        }));
        assertEquals("No space left on device", full.getMessage());
        assertEquals(List.of(), filesIn(dir), "neither the page nor a partial file is left");

        String whole = ChartFiles.PAGE_MARK + "\n<html>the older chart</html>\n";
        Files.writeString(page, whole);
        assertThrows(IOException.class, () -> ChartFiles.writeWhole(page, out -> {
            out.write(ChartFiles.PAGE_MARK.getBytes(StandardCharsets.UTF_8));
            throw new IOException("No space left on device");
        }));
        assertEquals(whole, Files.readString(page), "the older page is kept whole");
        assertEquals(List.of(page), filesIn(dir));
    }

    @Test
    void aPageAnOlderRunLeftCutIsRedrawn(@TempDir Path dir) throws IOException {
        for (String cut : List.of("", ChartFiles.PAGE_MARK.substring(0, 20))) {
            Path charts = Files.createDirectories(dir.resolve("charts-" + cut.length()));
            Path page = charts.resolve("scoreboard.html");
            Files.writeString(page, cut);
            assertNull(ChartFiles.whyNotReplace(page, charts.resolve("scoreboard.png")), "a page cut at " + cut.length() + " bytes");
            assertEquals(page, Report.chart(charts, "scoreboard", figure(), List.of()));
            String drawn = Files.readString(page);
            assertTrue(drawn.startsWith(ChartFiles.PAGE_MARK) && drawn.strip().endsWith("</html>"), "redrawn whole");
            assertEquals(List.of(page), filesIn(charts));
        }
    }

    @Test
    void aPartialFileAnEarlierRunLeftIsReplacedAndOneOfAnyoneElsesIsNot(@TempDir Path dir) throws IOException {
        Path page = dir.resolve("scoreboard.html"), partial = dir.resolve(".scoreboard.html.partial");
        Files.writeString(partial, ChartFiles.PAGE_MARK + "\n<html>cut");
        ChartFiles.writeWhole(page, ChartFiles.PAGE_MARK + "\n<html></html>\n");
        assertEquals(List.of(page), filesIn(dir));

        Files.writeString(partial, "someone's notes");
        IOException refused = assertThrows(IOException.class, () -> ChartFiles.writeWhole(page, "anything"));
        assertTrue(refused.getMessage().contains("left it alone"), refused.getMessage());
        assertEquals("someone's notes", Files.readString(partial));
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
