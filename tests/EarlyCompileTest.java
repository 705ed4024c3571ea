import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import lib.EarlyCompile;
import lib.NeedleSearch;
import org.junit.jupiter.api.Test;

/**
 * The early compile runs the kernel it is given on a thread of its own, over a buffer of zeros of its
 * own, and after {@link EarlyCompile#stop()} it no longer runs at all: the harness stops it before
 * the first run, so no timed run shares a core with it.
 */
class EarlyCompileTest {

    @Test
    void runsTheKernelOverItsOwnZerosUntilStopped() throws InterruptedException {
        AtomicLong calls = new AtomicLong();
        AtomicLong nonZeroBytes = new AtomicLong();
        EarlyCompile.start((segment, from, to) -> {
            for (long offset = from; offset < to; offset++) {
                if (segment.get(java.lang.foreign.ValueLayout.JAVA_BYTE, offset) != 0) {
                    nonZeroBytes.incrementAndGet();
                }
            }
            calls.incrementAndGet();
            return NeedleSearch.NOT_FOUND;
        });
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (calls.get() < 3 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        EarlyCompile.stop();
        long afterStop = calls.get();
        assertTrue(afterStop >= 3, "the kernel ran " + afterStop + " times");
        Thread.sleep(200);
        assertEquals(afterStop, calls.get(), "the kernel still ran after stop()");
        assertEquals(0, nonZeroBytes.get(), "the buffer held non-zero bytes");
    }
}
