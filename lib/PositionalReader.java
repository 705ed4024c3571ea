package lib;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A pread worker: its own {@link FileChannel}, its own reused off-heap buffer, and a kernel.
 *
 * <p>{@code FileChannel.read(buffer, position)} is {@code pread(2)}: it reads at an offset without
 * moving a shared file position, so workers never contend for one. The buffer is off-heap on
 * purpose: reading into a heap {@code ByteBuffer} makes the JDK read into a temporary direct
 * buffer and copy again, doubling the memory traffic this whole project is about.
 */
public final class PositionalReader implements ParallelSearch.ChunkScanner {

    /**
     * The kernel scans the buffer a slice at a time, for the JIT's sake. A call over a whole 1 MiB
     * chunk is one long loop, which a fresh JVM can only swap for compiled code mid-loop (on-stack
     * replacement); with the vector chapters' early compile thresholds that code is compiled from a
     * profile that has not yet seen the loop end, and is thrown away (deoptimized) at the first
     * chunk's end. Short calls get the kernel compiled whole, from a profile that has.
     */
    static final long SCAN_SLICE_BYTES = 64 << 10;

    private final FileChannel channel;
    private final Arena arena = Arena.ofConfined();
    private final MemorySegment buffer;
    private final ByteBuffer bufferView;
    private final Kernel kernel;

    public PositionalReader(Path file, long chunkBytes, Kernel kernel) throws IOException {
        this.channel = FileChannel.open(file, StandardOpenOption.READ);
        this.buffer = arena.allocate(chunkBytes, 4096); // page-aligned, freed when the arena closes
        this.bufferView = buffer.asByteBuffer();
        this.kernel = kernel;
    }

    @Override
    public long firstNonZeroWord(long from, long to) throws IOException {
        int length = Math.toIntExact(to - from);
        bufferView.clear().limit(length);
        while (bufferView.hasRemaining()) {
            long position = from + bufferView.position();
            if (channel.read(bufferView, position) < 0) {
                throw new FileChangedException("the file ended at " + position + " bytes, shorter than when the search began");
            }
        }
        for (long slice = 0; slice < length; slice += SCAN_SLICE_BYTES) {
            long hit = kernel.firstNonZeroWord(buffer, slice, Math.min(slice + SCAN_SLICE_BYTES, length));
            if (hit >= 0) {
                return from + hit;
            }
        }
        return NeedleSearch.NOT_FOUND;
    }

    @Override
    public void close() throws IOException {
        try (channel; arena) {
            // closes both, even if one fails
        }
    }
}
