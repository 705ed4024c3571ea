package lib;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

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
 *
 * <p>A pread blocks its thread, and a worker that reads, then scans, leaves the disk idle while it
 * scans. So each reader has two buffers and a thread that reads ahead: while the worker scans one
 * chunk, the next chunk of its shard is already on its way into the other buffer.
 */
public final class DirectReader implements ParallelSearch.ChunkScanner {

    private final FileChannel channel;
    private final Arena arena = Arena.ofShared(); // the read-ahead thread writes into the buffers too
    /** Two buffers: the disk fills one while the worker scans the other. */
    private final MemorySegment[] buffers = new MemorySegment[2];
    private final long blockBytes;
    private final long chunkBytes;
    private final long shardEnd;
    private final Kernel kernel;
    /** The one read ahead in flight, on a thread of its own (a pread blocks its thread): its range and buffer. */
    private final ExecutorService readAhead = Executors.newSingleThreadExecutor(Thread.ofPlatform().daemon().name("read-ahead").factory());
    private Future<?> ahead;
    private long aheadFrom = -1, aheadTo = -1;
    private int current;

    /**
     * A reader over {@code channel}, which must be open with O_DIRECT (and is closed with the
     * reader); {@code blockBytes} is the alignment its file system asks for. While the worker scans
     * a chunk, the next chunk of its shard, which ends at {@code shardEnd}, is already being read.
     */
    public DirectReader(FileChannel channel, long blockBytes, long chunkBytes, long shardEnd, Kernel kernel) throws IOException {
        this.channel = channel;
        this.blockBytes = blockBytes;
        this.chunkBytes = chunkBytes;
        this.shardEnd = shardEnd;
        // A chunk can start and end mid-block, so it can touch one block more at each end.
        long bufferBytes = Math.ceilDiv(chunkBytes + 2 * blockBytes, HugePageBuffer.HUGE_PAGE_BYTES) * HugePageBuffer.HUGE_PAGE_BYTES;
        try {
            MemorySegment both = HugePageBuffer.allocate(2 * bufferBytes, arena);
            buffers[0] = both.asSlice(0, bufferBytes);
            buffers[1] = both.asSlice(bufferBytes, bufferBytes);
        } catch (IOException | RuntimeException e) {
            try (channel; arena) {
                readAhead.shutdown();
                throw e; // the reader owns the channel from the start, so a failed reader closes it
            }
        }
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
        if (from == aheadFrom && to == aheadTo) {
            current = 1 - current;
            waitForReadAhead(); // the chunk read ahead, into the other buffer
        } else {
            waitForReadAhead(); // a read ahead that is not wanted must still land before its buffer is reused
            read(buffers[current], from, to);
        }
        long next = Math.min(to + chunkBytes, shardEnd);
        if (to < next) { // the disk reads the next chunk while this one is scanned
            MemorySegment other = buffers[1 - current];
            ahead = readAhead.submit(() -> read(other, to, next));
            aheadFrom = to;
            aheadTo = next;
        }
        long hit = kernel.firstNonZeroWord(buffers[current], from - alignedFrom, to - alignedFrom);
        return hit < 0 ? NeedleSearch.NOT_FOUND : alignedFrom + hit;
    }

    /** Reads the whole blocks around {@code [from, to)} into {@code buffer}, from its start. */
    private Void read(MemorySegment buffer, long from, long to) throws IOException {
        long alignedFrom = Math.floorDiv(from, blockBytes) * blockBytes;
        long alignedTo = Math.ceilDiv(to, blockBytes) * blockBytes;
        long wanted = to - alignedFrom; // the bytes we need, up to `to`
        ByteBuffer view = buffer.asSlice(0, alignedTo - alignedFrom).asByteBuffer();
        while (view.position() < wanted) {
            long position = alignedFrom + view.position();
            int read = channel.read(view, position);
            if (read <= 0 || (read % blockBytes != 0 && view.position() < wanted)) {
                // Only the end of the file cuts a read short of a block, and it came too early.
                throw new FileChangedException("the file ended near " + position + " bytes, shorter than when the search began");
            }
        }
        return null;
    }

    private void waitForReadAhead() throws IOException {
        Future<?> pending = ahead;
        ahead = null;
        aheadFrom = aheadTo = -1;
        if (pending != null) {
            ParallelSearch.await(pending, "a read ahead");
        }
    }

    @Override
    public void close() throws IOException {
        try (channel; arena) {
            readAhead.shutdown(); // lets the read in flight land before the buffers are unmapped
            while (!readAhead.awaitTermination(1, TimeUnit.MINUTES)) {
                // a disk that slow still gets its read finished: the kernel is writing into our buffer
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while a read ahead was landing", e);
        }
    }
}
