package lib;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The SIMD scan kernels, written with the incubating Vector API ({@code jdk.incubator.vector}).
 *
 * <p>Java has no inline assembly; the Vector API is how a Java program asks for AVX2 or AVX-512.
 * Each step loads four vectors, ORs them together and asks one question, "is any lane non-zero?",
 * which C2 compiles to a compare and one test: {@code vtestps} with AVX2, {@code kortest} on the
 * compare's mask with AVX-512 (docs/jit.md shows the loop). Only when a block
 * answers yes does the scalar {@link WordKernel} look inside it for the exact word.
 *
 * <p>Why two copies of the same loop? C2 turns Vector API calls into single instructions only when
 * the species is a compile-time constant. A species passed in as a parameter or held in a field
 * of an object can leave every vector boxed on the heap, many times slower than scalar code. So
 * each width gets its own loop over its own {@code static final} species.
 */
public final class VectorKernel {

    static final VectorSpecies<Long> SPECIES_256 = LongVector.SPECIES_256;
    static final VectorSpecies<Long> SPECIES_512 = LongVector.SPECIES_512;
    static final int BLOCK_BYTES_256 = 4 * 32;
    static final int BLOCK_BYTES_512 = 4 * 64;

    /** The widest vectors C2 will use on this CPU, in bits (512 with AVX-512, 256 with AVX2). */
    public static final int WIDEST_BITS = LongVector.SPECIES_PREFERRED.vectorBitSize();

    private VectorKernel() {}

    /** 256-bit vectors, AVX2 width: 128 bytes per step. Same contract as {@link WordKernel}. */
    public static long firstNonZeroWord256(MemorySegment segment, long from, long to) {
        long offset = from;
        for (; offset <= to - BLOCK_BYTES_256; offset += BLOCK_BYTES_256) {
            LongVector a = LongVector.fromMemorySegment(SPECIES_256, segment, offset, ByteOrder.LITTLE_ENDIAN);
            LongVector b = LongVector.fromMemorySegment(SPECIES_256, segment, offset + 32, ByteOrder.LITTLE_ENDIAN);
            LongVector c = LongVector.fromMemorySegment(SPECIES_256, segment, offset + 64, ByteOrder.LITTLE_ENDIAN);
            LongVector d = LongVector.fromMemorySegment(SPECIES_256, segment, offset + 96, ByteOrder.LITTLE_ENDIAN);
            // "Not every lane zero", asked of eight int lanes: the same bits as "any long lane
            // non-zero", in fewer instructions. With AVX-512, kortestb reads the compare's mask
            // directly (four lanes' mask needs kmovw and an and first); with AVX2 only, an equality
            // compare and vtestps (a not-equal compare needs two more, to invert).
            if (!a.or(b).or(c.or(d)).reinterpretAsInts().eq(0).allTrue()) {
                break; // this block holds the first non-zero word
            }
        }
        keepFaultsCatchable(segment, from, to);
        return WordKernel.firstNonZeroWord(segment, offset, to); // the block that hit, or the tail
    }

    /** 512-bit vectors, AVX-512 width: 256 bytes per step. Needs {@link #has512BitVectors()}. */
    public static long firstNonZeroWord512(MemorySegment segment, long from, long to) {
        long offset = from;
        for (; offset <= to - BLOCK_BYTES_512; offset += BLOCK_BYTES_512) {
            LongVector a = LongVector.fromMemorySegment(SPECIES_512, segment, offset, ByteOrder.LITTLE_ENDIAN);
            LongVector b = LongVector.fromMemorySegment(SPECIES_512, segment, offset + 64, ByteOrder.LITTLE_ENDIAN);
            LongVector c = LongVector.fromMemorySegment(SPECIES_512, segment, offset + 128, ByteOrder.LITTLE_ENDIAN);
            LongVector d = LongVector.fromMemorySegment(SPECIES_512, segment, offset + 192, ByteOrder.LITTLE_ENDIAN);
            if (a.or(b).or(c.or(d)).compare(VectorOperators.NE, 0).anyTrue()) {
                break;
            }
        }
        keepFaultsCatchable(segment, from, to);
        return WordKernel.firstNonZeroWord(segment, offset, to);
    }

    /**
     * A scalar read whose value is not used, there for the JIT. When a mapped file shrinks under a
     * scan, the next read past its new end faults (SIGBUS). HotSpot turns that fault into an
     * {@code InternalError}, which the harness reports in one line, only inside a compiled method
     * that C2 marked as making unsafe memory accesses; C2 sets that mark when it compiles a scalar
     * segment read, but not for the Vector API's loads (JDK 25, {@code inline_vector_mem_operation}).
     * A vector loop compiled without any scalar read would let the fault kill the JVM, so every
     * kernel makes one, after its loop: a compilation entered mid-loop (on-stack replacement)
     * includes that code too, and it runs once per call, so the JIT never prunes it as unused.
     */
    private static void keepFaultsCatchable(MemorySegment segment, long from, long to) {
        if (from < to) {
            byte ignored = segment.get(ValueLayout.JAVA_BYTE, from);
        }
    }

    /** The widest kernel this CPU runs as real SIMD: 512 bits, else 256, else scalar words. */
    public static long firstNonZeroWordWidest(MemorySegment segment, long from, long to) {
        if (WIDEST_BITS >= 512) {  // a constant: C2 keeps only one branch
            return firstNonZeroWord512(segment, from, to);
        } else if (WIDEST_BITS >= 256) {
            return firstNonZeroWord256(segment, from, to);
        }
        return WordKernel.firstNonZeroWord(segment, from, to);
    }

    public static boolean has512BitVectors() {
        return WIDEST_BITS >= 512;
    }

    /** What {@link #firstNonZeroWordWidest} runs on this CPU, for people to read. */
    public static String widestDescription() {
        return WIDEST_BITS >= 256 ? WIDEST_BITS + "-bit vectors" : "scalar words (no 256-bit vectors on this CPU)";
    }
}
