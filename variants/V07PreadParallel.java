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
import java.nio.ByteBuffer;
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
import lib.chapter.ChunkedSearch;
import lib.chapter.NeedleSearch;
import lib.chapter.ScansWordByWord;
import lib.harness.Harness;
import lib.haystack.FileChangedException;

/**
 * Chapter 7: positional reads in parallel — back to reading, each worker at offsets of its own.
 *
 * <p>Changes chapter 6's mapping back into reads, chapter 3's, one reader per shard: each worker
 * opens its own {@code FileChannel}, owns one reused 1 MiB off-heap buffer (another size with
 * {@code --chunk}) and reads its shard with {@code pread(2)}. Reading copies every byte once more
 * than mmap does, but the copy is a tight kernel loop into a buffer that stays in cache, and there
 * is not a single page fault.
 *
 * <pre>
 * How to run:   ./jbang variants/V07PreadParallel.java haystack.bin --workers 1,2
 * What you should see: each run's line on stderr, then on stdout one summary line per worker count:
 *   variant=V07PreadParallel workers=1 offset=4294967288 runs=5 mean_s=… median_s=… mbps=… cache=warm bytes=4294967296 chunk_bytes=1048576 page_cache=as-is
 *   variant=V07PreadParallel workers=2 offset=4294967288 runs=5 mean_s=… median_s=… mbps=… cache=warm bytes=4294967296 chunk_bytes=1048576 page_cache=as-is
 * Expect a gain with each worker up to the core count, then a plateau.
 * Its bill per GiB: 1,024 read calls (one per 1 MiB chunk), 1 GiB returned, whatever the worker count.
 * </pre>
 */
public class V07PreadParallel implements ChunkedSearch, ScansWordByWord {

    public static void main(String[] args) {
        Harness.run(new V07PreadParallel(), args);
    }

    /**
     * The kernel scans a chunk this much at a time, for the JIT: a call over a whole chunk is one
     * long loop, compiled mid-loop from a profile that has not seen it end, and soon thrown away.
     */
    static final long SCAN_SLICE_BYTES = 64 << 10;

    /**
     * One contiguous shard per worker, each on a platform thread of its own, all ended before this
     * returns. The answer is the LOWEST hit, not the first to arrive: the last shard may end first.
     */
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

    /**
     * A worker reads its shard a chunk at a time into one reused off-heap buffer, with its own
     * FileChannel's {@code read(buffer, position)}: {@code pread(2)}, which moves no shared file
     * position, so workers never contend for one.
     */
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
            long hit = firstNonZeroWordScalar(buffer, slice, Math.min(slice + SCAN_SLICE_BYTES, length));
            if (hit >= 0) {
                return from + hit;
            }
        }
        return NOT_FOUND;
    }

    // ===== below: chapter 6's code, unchanged (diff variants/V06MmapParallel.java variants/V07PreadParallel.java) =====

    /** Every shard starts on a multiple of this, so no shard splits a word or a vector block. */
    static final long SHARD_ALIGN_BYTES = 4096;

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
