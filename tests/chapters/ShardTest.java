import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import lib.chapter.NeedleSearch;
import lib.chapter.Shard;
import lib.haystack.FileChangedException;
import lib.haystack.ReferenceSearch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * How work is divided ({@link Shard#split}, which the harness sizes chunks by, and the parallel
 * chapters' own split) and how the chapters' workers merge their answers: the lowest hit wins, a
 * worker stops once a lower hit is known, failures reach the caller as themselves, no thread
 * outlives a search.
 */
class ShardTest {

    // ---------------------------------------------------------------- Shard.split

    static Stream<Arguments> sizesAndWorkers() {
        long[] sizes = {0, 1, 7, 8, 4095, 4096, 4097, 3 * 4096 + 5, 1L << 20, (1L << 20) + 13, (1L << 31) + 4101,
                4L << 30, (4L << 30) - 1, 1L << 40, (1L << 62) + 12_345};
        return LongStream.of(sizes).boxed()
                .flatMap(size -> Stream.of(1, 2, 3, 7, 8, 64).map(workers -> Arguments.of(size, workers)));
    }

    @ParameterizedTest(name = "{0} bytes, {1} workers")
    @MethodSource("sizesAndWorkers")
    void splitCoversTheFileExactlyWithAlignedContiguousShards(long size, int workers) {
        List<Shard> shards = Shard.split(size, workers);

        assertTrue(shards.size() <= workers, "more shards than workers: " + shards.size());
        assertEquals(size == 0, shards.isEmpty(), "only an empty file has no shards: " + shards);
        long expectedStart = 0;
        for (Shard shard : shards) {
            assertEquals(expectedStart, shard.start(), "a gap or an overlap before " + shard);
            assertTrue(shard.length() > 0, "an empty shard: " + shard);
            assertEquals(0, shard.start() % Shard.ALIGN_BYTES, "a shard start off the alignment: " + shard);
            expectedStart = shard.end();
        }
        assertEquals(size, expectedStart, "the shards end before or after the file");
        // Every cut but the file's end is aligned; the last shard takes whatever is left.
        shards.stream().limit(Math.max(0, shards.size() - 1))
                .forEach(shard -> assertEquals(0, shard.end() % Shard.ALIGN_BYTES, "a cut off the alignment: " + shard));
    }

    @Test
    void bigFilesGetOneShardPerWorkerOfNearlyEqualSize() {
        long size = (4L << 30) + 4101;
        List<Shard> shards = Shard.split(size, 8);
        assertEquals(8, shards.size());
        long longest = shards.stream().mapToLong(Shard::length).max().orElseThrow();
        long shortest = shards.stream().mapToLong(Shard::length).min().orElseThrow();
        assertTrue(longest - shortest <= 8 * Shard.ALIGN_BYTES, "uneven shards: " + shards);
    }

    @Test
    void aFileSmallerThanOneAlignedPieceIsOneShardWhateverTheWorkers() {
        assertEquals(List.of(new Shard(0, 7)), Shard.split(7, 8));
        assertEquals(List.of(new Shard(0, Shard.ALIGN_BYTES)), Shard.split(Shard.ALIGN_BYTES, 8));
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {0, -1, Integer.MIN_VALUE})
    void fewerThanOneWorkerIsRejected(int workers) {
        assertThrows(IllegalArgumentException.class, () -> Shard.split(4096, workers));
    }

    // ---------------------------------------------------------------- the parallel chapters' workers

    static final long WAIT_SECONDS = 30; // a generous bound on a busy machine, never reached when all is well
    static final long KIB = 1024;

    @TempDir
    Path dir;

    /** One chapter's worker over a mapping: {@code scanShard(mapped, shardStart, shardEnd, lowestHit, failed)}. */
    @FunctionalInterface
    interface MappedWorker {
        void scanShard(MemorySegment mapped, long shardStart, long shardEnd, AtomicLong lowestHit, AtomicBoolean failed) throws IOException;
    }

    /** One chapter's pread worker: {@code scanShard(file, shardStart, shardEnd, chunkBytes, lowestHit, failed)}. */
    @FunctionalInterface
    interface PreadWorker {
        void scanShard(Path file, long shardStart, long shardEnd, long chunkBytes, AtomicLong lowestHit, AtomicBoolean failed) throws IOException;
    }

    /** One chapter's wait for a worker's result. */
    @FunctionalInterface
    interface Await {
        void await(Future<?> result) throws IOException;
    }

    static final List<MappedWorker> MAPPED_WORKERS = List.of(V06MmapParallel::scanShard, V09MmapParallelVector::scanShard,
            V10MmapPopulate::scanShard);
    static final List<PreadWorker> PREAD_WORKERS = List.of(V07PreadParallel::scanShard, V11PreadParallelVector256::scanShard,
            V13PreadVector::scanShard);
    static final List<Await> AWAITS = List.of(V06MmapParallel::await, V07PreadParallel::await, V09MmapParallelVector::await,
            V10MmapPopulate::await, V11PreadParallelVector256::await, V13PreadVector::await, V16MmapHugePages::await);

    static List<NeedleSearch> parallelChapters() {
        return List.of(new V06MmapParallel(), new V07PreadParallel(), new V09MmapParallelVector(), new V10MmapPopulate(),
                new V11PreadParallelVector256(), new V13PreadVector());
    }

    @Test
    void theLowestHitWinsEvenWhenALaterShardFinishesFirst() throws IOException {
        long shardBytes = 64 * KIB, lowHit = 100 * Long.BYTES, highHit = 3 * shardBytes + 2 * Long.BYTES;
        Path file = TestFiles.write(dir.resolve("two.bin"), TestFiles.Layout.zeros("two needles", 4 * shardBytes)
                .plant(lowHit, (byte) 1).plant(highHit, (byte) 2));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment mapped = arena.allocate(4 * shardBytes, 4096);
            mapped.set(ValueLayout.JAVA_BYTE, lowHit, (byte) 1);
            mapped.set(ValueLayout.JAVA_BYTE, highHit, (byte) 2);
            for (MappedWorker worker : MAPPED_WORKERS) {
                AtomicLong lowest = new AtomicLong(Long.MAX_VALUE);
                worker.scanShard(mapped, 3 * shardBytes, 4 * shardBytes, lowest, new AtomicBoolean()); // the last shard ends first
                assertEquals(highHit, lowest.get());
                worker.scanShard(mapped, 0, shardBytes, lowest, new AtomicBoolean());
                assertEquals(lowHit, lowest.get());
            }
        }
        for (PreadWorker worker : PREAD_WORKERS) {
            AtomicLong lowest = new AtomicLong(Long.MAX_VALUE);
            worker.scanShard(file, 3 * shardBytes, 4 * shardBytes, 16 * KIB, lowest, new AtomicBoolean());
            assertEquals(highHit, lowest.get());
            worker.scanShard(file, 0, shardBytes, 16 * KIB, lowest, new AtomicBoolean());
            assertEquals(lowHit, lowest.get());
        }
    }

    /**
     * A worker looks at the lowest hit, and whether another worker failed, before each step, and
     * stops once the hit is below the step: the memory or the file here ends after the steps it may
     * take, so one step too many throws, as the last line of each case shows.
     */
    @Test
    void aWorkerStopsOnceALowerHitIsKnownAndWhenAnotherFailed() throws IOException {
        long step = V06MmapParallel.CHECK_EVERY_BYTES, chunk = 16 * KIB;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment oneStep = arena.allocate(step, 4096); // in a shard said to be four steps long
            for (MappedWorker worker : MAPPED_WORKERS) {
                AtomicLong lowest = new AtomicLong(step);
                worker.scanShard(oneStep, 0, 4 * step, lowest, new AtomicBoolean());
                assertEquals(step, lowest.get());
                worker.scanShard(oneStep, 0, 4 * step, new AtomicLong(Long.MAX_VALUE), new AtomicBoolean(true));
                assertThrows(IndexOutOfBoundsException.class,
                        () -> worker.scanShard(oneStep, 0, 4 * step, new AtomicLong(Long.MAX_VALUE), new AtomicBoolean()));
            }
        }
        Path file = TestFiles.write(dir.resolve("two-chunks.bin"), TestFiles.Layout.zeros("two chunks", 2 * chunk));
        for (PreadWorker worker : PREAD_WORKERS) {
            AtomicLong lowest = new AtomicLong(2 * chunk);
            worker.scanShard(file, 0, 4 * chunk, chunk, lowest, new AtomicBoolean());
            assertEquals(2 * chunk, lowest.get());
            worker.scanShard(file, 0, 4 * chunk, chunk, new AtomicLong(Long.MAX_VALUE), new AtomicBoolean(true));
            assertThrows(FileChangedException.class, () -> worker.scanShard(file, 0, 4 * chunk, chunk, new AtomicLong(3 * chunk), new AtomicBoolean()),
                    "with no lower hit known, the third chunk is read, and the file has none");
        }
    }

    @Test
    void aWorkersFailureReachesTheCallerAsItIs() {
        IOException diskError = new IOException("simulated read error");
        IllegalStateException bug = new IllegalStateException("simulated bug");
        AssertionError error = new AssertionError("simulated error");
        for (Await chapter : AWAITS) {
            assertSame(diskError, assertThrows(IOException.class, () -> chapter.await(CompletableFuture.failedFuture(diskError))));
            assertSame(bug, assertThrows(IllegalStateException.class, () -> chapter.await(CompletableFuture.failedFuture(bug))));
            assertSame(error, assertThrows(AssertionError.class, () -> chapter.await(CompletableFuture.failedFuture(error))));
        }
    }

    /** A directory has a size but no bytes to read: each pread worker fails, and the search says so, with no thread left. */
    @Test
    void aPreadWorkersIoErrorFailsTheSearchAndNoThreadOutlivesIt() throws IOException {
        Path directory = Files.createDirectory(dir.resolve("not-a-file"));
        Set<Thread> workersBefore = liveWorkerThreads();
        for (NeedleSearch chapter : List.of(new V07PreadParallel(), new V11PreadParallelVector256(), new V13PreadVector())) {
            IOException thrown = assertThrows(IOException.class, () -> chapter.search(directory, 4), chapter.getClass().getSimpleName());
            assertTrue(String.valueOf(thrown.getMessage()).contains("directory"), thrown.toString());
        }
        assertNoWorkerOutlivesTheSearch(workersBefore);
    }

    @Test
    void noWorkerThreadOutlivesASuccessfulSearch() throws IOException {
        Path file = TestFiles.write(dir.resolve("haystack.bin"), TestFiles.Layout.zeros("64 KiB", 64 * KIB).plant(40 * KIB + 3, (byte) 1));
        Set<Thread> workersBefore = liveWorkerThreads();
        for (NeedleSearch chapter : parallelChapters()) {
            assertEquals(40 * KIB, chapter.search(file, 4), chapter.getClass().getSimpleName());
        }
        assertNoWorkerOutlivesTheSearch(workersBefore);
    }

    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(longs = {0, 1, 8, 4097})
    void moreWorkersThanShardsStillFindTheAnswer(long fileBytes) throws IOException {
        TestFiles.Layout layout = TestFiles.Layout.zeros(fileBytes + " bytes", fileBytes);
        Path file = TestFiles.write(dir.resolve("small.bin"), fileBytes == 0 ? layout : layout.plant(fileBytes - 1, (byte) 1));
        long expected = new ReferenceSearch().search(file, 1);
        assertEquals(fileBytes == 0 ? NeedleSearch.NOT_FOUND : NeedleSearch.wordContaining(fileBytes - 1), expected);
        for (NeedleSearch chapter : parallelChapters()) {
            assertEquals(expected, chapter.search(file, 8), chapter.getClass().getSimpleName());
        }
    }

    /** The chapters' split: one shard per worker, on multiples of 4096 bytes, as {@link Shard#split} cuts. */
    @Test
    void theChaptersAlignTheirShardsAsShardDoes() {
        for (long align : List.of(V06MmapParallel.SHARD_ALIGN_BYTES, V07PreadParallel.SHARD_ALIGN_BYTES, V09MmapParallelVector.SHARD_ALIGN_BYTES,
                V10MmapPopulate.SHARD_ALIGN_BYTES, V11PreadParallelVector256.SHARD_ALIGN_BYTES, V13PreadVector.SHARD_ALIGN_BYTES,
                V16MmapHugePages.SHARD_ALIGN_BYTES)) {
            assertEquals(Shard.ALIGN_BYTES, align);
        }
    }

    /** The threads the chapters start are named worker-0, worker-1, ... */
    static Set<Thread> liveWorkerThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.isAlive() && thread.getName().startsWith("worker-"))
                .collect(Collectors.toSet());
    }

    /**
     * A worker's last act is to tell the executor it is done, and the search returns as soon as
     * all have; the thread itself may still need a moment to end. So each new worker gets a
     * bounded join: one that is still alive after it was leaked.
     */
    static void assertNoWorkerOutlivesTheSearch(Set<Thread> workersBefore) {
        for (Thread thread : liveWorkerThreads()) {
            if (!workersBefore.contains(thread)) {
                try {
                    thread.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                assertTrue(!thread.isAlive(), thread.getName() + " is still running after the search returned");
            }
        }
    }
}
