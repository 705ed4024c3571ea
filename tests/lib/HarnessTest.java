import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;
import lib.chapter.ChunkedSearch;
import lib.chapter.NeedleSearch;
import lib.counters.KernelBill;
import lib.harness.Harness;
import lib.harness.Measurement;
import lib.harness.PageCache;
import lib.harness.ProjectVersion;
import lib.harness.ResultsCsv;
import lib.counters.Stats;
import lib.haystack.FileChangedException;
import lib.haystack.Haystack;
import lib.haystack.ReferenceSearch;
import lib.haystack.WrongAnswerException;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line every chapter shares: exit statuses, summary lines, the results CSV, the figures. */
class HarnessTest {

    private static final long HAYSTACK_BYTES = 1 << 20;

    @TempDir
    Path dir;

    private Path haystack() throws IOException {
        Path file = dir.resolve("haystack.bin");
        Haystack.create(file, HAYSTACK_BYTES);
        return file;
    }

    @Test
    void exitsZeroWhenTheNeedleIsFound() throws IOException {
        var result = InProcess.run(new V04Mmap(), haystack().toString(), "--runs", "2", "--warmup", "1", "--workers", "1");
        assertEquals(Harness.FOUND, result.exitCode(), result::toString);
        assertEquals(String.valueOf(Haystack.needleOffset(HAYSTACK_BYTES)), summaries(result).getLast().get("offset"));
    }

    @Test
    void exitsOneWhenTheFileIsAllZeros() throws IOException {
        Path zeros = Files.write(dir.resolve("zeros.bin"), new byte[64 * 1024]);
        var result = InProcess.run(new V03ChunkedLong(), zeros.toString(), "--runs", "2", "--workers", "1");
        assertEquals(Harness.ALL_ZEROS, result.exitCode(), result::toString);
        assertEquals("-1", summaries(result).getLast().get("offset"));
    }

    @Test
    void exitsTwoWithOneLineOnError() {
        var result = InProcess.run(new V04Mmap(), dir.resolve("no-such-dir/file.bin").toString(), "--size", "64k");
        assertEquals(Harness.ERROR, result.exitCode(), result::toString);
        assertEquals(1, result.errorLines().size(), result::toString);
        assertEquals("", result.stdout());
    }

    @Test
    void lastLinesOfStdoutAreOneSummaryPerWorkerCount() throws IOException {
        var result = InProcess.run(new V06MmapParallel(), haystack().toString(),
                "--runs", "2", "--warmup", "0", "--workers", "1,2");
        assertEquals(Harness.FOUND, result.exitCode(), result::toString);
        List<Map<String, String>> summaries = summaries(result);
        assertEquals(2, summaries.size(), result::toString);
        assertEquals("1", summaries.get(0).get("workers"));
        assertEquals("2", summaries.get(1).get("workers"));
        for (Map<String, String> summary : summaries) {
            assertEquals("V06MmapParallel", summary.get("variant"));
            assertEquals("2", summary.get("runs"));
            assertEquals(String.valueOf(HAYSTACK_BYTES), summary.get("bytes"));
            assertEquals("warm", summary.get("cache"));
        }
    }

    @Test
    void csvGetsTheDocumentedColumnsAndOneRowPerWorkerCountPerCommand() throws IOException {
        Path file = haystack();
        Path csv = dir.resolve("results.csv");
        for (int command = 0; command < 2; command++) {
            var result = InProcess.run(new V07PreadParallel(), file.toString(),
                    "--runs", "2", "--warmup", "0", "--workers", "1,2", "--csv", csv.toString());
            assertEquals(Harness.FOUND, result.exitCode(), result::toString);
        }
        List<String> lines = Files.readAllLines(csv);
        assertEquals(ResultsCsv.headerLine(), lines.getFirst());
        List<CSVRecord> rows = rows(csv);
        assertEquals(4, rows.size());
        for (CSVRecord row : rows) {
            assertEquals(ResultsCsv.COLUMNS.size(), row.size());
            assertEquals("V07PreadParallel", row.get("chapter"));
            assertEquals("warm", row.get("cache"));
            assertEquals(String.valueOf(HAYSTACK_BYTES), row.get("file_bytes"));
            assertEquals(String.valueOf(Haystack.needleOffset(HAYSTACK_BYTES)), row.get("offset"));
            assertEquals(2, row.get("run_s").split(" ").length);
        }
        assertEquals(List.of("1", "2", "1", "2"), rows.stream().map(row -> row.get("workers")).toList());
    }

    @Test
    void csvWithAnotherHeaderIsRefusedBeforeAnySearch() throws IOException {
        Path file = haystack();
        Path csv = Files.writeString(dir.resolve("other.csv"), "name,score\nada,10\n");
        String before = DiskState.describe(csv);
        AtomicInteger searches = new AtomicInteger();
        NeedleSearch counting = (path, workers) -> {
            searches.incrementAndGet();
            return new V04Mmap().search(path, workers);
        };
        var result = InProcess.run(counting, file.toString(), "--runs", "1", "--csv", csv.toString());
        assertEquals(Harness.ERROR, result.exitCode(), result::toString);
        assertEquals(1, result.errorLines().size(), result::toString);
        assertTrue(result.stderr().contains("not a results CSV"), result::toString);
        assertEquals(0, searches.get());
        assertEquals(before, DiskState.describe(csv));
    }

    @Test
    void printedMeanAndMedianAreWhatStatsComputesFromTheRuns() throws IOException {
        Path csv = dir.resolve("results.csv");
        var result = InProcess.run(new V03ChunkedLong(), haystack().toString(),
                "--runs", "6", "--warmup", "1", "--workers", "1", "--csv", csv.toString());
        assertEquals(Harness.FOUND, result.exitCode(), result::toString);
        CSVRecord row = rows(csv).getFirst();
        double[] runs = Arrays.stream(row.get("run_s").split(" ")).mapToDouble(Double::parseDouble).toArray();
        assertEquals(6, runs.length);
        // The CSV keeps 6 decimals of each figure, stdout 4: equal up to that rounding.
        assertEquals(Stats.trimmedMean(runs), Double.parseDouble(row.get("mean_s")), 2e-6);
        assertEquals(Stats.median(runs), Double.parseDouble(row.get("median_s")), 2e-6);
        Map<String, String> summary = summaries(result).getLast();
        assertEquals(Stats.trimmedMean(runs), Double.parseDouble(summary.get("mean_s")), 1e-4);
        assertEquals(Stats.median(runs), Double.parseDouble(summary.get("median_s")), 1e-4);
    }

    @Test
    void summaryKeysComeInTheDocumentedOrderAndChunkBytesOnlyForChaptersThatReadInChunks() throws IOException {
        Path file = haystack();
        List<String> common = List.of("variant", "workers", "offset", "runs", "mean_s", "median_s", "mbps", "cache", "bytes");
        var mapped = InProcess.run(new V06MmapParallel(), file.toString(), "--runs", "1", "--warmup", "0", "--workers", "2");
        assertEquals(Harness.FOUND, mapped.exitCode(), mapped::toString);
        List<String> mappedKeys = new ArrayList<>(common);
        mappedKeys.addAll(List.of("page_cache", "pmd_mapped_pct")); // a mapped chapter says how it was mapped
        mappedKeys.addAll(KernelBill.keys()); // every chapter ends with its bill
        assertEquals(mappedKeys, keys(mapped.stdout().lines().toList().getLast()));
        var chunked = InProcess.run(new V07PreadParallel(), file.toString(), "--runs", "1", "--warmup", "0", "--workers", "2");
        assertEquals(Harness.FOUND, chunked.exitCode(), chunked::toString);
        List<String> withChunk = new ArrayList<>(common);
        withChunk.addAll(List.of("chunk_bytes", "page_cache"));
        withChunk.addAll(KernelBill.keys());
        assertEquals(withChunk, keys(chunked.stdout().lines().toList().getLast()));
        assertEquals(String.valueOf(ChunkedSearch.DEFAULT_CHUNK_BYTES), summaries(chunked).getLast().get("chunk_bytes"));
    }

    @Test
    void csvChunkCellIsEmptyForAChapterThatDoesNotReadInChunks() throws IOException {
        Path file = haystack();
        Path csv = dir.resolve("results.csv");
        for (NeedleSearch chapter : List.of(new V04Mmap(), new V09MmapParallelVector(), new V03ChunkedLong())) {
            var result = InProcess.run(chapter, file.toString(), "--runs", "1", "--warmup", "0", "--csv", csv.toString());
            assertEquals(Harness.FOUND, result.exitCode(), result::toString);
        }
        List<String> chunkCells = rows(csv).stream().map(row -> row.get("chunk_bytes")).toList();
        assertEquals(List.of("", "", String.valueOf(ChunkedSearch.DEFAULT_CHUNK_BYTES)), chunkCells);
    }

    @Test
    void singleThreadedChapterPrintsAndRecordsOneWorkerWhateverWasAsked() throws IOException {
        Path file = haystack();
        Path csv = dir.resolve("results.csv");
        var result = InProcess.run(new V04Mmap(), file.toString(), "--runs", "1", "--warmup", "0",
                "--workers", "2,4", "--csv", csv.toString());
        assertEquals(Harness.FOUND, result.exitCode(), result::toString);
        assertEquals(List.of("1"), summaries(result).stream().map(summary -> summary.get("workers")).toList());
        assertTrue(result.stderr().contains("--workers 2,4 does not apply"), result::toString);
        assertEquals(List.of("1"), rows(csv).stream().map(row -> row.get("workers")).toList());

        var parallel = InProcess.run(new V06MmapParallel(), file.toString(), "--runs", "1", "--warmup", "0");
        assertEquals(String.valueOf(Runtime.getRuntime().availableProcessors()), summaries(parallel).getLast().get("workers"));
    }

    @Test
    void measurementAppendsACallersRunNotesAndSummaryFields() throws Exception {
        Path file = haystack();
        var out = new java.io.ByteArrayOutputStream();
        var err = new java.io.ByteArrayOutputStream();
        AtomicInteger runs = new AtomicInteger();
        Measurement.Result result;
        try (var outStream = new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8);
             var errStream = new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8)) {
            result = new Measurement("Probe", file, outStream, errStream)
                    .runs(1, 2)
                    .runNote(() -> "note " + runs.get())
                    .pageCache(PageCache.Folios.SMALL)
                    .pmdMappedPercent(() -> java.util.OptionalDouble.of(runs.get()))
                    .time(() -> {
                        runs.incrementAndGet();
                        return new ReferenceSearch().search(file, 1);
                    });
        }
        assertEquals(3, runs.get());
        assertEquals(Haystack.needleOffset(HAYSTACK_BYTES), result.offset());
        assertEquals(2, result.seconds().length);
        assertEquals(1, result.warmupSeconds().length);
        String summary = out.toString(java.nio.charset.StandardCharsets.UTF_8).strip();
        assertEquals(summary, result.summaryLine());
        assertTrue(summary.contains(" bytes=" + HAYSTACK_BYTES + " page_cache=small pmd_mapped_pct=3.0 read_calls_per_gib="), summary);
        assertEquals(java.util.Optional.of(PageCache.Folios.SMALL), result.pageCache());
        assertEquals(3.0, result.pmdMappedPercent().orElseThrow());
        List<Object> row = ResultsCsv.row(result);
        assertEquals("small", row.get(ResultsCsv.COLUMNS.indexOf("page_cache")));
        assertEquals("3.0", row.get(ResultsCsv.COLUMNS.indexOf("pmd_mapped_pct")));
        List<String> errLines = err.toString(java.nio.charset.StandardCharsets.UTF_8).lines().toList();
        List<String> runLines = errLines.stream().filter(line -> line.startsWith("  ")).toList();
        assertEquals(3, runLines.size(), errLines::toString);
        assertTrue(runLines.getLast().endsWith("  note 3"), runLines::toString);
        assertEquals(List.of("Probe: 2 timed runs: MB/s from their median (5 or more give the trimmed mean)"),
                errLines.stream().filter(line -> !line.startsWith("  ")).toList(), "fewer than 5 runs: said once, after them");
    }

    /**
     * A run that lasts says so on stderr while it runs (every 15 s in a chapter; every 50 ms here, with
     * runs that sleep 400 ms, and a sleep is never shorter than asked); the summary line is untouched.
     */
    @Test
    void aLongRunSaysItIsStillRunningOnStderrOnly() throws Exception {
        Path file = haystack();
        var out = new java.io.ByteArrayOutputStream();
        var err = new java.io.ByteArrayOutputStream();
        Measurement.Result result;
        try (var outStream = new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8);
             var errStream = new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8)) {
            result = new Measurement("Probe", file, outStream, errStream).runs(1, 2)
                    .signOfLifeEvery(java.time.Duration.ofMillis(50))
                    .time(() -> {
                        Thread.sleep(400);
                        return new ReferenceSearch().search(file, 1);
                    });
        }
        assertEquals(List.of(result.summaryLine()), out.toString(java.nio.charset.StandardCharsets.UTF_8).lines().toList());
        List<String> lines = err.toString(java.nio.charset.StandardCharsets.UTF_8).lines().toList();
        for (String run : List.of("warm-up 1 of 1", "timed run 1 of 2", "timed run 2 of 2")) {
            assertTrue(lines.stream().anyMatch(line -> line.matches("  still running: " + run + ", \\d+ s")), run + ": " + lines);
        }
        int firstRunLine = lines.indexOf(lines.stream().filter(line -> line.startsWith("  warm-up 1:")).findFirst().orElseThrow());
        assertTrue(lines.subList(0, firstRunLine).stream().allMatch(line -> line.contains("still running: warm-up 1 of 1")),
                "each run's signs of life come before its own line: " + lines);
    }

    /**
     * The phases line says what its figures are (moments since launch, not lengths) after the pairs
     * scripts read; lab/study/AnswerRound reads the pairs before it.
     */
    @Test
    void thePhasesLineEndsWithWhatItsFiguresAre() throws Exception {
        Path file = haystack();
        var quiet = new java.io.PrintStream(java.io.OutputStream.nullOutputStream());
        assertEquals(Harness.FOUND, Harness.execute(new V03ChunkedLong(), new String[] {file.toString(), "--runs", "1", "--warmup", "0"},
                quiet, quiet));
        String line = lib.harness.Phases.line().orElseThrow();
        assertTrue(line.startsWith("phases: origin=") && line.endsWith(" " + lib.harness.Phases.LEGEND), line);
        String pairs = line.substring("phases: ".length(), line.length() - lib.harness.Phases.LEGEND.length()).strip();
        for (String pair : pairs.split(" ")) {
            assertTrue(pair.matches("\\w+=[\\w.]+"), pair + " in " + line);
        }
        assertTrue(lib.harness.Phases.LEGEND.contains("seconds since launch") && lib.harness.Phases.LEGEND.contains("not how long"), lib.harness.Phases.LEGEND);
    }

    /**
     * Without the launcher, the phases count from the process's start, which the kernel records in
     * clock ticks since boot: it lies before the moment the JVM inside it recorded its own start, and
     * within a second of the JDK's own figure, which adds the ticks to a boot time in whole seconds.
     */
    @Test
    void theProcessStartIsTheKernelsToItsTick() {
        long jvmStartMicros = java.lang.management.ManagementFactory.getRuntimeMXBean().getStartTime() * 1_000;
        java.time.Instant jdkFigure = ProcessHandle.current().info().startInstant().orElseThrow();
        long jdkMicros = jdkFigure.getEpochSecond() * 1_000_000 + jdkFigure.getNano() / 1_000;
        long processStartMicros = lib.harness.Phases.processStartMicros();
        long tickMicros = 10_000, uptimeResolutionMicros = 10_000;
        assertTrue(processStartMicros <= jvmStartMicros + tickMicros + uptimeResolutionMicros,
                "process start " + processStartMicros + " after the JVM's " + jvmStartMicros);
        assertTrue(Math.abs(processStartMicros - jdkMicros) <= 1_000_000 + tickMicros + uptimeResolutionMicros,
                "process start " + processStartMicros + " against the JDK's " + jdkMicros);
    }

    /**
     * Fewer than 5 timed runs: nothing is trimmed, so the summary's MB/s comes from the median, which
     * a slow first run cannot drag down (a plain mean of 10.3, 3.9 and 3.8 s would give 2/3 of it).
     */
    @Test
    void fewerThanFiveRunsGiveMegabytesPerSecondFromTheMedian() {
        long bytes = 4L << 30;
        var few = new Measurement.Result("V01ReadAll", 1, "warm", bytes, OptionalLong.empty(), bytes - 8, new double[0],
                new double[] {10.3, 3.9, 3.8});
        assertEquals(bytes / 3.9 / 1e6, few.megabytesPerSecond(), 1e-6);
        assertTrue(few.summaryLine().contains(" runs=3 ") && few.summaryLine().contains(" mbps=" + Math.round(bytes / 3.9 / 1e6) + " "),
                few.summaryLine());
        assertEquals(Math.round(bytes / 3.9 / 1e6), ResultsCsv.row(few).get(ResultsCsv.COLUMNS.indexOf("mbps")), "the CSV's MB/s too");
        var five = new Measurement.Result("V01ReadAll", 1, "warm", bytes, OptionalLong.empty(), bytes - 8, new double[0],
                new double[] {10.3, 3.9, 3.8, 4.1, 3.7});
        assertEquals(bytes / ((3.9 + 3.8 + 4.1) / 3) / 1e6, five.megabytesPerSecond(), 1e-6, "5 runs: the article's trimmed mean");
    }

    /** A check after the runs that refuses the figures leaves no summary line: nothing to read as a result. */
    @Test
    void aRefusalAfterTheRunsPrintsNoSummary() throws Exception {
        Path file = haystack();
        var out = new java.io.ByteArrayOutputStream();
        var sink = new java.io.PrintStream(java.io.OutputStream.nullOutputStream());
        try (var outStream = new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8)) {
            var refused = assertThrows(FileChangedException.class, () -> new Measurement("Probe", file, outStream, sink).runs(0, 2)
                    .afterRuns(() -> {
                        throw new FileChangedException("the page cache changed");
                    })
                    .time(() -> new ReferenceSearch().search(file, 1)));
            assertEquals("the page cache changed", refused.getMessage());
        }
        assertEquals("", out.toString(java.nio.charset.StandardCharsets.UTF_8));
    }

    /** A Result made without a page-cache state (a Go row) leaves both columns empty. */
    @Test
    void aResultWithoutAPageCacheStateLeavesItsColumnsEmpty() {
        var go = new Measurement.Result("Go v1", 2, "warm", 64, OptionalLong.empty(), 56, new double[0], new double[] {0.5});
        List<Object> row = ResultsCsv.row(go);
        assertEquals("", row.get(ResultsCsv.COLUMNS.indexOf("page_cache")));
        assertEquals("", row.get(ResultsCsv.COLUMNS.indexOf("pmd_mapped_pct")));
        assertFalse(go.summaryLine().contains("page_cache"), go.summaryLine());
    }

    @Test
    void measurementRefusesAnAnswerThatIsNotTheNeedle() throws Exception {
        Path file = haystack();
        var sink = new java.io.PrintStream(java.io.OutputStream.nullOutputStream());
        var wrong = assertThrows(WrongAnswerException.class,
                () -> new Measurement("Liar", file, sink, sink).runs(0, 1).time(() -> 0));
        assertTrue(wrong.getMessage().contains("plain scan finds " + Haystack.needleOffset(HAYSTACK_BYTES)), wrong::getMessage);
        Path zeros = Files.write(dir.resolve("zeros.bin"), new byte[4096]);
        assertEquals(OptionalLong.empty(), Haystack.expectedAnswer(zeros), "a file without the needle has no expected answer");
        assertEquals(NeedleSearch.NOT_FOUND, new Measurement("Zeros", zeros, sink, sink).runs(0, 1)
                .time(() -> NeedleSearch.NOT_FOUND).offset());
    }

    @Test
    void versionNamesTheProjectTheJdkAndTheVectorWidth() {
        var result = InProcess.run(new V04Mmap(), "--version");
        assertEquals(0, result.exitCode(), result::toString);
        String version = result.stdout().strip();
        assertTrue(version.startsWith("haystack-search " + ProjectVersion.VERSION + ", JDK " + Runtime.version()), version);
        assertTrue(version.contains(jdk.incubator.vector.LongVector.SPECIES_PREFERRED.vectorBitSize() + "-bit vectors"), version);
    }

    /**
     * {@code --version} alone is answered before picocli builds its model of the options (most of what
     * it used to wait for), with the line picocli prints when other options come with it.
     */
    @Test
    void versionAloneIsAnsweredWithoutPicocliAndAsPicocliAnswersIt() throws IOException, InterruptedException {
        String throughPicocli = InProcess.run(new V13PreadVector(), "--runs", "3", "--version").stdout();
        assertTrue(throughPicocli.startsWith("haystack-search "), throughPicocli);
        for (String alone : List.of("--version", "-V")) {
            var result = InProcess.run(new V13PreadVector(), alone);
            assertEquals(0, result.exitCode(), result::toString);
            assertEquals(throughPicocli, result.stdout(), alone);
        }
        Path classLog = dir.resolve("classes.log");
        Subprocess.Result fresh = Subprocess.run(Subprocess.javaCommand(List.of("-Xlog:class+load=info:file=" + classLog),
                "V13PreadVector", "--version"), dir.resolve("logs"));
        assertEquals(0, fresh.exitCode(), fresh::toString);
        assertEquals(throughPicocli, fresh.stdout(), fresh::toString);
        String loaded = Files.readString(classLog);
        assertTrue(loaded.contains("lib.harness.ProjectVersion "), "the log names no class of the project:\n" + loaded);
        assertFalse(loaded.contains("picocli.CommandLine$Model$CommandSpec "), "picocli built its model for --version alone");
    }

    @Test
    void theEarlyCompileIsSkippedOnlyWherePicocliAnswersWithoutASearch() {
        for (String[] args : List.of(new String[] {"--version"}, new String[] {"-V"}, new String[] {"--help"},
                new String[] {"-h"}, new String[] {"-hV"}, new String[] {"haystack.bin", "--runs", "3", "--version"})) {
            assertTrue(Harness.asksOnlyForHelpOrVersion(args), Arrays.toString(args));
            var result = InProcess.run(new V13PreadVector(), args);
            assertEquals(0, result.exitCode(), result::toString);
            assertTrue(result.stdout().startsWith("haystack-search ") || result.stdout().startsWith("Usage: "), result::toString);
        }
        for (String[] args : List.of(new String[] {}, new String[] {"haystack.bin", "--runs", "1", "--warmup", "0"},
                new String[] {"--version-file"}, new String[] {"-x"})) {
            assertFalse(Harness.asksOnlyForHelpOrVersion(args), Arrays.toString(args));
        }
    }

    @Test
    void helpSynopsisReadsAsReadmeWritesItAndOffersChunkOnlyWhereItApplies() {
        var chunked = InProcess.run(new V13PreadVector(), "--help");
        assertEquals(0, chunked.exitCode(), chunked::toString);
        String synopsis = chunked.stdout().substring(0, chunked.stdout().indexOf("Finds the first"));
        assertTrue(synopsis.startsWith("Usage: V13PreadVector [FILE] "), synopsis);
        assertTrue(synopsis.contains(" [--workers N[,N...]]") && synopsis.contains(" [--chunk SIZE[,SIZE...]]"), synopsis);
        assertFalse(chunked.stdout().contains("...]..."), chunked.stdout());
        var mapped = InProcess.run(new V04Mmap(), "--help");
        assertFalse(mapped.stdout().substring(0, mapped.stdout().indexOf("Finds the first")).contains("--chunk"), mapped::toString);
    }

    @Test
    void creatingASmallHaystackOffATerminalPrintsNoProgress() throws Exception {
        Path file = dir.resolve("new.bin");
        var result = Subprocess.run(Subprocess.javaCommand(List.of(), "V04Mmap", file.toString(), "--size", "4m",
                "--runs", "1", "--warmup", "0"), dir.resolve("logs"));
        assertEquals(Harness.FOUND, result.exitCode(), result::toString);
        assertTrue(result.stderr().contains("creating a 4.0 MiB haystack"), result::toString);
        assertFalse(result.stderr().contains("writing haystack"), result::toString);
    }

    private static List<String> keys(String summaryLine) {
        return Arrays.stream(summaryLine.split(" ")).map(pair -> pair.substring(0, pair.indexOf('='))).toList();
    }

    /** The trailing {@code key=value} lines of stdout, one map per line. */
    static List<Map<String, String>> summaries(Subprocess.Result result) {
        return result.stdout().lines().filter(line -> line.startsWith("variant=")).map(line -> {
            Map<String, String> pairs = new HashMap<>();
            for (String pair : line.split(" ")) {
                int equals = pair.indexOf('=');
                assertTrue(equals > 0, () -> "not key=value: " + pair + " in " + line);
                pairs.put(pair.substring(0, equals), pair.substring(equals + 1));
            }
            return pairs;
        }).toList();
    }

    static List<CSVRecord> rows(Path csv) throws IOException {
        try (Reader reader = Files.newBufferedReader(csv)) {
            return CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).build().parse(reader).getRecords();
        }
    }
}
