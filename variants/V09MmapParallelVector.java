///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
//SOURCES ../lib/Library.java
//COMPILE_OPTIONS --add-modules jdk.incubator.vector
//RUNTIME_OPTIONS --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
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
import jdk.incubator.vector.VectorSpecies;
import lib.chapter.MapsTheFile;
import lib.chapter.NeedleSearch;
import lib.harness.Harness;
import lib.linux.Native;

/**
 * Chapter 9: parallel mapping, vector kernel — chapter 6's parallel mapping with chapter 8's 256-bit kernel.
 *
 * <p>Changes chapter 6's kernel to chapter 8's, and advises the mapping as chapter 8 does, as the
 * article's v9 does. If one thread gained from SIMD, several should gain more. They do not, much:
 * once the workers together wait on page faults and memory, a faster inner loop only waits sooner.
 *
 * <p>Like chapter 6, it leaves the unmap to the arena: munmap clears every page-table entry the scan
 * filled, on one thread, inside the timed run. Clearing each shard on its own worker first
 * ({@code MADV_DONTNEED}) looks like a gain and is not one on the machines measured: the kernel tears
 * entries down about as fast on every thread at once as on one ({@code ./jbang unit-costs}:
 * {@code unmap_entry_all} against {@code unmap_entry}; README, chapter 9).
 *
 * <pre>
 * How to run:   ./jbang variants/V09MmapParallelVector.java haystack.bin --workers 1,2
 * What you should see: each run's line on stderr, then on stdout one summary line per worker count:
 *   variant=V09MmapParallelVector workers=1 offset=4294967288 runs=5 mean_s=… median_s=… mbps=… cache=warm bytes=4294967296 page_cache=as-is pmd_mapped_pct=…
 *   variant=V09MmapParallelVector workers=2 offset=4294967288 runs=5 mean_s=… median_s=… mbps=… cache=warm bytes=4294967296 page_cache=as-is pmd_mapped_pct=…
 * Expect about chapter 6's figure: the workers wait on memory, not on the loop.
 * Its bill per GiB: chapter 6's, no read call and no byte returned.
 * </pre>
 */
public class V09MmapParallelVector implements NeedleSearch, MapsTheFile {

    public static void main(String[] args) {
        Harness.run(new V09MmapParallelVector(), args);
    }

    @Override
    public long search(Path file, int workers) throws IOException {
        try (FileChannel channel = FileChannel.open(file); Arena arena = Arena.ofShared()) {
            MemorySegment mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size(), arena);
            if (mapped.byteSize() > 0) { // an empty file maps to no pages to advise about
                Native.madvise(mapped, Native.MADV_SEQUENTIAL);
                Native.madvise(mapped, Native.MADV_WILLNEED);
            }
            return searchShards(mapped, workers);
        }
    }

    /** One worker's scan of its shard, a step at a time: it stops once a hit below its position is known. */
    static void scanShard(MemorySegment mapped, long shardStart, long shardEnd,
                          AtomicLong lowestHit, AtomicBoolean failed) throws IOException {
        for (long from = shardStart; from < shardEnd && from < lowestHit.get(); from += CHECK_EVERY_BYTES) {
            if (failed.get()) {
                return;
            }
            long hit = firstNonZeroWord256(mapped, from, Math.min(from + CHECK_EVERY_BYTES, shardEnd));
            if (hit >= 0) {
                lowestHit.accumulateAndGet(hit, Math::min);
                return;
            }
        }
    }

    // Chapter 8's kernel, and its guard, word for word: 128 bytes per step, then the scalar kernel.
    static final VectorSpecies<Long> SPECIES_256 = LongVector.SPECIES_256;
    static final int BLOCK_BYTES_256 = 4 * 32;

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
        keepFaultsCatchable(segment, from, to);
        return firstNonZeroWordScalar(segment, offset, to); // the block that hit, or the tail
    }

    /** A scalar read for the JIT, so that a fault in a mapping that shrank stays catchable (chapter 8 says how). */
    static void keepFaultsCatchable(MemorySegment segment, long from, long to) {
        if (from < to) {
            byte ignored = segment.get(JAVA_BYTE, from);
        }
    }

    // ===== below: chapter 6's code, unchanged (diff variants/V06MmapParallel.java variants/V09MmapParallelVector.java) =====

    /** Every shard starts on a multiple of this, so no shard splits a word or a vector block. */
    static final long SHARD_ALIGN_BYTES = 4096;

    /** How much of its shard a worker scans between two looks at the lowest hit so far. */
    static final long CHECK_EVERY_BYTES = 1L << 20;

    /** One shard per worker, each on a platform thread of its own; the answer is the lowest hit. */
    static long searchShards(MemorySegment mapped, int workers) throws IOException {
        long fileBytes = mapped.byteSize();
        long shardBytes = Math.max(SHARD_ALIGN_BYTES, Math.ceilDiv(Math.ceilDiv(fileBytes, workers), SHARD_ALIGN_BYTES) * SHARD_ALIGN_BYTES);
        AtomicLong lowestHit = new AtomicLong(Long.MAX_VALUE);
        AtomicBoolean failed = new AtomicBoolean();
        List<Future<?>> results = new ArrayList<>();
        try (ExecutorService threads = Executors.newThreadPerTaskExecutor(Thread.ofPlatform().name("worker-", 0).factory())) {
            for (long start = 0; start < fileBytes; start += shardBytes) {
                long shardStart = start, shardEnd = Math.min(fileBytes, start + shardBytes);
                results.add(threads.submit(() -> {
                    try {
                        scanShard(mapped, shardStart, shardEnd, lowestHit, failed);
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
