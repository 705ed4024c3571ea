///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
//SOURCES ../lib/Library.java
//COMPILE_OPTIONS --add-modules jdk.incubator.vector
//RUNTIME_OPTIONS --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED
// Its vector kernels compile after 1 % of the JIT's usual calls, and a thread that calls one waits while it compiles
// rather than run it in the interpreter, an object per vector: a first run waits less for C2 (docs/startup.md).
//RUNTIME_OPTIONS -XX:CompileCommand=quiet -XX:CompileCommand=CompileThresholdScaling:V14DirectIo::firstNonZeroWord512:0.01 -XX:CompileCommand=CompileThresholdScaling:V14DirectIo::firstNonZeroWord256:0.01
//RUNTIME_OPTIONS -XX:CompileCommand=BackgroundCompilation:V14DirectIo::firstNonZeroWord512:false -XX:CompileCommand=BackgroundCompilation:V14DirectIo::firstNonZeroWord256:false

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

import com.sun.nio.file.ExtendedOpenOption;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
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

/**
 * Chapter 14: O_DIRECT, for a cold cache — chapter 13 reading around the page cache.
 *
 * <p>Changes chapter 13's worker: it opens the file with O_DIRECT, so the disk writes straight into
 * its buffer, and widens each read to whole blocks. Chapter 13 reading cold also fills and copies
 * out of the page cache; here a run costs the disk and nothing else, warm or cold. Still one read in
 * flight per worker: more is chapter 15's lesson. {@code ExtendedOpenOption.DIRECT} is all it takes
 * (javac warns: internal API, in {@code jdk.unsupported}), but every buffer address, position and
 * length must then be a multiple of the block size: the buffers are 2 MiB huge pages
 * ({@link HugePageBuffer}), aligned for any block size and contiguous, one request per chunk.
 *
 * <pre>
 * How to run:   ./jbang variants/V14DirectIo.java haystack.bin --cold
 * What you should see: each run's line on stderr, then on stdout one summary line per worker count:
 *   variant=V14DirectIo workers=2 offset=4294967288 runs=5 mean_s=… median_s=… mbps=… cache=cold bytes=4294967296 chunk_bytes=1048576 page_cache=as-is
 * Expect the disk's speed, warm or cold: the page cache is never consulted.
 * Its bill per GiB: about 1,024 read calls, and about 1 GiB fetched from the device (device_bytes_per_gib)
 *   even when the file is cached.
 * </pre>
 */
public class V14DirectIo implements ChunkedSearch, BypassesPageCache, ScansWithWidestVector {

    public static void main(String[] args) {
        Harness.run(new V14DirectIo(), args);
    }

    /** Chapter 13's shards and threads; each worker is handed the file system's block size too. */
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

    /**
     * A worker reads its shard a chunk at a time into one reused buffer, with its own FileChannel
     * opened with O_DIRECT: the disk writes the chunk straight into the buffer, then the worker
     * scans it and asks for the next. Widened to whole blocks, a chunk's read starts up to a block
     * early, so its bytes lie in the buffer from {@code from}'s block on.
     */
    static void scanShard(Path file, long shardStart, long shardEnd, long chunkBytes, long blockBytes,
                          AtomicLong lowestHit, AtomicBoolean failed) throws IOException {
        // A chunk can start and end mid-block, so it can touch one block more at each end.
        long bufferBytes = Math.ceilDiv(chunkBytes + 2 * blockBytes, HugePageBuffer.HUGE_PAGE_BYTES) * HugePageBuffer.HUGE_PAGE_BYTES;
        try (FileChannel channel = openDirect(file); Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = HugePageBuffer.allocate(bufferBytes, arena); // aligned for any block size, freed when the arena closes
            for (long from = shardStart; from < shardEnd && from < lowestHit.get(); from += chunkBytes) {
                if (failed.get()) {
                    return;
                }
                long to = Math.min(from + chunkBytes, shardEnd);
                readBlocks(channel, buffer, from, to, blockBytes);
                long hit = scan(buffer, from, to, blockBytes);
                if (hit >= 0) {
                    lowestHit.accumulateAndGet(hit, Math::min);
                    return;
                }
            }
        }
    }

    /** Reads the whole blocks around {@code [from, to)} into the buffer, from its start. */
    static void readBlocks(FileChannel channel, MemorySegment buffer, long from, long to, long blockBytes) throws IOException {
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

    /** The file, opened with O_DIRECT. */
    static FileChannel openDirect(Path file) throws IOException {
        try {
            return FileChannel.open(file, StandardOpenOption.READ, ExtendedOpenOption.DIRECT);
        } catch (IOException | UnsupportedOperationException e) {
            if (!Files.isReadable(file)) {
                throw e; // a missing or unreadable file is not the file system's fault
            }
            throw new UserMistakeException("the file system of " + Quote.name(file) + " refuses O_DIRECT (" + e.getMessage()
                    + "); put the file on a disk file system such as ext4 or xfs");
        }
    }

    /** The alignment O_DIRECT asks for on this file's file system, in bytes. */
    static long blockBytes(Path file) throws IOException {
        return Files.getFileStore(file).getBlockSize();
    }

    @Override
    public long smallestChunkBytes(Path file) throws IOException {
        return blockBytes(file); // O_DIRECT reads whole blocks
    }

    // ===== below: chapter 13's code, unchanged (diff variants/V13PreadVector.java variants/V14DirectIo.java) =====

    /** Every shard starts on a multiple of this, so no shard splits a word or a vector block. */
    static final long SHARD_ALIGN_BYTES = 4096;

    /** The kernel scans a chunk this much at a time, for the JIT (chapter 7 says why). */
    static final long SCAN_SLICE_BYTES = 64 << 10;

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
