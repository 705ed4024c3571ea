import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import lib.NeedleSearch;
import lib.ParallelSearch;
import lib.Shard;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * How work is divided ({@link Shard#split}) and how the workers' answers are merged
 * ({@link ParallelSearch}): the lowest hit wins, failures reach the caller, no thread outlives a search.
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

    // ---------------------------------------------------------------- ParallelSearch

    static final long SHARD_BYTES = 4 * Shard.ALIGN_BYTES;
    static final int WORKERS = 4;
    static final long FILE_BYTES = WORKERS * SHARD_BYTES; // Shard.split gives exactly 4 shards of SHARD_BYTES
    static final long CHUNK_BYTES = Shard.ALIGN_BYTES;
    static final long WAIT_SECONDS = 30; // a generous bound on a busy machine, never reached when all is well

    /**
     * A pretend file: scanners report hits at fixed offsets and can be made to wait, so a test
     * decides which worker finishes first.
     */
    static class ScriptedFile {
        final long[] hits;
        final AtomicInteger opened = new AtomicInteger();
        final AtomicInteger closed = new AtomicInteger();
        /** Chunks each shard's scanners were asked for, by shard index. */
        final Map<Integer, AtomicInteger> chunksByShard = new ConcurrentHashMap<>();

        ScriptedFile(long... hits) {
            this.hits = hits;
        }

        /** Called before each chunk is scanned; a test overrides it to wait or to fail. */
        void beforeChunk(int shard, long from) throws IOException {}

        /** Called as a scanner closes, after its worker has reported what it found. */
        void afterScanner(int shard) {}

        ParallelSearch.ChunkScanner open() {
            opened.incrementAndGet();
            return new ParallelSearch.ChunkScanner() {
                int shard = -1;

                @Override
                public long firstNonZeroWord(long from, long to) throws IOException {
                    shard = (int) (from / SHARD_BYTES);
                    chunksByShard.computeIfAbsent(shard, s -> new AtomicInteger()).incrementAndGet();
                    beforeChunk(shard, from);
                    return LongStream.of(hits).filter(hit -> hit >= from && hit < to).min().orElse(NeedleSearch.NOT_FOUND);
                }

                @Override
                public void close() {
                    closed.incrementAndGet();
                    afterScanner(shard);
                }
            };
        }

        long search() throws IOException {
            return ParallelSearch.firstNonZeroWord(FILE_BYTES, WORKERS, CHUNK_BYTES, this::open);
        }
    }

    static void await(CountDownLatch latch, String what) throws IOException {
        try {
            if (!latch.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
                throw new IOException("gave up waiting for " + what);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted waiting for " + what, e);
        }
    }

    @Test
    void theLowestHitWinsEvenWhenALaterShardFinishesFirst() throws IOException {
        long lowHit = 100 * Long.BYTES;                  // shard 0
        long highHit = 3 * SHARD_BYTES + 2 * Long.BYTES; // shard 3
        CountDownLatch lastShardDone = new CountDownLatch(1);
        List<Integer> finishOrder = new java.util.concurrent.CopyOnWriteArrayList<>();
        ScriptedFile file = new ScriptedFile(lowHit, highHit) {
            @Override
            void beforeChunk(int shard, long from) throws IOException {
                if (shard == 0) {
                    await(lastShardDone, "the last shard to report its hit");
                }
            }

            @Override
            void afterScanner(int shard) {
                finishOrder.add(shard);
                if (shard == 3) {
                    lastShardDone.countDown();
                }
            }
        };

        assertEquals(lowHit, file.search());
        assertTrue(finishOrder.indexOf(3) < finishOrder.indexOf(0), "shard 3 did not finish first: " + finishOrder);
    }

    @Test
    void aWorkerStopsOnceALowerHitIsKnown() throws IOException {
        long lowHit = 8;
        CountDownLatch firstShardDone = new CountDownLatch(1);
        ScriptedFile file = new ScriptedFile(lowHit) {
            @Override
            void beforeChunk(int shard, long from) throws IOException {
                if (shard == 1) {
                    await(firstShardDone, "the first shard to report its hit");
                }
            }

            @Override
            void afterScanner(int shard) {
                if (shard == 0) {
                    firstShardDone.countDown();
                }
            }
        };

        assertEquals(lowHit, file.search());
        // Shard 1 has 4 chunks, but once its first is scanned (if it got that far) the hit in shard 0 is known.
        int shard1Chunks = file.chunksByShard.getOrDefault(1, new AtomicInteger()).get();
        assertTrue(shard1Chunks <= 1, "shard 1 scanned " + shard1Chunks + " chunks after a lower hit was known");
    }

    @Test
    void noHitAnywhereIsNotFound() throws IOException {
        ScriptedFile file = new ScriptedFile();
        assertEquals(NeedleSearch.NOT_FOUND, file.search());
        assertEquals(WORKERS, file.opened.get());
        int chunks = file.chunksByShard.values().stream().mapToInt(AtomicInteger::get).sum();
        assertEquals(FILE_BYTES / CHUNK_BYTES, chunks, "every chunk is scanned exactly once");
    }

    @Test
    void aWorkersExceptionReachesTheCallerAndEveryScannerIsClosed() {
        IOException diskError = new IOException("simulated read error in shard 2");
        ScriptedFile file = new ScriptedFile() {
            @Override
            void beforeChunk(int shard, long from) throws IOException {
                if (shard == 2) {
                    throw diskError;
                }
            }
        };

        Set<Thread> workersBefore = liveWorkerThreads();
        IOException thrown = assertThrows(IOException.class, file::search);
        assertSame(diskError, thrown);
        assertEquals(file.opened.get(), file.closed.get(), "a scanner was left open");
        assertNoWorkerOutlivesTheSearch(workersBefore);
    }

    @Test
    void aRuntimeExceptionInAWorkerReachesTheCallerAsItIs() {
        IllegalStateException bug = new IllegalStateException("simulated bug in a scanner");
        ScriptedFile file = new ScriptedFile() {
            @Override
            void beforeChunk(int shard, long from) {
                if (shard == 1) {
                    throw bug;
                }
            }
        };
        assertSame(bug, assertThrows(IllegalStateException.class, file::search));
    }

    @Test
    void aScannerThatCannotOpenFailsTheSearch() {
        IOException cannotOpen = new IOException("simulated: cannot open the file");
        Set<Thread> workersBefore = liveWorkerThreads();
        IOException thrown = assertThrows(IOException.class,
                () -> ParallelSearch.firstNonZeroWord(FILE_BYTES, WORKERS, CHUNK_BYTES, () -> { throw cannotOpen; }));
        assertSame(cannotOpen, thrown);
        assertNoWorkerOutlivesTheSearch(workersBefore);
    }

    @Test
    void noWorkerThreadOutlivesASuccessfulSearch() throws IOException {
        Set<Thread> workersBefore = liveWorkerThreads();
        assertEquals(SHARD_BYTES + 16, new ScriptedFile(SHARD_BYTES + 16).search());
        assertNoWorkerOutlivesTheSearch(workersBefore);
    }

    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(longs = {0, 1, 8, 4097})
    void moreWorkersThanShardsOpensOneScannerPerShard(long fileBytes) throws IOException {
        AtomicInteger opened = new AtomicInteger();
        long answer = ParallelSearch.firstNonZeroWord(fileBytes, 8, CHUNK_BYTES, () -> {
            opened.incrementAndGet();
            return (from, to) -> NeedleSearch.NOT_FOUND;
        });
        assertEquals(NeedleSearch.NOT_FOUND, answer);
        assertEquals(Shard.split(fileBytes, 8).size(), opened.get());
    }

    /** The threads ParallelSearch starts are named worker-0, worker-1, ... */
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
