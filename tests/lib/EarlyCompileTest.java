import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import lib.chapter.BypassesPageCache;
import lib.chapter.ChapterTrait;
import lib.chapter.CompilesEarly;
import lib.chapter.EarlyCompile;
import lib.chapter.MapsTheFile;
import lib.chapter.NeedleSearch;
import org.junit.jupiter.api.Test;

/**
 * The early compile runs the kernel it is given on a thread of its own, over a buffer of zeros of its
 * own, and after {@link EarlyCompile#stop()} it no longer runs at all: the harness stops it before
 * the first run, so no timed run shares a core with it. The harness knows a chapter's kernel only
 * through what the chapter hands it ({@link CompilesEarly}), and never compiles early the kernel of
 * a chapter that maps the file or reads around the page cache, even one that asks.
 */
class EarlyCompileTest {

    @Test
    void theHarnessCompilesTheKernelAndSliceTheChapterHandsOver() {
        assertHandsOverItsKernel(new V13PreadVector(), V13PreadVector.SCAN_SLICE_BYTES);
        assertHandsOverItsKernel(new V17ReadDontCache(), V17ReadDontCache.SCAN_SLICE_BYTES);
    }

    /** Chapters 13 and 17 read through the page cache into buffers of their own with the widest kernel: the one-shot's chapters. */
    @Test
    void theChaptersThatHandOverAKernelAreThoseThatScanTheirOwnBuffersThroughThePageCache() {
        List<String> handing = Contents.CHAPTERS.stream().filter(CompilesEarly.class::isAssignableFrom).map(Class::getSimpleName).toList();
        assertEquals(List.of("V13PreadVector", "V17ReadDontCache"), handing);
        for (Class<?> chapter : Contents.CHAPTERS) {
            Set<ChapterTrait> traits = ChapterTrait.of(chapter);
            if (CompilesEarly.class.isAssignableFrom(chapter)) {
                assertTrue(traits.contains(ChapterTrait.READS_IN_CHUNKS), chapter + " scans no buffer of its own");
                assertFalse(traits.contains(ChapterTrait.MAPS_THE_FILE) || traits.contains(ChapterTrait.BYPASSES_PAGE_CACHE), chapter.toString());
            }
        }
        for (NeedleSearch chapter : List.of(new V04Mmap(), new V11PreadParallelVector256(), new V14DirectIo(), new V16MmapHugePages())) {
            assertTrue(EarlyCompile.declaredBy(chapter).isEmpty(), chapter.getClass().getSimpleName());
        }
    }

    /** A chapter that maps the file, or reads around the cache, gets no early compile even if it hands over a kernel. */
    @Test
    void aChapterThatMapsTheFileOrBypassesTheCacheIsNotCompiledEarlyEvenIfItAsks() {
        CompilesEarly.Scan scan = new CompilesEarly.Scan((segment, from, to) -> NeedleSearch.NOT_FOUND, 64 << 10);
        assertTrue(EarlyCompile.declaredBy(new Asking(scan)).isPresent(), "the control: a chapter that only asks");
        assertTrue(EarlyCompile.declaredBy(new AskingAndMapping(scan)).isEmpty(), "a chapter that maps the file");
        assertTrue(EarlyCompile.declaredBy(new AskingAndBypassing(scan)).isEmpty(), "a chapter that reads around the cache");
    }

    private static class Asking implements NeedleSearch, CompilesEarly {
        private final Scan scan;

        Asking(Scan scan) {
            this.scan = scan;
        }

        @Override
        public long search(Path file, int workers) {
            return NOT_FOUND;
        }

        @Override
        public Scan scanToCompile() {
            return scan;
        }
    }

    private static final class AskingAndMapping extends Asking implements MapsTheFile {
        AskingAndMapping(Scan scan) {
            super(scan);
        }
    }

    private static final class AskingAndBypassing extends Asking implements BypassesPageCache {
        AskingAndBypassing(Scan scan) {
            super(scan);
        }
    }

    private static void assertHandsOverItsKernel(NeedleSearch chapter, long sliceBytes) {
        CompilesEarly.Scan scan = EarlyCompile.declaredBy(chapter).orElseThrow();
        assertEquals(sliceBytes, scan.sliceBytes(), chapter.getClass().getSimpleName());
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment segment = arena.allocate(4096, 64);
            assertEquals(NeedleSearch.NOT_FOUND, scan.kernel().firstNonZeroWord(segment, 0, 4096));
            segment.set(ValueLayout.JAVA_BYTE, 4001, (byte) 1);
            assertEquals(4000, scan.kernel().firstNonZeroWord(segment, 0, 4096), "it runs the chapter's own kernel");
            assertEquals(NeedleSearch.NOT_FOUND, scan.kernel().firstNonZeroWord(segment, 0, 4000), "it honours the slice's end");
        }
    }

    @Test
    void runsTheKernelOverItsOwnZerosUntilStopped() throws InterruptedException {
        AtomicLong calls = new AtomicLong();
        AtomicLong nonZeroBytes = new AtomicLong();
        EarlyCompile.start((segment, from, to) -> {
            for (long offset = from; offset < to; offset++) {
                if (segment.get(ValueLayout.JAVA_BYTE, offset) != 0) {
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
