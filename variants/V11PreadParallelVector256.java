///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
//SOURCES ../lib/Library.java
//COMPILE_OPTIONS --add-modules jdk.incubator.vector
//RUNTIME_OPTIONS --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED
// Its vector kernels compile after 1 % of the JIT's usual calls, and a thread that calls one waits while it compiles
// rather than run it in the interpreter, an object per vector: a first run waits less for C2 (docs/startup.md).
//RUNTIME_OPTIONS -XX:CompileCommand=quiet -XX:CompileCommand=CompileThresholdScaling:V11PreadParallelVector256::firstNonZeroWord256:0.01
//RUNTIME_OPTIONS -XX:CompileCommand=BackgroundCompilation:V11PreadParallelVector256::firstNonZeroWord256:false

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

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
import jdk.incubator.vector.VectorSpecies;
import lib.chapter.ChunkedSearch;
import lib.chapter.NeedleSearch;
import lib.harness.Harness;
import lib.haystack.FileChangedException;

/**
 * Chapter 11: positional reads, vector kernel — chapter 7's parallel positional reads with the 256-bit kernel.
 *
 * <p>Changes chapter 7's kernel to chapter 8's (without its guard: a buffer of our own cannot shrink
 * under the scan as a mapped file can). The article's fastest way in with the fastest scan
 * so far (which of reading and mapping wins depends on the machine and on how its page cache holds
 * the file: see README). Each worker's 1 MiB buffer (another size with {@code --chunk}) was just
 * written by the kernel's copy and is still in cache, so the vector scan reads it almost for free.
 *
 * <pre>
 * How to run:   ./jbang variants/V11PreadParallelVector256.java haystack.bin --workers 1,2
 * What you should see: each run's line on stderr, then on stdout one summary line per worker count:
 *   variant=V11PreadParallelVector256 workers=1 offset=4294967288 runs=5 mean_s=… median_s=… mbps=… cache=warm bytes=4294967296 chunk_bytes=1048576 page_cache=as-is
 *   variant=V11PreadParallelVector256 workers=2 offset=4294967288 runs=5 mean_s=… median_s=… mbps=… cache=warm bytes=4294967296 chunk_bytes=1048576 page_cache=as-is
 * Expect a little more than chapter 7: the scan is nearly free.
 * Its bill per GiB: chapter 7's, 1,024 read calls and 1 GiB returned; only the loop changed.
 * </pre>
 */
public class V11PreadParallelVector256 implements ChunkedSearch {

    public static void main(String[] args) {
        Harness.run(new V11PreadParallelVector256(), args);
    }

    /** Reads {@code [from, to)} of the file into the buffer, then scans it a slice at a time. */
    static long readAndScan(FileChannel channel, MemorySegment buffer, ByteBuffer bufferView, long from, long to) throws IOException {
        int length = Math.toIntExact(to - from);
        bufferView.clear().limit(length);
        while (bufferView.hasRemaining()) { // a read may return less than asked
            long position = from + bufferView.position();
            if (channel.read(bufferView, position) < 0) {
                throw new FileChangedException("the file ended at " + position + " bytes, shorter than when the search began");
            }
        }
        for (long slice = 0; slice < length; slice += SCAN_SLICE_BYTES) {
            long hit = firstNonZeroWord256(buffer, slice, Math.min(slice + SCAN_SLICE_BYTES, length));
            if (hit >= 0) {
                return from + hit;
            }
        }
        return NOT_FOUND;
    }

    // Chapter 8's kernel: four 32-byte vectors ORed, one question a step, then the scalar kernel for
    // the block that hit. Without chapter 8's guard: these buffers are no mapping that can shrink.
    static final VectorSpecies<Long> SPECIES_256 = LongVector.SPECIES_256;
    static final int BLOCK_BYTES_256 = 4 * 32;

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

    // ===== below: chapter 7's code, unchanged (diff variants/V07PreadParallel.java variants/V11PreadParallelVector256.java) =====

    /** Every shard starts on a multiple of this, so no shard splits a word or a vector block. */
    static final long SHARD_ALIGN_BYTES = 4096;

    /** The kernel scans a chunk this much at a time, for the JIT (chapter 7 says why). */
    static final long SCAN_SLICE_BYTES = 64 << 10;

    /** One shard per worker, each on a platform thread of its own; the answer is the lowest hit. */
    @Override
    public long search(Path file, int workers, long chunkBytes) throws IOException {
        long fileBytes = Files.size(file);
        long shardBytes = Math.max(SHARD_ALIGN_BYTES, Math.ceilDiv(Math.ceilDiv(fileBytes, workers), SHARD_ALIGN_BYTES) * SHARD_ALIGN_BYTES);
        AtomicLong lowestHit = new AtomicLong(Long.MAX_VALUE);
        AtomicBoolean failed = new AtomicBoolean();
        List<Future<?>> results = new ArrayList<>();
        try (ExecutorService threads = Executors.newThreadPerTaskExecutor(Thread.ofPlatform().name("worker-", 0).factory())) {
            for (long start = 0; start < fileBytes; start += shardBytes) {
                long shardStart = start, shardEnd = Math.min(fileBytes, start + shardBytes);
                results.add(threads.submit(() -> {
                    try {
                        scanShard(file, shardStart, shardEnd, chunkBytes, lowestHit, failed);
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

    /** A worker reads its shard a chunk at a time, with pread(2), into one reused buffer of its own. */
    static void scanShard(Path file, long shardStart, long shardEnd, long chunkBytes,
                          AtomicLong lowestHit, AtomicBoolean failed) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ); Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = arena.allocate(chunkBytes, 4096); // page-aligned, freed when the arena closes
            ByteBuffer bufferView = buffer.asByteBuffer(); // the same memory, as FileChannel wants it
            for (long from = shardStart; from < shardEnd && from < lowestHit.get(); from += chunkBytes) {
                if (failed.get()) {
                    return;
                }
                long hit = readAndScan(channel, buffer, bufferView, from, Math.min(from + chunkBytes, shardEnd));
                if (hit >= 0) {
                    lowestHit.accumulateAndGet(hit, Math::min);
                    return;
                }
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
}
