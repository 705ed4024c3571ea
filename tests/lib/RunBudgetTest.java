import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import lib.chapter.NeedleSearch;
import lib.harness.Harness;
import lib.harness.Measurement;
import lib.harness.ResultsCsv;
import lib.harness.RunBudget;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The time budget: how many timed runs a measurement takes, decided from the durations measured.
 * The decisions are asserted on given durations; where a real loop runs, its action sleeps, and a
 * sleep is never shorter than asked, so a busy machine can only make a run slower, never faster
 * than the threshold the test relies on.
 */
class RunBudgetTest {

    @TempDir
    Path directory;

    private static final RunBudget BUDGET = RunBudget.STANDARD;

    @Test
    void quickRunsAreAllTaken() {
        assertEquals(5, BUDGET.timedRuns(5, new double[] {}));
        assertEquals(5, BUDGET.timedRuns(5, new double[] {0.3, 4.9, 0.2}));
        assertEquals(10, BUDGET.timedRuns(10, new double[] {1, 1, 1, 1, 1, 1}));
        assertTrue(BUDGET.another(5, new double[] {0.3, 0.3, 0.3, 0.3}));
        assertFalse(BUDGET.another(5, new double[] {0.3, 0.3, 0.3, 0.3, 0.3}), "never more than asked");
    }

    @Test
    void aRunOfMoreThanAFewSecondsStopsAtThree() {
        assertEquals(3, BUDGET.timedRuns(5, new double[] {6}));
        assertTrue(BUDGET.another(5, new double[] {6, 6}));
        assertFalse(BUDGET.another(5, new double[] {6, 6, 6}));
        assertEquals(3, BUDGET.timedRuns(5, new double[] {0.5, 0.5, 12}), "a slow run late still stops at three");
        assertEquals(4, BUDGET.timedRuns(5, new double[] {0.5, 0.5, 0.5, 12}), "runs already taken stay taken");
        assertEquals(2, BUDGET.timedRuns(2, new double[] {6}), "never more than asked");
    }

    @Test
    void aRunLongerThanTheBudgetIsTheOnlyOne() {
        assertEquals(1, BUDGET.timedRuns(5, new double[] {143}), "chapter 2 on a slow machine: one timed pass");
        assertFalse(BUDGET.another(5, new double[] {31}));
        assertTrue(BUDGET.another(5, new double[] {}), "at least one timed run, whatever the warm-up took");
    }

    @Test
    void withoutABudgetEveryRunAskedForIsTaken() {
        assertEquals(5, RunBudget.NONE.timedRuns(5, new double[] {143, 143}));
        assertTrue(RunBudget.NONE.another(5, new double[] {143, 143, 143, 143}));
        assertEquals(java.util.Optional.empty(), RunBudget.NONE.note("V02BufferedByte", 5, new double[] {143, 143, 143, 143, 143}));
    }

    @Test
    void theNoteSaysWhyInOneLine() {
        String note = BUDGET.note("V02BufferedByte", 5, new double[] {143.2}).orElseThrow();
        assertEquals("V02BufferedByte: a run took 143.2 s, longer than the 30 s budget, so 1 timed run instead of 5 "
                + "(--runs 5 takes them all)", note);
        assertTrue(BUDGET.note("V01ReadAll", 5, new double[] {6, 7, 6}).orElseThrow().contains("longer than 5 s, so 3 timed runs instead of 5"));
        assertEquals(java.util.Optional.empty(), BUDGET.note("V13PreadVector", 5, new double[] {0.1, 0.1, 0.1, 0.1, 0.1}));
    }

    /** The loop itself, with an action slower than a budget scaled down to milliseconds: each run reads to the answer. */
    @Test
    void theLoopStopsAtTheBudgetAndRecordsTheRunsItTook() throws Exception {
        Path zeros = Files.write(directory.resolve("zeros.bin"), new byte[4096]);
        AtomicInteger calls = new AtomicInteger();
        Measurement.TimedAction slow = () -> {
            calls.incrementAndGet();
            Thread.sleep(25); // at least 25 ms: slower than the scaled budget's 10 ms "few seconds"
            return NeedleSearch.NOT_FOUND;
        };
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Measurement.Result threeRuns = measure(zeros, new RunBudget(0.010, 1_000), slow, err);
        assertEquals(3, threeRuns.seconds().length);
        assertEquals(1 + 3, calls.get(), "the warm-up and three timed runs, each to its end");
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("so 3 timed runs instead of 5"), err.toString(StandardCharsets.UTF_8));
        List<?> row = ResultsCsv.row(threeRuns);
        assertEquals(3, row.get(ResultsCsv.COLUMNS.indexOf("runs")), "the CSV's runs column says how many were taken");
        assertEquals(3, row.get(ResultsCsv.COLUMNS.indexOf("run_s")).toString().split(" ").length);

        calls.set(0);
        Measurement.Result oneRun = measure(zeros, new RunBudget(0.001, 0.010), slow, new ByteArrayOutputStream());
        assertEquals(1, oneRun.seconds().length, "a run over the whole budget: one timed run");
        assertEquals(2, calls.get());
        assertTrue(oneRun.summaryLine().contains(" runs=1 "), oneRun.summaryLine());

        calls.set(0);
        Measurement.Result all = measure(zeros, RunBudget.NONE, slow, new ByteArrayOutputStream());
        assertEquals(5, all.seconds().length, "no budget: every run");
        assertEquals(6, calls.get());
    }

    private static Measurement.Result measure(Path file, RunBudget budget, Measurement.TimedAction action, ByteArrayOutputStream err)
            throws IOException, InterruptedException {
        try (PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8);
             PrintStream sink = new PrintStream(java.io.OutputStream.nullOutputStream())) {
            return new Measurement("Slow", file, sink, errStream).runs(1, 5).budget(budget).time(action);
        }
    }

    /** A chapter run alone takes the budget unless --runs is given; its row records the runs it took. */
    @Test
    void aChapterHonoursAGivenRunsAndOtherwiseTakesTheBudget() throws Exception {
        Path file = Files.write(directory.resolve("small.bin"), new byte[1 << 16]);
        Path csv = directory.resolve("rows.csv");
        var quiet = new PrintStream(java.io.OutputStream.nullOutputStream());
        assertEquals(Harness.ALL_ZEROS, Harness.execute(new V03ChunkedLong(), new String[] {file.toString(), "--warmup", "0",
                "--csv", csv.toString()}, quiet, quiet));
        assertEquals(Harness.ALL_ZEROS, Harness.execute(new V03ChunkedLong(), new String[] {file.toString(), "--runs", "7",
                "--warmup", "0", "--csv", csv.toString()}, quiet, quiet));
        List<CSVRecord> rows = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).build()
                .parse(Files.newBufferedReader(csv)).getRecords();
        assertEquals("5", rows.get(0).get("runs"), "quick runs, no --runs: the default 5");
        assertEquals("7", rows.get(1).get("runs"), "--runs 7 is honoured");
    }

    @picocli.CommandLine.Command
    static final class Options {
        @picocli.CommandLine.Mixin
        lib.harness.RunOptions runOptions;
    }

    private static lib.harness.RunOptions parse(String... args) {
        Options options = new Options();
        new picocli.CommandLine(options).parseArgs(args);
        return options.runOptions;
    }

    @Test
    void aRunsGivenTurnsTheBudgetOffUnlessBudgeted() {
        assertEquals(RunBudget.STANDARD, parse().budget());
        assertEquals(5, parse().runs());
        assertEquals(RunBudget.NONE, parse("--runs", "5").budget(), "--runs 5 given: every run, however slow");
        assertEquals(RunBudget.STANDARD, parse("--runs", "3", "--budgeted").budget());
        assertEquals(3, parse("--runs", "3", "--budgeted").runs());
    }
}
