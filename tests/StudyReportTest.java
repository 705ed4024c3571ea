import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.OptionalLong;
import lib.Machine;
import lib.Measurement;
import lib.ResultsCsv;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one-page report: built from one machine's folder, one study at a time, saying what it left out. */
class StudyReportTest {

    static final long GIB = 1L << 30, MIB = 1L << 20;

    @TempDir
    Path folder;

    private void row(String table, String chapter, int workers, String cache, long fileBytes, int runs, double seconds) throws IOException {
        double[] timed = new double[runs];
        java.util.Arrays.fill(timed, seconds);
        ResultsCsv.append(folder.resolve(table + ".csv"), List.of(ResultsCsv.row(new Measurement.Result(chapter, workers, cache,
                fileBytes, OptionalLong.empty(), fileBytes - 8, new double[] {seconds * 3}, timed))));
    }

    private String page() throws IOException {
        return Files.readString(StudyReport.write(folder));
    }

    @Test
    void showsTheStudysFiguresAndTheMachine() throws IOException {
        Files.writeString(folder.resolve("machine.json"), Machine.json(Machine.current().description(folder, Instant.now(), false)));
        row("scoreboard", "V01ReadAll", 2, "warm", 4 * GIB, 5, 2.0);
        row("scoreboard", "V13PreadVector", 2, "warm", 4 * GIB, 5, 0.25);
        row("scaling", "V13PreadVector", 1, "warm", 4 * GIB, 5, 0.5);
        row("scaling", "V13PreadVector", 12, "warm", 4 * GIB, 5, 0.3);
        row("scaling", "V13PreadVector", 2, "warm", 4 * GIB, 5, 0.25);
        String page = page();
        assertTrue(page.startsWith(StudyReport.MARK));
        assertTrue(page.contains(Machine.current().name()), "the page names its machine");
        assertTrue(page.contains("17,180"), "V13's MB/s, 4 GiB in 0.25 s");
        assertTrue(page.contains("8.0"), "V13 is 8 times chapter 1");
        assertFalse(page.contains("class=\"trial\""), "a full study is no trial");
        // the sweep's columns in numeric order: 1, 2, 12
        assertTrue(page.indexOf("<th>2</th>") < page.indexOf("<th>12</th>") && page.indexOf("<th>1</th>") < page.indexOf("<th>2</th>"), page);
        assertTrue(page.contains("No chart"), "without PNGs the page says how to get them");
    }

    @Test
    void leavesOutRowsOfAnotherFileSizeAndBadRowsAndSaysWhich() throws IOException {
        row("scoreboard", "V04Mmap", 2, "warm", 4 * GIB, 5, 0.5);
        row("scoreboard", "V04Mmap", 2, "warm", 64 * MIB, 1, 0.001); // a later trial on a small file
        Files.writeString(folder.resolve("scoreboard.csv"), "2026-01-01T00:00:00Z,V05MmapMadvise,2\n", java.nio.file.StandardOpenOption.APPEND);
        String page = page();
        assertTrue(page.contains("scoreboard.csv line 4: 3 values"), "the short row is named by file and line");
        assertTrue(page.contains("1 rows of another file size"), page);
        assertTrue(page.contains("64.0 MiB"), "the newest row's file size is the study's");
        assertTrue(page.contains("class=\"trial\""), "a 64 MiB study with 1 run is a trial");
        assertFalse(page.contains("8,590"), "the 4 GiB row is not mixed in");
    }

    @Test
    void neverReplacesAnIndexItDidNotWrite() throws IOException {
        Path index = Files.writeString(folder.resolve("index.html"), "<html>someone's own page</html>");
        assertThrows(IllegalArgumentException.class, () -> StudyReport.write(folder));
        assertEquals("<html>someone's own page</html>", Files.readString(index));
    }

    @Test
    void linksTheChartsAndFlameGraphsByRelativePath() throws IOException {
        row("scoreboard", "V04Mmap", 2, "warm", 4 * GIB, 5, 0.5);
        Files.createDirectories(folder.resolve("charts"));
        Files.write(folder.resolve("charts/scoreboard.png"), new byte[] {1});
        Files.write(folder.resolve("charts/something-new.png"), new byte[] {1});
        Files.createDirectories(folder.resolve("flamegraphs"));
        Files.writeString(folder.resolve("flamegraphs/V04Mmap.html"), "graph");
        String page = page();
        assertTrue(page.contains("<img src=\"charts/scoreboard.png\""), page);
        assertTrue(page.contains("<img src=\"charts/something-new.png\""), "a chart no section claims is still shown");
        assertTrue(page.contains("href=\"flamegraphs/V04Mmap.html\""), page);
        assertFalse(page.contains("file:") || page.contains("http"), "nothing outside the folder is needed");
    }
}
