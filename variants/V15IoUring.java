///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
//SOURCES ../lib/Library.java
//COMPILE_OPTIONS --add-modules jdk.incubator.vector
//RUNTIME_OPTIONS --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED
// Its vector kernels compile after 1 % of the JIT's usual calls, and a thread that calls one waits while it compiles
// rather than run it in the interpreter, an object per vector: a first run waits less for C2 (docs/startup.md).
//RUNTIME_OPTIONS -XX:CompileCommand=quiet -XX:CompileCommand=CompileThresholdScaling:V15IoUring::firstNonZeroWord512:0.01 -XX:CompileCommand=CompileThresholdScaling:V15IoUring::firstNonZeroWord256:0.01
//RUNTIME_OPTIONS -XX:CompileCommand=BackgroundCompilation:V15IoUring::firstNonZeroWord512:false -XX:CompileCommand=BackgroundCompilation:V15IoUring::firstNonZeroWord256:false

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

import java.io.IOException;
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
import lib.chapter.BypassesPageCache;
import lib.chapter.ChunkedSearch;
import lib.chapter.NeedleSearch;
import lib.chapter.ScansWithWidestVector;
import lib.cli.Quote;
import lib.cli.UserMistakeException;
import lib.harness.Harness;
import lib.haystack.FileChangedException;
import lib.linux.HugePageBuffer;
import lib.linux.IoUring;
import lib.linux.Native;

/**
 * Chapter 15: io_uring — chapter 14 with many reads in flight at once.
 *
 * <p>Changes chapter 14's worker: its one read at a time gives way to a ring of its own, through
 * which it submits its next chunks' reads ahead and scans each buffer once its read completes. A
 * disk, an SSD most of all, is fastest with a deep queue; a thread blocked in pread has exactly one.
 * The JDK has no io_uring, but the FFM API reaches it with no C ({@link IoUring}): the rings mapped
 * as {@code MemorySegment}s, the kernel's structs as {@code MemoryLayout}s, the ring indices under
 * acquire/release {@code VarHandle}s, because the kernel is another thread.
 *
 * <pre>
 * How to run:   ./jbang variants/V15IoUring.java haystack.bin --cold
 * What you should see: each run's line on stderr, then on stdout one summary line per worker count:
 *   variant=V15IoUring workers=2 offset=4294967288 runs=5 mean_s=… median_s=… mbps=… cache=cold bytes=4294967296 chunk_bytes=1048576 page_cache=as-is
 * Expect the disk's speed, cold: 4 MiB of reads in flight per worker.
 * Its bill per GiB: almost no read call and no byte returned (the ring's reads are not counted as read
 *   calls), and about 1 GiB fetched from the device.
 * </pre>
 */
public class V15IoUring implements ChunkedSearch, BypassesPageCache, ScansWithWidestVector {

    public static void main(String[] args) {
        Harness.run(new V15IoUring(), args);
    }

    /**
     * Bytes each worker keeps in flight: its queue depth is this over the chunk size, 4 reads of the
     * default 1 MiB. What a disk wants is bytes on their way, not a count of reads: on the reference
     * machine's virtual disk 4 MiB a worker beat 16 MiB both as 4 reads of 1 MiB against 16 and as 16
     * reads of 256 KiB against 64 (README, chapter 15); on an older one, 16 reads of 256 KiB beat 4.
     */
    static final long IN_FLIGHT_BYTES = 4L << 20;

    /** Reads in flight per worker: {@link #IN_FLIGHT_BYTES} in chunks; at least two, so that one is read while one is scanned, and at most a ring's 4096. */
    static int queueDepth(long chunkBytes) {
        return Math.clamp(IN_FLIGHT_BYTES / chunkBytes, 2, 4096);
    }

    /** Chapter 14's shards and threads; each worker is handed the depth of its ring too. */
    @Override
    public long search(Path file, int workers, long chunkBytes) throws IOException {
        long fileBytes = Files.size(file);
        long blockBytes = blockBytes(file);
        long shardBytes = Math.max(SHARD_ALIGN_BYTES, Math.ceilDiv(Math.ceilDiv(fileBytes, workers), SHARD_ALIGN_BYTES) * SHARD_ALIGN_BYTES);
        AtomicLong lowestHit = new AtomicLong(Long.MAX_VALUE);
        AtomicBoolean failed = new AtomicBoolean();
        List<Future<?>> results = new ArrayList<>();
        try (ExecutorService threads = Executors.newThreadPerTaskExecutor(Thread.ofPlatform().name("worker-", 0).factory())) {
            for (long start = 0; start < fileBytes; start += shardBytes) {
                long shardStart = start, shardEnd = Math.min(fileBytes, start + shardBytes);
                results.add(threads.submit(() -> {
                    try {
                        scanShard(file, shardStart, shardEnd, chunkBytes, blockBytes, queueDepth(chunkBytes), lowestHit, failed);
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

    /** One chunk's read: its buffer, the whole blocks from {@code alignedFrom} on that hold the chunk up to {@code to}, and the bytes in. */
    static final class Read {
        final MemorySegment buffer;
        long alignedFrom, to, filled;

        Read(MemorySegment buffer) {
            this.buffer = buffer;
        }
    }

    /**
     * A worker reads its shard through a ring of its own: chunk {@code i} into {@code reads[i %
     * queueDepth]}, the completion tagged with that slot, and the next {@code queueDepth - 1} chunks
     * on their way while one is scanned. The kernel must never write into memory we have freed, so
     * the worker waits for every read still in flight before it closes the ring and the buffers.
     */
    static void scanShard(Path file, long shardStart, long shardEnd, long chunkBytes, long blockBytes, int queueDepth,
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
            int fd = openDirect(file);
            try {
                long readsQueued = 0, nextRead = shardStart;
                for (long from = shardStart, chunk = 0; from < shardEnd && from < lowestHit.get(); from += chunkBytes, chunk++) {
                    if (failed.get()) {
                        return;
                    }
                    for (; readsQueued < chunk + queueDepth && nextRead < shardEnd; readsQueued++) {
                        int slot = (int) (readsQueued % queueDepth);
                        reads[slot].alignedFrom = Math.floorDiv(nextRead, blockBytes) * blockBytes;
                        reads[slot].to = nextRead = Math.min(nextRead + chunkBytes, shardEnd);
                        reads[slot].filled = 0;
                        queueTheRest(ring, fd, reads[slot], blockBytes, slot);
                        inFlight++;
                    }
                    Read read = reads[(int) (chunk % queueDepth)];
                    while (read.filled < read.to - read.alignedFrom) { // reads complete in any order
                        IoUring.Completion completion = ring.submitAndWait();
                        inFlight--;
                        Read done = reads[(int) completion.tag()];
                        if (completion.result() < 0) {
                            throw new IOException("read at " + (done.alignedFrom + done.filled) + ": " + Native.strerror(-completion.result()));
                        }
                        done.filled += completion.result();
                        if (done.filled < done.to - done.alignedFrom) { // cut short: send the rest again
                            if (completion.result() == 0 || done.filled % blockBytes != 0) {
                                // O_DIRECT reads whole blocks; only the end of the file cuts one short of a block, too early here.
                                throw new FileChangedException("the file ended near " + (done.alignedFrom + done.filled)
                                        + " bytes, shorter than when the search began");
                            }
                            queueTheRest(ring, fd, done, blockBytes, completion.tag());
                            inFlight++;
                        }
                    }
                    long hit = scan(read.buffer, from, read.to, blockBytes);
                    if (hit >= 0) {
                        lowestHit.accumulateAndGet(hit, Math::min);
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

    /** Queues the read of what {@code read} still lacks of its whole blocks; its completion comes back tagged {@code slot}. */
    static void queueTheRest(IoUring ring, int fd, Read read, long blockBytes, long slot) {
        long alignedTo = Math.ceilDiv(read.to, blockBytes) * blockBytes;
        ring.queueRead(fd, read.buffer.asSlice(read.filled, alignedTo - read.alignedFrom - read.filled),
                read.alignedFrom + read.filled, slot);
    }

    /**
     * A raw descriptor for the ring to read the file through, with O_DIRECT: through the page cache,
     * io_uring hands each miss to a kernel worker thread, several times slower cold when we tried it.
     */
    static int openDirect(Path file) throws IOException {
        try {
            return Native.open(file, Native.O_RDONLY | Native.O_DIRECT);
        } catch (Native.ErrnoException e) {
            if (e.errno() == Native.ErrnoException.EINVAL) { // the file system's answer to O_DIRECT
                throw new UserMistakeException("the file system of " + Quote.name(file) + " refuses O_DIRECT (" + e.getMessage()
                        + "); put the file on a disk file system such as ext4 or xfs");
            }
            throw e;
        }
    }

    @Override
    public int buffersPerWorker(long chunkBytes) {
        return queueDepth(chunkBytes);
    }

    // ===== below: chapter 14's code, unchanged (diff variants/V14DirectIo.java variants/V15IoUring.java) =====

    /** Every shard starts on a multiple of this, so no shard splits a word or a vector block. */
    static final long SHARD_ALIGN_BYTES = 4096;

    /** The kernel scans a chunk this much at a time, for the JIT (chapter 7 says why). */
    static final long SCAN_SLICE_BYTES = 64 << 10;

    @Override
    public long smallestChunkBytes(Path file) throws IOException {
        return blockBytes(file); // O_DIRECT reads whole blocks
    }

    /** Waits for a worker, and throws here what it threw there: its I/O error as itself, not wrapped. */
    static void await(Future<?> result) throws IOException {
        try {
            result.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for a worker", e);
        } catch (ExecutionException e) {
            switch (e.getCause()) {
                case IOException io -> throw io;
                case RuntimeException runtime -> throw runtime;
                case Error error -> throw error;
                default -> throw new IOException(e.getCause());
            }
        }
    }

    /** Scans {@code [from, to)} of the file, which lies in the buffer from the start of its first block, a slice at a time. */
    static long scan(MemorySegment buffer, long from, long to, long blockBytes) {
        long alignedFrom = Math.floorDiv(from, blockBytes) * blockBytes;
        for (long slice = from - alignedFrom; slice < to - alignedFrom; slice += SCAN_SLICE_BYTES) {
            long hit = firstNonZeroWordWidest(buffer, slice, Math.min(slice + SCAN_SLICE_BYTES, to - alignedFrom));
            if (hit >= 0) {
                return alignedFrom + hit;
            }
        }
        return NOT_FOUND;
    }

    /** The alignment O_DIRECT asks for on this file's file system, in bytes. */
    static long blockBytes(Path file) throws IOException {
        return Files.getFileStore(file).getBlockSize();
    }

    /** Offset of the first non-zero word in {@code [from, to)} of the segment, or -1; a short last word counts. */
    static long firstNonZeroWordScalar(MemorySegment segment, long from, long to) {
        long offset = from;
        // The unaligned layout: it costs nothing here, and reads any segment, a heap byte[] too.
        for (; offset <= to - Long.BYTES; offset += Long.BYTES) {
            if (segment.get(JAVA_LONG_UNALIGNED, offset) != 0) {
                return offset;
            }
        }
        for (; offset < to; offset++) { // the 1-7 tail bytes
            if (segment.get(JAVA_BYTE, offset) != 0) {
                return NeedleSearch.wordContaining(offset);
            }
        }
        return NOT_FOUND;
    }

    // A static final species, so that C2 makes single instructions of its calls; four vectors a step.
    static final VectorSpecies<Long> SPECIES_256 = LongVector.SPECIES_256;
    static final int BLOCK_BYTES_256 = 4 * 32;
    static final VectorSpecies<Long> SPECIES_512 = LongVector.SPECIES_512;
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
        return firstNonZeroWordScalar(segment, from, to);
    }

    /** 256-bit vectors, AVX2 width: 128 bytes per step. Same contract as the scalar kernel. */
    static long firstNonZeroWord256(MemorySegment segment, long from, long to) {
        long offset = from;
        for (; offset <= to - BLOCK_BYTES_256; offset += BLOCK_BYTES_256) {
            LongVector a = LongVector.fromMemorySegment(SPECIES_256, segment, offset, ByteOrder.LITTLE_ENDIAN);
            LongVector b = LongVector.fromMemorySegment(SPECIES_256, segment, offset + 32, ByteOrder.LITTLE_ENDIAN);
            LongVector c = LongVector.fromMemorySegment(SPECIES_256, segment, offset + 64, ByteOrder.LITTLE_ENDIAN);
            LongVector d = LongVector.fromMemorySegment(SPECIES_256, segment, offset + 96, ByteOrder.LITTLE_ENDIAN);
            // "Not every lane zero", asked of eight int lanes: the same bits as "any long lane
            // non-zero", in fewer instructions (with AVX2, an equality compare and vtestps).
            if (!a.or(b).or(c.or(d)).reinterpretAsInts().eq(0).allTrue()) {
                break; // this block holds the first non-zero word
            }
        }
        return firstNonZeroWordScalar(segment, offset, to); // the block that hit, or the tail
    }

    /** 512-bit vectors, AVX-512 width: 256 bytes per step. Same contract as the scalar kernel. */
    static long firstNonZeroWord512(MemorySegment segment, long from, long to) {
        long offset = from;
        for (; offset <= to - BLOCK_BYTES_512; offset += BLOCK_BYTES_512) {
            LongVector a = LongVector.fromMemorySegment(SPECIES_512, segment, offset, ByteOrder.LITTLE_ENDIAN);
            LongVector b = LongVector.fromMemorySegment(SPECIES_512, segment, offset + 64, ByteOrder.LITTLE_ENDIAN);
            LongVector c = LongVector.fromMemorySegment(SPECIES_512, segment, offset + 128, ByteOrder.LITTLE_ENDIAN);
            LongVector d = LongVector.fromMemorySegment(SPECIES_512, segment, offset + 192, ByteOrder.LITTLE_ENDIAN);
            if (a.or(b).or(c.or(d)).compare(VectorOperators.NE, 0).anyTrue()) { // kortest on the compare's mask
                break; // this block holds the first non-zero word
            }
        }
        return firstNonZeroWordScalar(segment, offset, to); // the block that hit, or the tail
    }
}
