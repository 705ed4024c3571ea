package lib.chapter;

import java.lang.foreign.MemorySegment;

/**
 * A chapter that scans buffers of its own, a slice at a time, and wants its kernel compiled before
 * its first run: it hands the harness the kernel and the slice, typed, and the harness runs that
 * kernel over zeros of its own while it reads the options ({@link EarlyCompile}). The harness knows
 * nothing else of the chapter: no name, no field looked up.
 *
 * <p>A chapter that maps the file or reads around the page cache gets no early compile, even if it
 * asks ({@link EarlyCompile#declaredBy} says why).
 */
public interface CompilesEarly {

    /** A kernel as the harness calls it: the offset of the first non-zero word in {@code [from, to)}, or -1. */
    @FunctionalInterface
    interface Kernel {
        long firstNonZeroWord(MemorySegment segment, long from, long to);
    }

    /** The kernel to compile, the widest this CPU runs, and the bytes the chapter hands it per call. */
    record Scan(Kernel kernel, long sliceBytes) {}

    /** This chapter's kernel and slice. */
    Scan scanToCompile();
}
