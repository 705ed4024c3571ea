import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import lib.chapter.EarlyCompile;
import lib.chapter.NeedleSearch;
import org.junit.jupiter.api.Test;

/**
 * The early compile runs the kernel it is given on a thread of its own, over a buffer of zeros of its
 * own, and after {@link EarlyCompile#stop()} it no longer runs at all: the harness stops it before
 * the first run, so no timed run shares a core with it. The harness finds the kernel a chapter
 * declares by its names, and never one of a chapter that maps the file.
 */
class EarlyCompileTest {

    @Test
    void theHarnessCompilesChapter13sWidestKernelEarlyWithItsOwnSliceAndNoMappedChaptersKernel() {
        EarlyCompile.Declared declared = EarlyCompile.declaredBy(V13PreadVector.class).orElseThrow();
        assertEquals(V13PreadVector.SCAN_SLICE_BYTES, declared.sliceBytes());
        try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
            var segment = arena.allocate(4096, 64);
            assertEquals(NeedleSearch.NOT_FOUND, declared.kernel().firstNonZeroWord(segment, 0, 4096));
            segment.set(java.lang.foreign.ValueLayout.JAVA_BYTE, 4001, (byte) 1);
            assertEquals(4000, declared.kernel().firstNonZeroWord(segment, 0, 4096), "it runs the chapter's own kernel");
        }
        assertTrue(EarlyCompile.declaredBy(V16MmapHugePages.class).isEmpty(), "chapter 16 maps the file");
        assertTrue(EarlyCompile.declaredBy(V11PreadParallelVector256.class).isEmpty(), "chapter 11 has no widest kernel");
        assertTrue(EarlyCompile.declaredBy(V04Mmap.class).isEmpty());
        assertTrue(EarlyCompile.declaredBy(V14DirectIo.class).isEmpty(), "chapter 14 reads around the page cache");
    }

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
        }, 64 << 10);
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
