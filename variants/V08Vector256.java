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
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorSpecies;
import lib.chapter.MapsTheFile;
import lib.chapter.NeedleSearch;
import lib.chapter.SingleThreaded;
import lib.harness.Harness;
import lib.linux.Native;

/**
 * Chapter 8: SIMD, one thread, 256-bit vectors — over the mapping.
 *
 * <p>Changes chapter 5's kernel. Where the Go article dropped into assembly, Java has the Vector
 * API, still an incubator module ({@code --add-modules jdk.incubator.vector}, and a warning at
 * start-up). {@code firstNonZeroWord256} tests 128 bytes per step: four AVX2-sized loads, ORed, one
 * "any lane non-zero?" question. The CPU side of the scan becomes nearly free; whether that matters
 * depends on memory. Like the article's own v8, it advises the mapping as chapter 5 does, and v8
 * takes the same 128-byte step in assembly. {@code lab/yardsticks/VersusGo.java} runs the two side by side,
 * and docs/jit.md shows the loop C2 compiled ({@code lab/experiments/print-kernel-assembly} prints it on yours).
 *
 * <pre>
 * How to run:   ./jbang variants/V08Vector256.java haystack.bin
 * What you should see: each run's line on stderr, then on stdout one summary line per worker count:
 *   variant=V08Vector256 workers=1 offset=4294967288 runs=5 mean_s=… median_s=… mbps=… cache=warm bytes=4294967296 page_cache=as-is pmd_mapped_pct=…
 * Expect about chapter 4's figure: a faster loop over the same mapping.
 * Its bill per GiB: chapter 4's, no read call and no byte returned; only the loop changed.
 * </pre>
 */
public class V08Vector256 implements NeedleSearch, SingleThreaded, MapsTheFile {

    public static void main(String[] args) {
        Harness.run(new V08Vector256(), args);
    }

    @Override
    public long search(Path file, int workers) throws IOException {
        try (FileChannel channel = FileChannel.open(file); Arena arena = Arena.ofConfined()) {
            MemorySegment mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size(), arena);
            if (mapped.byteSize() > 0) { // an empty file maps to no pages to advise about
                Native.madvise(mapped, Native.MADV_SEQUENTIAL);
                Native.madvise(mapped, Native.MADV_WILLNEED);
            }
            return firstNonZeroWord256(mapped, 0, mapped.byteSize());
        }
    }

    // Each step ORs four vectors and asks one question, "any lane non-zero?"; the block that says
    // yes, and the tail, go to the scalar kernel. The species is a static final constant: only then
    // does C2 make single instructions of Vector API calls, rather than vectors boxed on the heap.
    static final VectorSpecies<Long> SPECIES_256 = LongVector.SPECIES_256;
    static final int BLOCK_BYTES_256 = 4 * 32;

    /** 256-bit vectors, AVX2 width: 128 bytes per step. Same contract as the scalar kernel. */
    static long firstNonZeroWord256(MemorySegment segment, long from, long to) {
        long offset = from;
        for (; offset <= to - BLOCK_BYTES_256; offset += BLOCK_BYTES_256) {
            LongVector a = LongVector.fromMemorySegment(SPECIES_256, segment, offset, ByteOrder.LITTLE_ENDIAN);
            LongVector b = LongVector.fromMemorySegment(SPECIES_256, segment, offset + 32, ByteOrder.LITTLE_ENDIAN);
            LongVector c = LongVector.fromMemorySegment(SPECIES_256, segment, offset + 64, ByteOrder.LITTLE_ENDIAN);
            LongVector d = LongVector.fromMemorySegment(SPECIES_256, segment, offset + 96, ByteOrder.LITTLE_ENDIAN);
            // "Not every lane zero", asked of eight int lanes: the same bits as "any long lane
            // non-zero", in fewer instructions (with AVX2, an equality compare and vtestps).
            if (!a.or(b).or(c.or(d)).reinterpretAsInts().eq(0).allTrue()) {
                break; // this block holds the first non-zero word
            }
        }
        keepFaultsCatchable(segment, from, to);
        return firstNonZeroWordScalar(segment, offset, to); // the block that hit, or the tail
    }

    /**
     * A scalar read, unused, for the JIT: HotSpot turns the fault (SIGBUS) of a read past the end of a
     * mapped file that shrank into a one-line InternalError only in code that C2 marked as making
     * unsafe accesses, and C2 marks a scalar segment read, not a Vector API load (JDK 25).
     */
    static void keepFaultsCatchable(MemorySegment segment, long from, long to) {
        if (from < to) {
            byte ignored = segment.get(JAVA_BYTE, from);
        }
    }

    // ===== below: chapter 5's code, unchanged (diff variants/V05MmapMadvise.java variants/V08Vector256.java) =====

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
