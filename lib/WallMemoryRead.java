package lib;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The first wall: how fast can a vector kernel read memory that is already ours?
 *
 * <p>Not a chapter but a yardstick, run by {@code tools/WallProbe.java}. It builds, once, an
 * off-heap copy of a haystack, the same size with the needle in the same place, and then "searches"
 * that with {@link VectorKernel#firstNonZeroWord256}, divided among workers exactly as the
 * parallel chapters divide a file ({@link ParallelSearch}). No system call, no page fault, no copy:
 * only loads from RAM.
 *
 * <p>The kernel is the 256-bit one, the width of the C yardstick's AVX2 loop, because out of cache
 * it is the fastest here: on the AMD EPYC this project was measured on, 512-bit loads from RAM
 * scanned 21 bytes/ns against 27 for 256-bit ({@code bench/KernelBench.java}). The memory is in
 * 4 KiB pages, like a file's mapping; memory in 2 MiB pages reads faster still (fewer TLB misses),
 * so a mapping the kernel happens to back with large folios can beat this figure.
 */
public final class WallMemoryRead implements ChunkedSearch {

    private MemorySegment memory;

    @Override
    public long search(Path file, int workers, int chunkBytes) throws IOException {
        MemorySegment haystack = inMemory(Files.size(file));
        return ParallelSearch.firstNonZeroWord(haystack.byteSize(), workers, chunkBytes,
                () -> (from, to) -> {
                    long hit = VectorKernel.firstNonZeroWord256(haystack, from, to);
                    return hit < 0 ? NeedleSearch.NOT_FOUND : hit; // offsets in memory are file offsets
                });
    }

    /** The in-memory haystack, made on the first call (a warm-up run) and kept for the rest. */
    private synchronized MemorySegment inMemory(long bytes) {
        if (memory == null || memory.byteSize() != bytes) {
            // An automatic arena: any thread may read it, and the memory goes back once it is unreachable.
            memory = Arena.ofAuto().allocate(bytes, 4096); // zeroed, so every page is really there
            memory.set(ValueLayout.JAVA_LONG_UNALIGNED, Haystack.needleOffset(bytes), Haystack.NEEDLE);
        }
        return memory;
    }
}
