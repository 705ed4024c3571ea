///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
//SOURCES ../lib/*.java
//COMPILE_OPTIONS --add-modules jdk.incubator.vector
//RUNTIME_OPTIONS --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;
import lib.BypassesPageCache;
import lib.ChunkedSearch;
import lib.FileChangedException;
import lib.Harness;
import lib.HugePageBuffer;
import lib.IoUring;
import lib.Native;
import lib.Quote;
import lib.UserMistakeException;

/**
 * Chapter 15: chapter 14 with many reads in flight at once, through io_uring.
 *
 * <p>A disk, and an SSD most of all, is fastest with a deep queue of requests; a thread blocked in
 * pread has exactly one. Here each worker submits its next chunks ahead of time through a ring of
 * its own and scans each buffer as its read completes, with O_DIRECT as in chapter 14, so the disk
 * always has work queued while the CPU scans. Only the worker changes: the read thread of chapter
 * 14 gives way to the ring's submit and complete loop.
 *
 * <p>The Java lesson: the JDK has no io_uring, but the FFM API reaches it with no C at all
 * ({@link IoUring}): two system calls through {@code syscall}, the rings mapped as
 * {@code MemorySegment}s, the kernel's structs as {@code MemoryLayout}s, and the ring indices read
 * and written with acquire/release {@code VarHandle}s, because the kernel is another thread.
 *
 * <pre>
 * How to run:   ./jbang variants/V15IoUring.java haystack.bin --cold
 *
 * What you should see: each run's line on stderr, then on stdout one summary line per worker count:
 *   variant=V15IoUring workers=2 offset=4294967288 runs=5 mean_s=… median_s=… mbps=… cache=cold bytes=4294967296 chunk_bytes=1048576 page_cache=as-is
 * Expect the disk's speed, cold: many reads in flight per worker.
 * Measured figures, each with its machine, are in README.md and results/.
 * </pre>
 */
public class V15IoUring implements ChunkedSearch, BypassesPageCache {

    /** Every shard starts on a multiple of this, so no shard splits a word or a vector block. */
    static final long SHARD_ALIGN_BYTES = 4096;
    /**
     * Reads each worker keeps in flight, a chunk each: 4 MiB of buffers per worker with 1 MiB
     * chunks. Deeper is not faster on a virtual disk: in tools/ColdTuning.java's sweep (1 MiB, 2
     * workers) 4 and 8 beat 16 and 32, and fio's io_uring jobs agree.
     */
    static final int QUEUE_DEPTH = 4;

    private final int queueDepth;
    /** Through the page cache, io_uring hands each miss to a kernel worker thread: several times slower cold, when we tried it. */
    private final boolean direct;

    public V15IoUring() {
        this(QUEUE_DEPTH, true);
    }

    /** Another depth, or reads through the page cache: for tools/ColdTuning.java's sweep and the tests. */
    V15IoUring(int queueDepth, boolean direct) {
        this.queueDepth = queueDepth;
        this.direct = direct;
    }

    public static void main(String[] args) {
        Harness.run(new V15IoUring(), args);
    }

    @Override
    public int buffersPerWorker() {
        return queueDepth;
    }

    @Override
    public long smallestChunkBytes(Path file) throws IOException {
        return direct ? blockBytes(file) : Long.BYTES; // O_DIRECT reads whole blocks
    }

    // ---------------------------------------------------------------- the shards and their threads

    @Override
    public long search(Path file, int workers, long chunkBytes) throws IOException {
        long fileBytes = Files.size(file);
        long blockBytes = direct ? blockBytes(file) : Long.BYTES; // O_DIRECT reads whole blocks
        long shardBytes = Math.max(SHARD_ALIGN_BYTES, Math.ceilDiv(Math.ceilDiv(fileBytes, workers), SHARD_ALIGN_BYTES) * SHARD_ALIGN_BYTES);
        AtomicLong lowestHit = new AtomicLong(Long.MAX_VALUE);
        AtomicBoolean failed = new AtomicBoolean();
        List<Future<?>> results = new ArrayList<>();
        try (ExecutorService threads = Executors.newThreadPerTaskExecutor(Thread.ofPlatform().name("worker-", 0).factory())) {
            for (long start = 0; start < fileBytes; start += shardBytes) {
                long shardStart = start, shardEnd = Math.min(fileBytes, start + shardBytes);
                results.add(threads.submit(() -> {
                    try {
                        scanShard(file, shardStart, shardEnd, chunkBytes, blockBytes, lowestHit, failed);
                    } catch (IOException | RuntimeException | Error e) {
                        failed.set(true); // tells the other workers to stop early
                        throw e;
                    }
                    return null;
                }));
            }
        } // closing the executor waits for every worker
        for (Future<?> result : results) {
            await(result);
        }
        long hit = lowestHit.get();
        return hit == Long.MAX_VALUE ? NOT_FOUND : hit;
    }

    // ---------------------------------------------------------------- one worker: a ring of reads in flight

    /** One chunk's read: its buffer, the whole blocks asked for from {@code alignedFrom}, and how much has landed. */
    private static final class Read {
        final MemorySegment buffer;
        long alignedFrom, to, landed;

        Read(MemorySegment buffer) {
            this.buffer = buffer;
        }
    }

    /**
     * Walks {@code [shardStart, shardEnd)} a chunk at a time, until its first hit or one below it
     * is known. Chunk {@code c} of the shard is read into {@code reads[c % queueDepth]}, and the
     * next {@code queueDepth - 1} chunks are on their way while one is scanned.
     */
    private void scanShard(Path file, long shardStart, long shardEnd, long chunkBytes, long blockBytes,
                           AtomicLong lowestHit, AtomicBoolean failed) throws IOException {
        // A chunk can start and end mid-block, so it can touch one block more at each end.
        long bufferBytes = Math.ceilDiv(chunkBytes + 2 * blockBytes, blockBytes) * blockBytes;
        Read[] reads = new Read[queueDepth];
        int inFlight = 0;
        try (Arena arena = Arena.ofConfined(); IoUring ring = new IoUring(queueDepth)) {
            MemorySegment buffers = HugePageBuffer.allocate(queueDepth * bufferBytes, arena);
            for (int slot = 0; slot < queueDepth; slot++) {
                reads[slot] = new Read(buffers.asSlice(slot * bufferBytes, bufferBytes));
            }
            int fd = openForReading(file, direct);
            try {
                long nextRead = shardStart;
                for (long from = shardStart, chunk = 0; from < shardEnd && from < lowestHit.get(); from += chunkBytes, chunk++) {
                    if (failed.get()) {
                        return;
                    }
                    for (long queued = (nextRead - from) / chunkBytes; queued < queueDepth && nextRead < shardEnd; queued++) {
                        Read read = reads[(int) ((chunk + queued) % queueDepth)];
                        read.alignedFrom = Math.floorDiv(nextRead, blockBytes) * blockBytes;
                        read.to = Math.min(nextRead + chunkBytes, shardEnd);
                        read.landed = 0;
                        queueRest(ring, fd, read, blockBytes, (chunk + queued) % queueDepth);
                        inFlight++;
                        nextRead = read.to;
                    }
                    Read read = reads[(int) (chunk % queueDepth)];
                    while (read.landed < read.to - read.alignedFrom) { // the reads land in any order
                        IoUring.Completion completion = ring.submitAndWait();
                        inFlight--;
                        Read done = reads[(int) completion.tag()];
                        if (completion.result() < 0) {
                            throw new IOException("read at " + (done.alignedFrom + done.landed) + ": " + Native.strerror(-completion.result()));
                        }
                        done.landed += completion.result();
                        if (done.landed < done.to - done.alignedFrom) { // cut short: only the end of the file may do that
                            if (completion.result() == 0 || (direct && done.landed % blockBytes != 0)) {
                                throw new FileChangedException("the file ended near " + (done.alignedFrom + done.landed)
                                        + " bytes, shorter than when the search began");
                            }
                            queueRest(ring, fd, done, blockBytes, completion.tag());
                            inFlight++;
                        }
                    }
                    long hit = firstNonZeroWordWidest(read.buffer, from - read.alignedFrom, read.to - read.alignedFrom);
                    if (hit >= 0) {
                        lowestHit.accumulateAndGet(read.alignedFrom + hit, Math::min);
                        return;
                    }
                }
            } finally {
                for (; inFlight > 0; inFlight--) { // results no longer matter, only that the kernel is done with the buffers
                    ring.submitAndWait();
                }
                Native.close(fd);
            }
        }
    }

    /** Asks the ring for what {@code read} still lacks of its whole blocks; the completion comes back tagged {@code slot}. */
    private static void queueRest(IoUring ring, int fd, Read read, long blockBytes, long slot) {
        long alignedTo = Math.ceilDiv(read.to, blockBytes) * blockBytes;
        ring.queueRead(fd, read.buffer.asSlice(read.landed, alignedTo - read.alignedFrom - read.landed),
                read.alignedFrom + read.landed, slot);
    }

    /** A raw descriptor for the ring to read through, with O_DIRECT if asked. */
    private static int openForReading(Path file, boolean direct) throws IOException {
        try {
            return Native.open(file, Native.O_RDONLY | (direct ? Native.O_DIRECT : 0));
        } catch (Native.ErrnoException e) {
            if (direct && e.errno() == Native.ErrnoException.EINVAL) { // the file system's answer to O_DIRECT
                throw new UserMistakeException("the file system of " + Quote.name(file) + " refuses O_DIRECT (" + e.getMessage()
                        + "); put the file on a disk file system such as ext4 or xfs");
            }
            throw e;
        }
    }

    /** The alignment O_DIRECT asks for on this file's file system, in bytes. */
    static long blockBytes(Path file) throws IOException {
        return Files.getFileStore(file).getBlockSize();
    }

    // ---------------------------------------------------------------- the vector kernel

    static final VectorSpecies<Long> SPECIES_256 = LongVector.SPECIES_256;
    static final VectorSpecies<Long> SPECIES_512 = LongVector.SPECIES_512;
    static final int BLOCK_BYTES_256 = 4 * 32;
    static final int BLOCK_BYTES_512 = 4 * 64;
    /** The widest vectors C2 will use on this CPU, in bits (512 with AVX-512, 256 with AVX2). */
    static final int WIDEST_BITS = LongVector.SPECIES_PREFERRED.vectorBitSize();

    /** The widest kernel this CPU runs as real SIMD: 512 bits, else 256, else scalar words. */
    static long firstNonZeroWordWidest(MemorySegment segment, long from, long to) {
        if (WIDEST_BITS >= 512) { // a constant: C2 keeps only one branch
            return firstNonZeroWord512(segment, from, to);
        } else if (WIDEST_BITS >= 256) {
            return firstNonZeroWord256(segment, from, to);
        }
        return firstNonZeroWord(segment, from, to);
    }

    static long firstNonZeroWord256(MemorySegment segment, long from, long to) {
        long offset = from;
        for (; offset <= to - BLOCK_BYTES_256; offset += BLOCK_BYTES_256) {
            LongVector a = LongVector.fromMemorySegment(SPECIES_256, segment, offset, ByteOrder.LITTLE_ENDIAN);
            LongVector b = LongVector.fromMemorySegment(SPECIES_256, segment, offset + 32, ByteOrder.LITTLE_ENDIAN);
            LongVector c = LongVector.fromMemorySegment(SPECIES_256, segment, offset + 64, ByteOrder.LITTLE_ENDIAN);
            LongVector d = LongVector.fromMemorySegment(SPECIES_256, segment, offset + 96, ByteOrder.LITTLE_ENDIAN);
            if (!a.or(b).or(c.or(d)).reinterpretAsInts().eq(0).allTrue()) {
                break; // this block holds the first non-zero word
            }
        }
        return firstNonZeroWord(segment, offset, to); // the block that hit, or the tail
    }

    static long firstNonZeroWord512(MemorySegment segment, long from, long to) {
        long offset = from;
        for (; offset <= to - BLOCK_BYTES_512; offset += BLOCK_BYTES_512) {
            LongVector a = LongVector.fromMemorySegment(SPECIES_512, segment, offset, ByteOrder.LITTLE_ENDIAN);
            LongVector b = LongVector.fromMemorySegment(SPECIES_512, segment, offset + 64, ByteOrder.LITTLE_ENDIAN);
            LongVector c = LongVector.fromMemorySegment(SPECIES_512, segment, offset + 128, ByteOrder.LITTLE_ENDIAN);
            LongVector d = LongVector.fromMemorySegment(SPECIES_512, segment, offset + 192, ByteOrder.LITTLE_ENDIAN);
            if (a.or(b).or(c.or(d)).compare(VectorOperators.NE, 0).anyTrue()) {
                break;
            }
        }
        return firstNonZeroWord(segment, offset, to);
    }

    /** The first non-zero word in {@code [from, to)}, 8 bytes a step; a short word at the end counts too. */
    static long firstNonZeroWord(MemorySegment segment, long from, long to) {
        long offset = from;
        for (; offset <= to - Long.BYTES; offset += Long.BYTES) {
            if (segment.get(JAVA_LONG_UNALIGNED, offset) != 0) {
                return offset;
            }
        }
        for (; offset < to; offset++) { // the 1-7 tail bytes
            if (segment.get(JAVA_BYTE, offset) != 0) {
                return offset & ~7L;
            }
        }
        return NOT_FOUND;
    }

    /** Waits for a task on another thread, and throws here what it threw there, not wrapped. */
    private static void await(Future<?> task) throws IOException {
        try {
            task.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for a worker or a read", e);
        } catch (ExecutionException e) {
            switch (e.getCause()) {
                case IOException io -> throw io;
                case UncheckedIOException io -> throw io.getCause();
                case RuntimeException runtime -> throw runtime;
                case Error error -> throw error;
                default -> throw new IOException(e.getCause());
            }
        }
    }
}
