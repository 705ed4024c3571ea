package lib.linux;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Off-heap buffers for O_DIRECT reads and for chapter 1's copy of the whole file, backed by 2 MiB
 * transparent huge pages where the kernel allows them, and zeroed by the kernel as they are first
 * touched rather than by a pass over them beforehand.
 *
 * <p>Why it matters: an O_DIRECT read hands the disk the buffer's physical pages, one "segment"
 * per physically contiguous run. Ordinary 4 KiB pages are scattered, and a disk queue takes only
 * so many segments per request (see {@code /sys/block/DEVICE/queue/max_segments}; 254 on a common
 * virtio disk, so about 1 MiB), so a big read is split into many small requests. A huge page is
 * 2 MiB of contiguous memory: the same read goes out as a few large requests.
 *
 * <p>{@code Arena.allocate} cannot ask for huge pages, and it zeroes the memory, faulting in small
 * pages before any advice could apply. So the buffer is an anonymous {@code mmap}, advised with
 * {@code MADV_HUGEPAGE} before its first touch. Where transparent huge pages are off, the advice is
 * ignored and the buffer simply has small pages: slower, never wrong.
 */
public final class HugePageBuffer {

    public static final long HUGE_PAGE_BYTES = 2L << 20;

    private HugePageBuffer() {}

    /**
     * A zeroed buffer of at least {@code bytes}, starting on a huge-page boundary (so aligned for
     * any O_DIRECT block size), unmapped when {@code arena} closes.
     */
    public static MemorySegment allocate(long bytes, Arena arena) throws IOException {
        long rounded = Math.ceilDiv(bytes, HUGE_PAGE_BYTES) * HUGE_PAGE_BYTES;
        long mappedBytes = rounded + HUGE_PAGE_BYTES; // mmap promises only 4 KiB alignment; room to align
        MemorySegment mapping = Native.mapAnonymous(mappedBytes, arena);
        long skip = Math.ceilDiv(mapping.address(), HUGE_PAGE_BYTES) * HUGE_PAGE_BYTES - mapping.address();
        MemorySegment buffer = mapping.asSlice(skip, rounded);
        try {
            Native.madvise(buffer, Native.MADV_HUGEPAGE); // before the first touch: the first read faults the pages in
        } catch (IOException kernelWithoutHugePages) {
            // small pages it is
        }
        return buffer.asSlice(0, bytes);
    }
}
