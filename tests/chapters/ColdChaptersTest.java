import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import lib.chapter.ChunkedSearch;
import lib.chapter.Shard;
import lib.cli.UserMistakeException;
import lib.harness.Harness;
import lib.haystack.ReferenceSearch;
import lib.linux.IoUring;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The two cold-cache chapters (O_DIRECT, io_uring) against the plain reference scan, on awkward
 * files: sizes that are not a multiple of a word, a block or a page; needles on the edges of
 * shards, chunks and blocks; several non-zero words; empty and all-zero files.
 *
 * <p>The files are made in a fresh directory under {@code java.io.tmpdir}, which must be on a file
 * system that accepts O_DIRECT (a disk file system; some in-memory ones refuse it), on a kernel
 * that allows io_uring. Where it is not, the tests are skipped, saying why.
 */
class ColdChaptersTest {

    private static final int MAX_WORKERS = 4;
    /** The default chunk, and one that is not a multiple of any block size, so chunks start mid-block. */
    private static final long[] CHUNK_SIZES = {1L << 20, 8200};
    private static final long MIB = 1 << 20;
    private static Path directory;

    @BeforeAll
    static void makeDirectory() throws IOException {
        directory = Files.createTempDirectory("cold-chapters-test-");
    }

    @AfterAll
    static void removeDirectory() throws IOException {
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path path : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path); // only what this class created
            }
        }
    }

    @Test
    void directIoAgreesWithTheReference() throws IOException {
        assumeDirectIoWorks();
        checkAgainstReference(new V14DirectIo());
    }

    @Test
    void ioUringAgreesWithTheReference() throws IOException {
        assumeDirectIoWorks();
        assumeIoUringWorks();
        checkAgainstReference(new V15IoUring());
    }

    @Test
    void ioUringAtAnotherDepthAgreesToo() throws IOException {
        assumeDirectIoWorks();
        assumeIoUringWorks();
        checkAgainstReference(new ColdTuning.AtDepth(3)); // shallower than the chapter's, and not a power of two
    }

    /**
     * A worker that stops at its first chunk must close its file every time. Chapter 15's still has
     * the next chunks' reads in flight, and chapter 14 with a read-ahead thread (ColdTuning's
     * setting) still has them queued: those must land first, and chapter 15 must close its ring.
     * Their descriptors are counted in /proc/self/fd before and after.
     */
    @Test
    void aWorkerThatStopsEarlyLetsItsReadsLandAndClosesItsFiles() throws IOException {
        assumeDirectIoWorks();
        Path descriptors = Path.of("/proc/self/fd");
        assumeTrue(Files.isDirectory(descriptors), "needs Linux procfs");
        int size = Math.toIntExact(6 * MIB + 4096 + 517); // its last word is 5 bytes long
        byte[] content = new byte[size];
        for (long needle : new long[] {5, MIB - 1, 2 * MIB + 8, 4 * MIB + 4095, size - 1}) {
            content[(int) needle] = (byte) 0x5a;
        }
        Path file = directory.resolve("stops-early.bin");
        Files.write(file, content, StandardOpenOption.CREATE_NEW);
        List<ChunkedSearch> chapters = new ArrayList<>(List.of(new V14DirectIo(), new ColdTuning.WithReadAhead()));
        if (ioUringWorks()) {
            chapters.add(new V15IoUring());
        }
        long before = openDescriptors(descriptors);
        for (ChunkedSearch chapter : chapters) {
            for (int search = 0; search < 5; search++) {
                assertEquals(0, chapter.search(file, 1, MIB), chapter.getClass().getSimpleName()); // the word holding byte 5
                assertEquals(0, chapter.search(file, 2, MIB), chapter.getClass().getSimpleName());
            }
        }
        assertEquals(before, openDescriptors(descriptors), "descriptors left open by a worker that stopped early");
        Files.delete(file);
    }

    /**
     * The harness's checks with the real chapters: a chunk sweep whose last size is below the O_DIRECT
     * block is refused before its first size is searched; chapter 15 takes 4096 workers on a file of 9
     * bytes, as chapters 14 and 17 do, since the one worker with a shard is the one that holds buffers.
     */
    @Test
    void theHarnessChecksEverySweepValueFirstAndCountsOnlyWorkersWithAShard() throws IOException {
        assumeDirectIoWorks();
        Path file = directory.resolve("nine-bytes.bin");
        Files.write(file, withNonZero(9, 8), StandardOpenOption.CREATE_NEW);
        var sweep = InProcess.run(new V14DirectIo(), file.toString(), "--chunk", "4k,512", "--runs", "1", "--warmup", "0");
        assertEquals(Harness.ERROR, sweep.exitCode(), sweep::toString);
        assertEquals("", sweep.stdout(), "the sweep's first chunk was searched");
        assertEquals(1, sweep.errorLines().size(), sweep::toString);
        if (ioUringWorks()) {
            var many = InProcess.run(new V15IoUring(), file.toString(), "--workers", "4096", "--runs", "1", "--warmup", "0");
            assertEquals(Harness.FOUND, many.exitCode(), many::toString);
        }
        Files.delete(file);
    }

    private static long openDescriptors(Path descriptors) throws IOException {
        try (Stream<Path> open = Files.list(descriptors)) {
            return open.count();
        }
    }

    private void checkAgainstReference(ChunkedSearch chapter) throws IOException {
        int fileNumber = 0;
        for (byte[] content : awkwardFiles()) {
            Path file = directory.resolve("haystack-" + fileNumber++ + ".bin");
            Files.write(file, content, StandardOpenOption.CREATE_NEW);
            long expected = new ReferenceSearch().search(file, 1);
            for (long chunkBytes : CHUNK_SIZES) {
                for (int workers = 1; workers <= MAX_WORKERS; workers++) {
                    assertEquals(expected, chapter.search(file, workers, chunkBytes), file.getFileName() + ": "
                            + content.length + " bytes, " + workers + " workers, " + chunkBytes + "-byte chunks");
                }
            }
            Files.delete(file);
        }
    }

    /** Seeded, so a failure names a file that can be made again. */
    private static List<byte[]> awkwardFiles() {
        Random random = new Random(20_141);
        List<byte[]> files = new ArrayList<>();
        files.add(new byte[0]);
        for (int size : new int[] {1, 7, 13, 511, 4095, 4097, 3 * 4096 + 5}) {
            files.add(new byte[size]);                            // all zeros
            files.add(withNonZero(size, size - 1));               // the very last byte
            files.add(withNonZero(size, random.nextInt(size)));
        }
        // Larger than a 1 MiB chunk, not a multiple of anything: needles on every edge there is.
        int size = Math.toIntExact(3 * MIB + 4096 * 3 + 517);
        files.add(new byte[size]);
        for (int workers = 1; workers <= MAX_WORKERS; workers++) {
            for (Shard shard : Shard.split(size, workers)) {
                for (long edge : new long[] {shard.start(), shard.end() - 1, shard.start() + MIB - 1, shard.start() + MIB}) {
                    if (edge >= 0 && edge < size) {
                        files.add(withNonZero(size, (int) edge));
                    }
                }
            }
        }
        for (int sample = 0; sample < 4; sample++) { // several non-zero words, the lowest must win
            byte[] content = new byte[size];
            for (int i = 0; i < 5; i++) {
                content[random.nextInt(size)] = (byte) (1 + random.nextInt(255));
            }
            files.add(content);
        }
        return files;
    }

    private static byte[] withNonZero(int size, int offset) {
        byte[] content = new byte[size];
        content[offset] = (byte) 0x5a;
        return content;
    }

    private static void assumeDirectIoWorks() throws IOException {
        Path probe = directory.resolve("o-direct-probe");
        Files.write(probe, new byte[4096], StandardOpenOption.CREATE_NEW);
        try (FileChannel ignored = V14DirectIo.openDirect(probe)) {
            // it opened: this file system accepts O_DIRECT
        } catch (UserMistakeException refused) {
            assumeTrue(false, refused.getMessage() + " (set java.io.tmpdir to a directory on such a file system to run these tests)");
        } finally {
            Files.delete(probe);
        }
    }

    private static void assumeIoUringWorks() throws IOException {
        try (IoUring ignored = new IoUring(1)) {
            // the kernel gave us a ring
        } catch (UserMistakeException refused) {
            assumeTrue(false, refused.getMessage());
        }
    }

    private static boolean ioUringWorks() throws IOException {
        try (IoUring ignored = new IoUring(1)) {
            return true;
        } catch (UserMistakeException refused) {
            return false;
        }
    }
}
