import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import lib.chapter.NeedleSearch;
import lib.harness.Measurement;
import lib.harness.ResultsCsv;
import lab.tools.ChildProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * lab/tools/ChildProcess.java, the one way the tools start a program and wait for it: a child that
 * prints without end, never ends, or exits 1 without answering (lab/study/ChapterExit.java).
 */
class ChildProcessTest {

    private static final Duration SHORT = Duration.ofSeconds(2);

    @Test
    void endlessOutputIsKeptBoundedAndTheChildIsStoppedAtItsLimitAfterALineSayingWhatIsAwaited() throws Exception {
        List<String> notes = new ArrayList<>();
        long[] relayed = {0};
        ChildProcess.Ended ended = ChildProcess.of(List.of("yes", "v1-naive-readall"))
                .timeLimit(SHORT, 0)
                .relayOut(line -> relayed[0]++)
                .run("yes, forever", notes::add);
        assertEquals(List.of("waiting for yes, forever (at most 2 s)"), notes);
        assertTrue(ended.timedOut(), ended.toString());
        assertFalse(ChapterExit.answered(ended, List.of()));
        assertTrue(ended.timeOutLine().contains("yes, forever") && ended.timeOutLine().contains("stopped"), ended.timeOutLine());
        assertTrue(relayed[0] > ChildProcess.TAIL_LINES, "every line was relayed: " + relayed[0]);
        assertEquals(ChildProcess.TAIL_LINES, ended.stdout().size(), "only the last lines are kept");
        assertEquals("v1-naive-readall", ended.stdout().getLast());
    }

    /** A child ended by SIGTERM (status 143) was stopped on purpose: the tool stops too, rather than going on to its next step. */
    @Test
    void aChildEndedBySigtermStopsTheTool() {
        ChildProcess.StoppedException stopped = org.junit.jupiter.api.Assertions.assertThrows(ChildProcess.StoppedException.class,
                () -> ChildProcess.of(List.of("sh", "-c", "kill -TERM $$")).timeLimit(Duration.ofSeconds(60), 0).run("a child stopped", line -> {}));
        assertTrue(stopped.getMessage().contains("a child stopped was stopped by a signal (status 143)"), stopped.getMessage());
    }

    @Test
    void aLineWithoutEndIsCut() throws Exception {
        ChildProcess.Ended ended = ChildProcess.of(List.of("sh", "-c", "head -c 3000000 /dev/zero | tr '\\0' x; echo; echo after"))
                .timeLimit(Duration.ofSeconds(60), 0)
                .run("a long line", note -> {});
        assertEquals(0, ended.status());
        assertEquals(2, ended.stdout().size(), "the cut line, then the next");
        assertEquals("x".repeat(ChildProcess.MAX_LINE_CHARS) + " [cut]", ended.stdout().getFirst());
        assertEquals("after", ended.stdout().getLast());
    }

    @Test
    void aChildThatNeverEndsIsStoppedWithItsOwnChildren() throws Exception {
        ChildProcess.Ended ended = ChildProcess.of(List.of("sh", "-c", "sleep 1000 & echo $!; wait"))
                .timeLimit(SHORT, 0)
                .run("a sleeper", note -> {});
        assertTrue(ended.timedOut());
        long grandchild = Long.parseLong(ended.stdout().getFirst());
        // Left alone it would sleep for 1000 s; stopped, it is gone as soon as its new parent reaps it.
        Optional<ProcessHandle> left = ProcessHandle.of(grandchild);
        if (left.isPresent()) {
            left.get().onExit().get(Subprocess.PATIENCE_SECONDS, TimeUnit.SECONDS);
        }
        assertFalse(ProcessHandle.of(grandchild).map(ProcessHandle::isAlive).orElse(false), "its child is stopped too");
    }

    @Test
    void theLimitGrowsWithTheBytesToReadAtTheSlowestPlausibleSpeed() throws Exception {
        List<String> notes = new ArrayList<>();
        ChildProcess.of(List.of("true")).timeLimit(Duration.ofSeconds(30), 600 * ChildProcess.SLOWEST_BYTES_PER_SECOND)
                .run("true", notes::add);
        assertEquals(List.of("waiting for true (at most 10 min 30 s)"), notes);
    }

    /**
     * Exit status 1 is "the file is all zeros" only with a row that says so (offset -1) appended to
     * the results CSV it was given; a JVM that cannot start exits 1 too, and writes none. Rows that
     * were there before it started are not its own.
     */
    @Test
    void statusOneIsAnAnswerOnlyWithARowOfOffsetMinusOne(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("scoreboard.csv");
        Path zeros = rows(dir.resolve("zeros.csv"), NeedleSearch.NOT_FOUND), found = rows(dir.resolve("found.csv"), 67108856);
        ResultsCsv.append(csv, List.of(row(NeedleSearch.NOT_FOUND))); // an earlier chapter's
        assertFalse(answered(1, null, csv), "no row of its own: a JVM that could not start");
        assertTrue(answered(1, zeros, csv));
        assertFalse(answered(1, found, csv), "1 with a needle found is no answer");
        assertTrue(answered(0, found, csv));
        assertFalse(answered(2, zeros, csv));
    }

    private static List<Object> row(long offset) {
        return ResultsCsv.row(new Measurement.Result("V04Mmap", 1, "warm", 64L << 20, OptionalLong.empty(), offset,
                new double[0], new double[] {0.01}, Optional.empty(), OptionalDouble.empty()));
    }

    /** A results CSV's rows without its header, as a chapter appends them. */
    private static Path rows(Path file, long offset) throws Exception {
        Path whole = file.resolveSibling("whole-" + file.getFileName());
        ResultsCsv.append(whole, List.of(row(offset)));
        Files.write(file, Files.readAllLines(whole).subList(1, 2));
        return file;
    }

    /** Whether a child that appends {@code rows} (none when null) to {@code csv} and exits with {@code status} answered, by the rows it added. */
    private static boolean answered(int status, Path rows, Path csv) throws Exception {
        int before = ResultsCsv.rows(csv).size();
        String append = rows == null ? "" : "cat \"$1\" >> \"$2\"; ";
        ChildProcess.Ended ended = ChildProcess.of(List.of("sh", "-c", append + "exit " + status, "sh", String.valueOf(rows), String.valueOf(csv)))
                .run("sh", note -> {});
        List<java.util.Map<String, String>> after = ResultsCsv.rows(csv);
        return ChapterExit.answered(ended, after.subList(before, after.size()));
    }
}
