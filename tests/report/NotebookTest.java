import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import lab.results.*;
import notebooks.*;
import tech.tablesaw.api.ColumnType;
import tech.tablesaw.api.Row;
import tech.tablesaw.api.Table;

/**
 * The notebooks' shared code (notebooks/Notebook.java) on a small fixture of two machines
 * (tests/fixtures/results, described in its README): which rows a chart may draw together, what is
 * left out and said, and which files a chart may replace. One notebook runs end to end, the way a
 * fresh clone runs it: no chart pages, committed PNGs present.
 */
class NotebookTest {

    static final Path FIXTURE = Path.of("tests", "fixtures", "results");
    static final String ALPHA = "alpha-epyc-2c-avx512", BETA = "beta-xeon-8c-avx2";

    @BeforeAll
    static void quitThrowsInsteadOfExiting() {
        System.setProperty("report.quit", "throw");
    }

    static MachineResults machine(String name) {
        return Notebook.choose(FIXTURE, name);
    }

    static Set<String> values(Table rows, String column) {
        return rows.stream().map(row -> String.valueOf(row.getObject(column))).collect(Collectors.toSet());
    }

    @Test
    void bothMachineFoldersAreFoundAndTheReferenceFolderIsNotOne() {
        List<String> names = Notebook.machines(FIXTURE).stream().map(m -> m.name).toList();
        assertEquals(List.of(ALPHA, BETA), names);
    }

    @Test
    void aChartDrawsOneMachineOneFileSizeAndOneCacheState() {
        Notebook.Selected alpha = Notebook.select(machine(ALPHA), "scoreboard", "warm");
        Table rows = alpha.rows();
        assertEquals(Set.of("AMD EPYC"), values(rows, "cpu_model"));
        assertEquals(Set.of("2"), values(rows, "logical_cores"));
        assertEquals(Set.of("512"), values(rows, "vector_bits"));
        assertEquals(Set.of(Long.toString(4L << 30)), values(rows, "file_bytes"));
        assertEquals(Set.of("warm"), values(rows, "cache"));
        // chapter 13's newest row is a 64 MiB trial: the 4 GiB figure is the one drawn
        Row v13 = rows.where(rows.stringColumn("chapter").isEqualTo("V13PreadVector")).row(0);
        assertEquals(21475.0, v13.getDouble("mbps"));
        // chapter 12 was measured on another machine only: missing here, not borrowed
        assertEquals(Set.of("V00Cmp", "V01ReadAll", "V04Mmap", "V13PreadVector"), values(rows, "chapter"));
        assertEquals(4, rows.rowCount(), "one row per chapter");

        String notes = String.join("\n", alpha.notes());
        assertTrue(notes.contains("a 64 MiB file, where " + ALPHA + "'s study is the 4 GiB one (V13PreadVector)"), notes);
        assertTrue(notes.contains("measured on another machine (Intel Xeon, 8 cores, 256-bit vectors)"), notes);
    }

    @Test
    void badRowsAreLeftOutEachWithItsFileAndLine() {
        Notebook.Selected alpha = Notebook.select(machine(ALPHA), "scoreboard", "warm");
        Path csv = FIXTURE.resolve(ALPHA).resolve("scoreboard.csv");
        List<String> problems = alpha.notes().stream().filter(note -> note.contains(" line ")).toList();
        assertEquals(3, problems.size(), String.join("\n", alpha.notes()));
        assertTrue(problems.get(0).startsWith(csv + " line 7: left out, mbps is \"fast\""), problems.get(0));
        assertTrue(problems.get(1).startsWith(csv + " line 8: left out, 5 fields where the header has 22"), problems.get(1));
        assertTrue(problems.get(2).startsWith(csv + " line 9: left out, run_s"), problems.get(2));
        // the older, good rows of those chapters are drawn instead, with their own figures
        Table rows = alpha.rows();
        assertEquals(17180.0, rows.where(rows.stringColumn("chapter").isEqualTo("V04Mmap")).row(0).getDouble("mbps"));
    }

    @Test
    void columnsHaveTheTypesAReaderWouldGuess() {
        Table rows = Notebook.select(machine(ALPHA), "scoreboard", "warm").rows();
        assertEquals(ColumnType.DOUBLE, rows.column("mbps").type());
        assertEquals(ColumnType.DOUBLE, rows.column("mean_s").type());
        assertEquals(ColumnType.INTEGER, rows.column("workers").type());
        assertEquals(ColumnType.LONG, rows.column("file_bytes").type());
        assertEquals(ColumnType.STRING, rows.column("run_s").type());
        assertTrue(rows.doubleColumn("mbps").mean() > 0);
    }

    @Test
    void rowsRecordedForAnotherMachineOrAnotherCacheAreLeftOutAndPageCachesStayApart() {
        Notebook.Selected beta = Notebook.select(machine(BETA), "scoreboard", "warm");
        Table rows = beta.rows();
        assertEquals(Set.of("Intel Xeon"), values(rows, "cpu_model"));
        assertEquals(Set.of("warm"), values(rows, "cache"));
        // chapter 4 at both page-cache settings: two rows, neither replacing the other
        Table v04 = rows.where(rows.stringColumn("chapter").isEqualTo("V04Mmap"));
        assertEquals(Set.of("small", "huge"), values(v04, "page_cache"));
        // a row from before the column existed ran with the system's own setting
        assertEquals(Set.of(StudyResults.PAGE_CACHE_AS_IS),
                values(rows.where(rows.stringColumn("chapter").isEqualTo("V01ReadAll")), "page_cache"));
        // the V13 row recorded for the other machine is not drawn as beta's
        Table v13 = rows.where(rows.stringColumn("chapter").isEqualTo("V13PreadVector"));
        assertEquals(1, v13.rowCount());
        assertEquals(17180.0, v13.row(0).getDouble("mbps"));
        String notes = String.join("\n", beta.notes());
        assertTrue(notes.contains("measured on another machine (" + ALPHA + ")"), notes);
        assertTrue(notes.contains("with a cold page cache, where this table holds warm"), notes);
        assertEquals(List.of(StudyResults.PAGE_CACHE_AS_IS, "huge", "small"), Notebook.pageCaches(rows));
    }

    @Test
    void everyChartNamesItsMachineFileSizeAndRunsAndATrialSaysSo() {
        MachineResults alpha = machine(ALPHA), beta = machine(BETA);
        String full = Notebook.caption(alpha, Notebook.select(alpha, "scoreboard", "warm").rows());
        assertEquals(ALPHA + " · 4 GiB file · 5 runs, 1 warm-up", full);
        String trial = Notebook.caption(beta, Notebook.select(beta, "scoreboard", "warm").rows());
        assertTrue(trial.startsWith(BETA + " · 4 GiB file · 3 runs, 0 warm-up · TRIAL ("), trial);
        assertTrue(trial.contains("fewer than 5 runs") && trial.contains("no warm-up"), trial);
    }

    @Test
    void bothMemoryWallsAreFoundAndLabelledEachFromItsOwnMachine() {
        List<MemoryWall> alpha = Notebook.walls(machine(ALPHA), false);
        assertEquals(1, alpha.size());
        assertEquals(34360.0, alpha.getFirst().mbps(), "the 4 GiB wall, not the 64 MiB one");
        List<MemoryWall> beta = Notebook.walls(machine(BETA), false);
        assertEquals(List.of(17180.0, 21475.0), beta.stream().map(MemoryWall::mbps).toList());
        assertTrue(beta.get(1).label().startsWith("memory-read wall, 256-bit, huge pages"), beta.get(1).label());
    }

    @Test
    void theDefaultMachineIsTheMostRecentStudyWhenThisMachineHasNone() {
        // neither fixture folder is named like a real machine, so the newest study is drawn
        assertEquals(BETA, Notebook.choose(FIXTURE, null).name);
        assertEquals(ALPHA, Notebook.choose(FIXTURE, ALPHA).name);
        IllegalStateException unknown = assertThrows(IllegalStateException.class, () -> Notebook.choose(FIXTURE, "nowhere"));
        assertTrue(unknown.getMessage().contains(ALPHA + ", " + BETA), unknown.getMessage());
    }

    @Test
    void resultsWrittenStraightIntoAFolderAreOneMachineNamedLikeItsFolderWouldBe(@TempDir Path dir) throws IOException {
        Files.copy(FIXTURE.resolve(BETA).resolve("scoreboard.csv"), dir.resolve("scoreboard.csv"));
        List<MachineResults> machines = Notebook.machines(dir);
        assertEquals(1, machines.size());
        assertEquals("intel-xeon-8c-avx2", machines.getFirst().name);
    }

    @Test
    void scalingColumnsAndShortNamesReadWell() {
        assertEquals("V09 mmap parallel vector", Notebook.shortName("V09MmapParallelVector"));
        assertEquals("V11 pread parallel vector 256", Notebook.shortName("V11PreadParallelVector256"));
        assertEquals("V16 huge page read", Notebook.shortName("V16HugePageRead"));
        assertEquals("Go v4", Notebook.shortName("Go v4"));
        assertEquals("WallMemoryRead", Notebook.shortName("WallMemoryRead"));
        assertEquals("V06", StudyResults.chapterNumber("Go v6"));
        assertEquals("4 GiB", PageText.binarySize(4L << 30));
        assertEquals("64 MiB", PageText.binarySize(64L << 20));
    }

    @Test
    void everySeriesOfAChartHasALookOfItsOwn() {
        java.util.Set<String> looks = new java.util.HashSet<>();
        for (int i = 0; i < ChartColours.COLOURS.size() * 3; i++) {
            looks.add(ChartColours.colour(i) + " " + ChartColours.line(i).asJavascript() + " " + ChartColours.marker(i).asJavascript());
        }
        assertEquals(ChartColours.COLOURS.size() * 3, looks.size(), "thirty series, thirty looks: " + looks);
        assertEquals(ChartColours.COLOURS.size(), java.util.Set.copyOf(ChartColours.COLOURS).size(), "no colour twice");
    }

    @Test
    void textForAChartsScriptStaysOneString() {
        String literal = ChartPage.javascriptString("a\"b\\c</script><b>x</b>&\n\u2028");
        assertEquals("\"a\\\"b\\\\c\\u003c/script\\u003e\\u003cb\\u003ex\\u003c/b\\u003e\\u0026\\u000a\\u2028\"", literal);
    }

    // --- charts and the files they replace

    /** A chart-like image: white, with gridlines every 80 px and a few bars. */
    static BufferedImage drawnChart() {
        BufferedImage image = new BufferedImage(1000, 600, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, 1000, 600);
        g.setColor(new Color(0xee, 0xee, 0xee));
        for (int x = 100; x < 1000; x += 80) {
            g.drawLine(x, 80, x, 540);
        }
        g.setColor(new Color(0x1f, 0x77, 0xb4));
        for (int y = 100; y < 520; y += 40) {
            g.fillRect(100, y, 200 + y, 25);
        }
        g.dispose();
        return image;
    }

    @Test
    void aWholeChartPassesAndAHalfPaintedOneFails(@TempDir Path dir) throws IOException {
        Path whole = dir.resolve("whole.png"), half = dir.resolve("half.png");
        BufferedImage image = drawnChart();
        ImageIO.write(image, "png", whole.toFile());
        assertNull(ChartImage.problem(whole));
        // two rows of 256 px tiles Chromium had not painted yet
        Graphics2D g = image.createGraphics();
        g.setColor(Color.WHITE);
        g.fillRect(256, 0, 512, 512);
        g.dispose();
        ImageIO.write(image, "png", half.toFile());
        String problem = ChartImage.problem(half);
        assertNotNull(problem);
        assertTrue(problem.startsWith("a blank block of"), problem);
        Files.write(dir.resolve("cut.png"), java.util.Arrays.copyOf(Files.readAllBytes(whole), 100));
        assertNotNull(ChartImage.problem(dir.resolve("cut.png")));
    }

    @Test
    void aMarkedPngStillDecodesAndIsKnownAsAChart(@TempDir Path dir) throws IOException {
        Path png = dir.resolve("chart.png");
        ImageIO.write(drawnChart(), "png", png.toFile());
        assertTrue(ChartImage.isPng(png));
        assertFalse(ChartImage.isMarked(png));
        ChartImage.mark(png);
        assertTrue(ChartImage.isMarked(png));
        BufferedImage back = ImageIO.read(png.toFile());
        assertEquals(drawnChart().getRGB(150, 110), back.getRGB(150, 110));
    }

    @Test
    void aChartReplacesOnlyFilesANotebookMade(@TempDir Path dir) throws IOException {
        Path page = dir.resolve("scoreboard.html"), png = dir.resolve("scoreboard.png");
        assertNull(ChartFiles.whyNotReplace(page, png), "nothing there yet");
        ImageIO.write(drawnChart(), "png", png.toFile());
        String foreign = ChartFiles.whyNotReplace(page, png);
        assertNotNull(foreign, "a PNG of the same name that no notebook drew, untracked");
        assertTrue(foreign.contains("left it alone"), foreign);
        ChartImage.mark(png);
        assertNull(ChartFiles.whyNotReplace(page, png), "a PNG a notebook drew: no page needed (a fresh clone has none)");
        Files.writeString(page, "<html>someone's page</html>");
        assertNotNull(ChartFiles.whyNotReplace(page, png));
        Files.writeString(page, ChartFiles.PAGE_MARK + "\n<html></html>");
        assertNull(ChartFiles.whyNotReplace(page, png));
    }

    /**
     * The fresh-clone path, end to end with JBang: the fixture's machines, a chart PNG committed
     * without its page, and no Chromium. The notebook draws its page, says the PNG was skipped,
     * leaves the committed PNG as it was, and exits 0; what it left out it says in one line each.
     */
    @Test
    void theScoreboardNotebookDrawsInAFreshCloneWithoutChromium(@TempDir Path dir) throws Exception {
        Path root = dir.resolve("results");
        copyTree(FIXTURE, root);
        Path charts = Files.createDirectories(root.resolve(ALPHA).resolve("charts"));
        Path png = charts.resolve("scoreboard.png");
        ImageIO.write(drawnChart(), "png", png.toFile());
        ChartImage.mark(png);
        byte[] committed = Files.readAllBytes(png);

        Subprocess.Result result = Subprocess.run(List.of("./jbang", "-Dresults=" + root, "-Dmachine=" + ALPHA,
                "-Dchromium=none", "notebooks/scoreboard.jsh"), dir.resolve("logs"));
        assertEquals(0, result.exitCode(), result.toString());
        assertTrue(Files.readString(charts.resolve("scoreboard.html")).startsWith(ChartFiles.PAGE_MARK), result.toString());
        assertTrue(result.stdout().contains("PNG skipped: no Chromium here"), result.toString());
        assertTrue(result.stdout().contains("line 7: left out, mbps is \"fast\""), result.stdout());
        assertTrue(result.stdout().contains("tables: scoreboard"), result.stdout());
        assertFalse(result.stdout().contains("Error:"), result.stdout()); // JShell's word for a snippet that failed
        assertEquals(List.of(), result.stderr().lines().filter(line -> !line.startsWith("[jbang]")).toList(),
                "no warnings: " + result.stderr());
        assertTrue(java.util.Arrays.equals(committed, Files.readAllBytes(png)));
    }

    /**
     * The answer notebook reads answer.csv through the one reader of results: it draws the newest
     * row of each chapter and Go variant, says each row it left out in one line with its file and
     * line, and refuses a file of another kind in one line, with status 2.
     */
    @Test
    void theAnswerNotebookDrawsTheNewestRowsAndSaysWhatItLeftOut(@TempDir Path dir) throws Exception {
        Path root = dir.resolve("results");
        copyTree(FIXTURE, root);
        Path csv = root.resolve(ALPHA).resolve("answer.csv");
        String header = String.join(",", AnswerResults.ANSWER_COLUMNS) + "\n";
        Files.writeString(csv, header
                + "2026-01-01,V04Mmap,2,9.0000,9.0000,9.0000,9.0000,1,1,1,1,3,1,1,0,9.0000;9.0000\n"                 // replaced by line 4
                + "2026-01-01,Go v4,2,0.5000,0.5000,0.5000,0.5000,,,,,,,,,0.5000;0.5000\n"
                + "2026-01-02,V04Mmap,2,1.2500,1.2500,1.2500,1.2500,0.1,0.1,0.1,0.1,0.75,0.1,0.1,0,1.2500;1.2500\n"
                + "2026-01-02,V13PreadVector,2,Infinity,1,1,1,0.1,0.1,0.1,0.1,0.5,0.1,0.1,0,1;1\n");           // line 5, left out
        List<String> command = List.of("./jbang", "-Dresults=" + root, "-Dmachine=" + ALPHA, "-Dchromium=none", "notebooks/answer.jsh");
        Subprocess.Result result = Subprocess.run(command, dir.resolve("logs"));
        assertEquals(0, result.exitCode(), result.toString());
        assertTrue(result.stdout().contains(csv + " line 5: left out, median_s is \"Infinity\", not a number"), result.stdout());
        assertTrue(result.stdout().contains("tables: answer (2×9)"), result.stdout());
        assertTrue(java.util.regex.Pattern.compile("V04 mmap +\\| +1\\.25 +\\|").matcher(result.stdout()).find(),
                "the newest row of chapter 4: " + result.stdout());
        assertTrue(java.util.regex.Pattern.compile("Go v4 +\\| +0\\.5 +\\|").matcher(result.stdout()).find(), result.stdout());
        assertFalse(result.stdout().contains("V13"), result.stdout());
        assertFalse(result.stdout().contains("Exception") || result.stdout().contains("Error:"), result.stdout());

        Files.writeString(csv, "date,chapter,workers\n");
        result = Subprocess.run(command, dir.resolve("logs-other"));
        assertEquals(2, result.exitCode(), result.toString());
        List<String> said = result.stderr().lines().filter(line -> !line.startsWith("[jbang]")).toList();
        assertEquals(List.of(csv + " is not an answer-round CSV: its header is not " + header.strip()), said, result.toString());
    }

    /**
     * vs-article.jsh with the Go programs run on the machine itself (versus-go.csv): the caption's runs and warm-ups are
     * Java's, and Go's calls, which have no JIT to warm up, do not make the figures a trial's.
     */
    @Test
    void javaBesideGoMeasuredHereIsCaptionedByJavasRunsAndIsNoTrial(@TempDir Path dir) throws Exception {
        Path root = dir.resolve("results");
        copyTree(FIXTURE, root);
        Path folder = root.resolve(ALPHA);
        String header = Files.readAllLines(folder.resolve("scoreboard.csv")).getFirst();
        String machine = ",AMD EPYC,2,25276514304,Linux 6.18,Temurin 25,512\n";
        Files.writeString(folder.resolve("versus-go.csv"), header + "\n"
                + "2026-11-30T10:00:00Z,Go v1,1,warm,4294967296,,4294967288,0,5,4.0,4.0,4.0,4.0,1074,4.0 4.0 4.0 4.0 4.0," + machine
                + "2026-11-30T10:00:30Z,V01ReadAll,1,warm,4294967296,1048576,4294967288,1,5,3.0,3.0,3.0,3.0,1432,3.0 3.0 3.0 3.0 3.0,3.0" + machine
                + "2026-11-30T10:01:00Z,Go v3,1,warm,4294967296,,4294967288,0,5,0.5,0.5,0.5,0.5,8590,0.5 0.5 0.5 0.5 0.5," + machine
                + "2026-11-30T10:01:30Z,V03ChunkedLong,1,warm,4294967296,1048576,4294967288,1,5,0.4,0.4,0.4,0.4,10737,0.4 0.4 0.4 0.4 0.4,0.4" + machine);
        List<String> command = List.of("./jbang", "-Dresults=" + root, "-Dmachine=" + ALPHA, "-Dchromium=none", "notebooks/vs-article.jsh");
        Subprocess.Result result = Subprocess.run(command, dir.resolve("logs"));
        assertEquals(0, result.exitCode(), result.toString());
        String chart = Files.readString(folder.resolve("charts").resolve("vs-article-mbps.html"));
        assertTrue(chart.contains(ALPHA + " · 4 GiB file · 5 runs, 1 warm-up"), result.toString());
        assertFalse(chart.contains("TRIAL"), "Go's calls warm nothing up, and make no trial");
    }

    /** model.csv read by the one CSV reader: a row the cost model would not write is left out and said, and its text goes nowhere. */
    @Test
    void theModelNotebookLeavesOutRowsTheModelDoesNotWrite(@TempDir Path dir) throws Exception {
        Path root = dir.resolve("results");
        copyTree(FIXTURE, root);
        Path csv = root.resolve(ALPHA).resolve("model.csv");
        Files.writeString(csv, "chapter,workers,page_cache,cache,measured_s,predicted_s,bound\n"
                + "V13PreadVector,2,as-is,warm,0.2000,0.1500,core: copy\n"
                + "<img src=x onerror=alert(1)>,2,as-is,warm,0.2,0.1,core: copy\n"   // line 3
                + "V04Mmap,1,huge,warm,NaN,0.14,core: scan\n"                          // line 4
                + "V04Mmap,1,huge\n");                                                 // line 5
        List<String> command = List.of("./jbang", "-Dresults=" + root, "-Dmachine=" + ALPHA, "-Dchromium=none", "notebooks/model.jsh");
        Subprocess.Result result = Subprocess.run(command, dir.resolve("logs"));
        assertEquals(0, result.exitCode(), result.toString());
        for (String leftOut : List.of(" line 3: left out, not a row the cost model writes", " line 4: left out, measured_s is \"NaN\", not a positive number",
                " line 5: left out, 3 fields where the header has 7")) {
            assertTrue(result.stdout().contains(csv + leftOut), result.stdout());
        }
        assertTrue(result.stdout().contains("tables: model (1×5)"), result.stdout());
        assertFalse(Files.readString(root.resolve(ALPHA).resolve("charts").resolve("model.html")).contains("alert(1)"));

        Files.writeString(csv, "chapter,measured_s\n");
        result = Subprocess.run(command, dir.resolve("logs-other"));
        assertEquals(2, result.exitCode(), result.toString());
        assertTrue(result.stderr().contains(csv + " is not a model.csv"), result.toString());
    }

    /**
     * A folder copied to a new name: every row names the old machine, so nothing is left to draw.
     * The notebook says so in one line and ends with status 2 (the study counts it as failed), with
     * no stack trace.
     */
    @Test
    void aNotebookWithNothingToDrawSaysSoInOneLineAndEndsWithStatus2(@TempDir Path dir) throws Exception {
        Path root = dir.resolve("results");
        copyTree(FIXTURE.resolve(BETA), root.resolve("renamed-xeon"));
        Subprocess.Result result = Subprocess.run(List.of("./jbang", "-Dresults=" + root, "-Dmachine=renamed-xeon",
                "-Dchromium=none", "notebooks/scoreboard.jsh"), dir.resolve("logs"));
        assertEquals(2, result.exitCode(), result.toString());
        List<String> said = result.stderr().lines().filter(line -> !line.startsWith("[jbang]")).toList();
        assertEquals(1, said.size(), result.toString());
        assertTrue(said.getFirst().startsWith("nothing to draw: "), result.toString());
        assertFalse(result.stdout().contains("Exception") || result.stdout().contains("Error:"), result.toString());
    }

    /** scoreboard.jsh's directives for a notebook in another folder (each file they name made absolute), and the shared code's import. */
    private static String headerFromElsewhere() throws IOException {
        String notebooks = Path.of("notebooks").toAbsolutePath() + "/";
        return Files.readString(Path.of("notebooks", "scoreboard.jsh")).lines().filter(line -> line.startsWith("//"))
                .map(line -> !line.startsWith("//SOURCES ") && !line.startsWith("//DEPS ") ? line
                        : Arrays.stream(line.split(" ")).map(word -> word.endsWith(".java") ? notebooks + word : word).collect(Collectors.joining(" ")))
                .collect(Collectors.joining("\n")) + "\nimport notebooks.*;\n";
    }

    /** JShell goes on after a step that throws and exits 0; a notebook must not: it ends with status 2. */
    @Test
    void aNotebookWhoseStepFailsEndsWithStatus2(@TempDir Path dir) throws Exception {
        Path root = dir.resolve("results");
        copyTree(FIXTURE, root);
        Path notebook = dir.resolve("broken.jsh");
        String header = headerFromElsewhere();
        Files.writeString(notebook, header + """

                import tech.tablesaw.api.*;
                Table rows = Notebook.results("scoreboard");
                Table broken = rows.where(null);
                Notebook.loaded("broken", broken);
                """);
        Subprocess.Result result = Subprocess.run(List.of("./jbang", "-Dresults=" + root, "-Dmachine=" + ALPHA,
                "-Dchromium=none", notebook.toString()), dir.resolve("logs"));
        assertEquals(2, result.exitCode(), result.toString());
        assertTrue(result.stderr().contains("the notebook stopped before its last line"), result.toString());
    }

    /**
     * The study's way (lab/report/Notebooks.java): several notebooks in one JShell, the shared code
     * compiled once. They draw the same pages, byte for byte, and print the same lines as each
     * notebook run alone.
     */
    @Test
    void notebooksInOneJShellDrawWhatEachDrawsAlone(@TempDir Path dir) throws Exception {
        Path alone = dir.resolve("alone"), together = dir.resolve("together");
        copyTree(FIXTURE, alone);
        copyTree(FIXTURE, together);
        for (Path results : List.of(alone, together)) { // the model's notebook first: what it imports must not go with it
            Files.writeString(results.resolve(ALPHA).resolve("model.csv"), "chapter,workers,page_cache,cache,measured_s,predicted_s,bound\n"
                    + "V13PreadVector,2,as-is,warm,0.2000,0.1500,page-cache copy\nV04Mmap,1,huge,warm,0.1500,0.1400,core: scan\n");
        }
        List<String> notebooks = List.of("notebooks/model.jsh", "notebooks/scoreboard.jsh", "notebooks/warmup.jsh");
        StringBuilder aloneOut = new StringBuilder();
        for (String notebook : notebooks) {
            Subprocess.Result result = Subprocess.run(List.of("./jbang", "-Dresults=" + alone, "-Dmachine=" + ALPHA,
                    "-Dchromium=none", notebook), dir.resolve("logs-" + aloneOut.length()));
            assertEquals(0, result.exitCode(), result.toString());
            aloneOut.append(result.stdout());
        }
        List<String> command = new java.util.ArrayList<>(List.of("./jbang", "-Dresults=" + together, "-Dmachine=" + ALPHA,
                "-Dchromium=none", "lab/report/Notebooks.java"));
        command.addAll(notebooks);
        Subprocess.Result session = Subprocess.run(command, dir.resolve("logs-together"));
        assertEquals(0, session.exitCode(), session.toString());
        assertEquals(List.of(), session.stderr().lines().filter(line -> !line.startsWith("[jbang]")).toList(), session.toString());
        assertEquals(aloneOut.toString().replace(alone.toString(), "RESULTS"), session.stdout().replace(together.toString(), "RESULTS"));
        Path charts = alone.resolve(ALPHA).resolve("charts");
        List<Path> pages;
        try (var files = Files.list(charts)) {
            pages = files.filter(file -> file.toString().endsWith(".html")).sorted().toList();
        }
        assertEquals(List.of("model.html", "scoreboard-spread.html", "scoreboard.html", "warmup-scoreboard.html"),
                pages.stream().map(page -> page.getFileName().toString()).toList());
        for (Path page : pages) {
            Path same = together.resolve(ALPHA).resolve("charts").resolve(page.getFileName().toString());
            assertTrue(java.util.Arrays.equals(Files.readAllBytes(page), Files.readAllBytes(same)), page.getFileName() + " differs");
        }
    }

    /**
     * In one JShell, each notebook starts afresh: what the notebook before it declared is gone
     * (its imports aside). One that stops (a snippet that does not compile, Notebook.quit's line) is
     * named, the others still draw, and the run ends with status 2.
     */
    @Test
    void inOneJShellEachNotebookStartsAfreshAndOneThatStopsLeavesTheOthersDrawing(@TempDir Path dir) throws Exception {
        Path root = dir.resolve("results");
        copyTree(FIXTURE, root);
        String header = headerFromElsewhere();
        Path leftover = dir.resolve("leftover.jsh"), quits = dir.resolve("quits.jsh");
        Files.writeString(leftover, header + "\nSystem.out.println(scoreboard.rowCount()); // scoreboard.jsh's table\n"
                + "Notebook.loaded(\"scoreboard\", scoreboard);\n");
        Files.writeString(quits, header + "\nimport tech.tablesaw.api.*;\nTable rows = Notebook.results(\"scoreboard\");\n"
                + "Notebook.quit(\"nothing to draw: this notebook says so\");\nNotebook.loaded(\"rows\", rows);\n");
        Subprocess.Result result = Subprocess.run(List.of("./jbang", "-Dresults=" + root, "-Dmachine=" + ALPHA, "-Dchromium=none",
                "lab/report/Notebooks.java", "notebooks/scoreboard.jsh", leftover.toString(), quits.toString(), "notebooks/scoreboard.jsh"),
                dir.resolve("logs"));
        assertEquals(2, result.exitCode(), result.toString());
        List<String> said = result.stderr().lines().filter(line -> !line.startsWith("[jbang]")).toList();
        assertTrue(said.contains(leftover + ": does not compile: System.out.println(scoreboard.rowCount()); // scoreboard.jsh's table"),
                result.toString());
        assertTrue(said.contains("nothing to draw: this notebook says so"), result.toString());
        assertEquals(List.of("Notebooks: " + leftover + " stopped before its last line", "Notebooks: " + quits + " stopped before its last line"),
                said.subList(said.size() - 2, said.size()), result.toString());
        assertEquals(2, result.stdout().lines().filter(line -> line.startsWith("tables: scoreboard")).count(),
                "both scoreboards drew: " + result.stdout());
        assertFalse(result.stdout().contains("Exception"), result.stdout());
    }

    static void copyTree(Path from, Path to) throws IOException {
        try (var paths = Files.walk(from)) {
            for (Path path : paths.toList()) {
                Path target = to.resolve(from.relativize(path).toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(path, target);
                }
            }
        }
    }
}
