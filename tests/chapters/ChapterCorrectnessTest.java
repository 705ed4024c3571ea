import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import lib.chapter.ChunkedSearch;
import lib.chapter.NeedleSearch;
import lib.chapter.Shard;
import lib.cli.UserMistakeException;
import lib.haystack.ReferenceSearch;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every chapter, with each of its readers (chapter 2 has two), against the plain {@link ReferenceSearch}:
 * hand-picked small files first, then seeded random files with needles on every shard edge and chunk edge.
 *
 * <p>Each random file's expected answer comes from how it was built, and the reference has to
 * agree with it too. All random choices come from one seed, printed with every failure, so any
 * failure can be replayed: {@code ./jbang -Dneedle.seed=N tests/RunTests.java ChapterCorrectnessTest}.
 */
class ChapterCorrectnessTest {

    static final long SEED = Long.getLong("needle.seed", 20261129L);
    static final NeedleSearch REFERENCE = new ReferenceSearch();
    static final byte NEEDLE_BYTE = 0x2a;

    /** Worker counts for the hand-picked files: one thread, and several shards. */
    static final int[] SMALL_FILE_WORKERS = {1, 3};
    static final int MAX_WORKERS = 8;
    static final int[] ALL_WORKER_COUNTS = IntStream.rangeClosed(1, MAX_WORKERS).toArray();
    /** Where, around an edge, the needle goes: the words either side and the bytes either side. */
    static final long[] EDGE_OFFSETS_BYTES = {-8, -1, 0, 1, 8};
    static final int RANDOM_FILES = 30;
    static final long KIB = 1024, MIB = 1024 * KIB;

    // ---------------------------------------------------------------- hand-picked small files

    static List<TestFiles.Layout> smallFiles() {
        List<TestFiles.Layout> files = new ArrayList<>();
        files.add(TestFiles.Layout.zeros("needle at offset 0", 16 * KIB).plant(0, NEEDLE_BYTE));
        files.add(TestFiles.Layout.zeros("needle in the last byte of the first word", 16 * KIB).plant(7, NEEDLE_BYTE));
        files.add(TestFiles.Layout.zeros("needle in the middle", 64 * KIB + 24).plant(32 * KIB + 12, NEEDLE_BYTE));
        files.add(TestFiles.Layout.zeros("needle in the last slot", 16 * KIB).plant(16 * KIB - 8, NEEDLE_BYTE));
        files.add(TestFiles.Layout.zeros("needle in the last byte", 16 * KIB).plant(16 * KIB - 1, NEEDLE_BYTE));
        for (int tailBytes = 1; tailBytes < Long.BYTES; tailBytes++) {
            // 1000 whole words: 7 vector blocks of 128 and 256 bytes don't divide it, so the
            // kernels cover it with blocks, then single words, then the short tail.
            long size = 1000 * Long.BYTES + tailBytes;
            files.add(TestFiles.Layout.zeros("non-zero last byte in a " + tailBytes + "-byte tail", size)
                    .plant(size - 1, NEEDLE_BYTE));
        }
        files.add(TestFiles.Layout.zeros("non-zero first byte of a 7-byte tail", 1000 * Long.BYTES + 7)
                .plant(1000 * Long.BYTES, NEEDLE_BYTE));
        files.add(TestFiles.Layout.zeros("several non-zero words: the first wins", 32 * KIB)
                .plant(30_000, (byte) 0xff).plant(9_005, (byte) 0x01).plant(20_000, (byte) 0x80).plant(31_999, NEEDLE_BYTE));
        files.add(TestFiles.Layout.zeros("two non-zero bytes in one word", 4 * KIB)
                .plant(2_051, (byte) 0x07).plant(2_054, (byte) 0x90));
        files.add(TestFiles.Layout.zeros("needle in the second 1 MiB chunk", 3 * MIB + 3).plant(MIB + 1, NEEDLE_BYTE));
        files.add(TestFiles.Layout.zeros("empty file", 0));
        for (int size = 1; size < Long.BYTES; size++) {
            files.add(TestFiles.Layout.zeros(size + "-byte file, last byte non-zero", size).plant(size - 1, NEEDLE_BYTE));
        }
        files.add(TestFiles.Layout.zeros("5-byte file of zeros", 5));
        files.add(TestFiles.Layout.zeros("one word, non-zero", Long.BYTES).plant(3, NEEDLE_BYTE));
        files.add(TestFiles.Layout.zeros("all zeros", 16 * KIB));
        files.add(TestFiles.Layout.zeros("all zeros, 3 MiB and a 5-byte tail", 3 * MIB + 5));
        return files;
    }

    static Stream<Arguments> chaptersAndSmallFiles() {
        return Chapters.everyReader().stream()
                .flatMap(chapter -> smallFiles().stream().map(file -> Arguments.of(named(chapter), file)));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("chaptersAndSmallFiles")
    void agreesWithReferenceOnSmallFile(NeedleSearch chapter, TestFiles.Layout layout, @TempDir Path dir) throws IOException {
        CpuSupport.assumeChapterRunsHere(chapter);
        Path file = TestFiles.write(dir.resolve("haystack.bin"), layout);
        long reference = REFERENCE.search(file, 1);
        assertEquals(layout.expectedOffset(), reference, "the reference disagrees with how the file was built: " + layout.details());
        for (int workers : SMALL_FILE_WORKERS) {
            assertEquals(reference, chapter.search(file, workers), layout.details() + ", " + workers + " workers");
        }
    }

    @Test
    void chapter12RefusesWithAUserMistakeExceptionWithout512BitVectors(@TempDir Path dir) throws IOException {
        Assumptions.assumeFalse(V12Vector512.WIDEST_BITS >= 512, "this CPU has 512-bit vectors, so chapter 12 runs here");
        Path file = TestFiles.write(dir.resolve("haystack.bin"), TestFiles.Layout.zeros("all zeros", 4 * KIB));
        assertThrows(UserMistakeException.class, () -> new V12Vector512().search(file, 1));
    }

    /** Chapter 2's --reader picks the reader that runs, and its summary line names it; anything else is refused in one line. */
    @Test
    void chapter2RunsTheReaderItsOptionNames(@TempDir Path dir) throws IOException {
        Path file = TestFiles.write(dir.resolve("haystack.bin"), TestFiles.Layout.zeros("needle in the middle", 256 * KIB)
                .plant(100_003, NEEDLE_BYTE));
        for (String reader : List.of("locked", "plain", "LOCKED")) {
            var result = InProcess.run(new V02BufferedByte(), file.toString(), "--reader", reader, "--runs", "1", "--warmup", "0");
            assertEquals(0, result.exitCode(), result.toString());
            assertTrue(result.stdout().contains(" offset=100000 ") && result.stdout().contains(" read_mode=" + reader.toLowerCase(Locale.ROOT) + " "),
                    result.stdout());
        }
        var defaulted = InProcess.run(new V02BufferedByte(), file.toString(), "--runs", "1", "--warmup", "0");
        assertTrue(defaulted.stdout().contains(" read_mode=plain "), "the plain reader is the default: " + defaulted.stdout());
        var refused = InProcess.run(new V02BufferedByte(), file.toString(), "--reader", "fast");
        assertEquals(2, refused.exitCode(), refused.toString());
        assertEquals(1, refused.stderr().strip().lines().count(), refused.stderr());
        assertTrue(refused.stderr().contains("--reader") && refused.stderr().contains("fast"), refused.stderr());
    }

    // ---------------------------------------------------------------- seeded random files

    /** A written file, what the reference answers for it, and the worker counts to search it with. */
    record WrittenFile(TestFiles.Layout layout, Path file, long referenceAnswer, int[] workerCounts) {}

    @TempDir
    static Path randomFilesDir;
    static List<WrittenFile> shardEdgeFiles;
    static List<WrittenFile> chunkEdgeFiles;
    static List<WrittenFile> randomFiles;

    @BeforeAll
    static void writeRandomFiles() throws IOException {
        Random random = new Random(SEED);
        shardEdgeFiles = writeAll(shardEdgeLayouts(random), ALL_WORKER_COUNTS);
        randomFiles = writeAll(randomLayouts(random), ALL_WORKER_COUNTS);
        chunkEdgeFiles = new ArrayList<>();
        for (int workers = 1; workers <= 3; workers++) { // files of a few MiB: each searched with its own worker count
            chunkEdgeFiles.addAll(writeAll(chunkEdgeLayouts(random, workers), new int[] {workers}));
        }
    }

    /**
     * For each worker count: one random size, and a file for every needle position within 8
     * bytes of a shard edge. Half of them get a second, later needle, which must not win.
     */
    static List<TestFiles.Layout> shardEdgeLayouts(Random random) {
        List<TestFiles.Layout> layouts = new ArrayList<>();
        for (int workers = 1; workers <= MAX_WORKERS; workers++) {
            // From just under one aligned piece per worker (fewer shards than workers) to six.
            long size = randomSize(random, (workers - 1) * Shard.ALIGN_BYTES + 1, 6 * workers * Shard.ALIGN_BYTES);
            SortedSet<Long> edges = new TreeSet<>();
            for (Shard shard : Shard.split(size, workers)) {
                edges.add(shard.start());
                edges.add(shard.end());
            }
            for (long position : positionsAround(edges, size)) {
                layouts.add(withMaybeALaterNeedle(random, TestFiles.Layout
                        .zeros("shard edge for " + workers + " workers", size).plant(position, randomNonZeroByte(random))));
            }
        }
        return layouts;
    }

    /** Needles around the 1 MiB chunk edges inside each shard, in files of 2 to 3 MiB. */
    static List<TestFiles.Layout> chunkEdgeLayouts(Random random, int workers) {
        long size = randomSize(random, 2 * MIB + 1, 3 * MIB);
        SortedSet<Long> edges = new TreeSet<>();
        for (Shard shard : Shard.split(size, workers)) {
            for (long step : List.of(ChunkedSearch.DEFAULT_CHUNK_BYTES, V06MmapParallel.CHECK_EVERY_BYTES)) {
                for (long stepStart = shard.start(); stepStart < shard.end(); stepStart += step) {
                    edges.add(stepStart); // where a reader's read, or a mapping's check, begins
                }
            }
            edges.add(shard.end());
        }
        List<TestFiles.Layout> layouts = new ArrayList<>();
        for (long position : positionsAround(edges, size)) {
            layouts.add(TestFiles.Layout.zeros("chunk edge for " + workers + " workers", size)
                    .plant(position, randomNonZeroByte(random)));
        }
        return layouts;
    }

    /** Random sizes and needles; some all zeros; and the smallest files spelled out. */
    static List<TestFiles.Layout> randomLayouts(Random random) {
        List<TestFiles.Layout> layouts = new ArrayList<>();
        for (int i = 0; i < RANDOM_FILES; i++) {
            long maxSize = switch (i % 3) {
                case 0 -> 2 * Shard.ALIGN_BYTES;
                case 1 -> 256 * KIB;
                default -> 3 * MIB;
            };
            long size = randomSize(random, 1, maxSize);
            TestFiles.Layout layout = TestFiles.Layout.zeros("random file #" + i, size);
            for (int needles = random.nextInt(5); needles > 0; needles--) { // 0 needles: all zeros
                layout = layout.plant(random.nextLong(size), randomNonZeroByte(random));
            }
            layouts.add(layout);
        }
        for (int size = 1; size <= Long.BYTES; size++) {
            layouts.add(TestFiles.Layout.zeros("one-word file of " + size + " bytes", size)
                    .plant(random.nextInt(size), randomNonZeroByte(random)));
        }
        layouts.add(TestFiles.Layout.zeros("one-word file of zeros", Long.BYTES));
        long fewShards = 2 * Shard.ALIGN_BYTES + 5; // 3 shards at most, searched with up to 8 workers
        layouts.add(TestFiles.Layout.zeros("more workers than shards", fewShards)
                .plant(Shard.ALIGN_BYTES + random.nextLong(fewShards - Shard.ALIGN_BYTES), randomNonZeroByte(random)));
        return layouts;
    }

    static List<WrittenFile> writeAll(List<TestFiles.Layout> layouts, int[] workerCounts) throws IOException {
        List<WrittenFile> written = new ArrayList<>();
        for (TestFiles.Layout layout : layouts) {
            Path file = TestFiles.write(randomFilesDir.resolve("random-" + writtenFiles++ + ".bin"), layout);
            written.add(new WrittenFile(layout, file, REFERENCE.search(file, 1), workerCounts));
        }
        return written;
    }

    private static int writtenFiles;

    @Test
    void referenceAgreesWithHowEveryRandomFileWasBuilt() {
        List<String> mismatches = new ArrayList<>();
        for (WrittenFile written : allRandomFiles()) {
            if (written.referenceAnswer() != written.layout().expectedOffset()) {
                mismatches.add(written.layout().details() + ": reference answered " + written.referenceAnswer()
                        + ", expected " + written.layout().expectedOffset());
            }
        }
        assertNoMismatches(mismatches, allRandomFiles().size());
    }

    @ParameterizedTest(name = "{0}: needles within 8 bytes of every shard edge, 1..8 workers")
    @MethodSource("chapters")
    void agreesWithReferenceOnShardEdges(NeedleSearch chapter) {
        CpuSupport.assumeChapterRunsHere(chapter);
        assertAgreesWithReference(chapter, shardEdgeFiles);
    }

    @ParameterizedTest(name = "{0}: needles within 8 bytes of every 1 MiB chunk edge")
    @MethodSource("chapters")
    void agreesWithReferenceOnChunkEdges(NeedleSearch chapter) {
        CpuSupport.assumeChapterRunsHere(chapter);
        assertAgreesWithReference(chapter, chunkEdgeFiles);
    }

    @ParameterizedTest(name = "{0}: random sizes and needles, tiny files, 1..8 workers")
    @MethodSource("chapters")
    void agreesWithReferenceOnRandomFiles(NeedleSearch chapter) {
        CpuSupport.assumeChapterRunsHere(chapter);
        assertAgreesWithReference(chapter, randomFiles);
    }

    static void assertAgreesWithReference(NeedleSearch chapter, List<WrittenFile> files) {
        List<String> mismatches = new ArrayList<>();
        int searches = 0;
        for (WrittenFile written : files) {
            for (int workers : written.workerCounts()) {
                String what = written.layout().details() + ", " + workers + " workers (seed " + SEED + ")";
                long answer = assertDoesNotThrow(() -> chapter.search(written.file(), workers), what);
                searches++;
                if (answer != written.referenceAnswer()) {
                    mismatches.add(what + ": answered " + answer + ", the reference " + written.referenceAnswer());
                }
            }
        }
        assertNoMismatches(mismatches, searches);
    }

    static void assertNoMismatches(List<String> mismatches, int checks) {
        if (!mismatches.isEmpty()) {
            fail(mismatches.size() + " of " + checks + " disagree (seed " + SEED + "); the first ones:\n  "
                    + String.join("\n  ", mismatches.subList(0, Math.min(10, mismatches.size()))));
        }
    }

    // ---------------------------------------------------------------- random choices

    /**
     * A size in {@code [min, max]}, with its alignment picked at random too, since each kernel
     * has its own block size: a multiple of 128 bytes, of 64 but not 128, of 8 but not 64, or no
     * multiple of 8 at all (a 1-7 byte tail).
     */
    static long randomSize(Random random, long min, long max) {
        long size = min + random.nextLong(max - min + 1);
        long aligned = switch (random.nextInt(4)) {
            case 0 -> size & ~127L;
            case 1 -> (size & ~127L) + 64;
            case 2 -> (size & ~63L) + Long.BYTES * (1 + random.nextInt(7));
            default -> (size & ~7L) + 1 + random.nextInt(7);
        };
        return Math.clamp(aligned, min, max);
    }

    static byte randomNonZeroByte(Random random) {
        return (byte) (1 + random.nextInt(255));
    }

    /** Every position within {@link #EDGE_OFFSETS_BYTES} of an edge, inside the file. */
    static SortedSet<Long> positionsAround(SortedSet<Long> edges, long size) {
        SortedSet<Long> positions = new TreeSet<>();
        for (long edge : edges) {
            for (long offset : EDGE_OFFSETS_BYTES) {
                if (edge + offset >= 0 && edge + offset < size) {
                    positions.add(edge + offset);
                }
            }
        }
        return positions;
    }

    static TestFiles.Layout withMaybeALaterNeedle(Random random, TestFiles.Layout layout) {
        long first = layout.nonZeroBytes().firstKey();
        if (random.nextBoolean() && first + 1 < layout.sizeBytes()) {
            return layout.plant(first + 1 + random.nextLong(layout.sizeBytes() - first - 1), randomNonZeroByte(random));
        }
        return layout;
    }

    static List<WrittenFile> allRandomFiles() {
        List<WrittenFile> all = new ArrayList<>(shardEdgeFiles);
        all.addAll(chunkEdgeFiles);
        all.addAll(randomFiles);
        return all;
    }

    static Stream<Arguments> chapters() {
        return Chapters.everyReader().stream().map(chapter -> Arguments.of(named(chapter)));
    }

    static Named<NeedleSearch> named(NeedleSearch chapter) {
        return Named.of(Chapters.nameAndReader(chapter), chapter);
    }
}
