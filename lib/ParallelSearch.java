package lib;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The work division shared by every parallel chapter.
 *
 * <p>The file is cut into one contiguous {@link Shard} per worker; each worker walks its shard a
 * step at a time: a read's worth for the readers, {@link #CHECK_EVERY_BYTES} of a mapping. The
 * answer is the LOWEST hit any worker reports, not the first one to arrive: the last shard may
 * well finish first. A worker stops as soon as a hit below its position is
 * known, since nothing it could still find would beat it.
 *
 * <p>Each search starts its own platform threads and waits for all of them before returning, so
 * no thread outlives a search and the timing includes thread start-up, as it should.
 */
public final class ParallelSearch {

    /**
     * How much of a mapping a worker scans between checks of the lowest hit (a reader checks after
     * every read instead). Small enough that a worker past the hit stops soon, large enough that the
     * check costs nothing.
     */
    public static final long CHECK_EVERY_BYTES = 1L << 20;

    /** One worker's view of the file: scans part of it, holds whatever it needs to do so. */
    public interface ChunkScanner extends AutoCloseable {
        /** File offset of the first non-zero word in {@code [from, to)}, or -1. */
        long firstNonZeroWord(long from, long to) throws IOException;

        @Override
        default void close() throws IOException {}
    }

    /** Makes one {@link ChunkScanner} per worker, on the worker's own thread. */
    @FunctionalInterface
    public interface ScannerFactory {
        ChunkScanner open() throws IOException;
    }

    /**
     * Makes one {@link ChunkScanner} per worker, on the worker's own thread, told the worker's shard:
     * for a chapter that prepares its whole shard before it scans it.
     */
    @FunctionalInterface
    public interface ShardScannerFactory {
        ChunkScanner open(Shard shard) throws IOException;
    }

    private ParallelSearch() {}

    /**
     * The parallel search of memory the workers share, a whole file's mapping: each worker runs
     * {@code kernel} over its shard, {@link #CHECK_EVERY_BYTES} at a time. Offsets in the mapping
     * are offsets in the file.
     */
    public static long firstNonZeroWord(MemorySegment mapped, int workers, Kernel kernel) throws IOException {
        return firstNonZeroWord(mapped.byteSize(), workers, CHECK_EVERY_BYTES,
                () -> (from, to) -> kernel.firstNonZeroWord(mapped, from, to));
    }

    /**
     * The parallel search of {@code fileBytes} with a scanner per worker, each handed
     * {@code stepBytes} of its shard at a time (a reader's chunk: its read size), the lowest hit
     * checked between steps.
     */
    public static long firstNonZeroWord(long fileBytes, int workers, long stepBytes, ScannerFactory scanners)
            throws IOException {
        return firstNonZeroWord(fileBytes, workers, stepBytes, (ShardScannerFactory) shard -> scanners.open());
    }

    /** Like the search above, with each worker's scanner told its shard when it is opened. */
    public static long firstNonZeroWord(long fileBytes, int workers, long stepBytes, ShardScannerFactory scanners)
            throws IOException {
        AtomicLong lowestHit = new AtomicLong(Long.MAX_VALUE);
        AtomicBoolean failed = new AtomicBoolean();
        List<Future<?>> results = new ArrayList<>();
        try (ExecutorService threads = Executors.newThreadPerTaskExecutor(Thread.ofPlatform().name("worker-", 0).factory())) {
            for (Shard shard : Shard.split(fileBytes, workers)) {
                results.add(threads.submit(() -> {
                    try {
                        scanShard(shard, stepBytes, scanners, lowestHit, failed);
                    } catch (IOException | RuntimeException | Error e) {
                        failed.set(true); // tells the other workers to stop early
                        throw e;
                    }
                    return null;
                }));
            }
        } // ExecutorService.close() waits for every worker
        for (Future<?> result : results) {
            await(result, "a worker");
        }
        long hit = lowestHit.get();
        return hit == Long.MAX_VALUE ? NeedleSearch.NOT_FOUND : hit;
    }

    private static void scanShard(Shard shard, long stepBytes, ShardScannerFactory scanners,
                                  AtomicLong lowestHit, AtomicBoolean failed) throws IOException {
        try (ChunkScanner scanner = scanners.open(shard)) {
            for (long from = shard.start(); from < shard.end() && from < lowestHit.get(); from += stepBytes) {
                if (failed.get()) {
                    return;
                }
                long hit = scanner.firstNonZeroWord(from, Math.min(from + stepBytes, shard.end()));
                if (hit >= 0) {
                    lowestHit.accumulateAndGet(hit, Math::min);
                    return;
                }
            }
        }
    }

    /**
     * Waits for a task on another thread, and throws here what it threw there: its I/O error as
     * itself, not wrapped. {@code waitingFor} says, if the wait is interrupted, what it waited for.
     */
    static void await(Future<?> result, String waitingFor) throws IOException {
        try {
            result.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for " + waitingFor, e);
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
