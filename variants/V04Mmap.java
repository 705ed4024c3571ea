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

/**
 * Chapter 4: map the file — and scan the page cache in place.
 *
 * <p>Changes chapter 3's reads into a mapping; the scan is chapter 3's. No copy at all: {@code mmap}
 * makes the kernel's cached pages part of our address space. Since JDK 22 {@code FileChannel.map}
 * returns a {@link MemorySegment} with long offsets (a {@code MappedByteBuffer} stops at 2 GiB),
 * unmapped when its arena closes. The catch: the first touch of a page is a page fault. The kernel
 * maps neighbouring cached pages on each fault, and a cache held in 2 MiB folios 2 MiB per fault:
 * how the cache holds the file decides the speed ({@code pmd_mapped_pct} reports it).
 *
 * <pre>
 * How to run:   ./jbang variants/V04Mmap.java haystack.bin
 * What you should see: each run's line on stderr, then on stdout one summary line per worker count:
 *   variant=V04Mmap workers=1 offset=4294967288 runs=5 mean_s=… median_s=… mbps=… cache=warm bytes=4294967296 page_cache=as-is pmd_mapped_pct=…
 * Expect anything from a crawl to faster than chapter 3: it depends on how the page cache holds the file.
 * Its bill per GiB: no read call, no byte returned; about 16,384 minor faults on a cache in 4 KiB
 *   folios (the kernel maps 16 pages a fault), about 512 on 2 MiB folios.
 * </pre>
 */
public class V04Mmap implements NeedleSearch, SingleThreaded, MapsTheFile, ScansWordByWord {

    public static void main(String[] args) {
        Harness.run(new V04Mmap(), args);
    }

    @Override
    public long search(Path file, int workers) throws IOException {
        try (FileChannel channel = FileChannel.open(file); Arena arena = Arena.ofConfined()) {
            MemorySegment mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size(), arena);
            return firstNonZeroWordScalar(mapped, 0, mapped.byteSize());
        } // closing the arena unmaps the file: that cost is inside the timed run
    }

    // ===== below: chapter 3's code, unchanged (diff variants/V03ChunkedLong.java variants/V04Mmap.java) =====

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
