///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
//SOURCES ../lib/Library.java
//COMPILE_OPTIONS --add-modules jdk.incubator.vector
//RUNTIME_OPTIONS --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import lib.chapter.MapsTheFile;
import lib.chapter.NeedleSearch;
import lib.chapter.ScansWordByWord;
import lib.chapter.SingleThreaded;
import lib.harness.Harness;
import lib.linux.Native;

/**
 * Chapter 5: mapping plus {@code madvise} — the same mapping, plus two hints to the kernel.
 *
 * <p>Changes chapter 4 by two calls before the scan. {@code MADV_SEQUENTIAL} says "read ahead
 * aggressively, drop pages behind me"; {@code MADV_WILLNEED} says "start bringing it all in now".
 * The JDK has no madvise, so {@code Native.madvise} calls the C library through
 * {@code java.lang.foreign}. On a warm cache neither hint removes a single page fault, which is
 * what chapter 4 paid for.
 *
 * <pre>
 * How to run:   ./jbang variants/V05MmapMadvise.java haystack.bin
 * What you should see: each run's line on stderr, then on stdout one summary line per worker count:
 *   variant=V05MmapMadvise workers=1 offset=4294967288 runs=5 mean_s=… median_s=… mbps=… cache=warm bytes=4294967296 page_cache=as-is pmd_mapped_pct=…
 * Expect chapter 4's figure: on a warm cache the hints change nothing measurable.
 * Its bill per GiB: chapter 4's, no read call and no byte returned; the faults depend on the page
 *   cache's folios, as there.
 * </pre>
 */
public class V05MmapMadvise implements NeedleSearch, SingleThreaded, MapsTheFile, ScansWordByWord {

    public static void main(String[] args) {
        Harness.run(new V05MmapMadvise(), args);
    }

    @Override
    public long search(Path file, int workers) throws IOException {
        try (FileChannel channel = FileChannel.open(file); Arena arena = Arena.ofConfined()) {
            MemorySegment mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size(), arena);
            if (mapped.byteSize() > 0) { // an empty file maps to no pages to advise about
                Native.madvise(mapped, Native.MADV_SEQUENTIAL);
                Native.madvise(mapped, Native.MADV_WILLNEED);
            }
            return firstNonZeroWordScalar(mapped, 0, mapped.byteSize());
        }
    }

    // ===== below: chapter 4's code, unchanged (diff variants/V04Mmap.java variants/V05MmapMadvise.java) =====

    /** Offset of the first non-zero word in {@code [from, to)} of the segment, or -1; a short last word counts. */
    static long firstNonZeroWordScalar(MemorySegment segment, long from, long to) {
        long offset = from;
        // The unaligned layout: it costs nothing here, and reads any segment, a heap byte[] too.
        for (; offset <= to - Long.BYTES; offset += Long.BYTES) {
            if (segment.get(JAVA_LONG_UNALIGNED, offset) != 0) {
                return offset;
            }
        }
        for (; offset < to; offset++) { // the 1-7 tail bytes
            if (segment.get(JAVA_BYTE, offset) != 0) {
                return NeedleSearch.wordContaining(offset);
            }
        }
        return NOT_FOUND;
    }
}
