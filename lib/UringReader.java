package lib;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

/**
 * A worker that keeps many reads in flight through its own {@link IoUring}.
 *
 * <p>{@link ParallelSearch} asks for one chunk at a time, in order. A blocking reader leaves the
 * disk idle while it scans, and asks for only one chunk at a time; this one guesses that the next
 * request will be the following chunk and already has the next {@code depth - 1} chunks on their
 * way, each into its own buffer. When the guess is wrong (a new shard, or a jump), it waits for
 * what is in flight and starts again from the chunk asked for. So past its shard's end a worker
 * reads up to {@code depth - 1} chunks it will never scan: a little waste for a disk that is
 * never idle.
 *
 * <p>With {@code direct} the file is opened with O_DIRECT and, as in {@link DirectReader}, every
 * read is widened to whole blocks. The buffers are one {@link HugePageBuffer}, so a read reaches
 * the disk as one request. The kernel must never write into a buffer we have freed, so
 * {@link #close} waits for every read still in flight.
 */
public final class UringReader implements ParallelSearch.ChunkScanner {

    /** One chunk on its way: the file range asked for, and how much of its buffer is filled. */
    private static final class Read {
        final MemorySegment buffer;
        long from, to, alignedFrom;
        long filled;
        boolean done;

        Read(MemorySegment buffer) {
            this.buffer = buffer;
        }

        long needed() {
            return to - alignedFrom; // bytes up to `to`; the request itself runs on to a whole block
        }
    }

    private final IoUring ring;
    private final int fd;
    private final Arena arena = Arena.ofConfined();
    private final Read[] slots; // a FIFO of reads in file order, used as a ring: slots[(head + i) % depth]
    private final long fileBytes, chunkBytes, alignment;
    private final boolean direct;
    private final Kernel kernel;
    private int head, queued, inFlight;
    private long nextFrom; // where the next read-ahead starts

    public UringReader(Path file, long fileBytes, long chunkBytes, int depth, boolean direct, Kernel kernel)
            throws IOException {
        this.direct = direct;
        this.alignment = direct ? DirectReader.blockBytes(file) : Long.BYTES;
        this.fileBytes = fileBytes;
        this.chunkBytes = chunkBytes;
        this.kernel = kernel;
        // A chunk can start and end mid-block, so it can touch one block more at each end.
        long slotBytes = Math.ceilDiv(chunkBytes + 2 * alignment, alignment) * alignment;
        MemorySegment buffers = HugePageBuffer.allocate(depth * slotBytes, arena);
        this.slots = new Read[depth];
        for (int i = 0; i < depth; i++) {
            slots[i] = new Read(buffers.asSlice(i * slotBytes, slotBytes));
        }
        try {
            this.ring = new IoUring(depth);
        } catch (IOException | RuntimeException e) {
            arena.close();
            throw e;
        }
        try {
            this.fd = openForReading(file, direct);
        } catch (IOException | RuntimeException e) {
            ring.close();
            arena.close();
            throw e;
        }
    }

    /** A raw descriptor for reading, with O_DIRECT if asked: the ring reads through it. */
    private static int openForReading(Path file, boolean direct) throws IOException {
        try {
            return Native.open(file, Native.O_RDONLY | (direct ? Native.O_DIRECT : 0));
        } catch (Native.ErrnoException e) {
            if (direct && e.errno() == Native.ErrnoException.EINVAL) { // the file system's answer to O_DIRECT
                throw DirectReader.refused(file, e);
            }
            throw e;
        }
    }

    @Override
    public long firstNonZeroWord(long from, long to) throws IOException {
        if (queued > 0 && (slots[head].from != from || slots[head].to < to)) {
            waitForAll(); // the guess was wrong: start again from here
        }
        if (queued == 0) {
            queue(from, to);
            nextFrom = to;
        }
        while (queued < slots.length && nextFrom < fileBytes) { // read ahead
            long end = Math.min(nextFrom + chunkBytes, fileBytes);
            queue(nextFrom, end);
            nextFrom = end;
        }
        Read read = slots[head];
        while (!read.done) {
            complete(ring.submitAndWait());
        }
        head = (head + 1) % slots.length;
        queued--;
        long hit = kernel.firstNonZeroWord(read.buffer, from - read.alignedFrom, to - read.alignedFrom);
        return hit < 0 ? NeedleSearch.NOT_FOUND : read.alignedFrom + hit;
    }

    private void queue(long from, long to) {
        int slot = (head + queued) % slots.length;
        Read read = slots[slot];
        read.from = from;
        read.to = to;
        read.alignedFrom = Math.floorDiv(from, alignment) * alignment;
        read.filled = 0;
        read.done = false;
        long alignedTo = Math.ceilDiv(to, alignment) * alignment;
        ring.queueRead(fd, read.buffer.asSlice(0, alignedTo - read.alignedFrom), read.alignedFrom, slot);
        queued++;
        inFlight++;
    }

    /** Books one completion; a read the kernel cut short is sent again for the rest. */
    private void complete(IoUring.Completion completion) throws IOException {
        inFlight--;
        Read read = slots[(int) completion.tag()];
        if (completion.result() < 0) {
            throw new IOException("read at " + (read.alignedFrom + read.filled) + ": " + Native.strerror(-completion.result()));
        }
        read.filled += completion.result();
        if (read.filled >= read.needed()) {
            read.done = true;
        } else if (completion.result() == 0 || (direct && read.filled % alignment != 0)) {
            // O_DIRECT reads whole blocks; only the end of the file cuts one short of a block, too early here.
            throw new FileChangedException("the file ended near " + (read.alignedFrom + read.filled)
                    + " bytes, shorter than when the search began");
        } else {
            long requested = Math.ceilDiv(read.to, alignment) * alignment - read.alignedFrom;
            ring.queueRead(fd, read.buffer.asSlice(read.filled, requested - read.filled),
                    read.alignedFrom + read.filled, completion.tag());
            inFlight++;
        }
    }

    private void waitForAll() throws IOException {
        while (inFlight > 0) {
            complete(ring.submitAndWait());
        }
        queued = 0;
    }

    @Override
    public void close() throws IOException {
        try {
            while (inFlight > 0) { // results no longer matter, only that the kernel is done with the buffers
                ring.submitAndWait();
                inFlight--;
            }
        } finally {
            Native.close(fd);
            ring.close();
            arena.close();
        }
    }
}
