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
import lib.chapter.MapsTheFile;
import lib.chapter.NeedleSearch;
import lib.chapter.ScansWordByWord;
import lib.harness.Harness;

/**
 * Chapter 6: one mapping, many workers — one shard of the mapping per worker.
 *
 * <p>Changes chapter 4 by splitting the scan among threads. A single core cannot pull bytes as fast
 * as the memory system can deliver them; several cores issue more cache-line requests at once and
 * take their page faults side by side. The mapping lives in a shared arena so every worker thread
 * may read it; closing a shared arena makes the JVM check that no thread is still using the memory.
 *
 * <pre>
 * How to run:   ./jbang variants/V06MmapParallel.java haystack.bin --workers 1,2
 * What you should see: each run's line on stderr, then on stdout one summary line per worker count:
 *   variant=V06MmapParallel workers=1 offset=4294967288 runs=5 mean_s=… median_s=… mbps=… cache=warm bytes=4294967296 page_cache=as-is pmd_mapped_pct=…
 *   variant=V06MmapParallel workers=2 offset=4294967288 runs=5 mean_s=… median_s=… mbps=… cache=warm bytes=4294967296 page_cache=as-is pmd_mapped_pct=…
 * Expect more than chapter 4 with two workers and little more past the core count.
 * Its bill per GiB: chapter 4's, no read call and no byte returned, the faults shared among the
 *   workers.
 * </pre>
 */
public class V06MmapParallel implements NeedleSearch, MapsTheFile, ScansWordByWord {

    public static void main(String[] args) {
        Harness.run(new V06MmapParallel(), args);
    }

    /** Every shard starts on a multiple of this, so no shard splits a word or a vector block. */
    static final long SHARD_ALIGN_BYTES = 4096;

    /** How much of its shard a worker scans between two looks at the lowest hit so far. */
    static final long CHECK_EVERY_BYTES = 1L << 20;

    @Override
    public long search(Path file, int workers) throws IOException {
        try (FileChannel channel = FileChannel.open(file); Arena arena = Arena.ofShared()) {
            MemorySegment mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size(), arena);
            return searchShards(mapped, workers);
        }
    }

    /**
     * One contiguous shard per worker, each on a platform thread of its own, all ended before this
     * returns. The answer is the LOWEST hit, not the first to arrive: the last shard may end first.
     */
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

    /** One worker's scan of its shard, a step at a time: it stops once a hit below its position is known. */
    static void scanShard(MemorySegment mapped, long shardStart, long shardEnd,
                          AtomicLong lowestHit, AtomicBoolean failed) throws IOException {
        for (long from = shardStart; from < shardEnd && from < lowestHit.get(); from += CHECK_EVERY_BYTES) {
            if (failed.get()) {
                return;
            }
            long hit = firstNonZeroWordScalar(mapped, from, Math.min(from + CHECK_EVERY_BYTES, shardEnd));
            if (hit >= 0) {
                lowestHit.accumulateAndGet(hit, Math::min);
                return;
            }
        }
    }

    // ===== below: chapter 4's code, unchanged (diff variants/V04Mmap.java variants/V06MmapParallel.java) =====

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
