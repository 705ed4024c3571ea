package lib;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
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
 * file (a short read), and only the bytes before it are scanned. The buffers are one
 * {@link HugePageBuffer}, so that a chunk reaches the disk as one request, not a dozen.
 *
 * <p>A pread blocks its thread, and a worker that reads, then scans, leaves the disk idle while it
 * scans. So each reader has a thread of its own for the reads, which keeps {@link #READS_AHEAD}
 * chunks of the shard queued, each into its own buffer: the moment one read lands the thread
 * starts the next, as a {@code pread} loop (fio's psync job) would, while the worker scans. Still
 * one read in flight per worker; what the queue saves is the wait for the worker to ask for it.
 */
public final class DirectReader implements ParallelSearch.ChunkScanner {

    /**
     * Reads queued on the read thread beyond the chunk being scanned. With one, the thread waits
     * after each read for the worker to wake and ask for the next (a gap of two thread wake-ups on
     * every chunk; about 15 % of the speed on a 2-core VM); three keep it busy.
     */
    public static final int READS_AHEAD = 3;
    /** The chunk being scanned, and one for each read queued. */
    public static final int BUFFERS = READS_AHEAD + 1;

    /** A read queued or in flight: its file range, its buffer, and its completion. */
    private record Pending(long from, long to, MemorySegment buffer, Future<?> landed) {}

    private final FileChannel channel;
    private final Arena arena = Arena.ofShared(); // the read thread writes into the buffers too
    /** Buffers no read is filling and no scan is reading. */
    private final ArrayDeque<MemorySegment> free = new ArrayDeque<>();
    /** Reads on their way, in file order: the next chunk the worker asks for is the first. */
    private final ArrayDeque<Pending> pending = new ArrayDeque<>();
    private final long blockBytes;
    private final long chunkBytes;
    private final long shardEnd;
    private final Kernel kernel;
    /** The reads, one at a time, in the order queued, on a thread of their own (a pread blocks its thread). */
    private final ExecutorService readThread = Executors.newSingleThreadExecutor(Thread.ofPlatform().daemon().name("read-ahead").factory());
    private MemorySegment scanning;
    private long nextFrom; // where the next read queued starts

    /**
     * A reader over {@code channel}, which must be open with O_DIRECT (and is closed with the
     * reader); {@code blockBytes} is the alignment its file system asks for. While the worker scans
     * a chunk, the next chunks of its shard, which ends at {@code shardEnd}, are already being read.
     */
    public DirectReader(FileChannel channel, long blockBytes, long chunkBytes, long shardEnd, Kernel kernel) throws IOException {
        this.channel = channel;
        this.blockBytes = blockBytes;
        this.chunkBytes = chunkBytes;
        this.shardEnd = shardEnd;
        // A chunk can start and end mid-block, so it can touch one block more at each end.
        long bufferBytes = Math.ceilDiv(chunkBytes + 2 * blockBytes, HugePageBuffer.HUGE_PAGE_BYTES) * HugePageBuffer.HUGE_PAGE_BYTES;
        try {
            MemorySegment all = HugePageBuffer.allocate(BUFFERS * bufferBytes, arena);
            for (int i = 0; i < BUFFERS; i++) {
                free.add(all.asSlice(i * bufferBytes, bufferBytes));
            }
        } catch (IOException | RuntimeException e) {
            try (channel; arena) {
                readThread.shutdown();
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
        if (scanning != null) {
            free.add(scanning); // its scan is over
            scanning = null;
        }
        Pending first = pending.peek();
        if (first == null || first.from() != from || first.to() != to) {
            waitForAll(); // not the chunk read ahead: reads not wanted must still land before their buffers are reused
            queue(from, to);
        }
        while (!free.isEmpty() && nextFrom < shardEnd) { // the shard's next chunks, read while this one is scanned
            queue(nextFrom, Math.min(nextFrom + chunkBytes, shardEnd));
        }
        Pending read = pending.poll();
        scanning = read.buffer();
        ParallelSearch.await(read.landed(), "a read ahead");
        long alignedFrom = Math.floorDiv(from, blockBytes) * blockBytes;
        long hit = kernel.firstNonZeroWord(scanning, from - alignedFrom, to - alignedFrom);
        return hit < 0 ? NeedleSearch.NOT_FOUND : alignedFrom + hit;
    }

    private void queue(long from, long to) {
        MemorySegment buffer = free.poll();
        pending.add(new Pending(from, to, buffer, readThread.submit(() -> read(buffer, from, to))));
        nextFrom = to;
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

    private void waitForAll() throws IOException {
        try {
            for (Pending read : pending) {
                ParallelSearch.await(read.landed(), "a read ahead");
            }
        } finally {
            pending.forEach(read -> free.add(read.buffer()));
            pending.clear();
        }
    }

    @Override
    public void close() throws IOException {
        try (channel; arena) {
            pending.forEach(read -> read.landed().cancel(false)); // a worker that stops early needs none of the reads not yet begun
            readThread.shutdown(); // lets the read in flight land before the buffers are unmapped
            while (!readThread.awaitTermination(1, TimeUnit.MINUTES)) {
                // a disk that slow still gets its read finished: the kernel is writing into our buffer
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while a read ahead was landing", e);
        }
    }
}
