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
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import lib.chapter.ChunkedSearch;
import lib.chapter.NeedleSearch;
import lib.chapter.ScansWordByWord;
import lib.chapter.SingleThreaded;
import lib.harness.Harness;

/**
 * Chapter 3: 1 MiB reads, 8 bytes per step — big reads into one reused buffer, then a long at a time.
 *
 * <p>Changes chapter 2 twice, both about doing less per byte: one system call per megabyte instead
 * of a method call per byte, and a scan that tests a whole {@code long} at a time. The buffer is
 * off-heap: {@code FileChannel} reads into a heap buffer through a hidden direct buffer and a second
 * copy, which would undo half the gain. {@code --chunk} tries other read sizes.
 *
 * <pre>
 * How to run:   ./jbang variants/V03ChunkedLong.java haystack.bin
 * What you should see: each run's line on stderr, then on stdout one summary line per worker count:
 *   variant=V03ChunkedLong workers=1 offset=4294967288 runs=5 mean_s=… median_s=… mbps=… cache=warm bytes=4294967296 chunk_bytes=1048576 page_cache=as-is
 * Expect several times chapter 1: one system call per read, 8 bytes per step.
 * Its bill per GiB: 1,024 read calls (one per 1 MiB chunk), 1 GiB returned.
 * </pre>
 */
public class V03ChunkedLong implements ChunkedSearch, SingleThreaded, ScansWordByWord {

    public static void main(String[] args) {
        Harness.run(new V03ChunkedLong(), args);
    }

    @Override
    public long search(Path file, int workers, long chunkBytes) throws IOException {
        try (FileChannel channel = FileChannel.open(file); Arena arena = Arena.ofConfined()) {
            MemorySegment chunk = arena.allocate(chunkBytes, 4096);
            ByteBuffer chunkView = chunk.asByteBuffer(); // the same memory, as FileChannel wants it
            for (long chunkStart = 0; ; chunkStart += chunkView.position()) {
                chunkView.clear();
                // Fill the chunk completely (short reads happen), so chunks stay multiples of 8.
                while (chunkView.hasRemaining() && channel.read(chunkView) >= 0) { }
                if (chunkView.position() == 0) {
                    return NOT_FOUND;
                }
                long hit = firstNonZeroWordScalar(chunk, 0, chunkView.position());
                if (hit >= 0) {
                    return chunkStart + hit;
                }
            }
        }
    }

    // ---------------------------------------------------------------- the kernel: 8 bytes per step

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
