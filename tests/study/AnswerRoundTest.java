import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import lib.haystack.Haystack;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The answer round: a chapter's phases line read back into phases, and a real one-shot timed into answer.csv. */
class AnswerRoundTest {

    @TempDir
    Path directory;

    record Outcome(int status, String out, String err) {}

    static Outcome round(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int status = AnswerRound.execute(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Outcome(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** A chapter's name longer than the file-size limit below, so that its row cannot be written whole. */
    static final String LONG_CHAPTER = "V13PreadVector" + "x".repeat(4096);

    /** Appends one row to the answer CSV named, in a process of its own (for a file-size limit); one line and status 2 on failure. */
    public static final class AppendOneRow {
        public static void main(String[] args) {
            AnswerRound.Run run = AnswerRound.parsePhases(1.300, List.of("phases: origin=launcher jvm_s=0.200 main_s=0.500 "
                    + "checked_s=0.600 preread_s=0.650 first_search_s=1.100 answer_s=1.150 preread=no")).orElseThrow();
            List<String> row = AnswerRound.javaRow(LONG_CHAPTER, List.of(run));
            try {
                AnswerRound.append(Path.of(args[0]), List.of(row));
            } catch (IOException e) {
                System.err.println(e.getMessage());
                System.exit(2);
            }
        }
    }

    /** A full disk (here a file-size limit) while the round writes its row: the file is named, and no empty or half file is left. */
    @Test
    void aRowThatCannotBeWrittenLeavesNoFileBehindAndResumeTakesAnEmptyOne() throws Exception {
        Path csv = directory.resolve("answer.csv");
        List<String> command = Subprocess.afterShell("ulimit -f 1", // 1024 bytes
                Subprocess.javaCommand(List.of("-XX:-UsePerfData"), AppendOneRow.class.getName(), csv.toString()));
        Subprocess.Result result = Subprocess.run(command, directory.resolve("logs"));
        assertEquals(2, result.exitCode(), result.toString());
        assertTrue(result.stderr().contains(csv.toString()), "the file is named: " + result);
        assertTrue(!result.stderr().contains("\tat "), "no stack trace: " + result);
        assertTrue(!Files.exists(csv), "no empty or half answer.csv is left");

        // An empty answer.csv, as a full disk left one before: --resume finds no row in it, and the round writes into it.
        Files.createFile(csv);
        assertEquals(java.util.Set.of(), AnswerRound.rowsPresent(csv));
        Subprocess.Result appended = Subprocess.run(Subprocess.javaCommand(List.of(), AppendOneRow.class.getName(), csv.toString()),
                directory.resolve("logs-2"));
        assertEquals(0, appended.exitCode(), appended.toString());
        assertEquals(java.util.Set.of(AnswerRound.resumeKey(LONG_CHAPTER)), AnswerRound.rowsPresent(csv));
    }

    @Test
    void aPhasesLineBecomesPhasesThatAddUpToTheWholeRun() {
        List<String> stderr = List.of("V13PreadVector: scanning with 512-bit vectors",
                "phases: origin=launcher jvm_s=0.200 main_s=0.500 checked_s=0.600 preread_s=0.650 first_search_s=1.100 answer_s=1.150 preread=no");
        AnswerRound.Run run = AnswerRound.parsePhases(1.300, stderr).orElseThrow();
        Map<String, Double> phases = run.phases();
        assertEquals(AnswerRound.PHASES, List.copyOf(phases.keySet()));
        double[] expected = {0.200, 0.300, 0.100, 0.050, 0.450, 0.050, 0.150};
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], phases.get(AnswerRound.PHASES.get(i)), 1e-9, AnswerRound.PHASES.get(i));
        }
        assertEquals(1.300, phases.values().stream().mapToDouble(Double::doubleValue).sum(), 1e-9);
        assertEquals(false, run.preread());
    }

    @Test
    void aRunNotStartedByTheLauncherHasNoPhasesToSplit() {
        assertTrue(AnswerRound.parsePhases(1.0, List.of("phases: origin=process main_s=0.500 checked_s=0.600")).isEmpty());
        assertTrue(AnswerRound.parsePhases(1.0, List.of("no phases here")).isEmpty());
    }

    @Test
    void launcherTimesFromAnotherLaunchAreNotTakenForThisOne() {
        assertEquals(1_700_000_000_123_456L, lib.harness.Phases.epochMicros("1700000000.123456"));
        assertEquals(1_700_000_000_123_456L, lib.harness.Phases.epochMicros("1700000000,123456"));
        assertEquals(-1, lib.harness.Phases.epochMicros("not a time"));
        assertEquals(-1, lib.harness.Phases.epochMicros(null));
    }

    @Test
    void aOneShotIsTimedFromTheShellToItsExitIntoTheCsv() throws IOException {
        Path haystack = directory.resolve("haystack.bin");
        Haystack.create(haystack, 1 << 20);
        Path csv = directory.resolve("answer.csv");
        Outcome outcome = round(haystack.toString(), "--only", "V04", "--runs", "1", "--csv", csv.toString());
        assertEquals(0, outcome.status(), outcome.err());
        List<String> lines = Files.readAllLines(csv);
        assertEquals(String.join(",", AnswerRound.COLUMNS), lines.getFirst());
        assertEquals(2, lines.size(), String.join("\n", lines));
        String[] row = lines.get(1).split(",");
        assertEquals("V04Mmap", row[AnswerRound.COLUMNS.indexOf("chapter")]);
        double whole = Double.parseDouble(row[AnswerRound.COLUMNS.indexOf("median_s")]), phases = 0;
        for (String phase : AnswerRound.PHASES) {
            double seconds = Double.parseDouble(row[AnswerRound.COLUMNS.indexOf(phase + "_s")]);
            assertTrue(seconds >= 0, phase + " " + seconds);
            phases += seconds;
        }
        assertEquals(whole, phases, 0.002, "with one run, the phases are that run's whole time, to the CSV's rounding");
        assertTrue(Double.parseDouble(row[AnswerRound.COLUMNS.indexOf("launcher_s")]) > 0, lines.get(1));
    }

    @Test
    void aCsvOfAnotherKindIsRefusedBeforeAnythingRuns() throws IOException {
        Path haystack = directory.resolve("haystack.bin");
        Haystack.create(haystack, 1 << 16);
        Path csv = Files.writeString(directory.resolve("scoreboard.csv"), "date,chapter,workers\n");
        Outcome outcome = round(haystack.toString(), "--only", "V04", "--csv", csv.toString());
        assertEquals(2, outcome.status());
        assertEquals(1, outcome.err().lines().count(), outcome.err());
        assertTrue(outcome.err().contains("not an answer-round CSV"), outcome.err());
        assertEquals("date,chapter,workers\n", Files.readString(csv));
    }

    @Test
    void anUnknownChapterIsOneLine() throws IOException {
        Path haystack = directory.resolve("haystack.bin");
        Haystack.create(haystack, 1 << 16);
        Outcome outcome = round(haystack.toString(), "--only", "V99");
        assertEquals(2, outcome.status());
        assertEquals(List.of("AnswerRound: --only V99 matches 0 chapters in variants/"), outcome.err().lines().toList());
    }
}
