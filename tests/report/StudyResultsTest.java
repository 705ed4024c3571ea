import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import lab.results.*;
import lib.harness.Machine;
import lib.harness.Measurement;
import lib.harness.ResultsCsv;
import notebooks.*;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one results model (lab/results/StudyResults.java): the strict reader, this study's rows (the same
 * for the notebooks and the report), the walls, the trial rule, chapter numbers, the machine's folder
 * name, and the summary line read back where it is written (lib/harness/Measurement).
 */
class StudyResultsTest {

    static final long GIB = 1L << 30, MIB = 1L << 20;

    @TempDir
    Path root;

    @BeforeAll
    static void quitThrowsInsteadOfExiting() {
        System.setProperty("report.quit", "throw");
    }

    /** A CSV that cannot be read is said with its name once and the reason: Java's message for a missing file is its name alone. */
    @Test
    void aCsvThatCannotBeReadIsSaidWithTheReason() throws IOException {
        Path missing = root.resolve("wall.csv");
        StudyResults.NotResultsException refused = assertThrows(StudyResults.NotResultsException.class, () -> StudyResults.readEveryRow(missing));
        assertEquals(missing + " cannot be read: no such file", refused.getMessage());
        Path folder = Files.createDirectory(root.resolve("costs.csv"));
        refused = assertThrows(StudyResults.NotResultsException.class, () -> StudyResults.readEveryRow(folder));
        assertEquals(folder + " cannot be read: Is a directory", refused.getMessage());
    }

    /** This machine's folder under {@link #root}: rows written here are measured here. */
    Path folder() throws IOException {
        return Files.createDirectories(root.resolve(Machine.current().name()));
    }

    /** A results row as the chapters write it: {@code runs} runs of {@code seconds} each. */
    static List<Object> row(String chapter, int workers, String cache, long fileBytes, int runs, double seconds) {
        double[] timed = new double[runs];
        java.util.Arrays.fill(timed, seconds);
        return new ArrayList<>(ResultsCsv.row(new Measurement.Result(chapter, workers, cache, fileBytes, OptionalLong.empty(),
                fileBytes - 8, new double[] {seconds * 3}, timed)));
    }

    static void append(Path csv, List<Object> row) throws IOException {
        ResultsCsv.append(csv, List.of(row));
    }

    /** The same row with one column's text replaced. */
    static List<Object> with(List<Object> row, String column, String value) {
        List<Object> changed = new ArrayList<>(row);
        changed.set(ResultsCsv.COLUMNS.indexOf(column), value);
        return changed;
    }

    @Test
    void rowsWhoseFiguresCannotBeTrueAreLeftOutEachWithItsFileAndLine() throws IOException {
        Path csv = folder().resolve("scoreboard.csv");
        List<Object> good = row("V04Mmap", 2, "warm", 4 * GIB, 5, 0.5);
        append(csv, good);                                             // line 2
        append(csv, with(good, "mean_s", "NaN"));                      // 3
        append(csv, with(good, "mbps", "Infinity"));                   // 4
        append(csv, with(good, "mean_s", "-1"));                       // 5
        append(csv, with(good, "workers", "2.0"));                     // 6
        append(csv, with(good, "median_s", "abc"));                    // 7
        append(csv, with(good, "chapter", "<script>document.title='PWNED'</script>")); // 8
        append(csv, with(good, "pmd_mapped_pct", "<img src=x onerror=\"alert(1)\">"));  // 9
        append(csv, with(good, "runs", "0"));                          // 10
        append(csv, with(good, "workers", "\u0662"));                  // 11: an Arabic-Indic two, which Java's parseLong reads as 2
        append(csv, with(good, "file_bytes", "\uff14294967296"));      // 12: a full-width four
        StudyResults.Csv read = StudyResults.read(csv);
        assertEquals(1, read.rows().size(), String.join("\n", read.problems()));
        assertEquals(10, read.problems().size(), String.join("\n", read.problems()));
        assertLeftOut(csv, read, 3, 12);
        assertTrue(read.problems().stream().anyMatch(problem -> problem.startsWith(csv + " line 8: left out, chapter is \"<script>")
                && problem.endsWith(", not a chapter's name")), String.join("\n", read.problems()));
    }

    /** Figures no chapter can produce (every chapter refuses such options; no memory reads 10 TB/s) are left out, each with its line. */
    @Test
    void rowsOutsideWhatAChapterCanProduceAreLeftOut() throws IOException {
        Path csv = folder().resolve("scaling.csv");
        List<Object> good = row("V13PreadVector", 2, "warm", 4 * GIB, 5, 0.5);
        append(csv, good);                                             // line 2
        append(csv, with(good, "mbps", "1e308"));                      // 3
        append(csv, with(good, "workers", "1000000000"));              // 4
        append(csv, with(good, "chunk_bytes", "7"));                   // 5
        append(csv, with(good, "chunk_bytes", "4294967296"));          // 6
        StudyResults.Csv read = StudyResults.read(csv);
        assertEquals(1, read.rows().size(), String.join("\n", read.problems()));
        assertLeftOut(csv, read, 3, 6);
    }

    /**
     * Issue 71: only mbps was held to 10 TB/s. Every time of a row is now: each run, warm-up run,
     * mean, median, min and max no faster than 10 TB/s nor longer than a week, and each run, the
     * mean and the median within the row's own min_s–max_s; a row that breaks one is left out with its line.
     */
    @Test
    void aRowIsLeftOutWhenAnyOfItsTimesCannotBeTrueThoughItsMbpsCould() throws IOException {
        Path csv = folder().resolve("scoreboard.csv");
        List<Object> good = row("V02BufferedByte", 1, "warm", 4 * GIB, 5, 6.0);
        append(csv, good);                                                                      // line 2
        append(csv, with(good, "run_s", "0.0000001 6.000000 6.000000 6.000000 6.000000"));     // 3: below min_s, and past 10 TB/s
        append(csv, with(with(good, "run_s", "0.0000001 6 6 6 6"), "min_s", "0.0000001"));     // 4: within min_s, but past 10 TB/s
        append(csv, with(good, "run_s", "5.000000 6.000000 6.000000 6.000000 6.000000"));       // 5: a true pace, below min_s
        append(csv, with(good, "median_s", "9.000000"));                                        // 6: above max_s
        append(csv, with(good, "warmup_s", "0.0000001"));                                       // 7: a warm-up past 10 TB/s
        append(csv, with(good, "max_s", "0"));                                                  // 8: no time at all
        append(csv, with(with(with(good, "run_s", "6 6 6 6 1e308"), "max_s", "1e308"), "mean_s", "1e308")); // 9: longer than a week
        append(csv, with(good, "read_calls_per_gib", "1e308"));                                 // 10: a bill no search runs up
        StudyResults.Csv read = StudyResults.read(csv);
        assertEquals(1, read.rows().size(), String.join("\n", read.problems()));
        assertLeftOut(csv, read, 3, 10);
        assertEquals(csv + " line 3: left out, run_s holds 0.0000001 s, 42,949,672,960 MB/s over its 4 GiB: faster than the 10 TB/s no chapter reaches",
                read.problems().get(0));
        assertEquals(csv + " line 5: left out, run_s holds 5 s, outside the row's own min_s–max_s (6–6)", read.problems().get(2));
        assertTrue(read.problems().get(4).contains("warmup_s holds 0.0000001 s"), read.problems().get(4));
        assertEquals(8, read.problems().size(), String.join("\n", read.problems()));
    }

    /** Each of {@code csv}'s lines {@code first} to {@code last} is said to be left out, with its file and line. */
    private static void assertLeftOut(Path csv, StudyResults.Csv read, int first, int last) {
        for (int line = first; line <= last; line++) {
            String prefix = csv + " line " + line + ": left out, ";
            assertTrue(read.problems().stream().anyMatch(problem -> problem.startsWith(prefix)), prefix + "\n" + read.problems());
        }
    }

    @Test
    void aByteOrderMarkIsSkipped() throws IOException {
        Path csv = folder().resolve("scoreboard.csv");
        append(csv, row("V04Mmap", 2, "warm", 4 * GIB, 5, 0.5));
        byte[] bytes = Files.readAllBytes(csv);
        byte[] marked = new byte[bytes.length + 3];
        marked[0] = (byte) 0xEF;
        marked[1] = (byte) 0xBB;
        marked[2] = (byte) 0xBF;
        System.arraycopy(bytes, 0, marked, 3, bytes.length);
        Files.write(csv, marked);
        StudyResults.Csv read = StudyResults.read(csv);
        assertEquals(1, read.rows().size(), read.problems().toString());
        assertEquals("V04Mmap", read.rows().getFirst().chapter());
    }

    @Test
    void aFileThatIsNoResultsCsvIsRefusedInOneLine() throws IOException {
        Path csv = Files.writeString(folder().resolve("scoreboard.csv"), "name,value\na,1\n");
        StudyResults.NotResultsException refused = assertThrows(StudyResults.NotResultsException.class, () -> StudyResults.read(csv));
        assertEquals(csv + " has no column date: not a results CSV of this project", refused.getMessage());
    }

    /**
     * A 64 MiB trial appended into a copy of a 4 GiB study: the notebooks' tables and the report's
     * show the same rows, the 4 GiB study's, and both say what they left out.
     */
    @Test
    void aTrialAppendedToAFullStudyLeavesTheNotebooksAndTheReportShowingTheSameStudy() throws IOException {
        Path folder = folder();
        Files.writeString(folder.resolve("machine.json"), Machine.json(Machine.current().description(folder, Instant.now(), false)));
        append(folder.resolve("scoreboard.csv"), row("V01ReadAll", 2, "warm", 4 * GIB, 5, 2.0));
        append(folder.resolve("scoreboard.csv"), row("V04Mmap", 2, "warm", 4 * GIB, 5, 0.5));
        append(folder.resolve("scoreboard.csv"), row("V04Mmap", 2, "warm", 64 * MIB, 1, 0.001)); // the trial, newest
        append(folder.resolve("scoreboard.csv"), row("V13PreadVector", 2, "warm", 64 * MIB, 1, 0.001));

        ResultsFolder.Selection model = ResultsFolder.folder(folder).select("scoreboard", "warm");
        Notebook.Selected notebook = Notebook.select(Notebook.choose(root, Machine.current().name()), "scoreboard", "warm");
        assertEquals(List.of("V01ReadAll", "V04Mmap"), model.rows().stream().map(StudyResults.Row::chapter).toList());
        assertEquals(List.of("V01ReadAll", "V04Mmap"), notebook.rows().stringColumn("chapter").asList());
        assertEquals(List.of(8590.0), notebook.rows().where(notebook.rows().stringColumn("chapter").isEqualTo("V04Mmap"))
                .doubleColumn("mbps").asList());

        String page = Files.readString(StudyReport.write(folder));
        assertTrue(page.contains("8,590"), "the 4 GiB V04 row");
        assertFalse(page.contains("<code>V13PreadVector</code>"), "the trial's chapter is not in the tables");
        assertTrue(page.contains("left out 2 rows of " + folder.resolve("scoreboard.csv") + ": a 64 MiB file"), page);
        assertFalse(page.contains("class=\"trial\""), "the study shown is a full one");
    }

    /**
     * A machine's folder copied under another name keeps its machine: machine.json names it, so its rows are that
     * machine's, in the model and the report. Without machine.json, the folder's name is still the machine's.
     */
    @Test
    void aRenamedCopyOfAMachinesFolderIsReadAsTheMachineItsDescriptionNames() throws IOException {
        Path copy = Files.createDirectories(root.resolve("r0"));
        append(copy.resolve("scoreboard.csv"), row("V04Mmap", 2, "warm", 4 * GIB, 5, 0.5));
        ResultsFolder.Selection undescribed = ResultsFolder.folder(copy).select("scoreboard", "warm");
        assertEquals(List.of(), undescribed.rows(), "without machine.json, r0 is the machine named r0");
        assertTrue(undescribed.notes().toString().contains("measured on another machine (" + Machine.current().name() + "), not r0"),
                undescribed.notes().toString());

        Files.writeString(copy.resolve("machine.json"), Machine.json(Machine.current().description(copy, Instant.now(), false)));
        ResultsFolder.Selection described = ResultsFolder.folder(copy).select("scoreboard", "warm");
        assertEquals(List.of("V04Mmap"), described.rows().stream().map(StudyResults.Row::chapter).toList(), described.notes().toString());
        assertEquals(List.of(), described.notes());
        String page = Files.readString(StudyReport.write(copy));
        assertTrue(page.contains("8,590") && !page.contains("measured on another machine"), page);
    }

    /**
     * On a machine named like a folder committed with the project, the study measures into
     * NAME-local/ and its rows carry NAME: the model, the notebooks and the report all show them.
     */
    @Test
    void aStudysOwnFolderBesideACommittedOneShowsItsRows() throws IOException {
        String machine = Machine.current().name();
        Path folder = Files.createDirectories(root.resolve(machine + ResultsFolder.OWN_FOLDER_SUFFIX));
        Files.writeString(folder.resolve("machine.json"), Machine.json(Machine.current().description(folder, Instant.now(), false)));
        append(folder.resolve("scoreboard.csv"), row("V04Mmap", 2, "warm", 4 * GIB, 5, 0.5));
        append(folder.resolve("scoreboard.csv"), with(row("V13PreadVector", 2, "warm", 4 * GIB, 5, 0.25), "machine", "another-machine"));

        ResultsFolder.Selection model = ResultsFolder.folder(folder).select("scoreboard", "warm");
        Notebook.Selected notebook = Notebook.select(Notebook.choose(root, folder.getFileName().toString()), "scoreboard", "warm");
        assertEquals(List.of("V04Mmap"), model.rows().stream().map(StudyResults.Row::chapter).toList(), model.notes().toString());
        assertEquals(List.of("V04Mmap"), notebook.rows().stringColumn("chapter").asList());
        assertTrue(model.notes().contains("left out 1 row of " + folder.resolve("scoreboard.csv")
                + ": measured on another machine (another-machine), not " + machine + " (V13PreadVector)"), model.notes().toString());

        String page = Files.readString(StudyReport.write(folder));
        assertTrue(page.contains("8,590"), "the V04 row is in the report");
    }

    @Test
    void aChapterFasterThanItsWallGetsNoShareButALineSayingSo() throws IOException {
        Path folder = folder();
        append(folder.resolve("scoreboard.csv"), row("V01ReadAll", 2, "warm", 4 * GIB, 5, 2.0));
        append(folder.resolve("scoreboard.csv"), row("V09MmapParallelVector", 2, "warm", 4 * GIB, 5, 0.1)); // 42,950 MB/s
        append(folder.resolve("wall.csv"), row("WallMemoryRead", 2, "warm", 4 * GIB, 5, 0.2));              // 21,475 MB/s
        MemoryWall wall = ResultsFolder.folder(folder).walls().getFirst();
        assertEquals(List.of("V09MmapParallelVector"), wall.beatenBy());
        assertTrue(wall.percentOf(42950).isEmpty());
        assertEquals(10.0, wall.percentOf(2147.5).getAsDouble(), 1e-9);
        assertTrue(wall.chartLabel().contains("beaten by V09"), wall.chartLabel());

        String page = Files.readString(StudyReport.write(folder));
        assertTrue(page.contains(MemoryWall.ABOVE), page);
        assertTrue(page.contains("V09 ran faster than the memory-read wall"), page);
        assertFalse(page.contains("<td>200</td>"), "no share over 100 %");
        assertTrue(page.contains("<td>2,147</td><td>1.0</td><td>10</td>"), "chapter 1 at 10 % of the wall: " + page);
        Notebook.Selected rows = Notebook.select(Notebook.choose(root, Machine.current().name()), "scoreboard", "warm");
        var shares = Notebook.percentOf(wall, rows.rows());
        assertTrue(shares.isMissing(1), "V09's share is not shown");
        assertEquals(10.0, shares.getDouble(0));
    }

    @Test
    void aMachineDescriptionFieldThatIsNoSingleValueIsLeftOutWithItsLine() throws IOException {
        Path json = Files.writeString(folder().resolve("machine.json"), """
                {
                  "name": "x",
                  "cpu_model": {"a": 1},
                  "logical_cores": "two",
                  "kernel": "Linux"
                }
                """);
        MachineDescription description = MachineDescription.read(json);
        assertEquals(List.of(json + " line 3: left out cpu_model, which is not a single value",
                json + " line 4: left out logical_cores, which is \"two\", not a count"), description.problems());
        assertEquals(Optional.of("Linux"), description.text("kernel"));
        append(folder().resolve("scoreboard.csv"), row("V04Mmap", 2, "warm", 4 * GIB, 5, 0.5));
        String page = Files.readString(StudyReport.write(folder()));
        assertTrue(page.contains("line 3: left out cpu_model"), "the page lists what it left out");
    }

    @Test
    void theTrialRuleAndChapterNumbersAreSaidOnce() {
        assertEquals(List.of(), StudyResults.trialReasons(false, 4 * GIB, 5, false));
        assertEquals(List.of("a 64 MiB file, under 1 GiB", "fewer than 5 runs", "no warm-up"),
                StudyResults.trialReasons(false, 64 * MIB, 1, true));
        assertEquals(List.of("machine.json marks the study as a trial"), StudyResults.trialReasons(true, 4 * GIB, 5, false));
        // A chapter the time budget cut to fewer runs (each slower than its slow run) is measured as meant, not a trial's.
        assertEquals(5, StudyResults.runsForTrialRule(1, new double[] {55.0}));
        assertEquals(3, StudyResults.runsForTrialRule(3, new double[] {0.4, 0.5, 0.4}));
        for (String name : List.of("V06MmapParallel", "v6", "V06", "Go v6", "6")) {
            assertEquals("V06", StudyResults.chapterNumber(name), name);
        }
        assertEquals("WallMemoryRead", StudyResults.chapterNumber("WallMemoryRead"));
        assertEquals("walls", StudyResults.chapterNumber("walls"));
    }

    @Test
    void theMachineFolderNameIsLibMachines() {
        assertEquals(Machine.current().name(), StudyResults.currentMachineName());
        StudyResults.Identity identity = new StudyResults.Identity("Intel(R) Xeon(R) CPU @ 2.00GHz", 8, 128);
        assertEquals("intel-xeon-8c-v128", StudyResults.machineName(identity));
        assertEquals("amd-epyc-7b13-64c-avx512", StudyResults.machineName(new StudyResults.Identity("AMD EPYC 7B13 64-Core Processor", 64, 512)));
    }

    /** A tool that started a chapter with --csv reads what it found from the row it appended, not from its summary line. */
    @Test
    void aRowIsReadBackAsItWasWritten() throws IOException {
        Measurement.Result result = new Measurement.Result("V04Mmap", 2, "warm", 4 * GIB, OptionalLong.of(1 << 20), 4 * GIB - 8,
                new double[] {1.0}, new double[] {0.5, 0.25, 0.5}, java.util.Optional.of(lib.harness.PageCache.Folios.HUGE), java.util.OptionalDouble.empty());
        Path csv = root.resolve("rows-read-back.csv");
        assertEquals(List.of(), ResultsCsv.rows(csv), "no file, no rows");
        ResultsCsv.append(csv, List.of(ResultsCsv.row(result), ResultsCsv.row(result)));
        List<java.util.Map<String, String>> rows = ResultsCsv.rows(csv);
        assertEquals(2, rows.size());
        java.util.Map<String, String> row = rows.getLast();
        assertEquals(ResultsCsv.COLUMNS, List.copyOf(row.keySet()));
        assertEquals("V04Mmap", row.get("chapter"));
        assertEquals(Long.toString(4 * GIB - 8), row.get("offset"));
        assertEquals(0.5, Double.parseDouble(row.get("median_s")));
        assertEquals("3", row.get("runs"));
        assertEquals("huge", row.get("page_cache"));
        assertEquals("1048576", row.get("chunk_bytes"));
        assertTrue(result.summaryLine().contains(" mbps=" + row.get("mbps") + " "), "the same figure as the line people read");
    }

    /**
     * The bill's columns read back typed, where a row has them; a CSV written before they existed
     * loads as it did, its rows without a bill, in the reader, the notebooks' tables and the report.
     */
    @Test
    void theBillReadsBackAndOlderCsvsWithoutItStillLoad() throws IOException {
        Path folder = folder();
        List<Object> billed = row("V03ChunkedLong", 1, "warm", 4 * GIB, 5, 1.0);
        billed = with(with(with(billed, "read_calls_per_gib", "1024"), "minor_faults_per_gib", "0.3"), "device_bytes_per_gib", "");
        append(folder.resolve("scoreboard.csv"), billed);
        StudyResults.Row row = StudyResults.read(folder.resolve("scoreboard.csv")).rows().getFirst();
        assertEquals(1024.0, row.billPerGiB("read_calls_per_gib"));
        assertEquals(0.3, row.billPerGiB("minor_faults_per_gib"));
        assertEquals(null, row.billPerGiB("device_bytes_per_gib"), "an empty figure is not counted, not zero");

        List<String> older = ResultsCsv.COLUMNS.subList(0, ResultsCsv.COLUMNS.indexOf("read_mode") + 1);
        Path old = folder.resolve("cold.csv");
        Files.writeString(old, String.join(",", older) + "\n", StandardCharsets.UTF_8);
        append(old, row("V03ChunkedLong", 1, "cold", 4 * GIB, 5, 2.0)); // appended under the file's own, older, header
        assertEquals(String.join(",", older), Files.readAllLines(old).getFirst());
        StudyResults.Csv read = StudyResults.read(old);
        assertEquals(List.of(), read.problems());
        assertEquals(java.util.Map.of(), read.rows().getFirst().bill());
        MachineResults machine = Notebook.choose(root, Machine.current().name());
        tech.tablesaw.api.Table cold = Notebook.select(machine, "cold", "cold").rows();
        assertEquals(1, cold.rowCount());
        assertTrue(cold.doubleColumn("read_calls_per_gib").isMissing(0), "an older row's bill is missing in the notebooks' table");
        tech.tablesaw.api.Table scoreboard = Notebook.select(machine, "scoreboard", "warm").rows();
        assertEquals(1024.0, scoreboard.doubleColumn("read_calls_per_gib").get(0));
        String page = Files.readString(StudyReport.write(folder));
        assertTrue(page.contains("<td>1,024 reads</td>"), "the scoreboard's bill in words");
    }

    @Test
    void aHeaderOnlyCsvGivesAnEmptyTableNotACrash() throws IOException {
        Path folder = folder();
        Files.writeString(folder.resolve("scoreboard.csv"), ResultsCsv.headerLine() + "\n", StandardCharsets.UTF_8);
        MachineResults machine = Notebook.choose(root, Machine.current().name());
        Notebook.Selected selected = Notebook.select(machine, "scoreboard", "warm");
        assertEquals(0, selected.rows().rowCount());
        assertEquals(List.of(), selected.notes());
    }

    /** The answer round's rows, as lab/study/AnswerRound.java writes them, read back typed; a bad one is left out with its line. */
    @Test
    void theAnswerRoundsRowsReadBackTypedAndABadOneIsLeftOutWithItsLine() throws IOException {
        Path csv = root.resolve("answer.csv");
        AnswerRound.Run run = new AnswerRound.Run(1.3, java.util.Map.of("jvm", 0.2, "main", 0.5, "checked", 0.6, "preread", 0.65,
                "first_search", 1.1, "answer", 1.15), true);
        List<String> v13 = AnswerRound.javaRow("V13PreadVector", List.of(run, run));
        AnswerRound.append(csv, List.of(AnswerRound.javaRow("V13PreadVector", List.of(run)), v13,
                AnswerRound.goRow("Go v13", List.of(0.9, 1.1))));                       // lines 2 to 4
        AnswerRound.append(csv, List.of(answerWith(v13, "first_search_s", "NaN"),      // 5
                answerWith(v13, "chapter", "<script>alert(1)</script>"),              // 6
                answerWith(v13, "run_s", "1.3000"),                                    // 7: one time, where runs says 2
                answerWith(v13, "preread_s", ""),                                      // 8: a chapter's row without a phase
                answerWith(v13, "prereads", "3")));                                    // 9: more runs pre-read than ran

        AnswerResults.AnswerCsv read = AnswerResults.read(csv);
        assertEquals(3, read.rows().size(), String.join("\n", read.problems()));
        assertEquals(5, read.problems().size(), String.join("\n", read.problems()));
        for (int i = 0; i < 5; i++) {
            assertTrue(read.problems().get(i).startsWith(csv + " line " + (i + 5) + ": left out, "), read.problems().get(i));
        }
        assertTrue(read.problems().get(0).contains("first_search_s is \"NaN\", not a number"), read.problems().get(0));

        List<AnswerResults.Answer> newest = read.newestOfEach();
        assertEquals(List.of("V13PreadVector", "Go v13"), newest.stream().map(AnswerResults.Answer::chapter).toList());
        AnswerResults.Answer chapter = newest.get(0), go = newest.get(1);
        assertEquals(3, chapter.line(), "the newest of chapter 13's rows");
        assertEquals(2, chapter.runs());
        assertEquals(1.3, chapter.medianSeconds(), 1e-9);
        assertEquals(AnswerResults.ANSWER_PHASES, List.copyOf(chapter.phaseSeconds().keySet()));
        assertEquals(0.45, chapter.phaseSeconds().get("first_search"), 1e-9);
        assertEquals(2, chapter.prereads());
        assertTrue(go.isGo() && go.phaseSeconds().isEmpty() && go.prereads() == null, go.toString());
        assertEquals(1.0, go.medianSeconds(), 1e-9);
        assertEquals(List.of(0.9, 1.1), java.util.Arrays.stream(go.runSeconds()).boxed().toList());

        Path other = Files.writeString(root.resolve("scoreboard.csv"), "date,chapter,workers\n");
        StudyResults.NotResultsException notAnswers = assertThrows(StudyResults.NotResultsException.class, () -> AnswerResults.read(other));
        assertTrue(notAnswers.getMessage().startsWith(other + " is not an answer-round CSV"), notAnswers.getMessage());
    }

    private static List<String> answerWith(List<String> row, String column, String value) {
        List<String> changed = new ArrayList<>(row);
        changed.set(AnswerResults.ANSWER_COLUMNS.indexOf(column), value);
        return changed;
    }

    // ---- Java beside Go: one reading of versus-go.csv

    /** A versus-go.csv of the given rows, in order, each call's runs all {@code seconds} long; its pairs as StudyResults reads them. */
    List<VersusGoPairs.GoPair> versusGo(Object... chaptersAndSeconds) throws IOException {
        Path csv = folder().resolve("versus-go.csv");
        for (int i = 0; i < chaptersAndSeconds.length; i += 2) {
            append(csv, row((String) chaptersAndSeconds[i], 1, "warm", 4 * GIB, 3, (Double) chaptersAndSeconds[i + 1]));
        }
        return VersusGoPairs.pairs(StudyResults.read(csv).rows());
    }

    @Test
    void aPairIsAheadOnlyWhenJavaWonEveryRoundAndItsRatioIsTheMedianOfTheRounds() throws IOException {
        // three rounds, the sides swapped each round as VersusGo runs them: Java 2×, 1.25× and 1.5× as fast
        VersusGoPairs.GoPair pair = versusGo("Go v6", 2.0, "V06MmapParallel", 1.0,
                "V06MmapParallel", 0.8, "Go v6", 1.0,
                "Go v6", 1.5, "V06MmapParallel", 1.0).getFirst();
        assertEquals(6, pair.number());
        assertEquals("V06MmapParallel", pair.javaChapter());
        assertEquals(3, pair.rounds().size());
        assertEquals(1.5, pair.ratio(), 1e-9, "the median of 2, 1.25 and 1.5");
        assertEquals(1.25, pair.lowest(), 1e-9);
        assertEquals(2.0, pair.highest(), 1e-9);
        assertEquals(VersusGoPairs.GoVerdict.AHEAD, pair.verdict());
        assertEquals("1.50", pair.ratioText());
        assertEquals("1.250–2.000", pair.rangeText());
        assertEquals("3", pair.roundsText());
        // each side's MB/s is the median over rounds of its calls' medians: Go 1.5 s, Java 1.0 s
        assertEquals(4 * GIB / 1.5 / 1e6, pair.goMbps(), 1e-6);
        assertEquals(4 * GIB / 1.0 / 1e6, pair.javaMbps(), 1e-6);
    }

    @Test
    void aPairIsBehindWhenJavaLostEveryRoundAndATieWhenItWonSomeAndLostSome() throws IOException {
        List<VersusGoPairs.GoPair> pairs = versusGo(
                "Go v1", 1.0, "V01ReadAll", 1.1,       // pair 1: Java slower in both rounds
                "Go v8", 1.0, "V08Vector256", 0.9,     // pair 8: Java faster, then slower
                "V01ReadAll", 1.2, "Go v1", 1.0,
                "V08Vector256", 1.2, "Go v8", 1.0);
        assertEquals(List.of(1, 8), pairs.stream().map(VersusGoPairs.GoPair::number).toList());
        assertEquals(VersusGoPairs.GoVerdict.BEHIND, pairs.get(0).verdict());
        assertTrue(pairs.get(0).highest() < 1);
        assertEquals(VersusGoPairs.GoVerdict.TIE, pairs.get(1).verdict(), "won a round and lost one: within the rounds' spread");
        assertTrue(pairs.get(1).lowest() < 1 && pairs.get(1).highest() > 1);
    }

    @Test
    void aRowWithoutItsRoundsPartnerIsUnpairedNotMatchedWithAnotherRound() throws IOException {
        List<VersusGoPairs.GoPair> pairs = versusGo(
                "Go v3", 1.0,                            // round 1: chapter 3 failed, so Go's row has no partner
                "Go v4", 1.0, "V04Mmap", 0.5,
                "V03ChunkedLong", 0.5, "Go v3", 1.0,     // round 2: whole
                "V04Mmap", 0.5,                          // round 2: Go's v4 failed
                "Go v5", 1.0);                           // pair 5: only a Go row
        VersusGoPairs.GoPair three = pairs.get(0), four = pairs.get(1), five = pairs.get(2);
        assertEquals(1, three.rounds().size(), "round 2 only");
        assertEquals(1, three.unpaired().size());
        assertEquals("1 (1 unpaired row)", three.roundsText());
        assertEquals(VersusGoPairs.GoVerdict.AHEAD, three.verdict());
        assertEquals(1, four.rounds().size());
        assertEquals(1, four.unpaired().size());
        assertEquals(VersusGoPairs.GoVerdict.UNPAIRED, five.verdict(), "a pair without a whole round has no figure");
        assertTrue(Double.isNaN(five.ratio()));
        assertEquals("–", five.ratioText());
        assertEquals("0 (1 unpaired row)", five.roundsText());
    }

    @Test
    void twoRowsOfOnePairThatAreNotOnConsecutiveLinesAreNoRound() throws IOException {
        // the counts are equal, but a row between them (another machine's, or one that could not be read) parts them
        Path csv = folder().resolve("versus-go.csv");
        append(csv, row("Go v6", 2, "warm", 4 * GIB, 3, 1.0));
        append(csv, with(row("V06MmapParallel", 2, "warm", 4 * GIB, 3, 0.5), "median_s", "NaN"));
        append(csv, row("V06MmapParallel", 2, "warm", 4 * GIB, 3, 0.5));
        VersusGoPairs.GoPair pair = VersusGoPairs.pairs(StudyResults.read(csv).rows()).getFirst();
        assertEquals(VersusGoPairs.GoVerdict.UNPAIRED, pair.verdict());
        assertEquals(2, pair.unpaired().size());
    }
}
