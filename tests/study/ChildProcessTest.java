import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * study/ChildProcess.java, the one way the tools start a program and wait for it: a child that
 * prints without end, never ends, or exits 1 without answering.
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
        assertFalse(ended.answered());
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

    /** Exit status 1 is "the file is all zeros" only with a summary line that says so; a JVM that cannot start exits 1 too. */
    @Test
    void statusOneIsAnAnswerOnlyWithASummaryLineOfOffsetMinusOne() throws Exception {
        String zeros = "variant=V04Mmap workers=1 offset=-1 runs=1 mean_s=0.0100 median_s=0.0100 mbps=6711 cache=warm bytes=67108864";
        assertTrue(exit(1, zeros).answered());
        assertFalse(exit(1, "Error occurred during initialization of VM").answered(), "no summary line");
        assertFalse(exit(1, zeros.replace("offset=-1", "offset=67108856")).answered(), "1 with a needle found is no answer");
        assertTrue(exit(0, zeros.replace("offset=-1", "offset=67108856")).answered());
        assertFalse(exit(2, zeros).answered());
        assertEquals("0.0100", exit(0, zeros).summary().orElseThrow().fields().get("median_s"));
    }

    private static ChildProcess.Ended exit(int status, String stdout) throws Exception {
        return ChildProcess.of(List.of("sh", "-c", "echo \"$0\"; exit " + status, stdout)).run("sh", note -> {});
    }
}
