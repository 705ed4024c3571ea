package lib;

import java.lang.foreign.MemorySegment;

/**
 * A scan kernel: the offset (within {@code segment}) of the first non-zero 8-byte word in
 * {@code [from, to)}, or -1. {@code from} is a multiple of 8; a short last word counts.
 * {@link WordKernel} and {@link VectorKernel} hold the implementations.
 */
@FunctionalInterface
public interface Kernel {
    long firstNonZeroWord(MemorySegment segment, long from, long to);
}
