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
import lab.results.*;
import lib.harness.Machine;
import lib.harness.Measurement;
import lib.harness.ResultsCsv;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one-page report: built from one machine's folder, one study at a time, saying what it left out. */
class StudyReportTest {

    static final long GIB = 1L << 30, MIB = 1L << 20;

    @TempDir
    Path root;
    /** This machine's folder: the report shows the rows measured on the machine its folder is named after. */
    Path folder;

    @org.junit.jupiter.api.BeforeEach
    void machineFolder() throws IOException {
        folder = Files.createDirectories(root.resolve(Machine.current().name()));
    }

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
        assertTrue(page.contains("scoreboard.csv line 4: left out, 3 fields"), "the short row is named by file and line: " + page);
        assertTrue(page.contains("left out 1 row of " + folder.resolve("scoreboard.csv") + ": a 64 MiB file"), page);
        // the study is the 4 GiB one, as the notebooks draw it: a trial appended later does not replace it
        assertTrue(page.contains("8,590"), "the 4 GiB row is shown");
        assertFalse(page.contains("class=\"trial\""), "the 4 GiB study of 5 runs is no trial");
    }

    @Test
    void aReportThatCannotBeReadRefusesNoFigureSilentlyAndNamesEachBadRow() throws IOException {
        row("scoreboard", "V04Mmap", 2, "warm", 4 * GIB, 5, 0.5);
        String good = Files.readAllLines(folder.resolve("scoreboard.csv")).get(1);
        Files.writeString(folder.resolve("scoreboard.csv"), good.replace(",0.500000,", ",NaN,") + "\n"
                + good.replace(",8590,", ",Infinity,") + "\n" + good.replace(",0.500000,", ",-1,") + "\n", java.nio.file.StandardOpenOption.APPEND);
        row("scaling", "V13PreadVector", 2, "warm", 4 * GIB, 5, 0.25);
        String scaling = Files.readAllLines(folder.resolve("scaling.csv")).get(1);
        Files.writeString(folder.resolve("scaling.csv"), scaling.replace(",V13PreadVector,2,", ",V13PreadVector,2.0,") + "\n",
                java.nio.file.StandardOpenOption.APPEND);
        String page = page();
        for (int line = 3; line <= 5; line++) {
            assertTrue(page.contains("scoreboard.csv line " + line + ": left out"), line + ": " + page);
        }
        assertTrue(page.contains("scaling.csv line 3: left out, workers is &quot;2.0&quot;, not a number"), page);
        assertFalse(page.matches("(?s).*<td>(<strong>)?(NaN|Infinity).*"), "no NaN or infinity in a table");
        assertFalse(page.contains("-1.000"), "no negative time in a table");
        assertFalse(Files.exists(folder.resolve(".index.html.partial")));
    }

    /** The page's contents link only the sections it holds: no page-cache round, no link to one. */
    @Test
    void theContentsLinkOnlyTheSectionsThePageHolds() throws IOException {
        row("scoreboard", "V04Mmap", 2, "warm", 4 * GIB, 5, 0.5);
        String page = page();
        assertTrue(page.contains("<a href=\"#scoreboard\">"), page);
        assertFalse(page.contains("<a href=\"#pagecache\">") || page.contains("<h2 id=\"pagecache\">"), page);
        row("pagecache", "V04Mmap", 2, "warm", 4 * GIB, 5, 0.5);
        assertTrue(page().contains("<a href=\"#pagecache\">"), "a study with the page-cache round links it");
        java.util.regex.Matcher heading = java.util.regex.Pattern.compile("<h2 id=\"([a-z]+)\">").matcher(page());
        while (heading.find()) {
            assertTrue(page().contains("<a href=\"#" + heading.group(1) + "\">"), "the contents link every section: " + heading.group(1));
        }
    }

    /** A page that cannot be written (here a file-size limit, as a full disk) is one line naming index.html, and no page. */
    @Test
    void aPageThatCannotBeWrittenNamesItsFile() throws Exception {
        row("scoreboard", "V04Mmap", 2, "warm", 4 * GIB, 5, 0.5);
        var result = Subprocess.run(Subprocess.afterShell("ulimit -f 1", Subprocess.javaCommand(List.of(), "StudyReport", folder.toString())),
                root.resolve("logs"));
        assertEquals(2, result.exitCode(), result::toString);
        assertTrue(result.stderr().contains(folder.resolve("index.html").toString()), result::toString);
        assertFalse(Files.exists(folder.resolve("index.html")));
    }

    /** A page the report wrote from its earlier place in the project (report/, before the lab) is its own, and replaced. */
    @Test
    void replacesAPageItWroteFromItsEarlierPlace() throws IOException {
        row("scoreboard", "V04Mmap", 2, "warm", 4 * GIB, 5, 0.5);
        Files.writeString(folder.resolve("index.html"), "<!DOCTYPE html><!-- the study's report, written by report/StudyReport.java -->\n<html></html>");
        StudyReport.write(folder);
        assertTrue(Files.readString(folder.resolve("index.html")).startsWith(StudyReport.MARK));
    }

    @Test
    void neverReplacesAnIndexItDidNotWrite() throws IOException {
        Path index = Files.writeString(folder.resolve("index.html"), "<html>someone's own page</html>");
        assertThrows(IllegalArgumentException.class, () -> StudyReport.write(folder));
        assertEquals("<html>someone's own page</html>", Files.readString(index));
    }

    /** An index.html that links to a page of this report elsewhere is refused, in one line: the page outside the folder stays as it was. */
    @Test
    void neverWritesThroughALinkedIndex() throws Exception {
        row("scoreboard", "V04Mmap", 2, "warm", 4 * GIB, 5, 0.5);
        Path outside = Files.writeString(root.resolve("outside.html"), StudyReport.MARK + "\nsomeone's copy\n");
        Path index = Files.createSymbolicLink(folder.resolve("index.html"), outside);
        var out = new java.io.ByteArrayOutputStream();
        var err = new java.io.ByteArrayOutputStream();
        int status = StudyReport.execute(new String[] {folder.toString()}, new java.io.PrintStream(out, true), new java.io.PrintStream(err, true));
        assertEquals(2, status, out.toString());
        List<String> lines = err.toString().lines().toList();
        assertEquals(1, lines.size(), lines.toString());
        assertTrue(lines.getFirst().contains(index.toString()) && lines.getFirst().contains("symbolic link"), lines.getFirst());
        assertEquals(StudyReport.MARK + "\nsomeone's copy\n", Files.readString(outside));
        assertTrue(Files.isSymbolicLink(index), "the link is left as it was");
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

    /** One versus-go.csv call: its timed runs as given, so that its mean and its median part. */
    private void call(String chapter, double... runs) throws IOException {
        ResultsCsv.append(folder.resolve("versus-go.csv"), List.of(ResultsCsv.row(new Measurement.Result(chapter, 1, "warm",
                4 * GIB, OptionalLong.empty(), 4 * GIB - 8, new double[0], runs))));
    }

    /**
     * README's table and the report's "Go on this machine" read one versus-go.csv and give the same
     * figure, range and mark for every pair. The calls below are made so that each side's mean, the
     * median of a side's rows and the median of the rounds' ratios all differ.
     */
    @Test
    void readmesTableAndTheReportGiveTheSameJavaGoFigureForEveryPair() throws IOException {
        call("Go v1", 12.4, 12.5, 3.5);   call("V01ReadAll", 3.0, 3.8, 3.9);      // round 1
        call("Go v6", 0.20, 0.21, 0.19);  call("V06MmapParallel", 0.18, 0.5, 0.19);
        call("V01ReadAll", 3.9, 3.9, 4.6); call("Go v1", 3.6, 3.7, 3.6);         // round 2, the sides swapped
        call("V06MmapParallel", 0.19, 0.19, 0.19); call("Go v6", 0.18, 0.18, 0.3);
        call("Go v1", 3.5, 3.6, 12.0);    call("V01ReadAll", 3.8, 3.85, 3.9);     // round 3
        call("Go v6", 0.2, 0.2, 0.2);     // chapter 6 failed in round 3: no partner

        ReadmeResults results = new ReadmeResults(root, root);
        String name = Machine.current().name();
        ReadmeTables.Block block = ReadmeTables.blocks("x.md", "<!-- generated:versus-go machine=" + name + " -->\n<!-- /generated -->\n").getFirst();
        java.util.Map<String, List<String>> readme = new java.util.TreeMap<>();
        for (String line : ReadmeBlocks.versusGo(results, block).lines().filter(line -> line.matches("\\| \\d+ .*")).toList()) {
            String[] cells = line.substring(2, line.length() - 2).split(" \\| ");
            readme.put(cells[0].split(" ")[0], List.of(cells[3], cells[4], cells[5], cells[6]));
        }
        java.util.Map<String, List<String>> report = new java.util.TreeMap<>();
        java.util.regex.Matcher rows = java.util.regex.Pattern.compile("<tr><td>(\\d+) <code>[^<]*</code></td><td>[^<]*</td><td>[^<]*</td>"
                + "<td>([^<]*)</td><td>([^<]*)</td><td>([^<]*)</td><td>([^<]*)</td></tr>").matcher(page());
        while (rows.find()) {
            report.put(rows.group(1), List.of(rows.group(2), rows.group(3), rows.group(4), rows.group(5)));
        }
        assertEquals(java.util.Set.of("1", "6"), readme.keySet(), readme.toString());
        assertEquals(readme, report, "the same ratio, range, mark and rounds in README and in the report");
        // pair 1: Go's median runs 12.4, 3.6, 3.6 against Java's 3.8, 3.9, 3.85: Java won only the first round
        assertEquals(List.of("0.94", "0.923–3.263", "tie", "3"), readme.get("1"));
        assertEquals("2 (1 unpaired row)", readme.get("6").get(3));
    }

    /** A quick study can leave chapter 1 one slow run: no "× ch. 1" then, and a line that says why. */
    @Test
    void chapterOneWithOneRunIsNoBaseForEveryRatio() throws IOException {
        row("scoreboard", "V01ReadAll", 1, "warm", 4 * GIB, 1, 32.0);
        row("scoreboard", "V03ChunkedLong", 1, "warm", 4 * GIB, 5, 1.4);
        String page = page();
        assertFalse(page.contains("<th>× ch. 1</th>"), page);
        assertTrue(page.contains("× ch. 1 is left out: chapter 1 has 1 timed run in this study, too few to be the base of every ratio"), page);
        assertFalse(page.contains("22.9"), "no ratio over the one run");
    }

    @Test
    void chapterOneWithFewerRunsThanEveryOtherIsNoBaseEitherButThreeRunsEachAre() throws IOException {
        row("scoreboard", "V01ReadAll", 1, "warm", 4 * GIB, 2, 8.0);
        row("scoreboard", "V03ChunkedLong", 1, "warm", 4 * GIB, 5, 1.0);
        assertTrue(page().contains("× ch. 1 is left out: chapter 1 has 2 timed runs where every other chapter has at least 5"));

        Files.delete(folder.resolve("scoreboard.csv"));
        row("scoreboard", "V01ReadAll", 1, "warm", 4 * GIB, 3, 8.0);
        row("scoreboard", "V03ChunkedLong", 1, "warm", 4 * GIB, 3, 1.0);
        String page = page();
        assertTrue(page.contains("<th>× ch. 1</th>") && page.contains("<td>8.0</td>"), "three runs each: a fair base. " + page);
    }

    /**
     * A --quick study's folder (the reference machine's scoreboard at 3 runs and no warm-up, its
     * walls, and no other round, on a CPU without AVX-512): the report judges every lesson of the
     * book that carries claims, opens with the count, and says why each it cannot judge cannot be
     * told: a round not run, a verdict resting on a quick study's few runs, chapter 12 not run here.
     */
    @Test
    void aQuickStudysReportSaysWhichOfTheBooksLessonsHoldHere() throws IOException {
        Path reference = ReadmeTables.RESULTS.resolve("amd-epyc-f26m2-2c-avx512");
        for (StudyResults.Row row : StudyResults.read(reference.resolve("scoreboard.csv")).rows()) {
            if (!row.chapter().equals("V12Vector512")) { // not run on this CPU
                ResultsCsv.append(folder.resolve("scoreboard.csv"), List.of(ResultsCsv.row(new Measurement.Result(row.chapter(), row.workers(),
                        row.cache(), row.fileBytes(), OptionalLong.empty(), row.fileBytes() - 8, new double[0],
                        java.util.Arrays.copyOf(row.runSeconds(), Math.min(3, row.runSeconds().length))))));
            }
        }
        Files.copy(reference.resolve("wall.csv"), folder.resolve("wall.csv"));
        java.util.Map<String, Object> description = new java.util.LinkedHashMap<>(Machine.current().description(folder, Instant.now(), true));
        description.put("avx512", false);
        description.put(MachineDescription.NOT_ON_THIS_CPU, "V12Vector512: this CPU has no 512-bit vectors");
        Files.writeString(folder.resolve("machine.json"), Machine.json(description));

        String page = page();
        String section = page.substring(page.indexOf("<h2 id=\"book\">The book on this machine</h2>"), page.indexOf("<h2", page.indexOf("<h2 id=\"book\">") + 1));
        assertTrue(page.contains("<a href=\"#book\">"), "the contents link the section");
        BookClaims.Book book = BookClaims.read(ReadmeResults.bookPages(), java.util.Set.copyOf(
                new ReadmeResults(ReadmeTables.RESULTS, ReadmeTables.RESULTS).machines()));
        List<String> lessons = book.claims().stream().map(claim -> claim.document() + " " + claim.lesson()).distinct().toList();
        java.util.regex.Matcher tally = java.util.regex.Pattern.compile("<p class=\"tally\"><strong>(\\d+) of (\\d+) lessons hold here: "
                + "(\\d+) do not hold, (\\d+) cannot tell\\.</strong></p>").matcher(section);
        assertTrue(tally.find(), section);
        assertEquals(lessons.size(), Integer.parseInt(tally.group(2)), "every lesson that carries claims");
        assertEquals(lessons.size(), Integer.parseInt(tally.group(1)) + Integer.parseInt(tally.group(3)) + Integer.parseInt(tally.group(4)));
        for (String lesson : lessons) {
            assertTrue(java.util.regex.Pattern.compile("<li class=\"(holds|does-not-hold|cannot-tell)\">(holds|does not hold|cannot tell): "
                    + java.util.regex.Pattern.quote(ReportHtml.escape(lesson))).matcher(section).find(), lesson + "\n" + section);
        }
        assertTrue(section.contains("no pagecache.csv for " + folder.getFileName() + ": the page-cache round"), "a round the quick study skips");
        // chapter 4's first run, slower than chapter 3's fastest: with the extremes kept, a quick study cannot tell 4 > 3
        assertTrue(section.contains("<li class=\"cannot-tell\">cannot tell: README.md &quot;Chapter 4: map the file"), section);
        assertTrue(section.contains("but V04Mmap&#39;s row in scoreboard.csv rests on 3 timed runs and no warm-up"), "a verdict a quick study's few runs cannot carry");
        assertTrue(section.contains("no row &#39;V12Vector512&#39; in scoreboard.csv of " + folder.getFileName()
                + " (not run on this CPU: V12Vector512: this CPU has no 512-bit vectors)"), "chapter 12 on a CPU without AVX-512");
        assertTrue(section.contains("<li>holds: scoreboard:V03ChunkedLong = ") && section.contains(" &gt; 6.00 × scoreboard:V02BufferedByte = "),
                "a claim the quick study can tell: " + section);
    }

    @Test
    void linksInteractivePagesOnlyInAFolderThatIsNotCommitted() throws IOException {
        row("scoreboard", "V04Mmap", 2, "warm", 4 * GIB, 5, 0.5);
        Files.createDirectories(folder.resolve("charts"));
        Files.write(folder.resolve("charts/scoreboard.png"), new byte[] {1});
        Files.writeString(folder.resolve("charts/scoreboard.html"), "a page");
        String own = page();
        assertTrue(own.contains("<a href=\"charts/scoreboard.html\">interactive</a>"), "a study's own folder links the page it drew: " + own);
        assertFalse(own.contains("--report-only --machine"), own);

        // The same folder, once named in committed-machines.txt: a clone has its PNGs, never its ignored pages.
        Files.writeString(root.resolve("committed-machines.txt"), "# committed\n" + folder.getFileName() + "\n");
        String committed = page();
        assertTrue(committed.contains("<img src=\"charts/scoreboard.png\""), committed);
        assertFalse(committed.contains("charts/scoreboard.html"), "a committed report links no page a clone lacks: " + committed);
        assertTrue(committed.contains("--report-only --machine " + folder.getFileName()), "it says how to draw the pages: " + committed);
    }
}
