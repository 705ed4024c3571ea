package lib;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

import java.lang.foreign.MemorySegment;

/**
 * The scalar scan kernel: 8 bytes per step, as one {@code long}.
 *
 * <p>Used by every chapter that scans words without SIMD (V03–V07). It works on any
 * {@link MemorySegment}: a file mapping, an off-heap buffer or a heap array, and its offsets are
 * {@code long}, so nothing here stops at 2 GiB.
 */
public final class WordKernel {

    private WordKernel() {}

    /**
     * Offset (within {@code segment}) of the first non-zero word in {@code [from, to)}, or -1.
     * {@code from} must be a multiple of 8; a short word at the end of the range counts too.
     */
    public static long firstNonZeroWord(MemorySegment segment, long from, long to) {
        long offset = from;
        // The unaligned layout: a heap byte[] segment only promises 1-byte alignment.
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
        return NeedleSearch.NOT_FOUND;
    }
}
