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
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;
import lib.chapter.MapsTheFile;
import lib.chapter.NeedleSearch;
import lib.chapter.ScansWithWidestVector;
import lib.chapter.SingleThreaded;
import lib.harness.CpuLacksException;
import lib.harness.Harness;

/**
 * Chapter 12: one thread, 512-bit vectors — AVX-512, where the CPU has it.
 *
 * <p>Changes chapter 8's kernel to twice the width, 256 bytes per step (and leaves out its advice).
 * The Vector API only promises real SIMD for the widths the CPU has; on a CPU without AVX-512 a
 * 512-bit species would be emulated, far slower than scalar code, and timing that would teach the
 * wrong lesson. So this chapter refuses to run there rather than quietly measuring something else:
 * one line, "not run on this CPU", and exit status 3, which a study records and goes past.
 *
 * <pre>
 * How to run:   ./jbang variants/V12Vector512.java haystack.bin
 * What you should see: each run's line on stderr, then on stdout one summary line per worker count:
 *   variant=V12Vector512 workers=1 offset=4294967288 runs=5 mean_s=… median_s=… mbps=… cache=warm bytes=4294967296 page_cache=as-is pmd_mapped_pct=…
 * Expect about chapter 8's figure, sometimes less: wider is not faster out of cache.
 * Its bill per GiB: chapter 8's, no read call and no byte returned.
 * </pre>
 */
public class V12Vector512 implements NeedleSearch, SingleThreaded, MapsTheFile, ScansWithWidestVector {

    public static void main(String[] args) {
        Harness.run(new V12Vector512(), args);
    }

    /** The widest vectors C2 will use on this CPU, in bits (512 with AVX-512, 256 with AVX2). */
    static final int WIDEST_BITS = LongVector.SPECIES_PREFERRED.vectorBitSize();

    @Override
    public long search(Path file, int workers) throws IOException {
        if (WIDEST_BITS < 512) {
            throw new CpuLacksException("this CPU (or JVM) offers " + WIDEST_BITS
                    + "-bit vectors, not 512: chapter 12 needs AVX-512 (chapter 8 is its 256-bit twin)");
        }
        try (FileChannel channel = FileChannel.open(file); Arena arena = Arena.ofConfined()) {
            MemorySegment mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size(), arena);
            return firstNonZeroWord512(mapped, 0, mapped.byteSize());
        }
    }

    // Each step ORs four vectors and asks one question, "any lane non-zero?"; the block that says
    // yes, and the tail, go to the scalar kernel. The species is a static final constant: only then
    // does C2 make single instructions of Vector API calls, rather than vectors boxed on the heap.
    static final VectorSpecies<Long> SPECIES_512 = LongVector.SPECIES_512;
    static final int BLOCK_BYTES_512 = 4 * 64;

    /** 512-bit vectors, AVX-512 width: 256 bytes per step. Same contract as the scalar kernel. */
    static long firstNonZeroWord512(MemorySegment segment, long from, long to) {
        long offset = from;
        for (; offset <= to - BLOCK_BYTES_512; offset += BLOCK_BYTES_512) {
            LongVector a = LongVector.fromMemorySegment(SPECIES_512, segment, offset, ByteOrder.LITTLE_ENDIAN);
            LongVector b = LongVector.fromMemorySegment(SPECIES_512, segment, offset + 64, ByteOrder.LITTLE_ENDIAN);
            LongVector c = LongVector.fromMemorySegment(SPECIES_512, segment, offset + 128, ByteOrder.LITTLE_ENDIAN);
            LongVector d = LongVector.fromMemorySegment(SPECIES_512, segment, offset + 192, ByteOrder.LITTLE_ENDIAN);
            if (a.or(b).or(c.or(d)).compare(VectorOperators.NE, 0).anyTrue()) { // kortest on the compare's mask
                break; // this block holds the first non-zero word
            }
        }
        keepFaultsCatchable(segment, from, to);
        return firstNonZeroWordScalar(segment, offset, to); // the block that hit, or the tail
    }

    // ===== below: chapter 8's code, unchanged (diff variants/V08Vector256.java variants/V12Vector512.java) =====

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

    /** A scalar read for the JIT, so that a fault in a mapping that shrank stays catchable (chapter 8 says how). */
    static void keepFaultsCatchable(MemorySegment segment, long from, long to) {
        if (from < to) {
            byte ignored = segment.get(JAVA_BYTE, from);
        }
    }
}
