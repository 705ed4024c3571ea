package lib;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A pread worker that bypasses the page cache: {@link PositionalReader} opened with
 * {@code O_DIRECT}.
 *
 * <p>With {@code O_DIRECT} the disk writes straight into our buffer; no page-cache page is
 * allocated, filled, copied out and later evicted. The price is alignment: the buffer's address,
 * the file position and the length of every read must all be multiples of the file system's block
 * size, and the JDK checks each one before the call. So a chunk {@code [from, to)} is widened to
 * whole blocks, and the last block of a file is read whole: the kernel stops at the end of the
 * file (a short read), and only the bytes before it are scanned. The buffer is a
 * {@link HugePageBuffer}, so that a chunk reaches the disk as one request, not a dozen.
 */
public final class DirectReader implements ParallelSearch.ChunkScanner {

    private final FileChannel channel;
    private final Arena arena = Arena.ofConfined();
    private final MemorySegment buffer;
    private final ByteBuffer bufferView;
    private final long blockBytes;
    private final Kernel kernel;

    /**
     * A reader over {@code channel}, which must be open with O_DIRECT (and is closed with the
     * reader); {@code blockBytes} is the alignment its file system asks for.
     */
    public DirectReader(FileChannel channel, long blockBytes, long chunkBytes, Kernel kernel) throws IOException {
        this.channel = channel;
        this.blockBytes = blockBytes;
        // A chunk can start and end mid-block, so it can touch one block more at each end.
        try {
            this.buffer = HugePageBuffer.allocate(chunkBytes + 2 * blockBytes, arena);
        } catch (IOException | RuntimeException e) {
            try (channel; arena) {
                throw e; // the reader owns the channel from the start, so a failed reader closes it
            }
        }
        this.bufferView = buffer.asByteBuffer();
        this.kernel = kernel;
    }

    /** The alignment O_DIRECT asks for on this file's file system, in bytes. */
    public static long blockBytes(Path file) throws IOException {
        return Files.getFileStore(file).getBlockSize();
    }

    /** What to tell the user when opening {@code file} with O_DIRECT failed with {@code e}. */
    public static RuntimeException refused(Path file, Exception e) {
        return new UserMistakeException("the file system of " + Quote.name(file) + " refuses O_DIRECT (" + e.getMessage()
                + "); put the file on a disk file system such as ext4 or xfs");
    }

    @Override
    public long firstNonZeroWord(long from, long to) throws IOException {
        long alignedFrom = Math.floorDiv(from, blockBytes) * blockBytes;
        long alignedTo = Math.ceilDiv(to, blockBytes) * blockBytes;
        int wanted = Math.toIntExact(to - alignedFrom); // the bytes we need, up to `to`
        bufferView.clear().limit(Math.toIntExact(alignedTo - alignedFrom));
        while (bufferView.position() < wanted) {
            long position = alignedFrom + bufferView.position();
            int read = channel.read(bufferView, position);
            if (read <= 0 || (read % blockBytes != 0 && bufferView.position() < wanted)) {
                // Only the end of the file cuts a read short of a block, and it came too early.
                throw new FileChangedException("the file ended near " + position + " bytes, shorter than when the search began");
            }
        }
        long skipped = from - alignedFrom;
        long hit = kernel.firstNonZeroWord(buffer, skipped, wanted);
        return hit < 0 ? NeedleSearch.NOT_FOUND : alignedFrom + hit;
    }

    @Override
    public void close() throws IOException {
        try (channel; arena) {
            // closes both, even if one fails
        }
    }
}
