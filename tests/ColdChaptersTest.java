import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import lib.DirectReader;
import lib.IoUring;
import lib.ParallelSearch;
import lib.ChunkedSearch;
import lib.ReferenceSearch;
import lib.Shard;
import lib.UringReader;
import lib.UserMistakeException;
import lib.VectorKernel;
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
    void ioUringThroughThePageCacheAgreesToo() throws IOException {
        assumeIoUringWorks();
        int queueDepth = 3; // shallower than the chapter's, and not a power of two
        checkAgainstReference((file, workers, chunkBytes) -> {
            long bytes = Files.size(file);
            return ParallelSearch.firstNonZeroWord(bytes, workers, chunkBytes, () -> new UringReader(
                    file, bytes, chunkBytes, queueDepth, false, VectorKernel::firstNonZeroWordWidest));
        });
    }

    /**
     * Chapter 14's reader queues the chunks that follow the one asked for. Asked for something
     * else (a chunk again, a jump back, a jump past what it queued, a range not on a chunk edge),
     * it must still answer for exactly that range; and closed with reads queued (a worker that
     * stopped early), it must let them land and close its file.
     */
    @Test
    void directReaderAnswersForTheRangeAskedEvenOffItsQueue() throws IOException {
        assumeDirectIoWorks();
        int size = Math.toIntExact(6 * MIB + 4096 + 517); // its last word is 5 bytes long
        byte[] content = new byte[size];
        long[] needles = {5, MIB - 1, 2 * MIB + 8, 4 * MIB + 4095, size - 1};
        for (long needle : needles) {
            content[(int) needle] = (byte) 0x5a;
        }
        Path file = directory.resolve("reader-jumps.bin");
        Files.write(file, content, StandardOpenOption.CREATE_NEW);
        long[][] ranges = {{0, MIB}, {MIB, 2 * MIB}, {MIB, 2 * MIB}, {0, MIB}, {4 * MIB, 5 * MIB}, {2 * MIB + 8, 3 * MIB},
                {2 * MIB + 16, 3 * MIB}, {3 * MIB, 4 * MIB}, {4 * MIB, 5 * MIB}, {5 * MIB, size}, {16, 4096}, {size - 5, size}};
        FileChannel channel = V14DirectIo.openDirect(file);
        try (DirectReader reader = new DirectReader(channel, DirectReader.blockBytes(file), MIB, size, VectorKernel::firstNonZeroWordWidest)) {
            for (long[] range : ranges) {
                assertEquals(firstNonZeroWord(content, range[0], range[1]), reader.firstNonZeroWord(range[0], range[1]),
                        "range [" + range[0] + ", " + range[1] + ")");
            }
        }
        assertFalse(channel.isOpen(), "the reader closes its file");
        channel = V14DirectIo.openDirect(file);
        try (DirectReader reader = new DirectReader(channel, DirectReader.blockBytes(file), MIB, size, VectorKernel::firstNonZeroWordWidest)) {
            assertEquals(0, reader.firstNonZeroWord(0, MIB)); // the word holding byte 5; and it stops here, the next chunks queued
        }
        assertFalse(channel.isOpen(), "a reader closed early closes its file too");
        Files.delete(file);
    }

    /** The offset of the first word (8 bytes from a multiple of 8, or the file's short last word) in {@code [from, to)} that is not zero, or -1. */
    private static long firstNonZeroWord(byte[] content, long from, long to) {
        for (long word = Math.floorDiv(from, Long.BYTES) * Long.BYTES; word < to; word += Long.BYTES) {
            for (long i = word; i < Math.min(word + Long.BYTES, content.length); i++) {
                if (content[(int) i] != 0 && word >= from) {
                    return word;
                }
            }
        }
        return -1;
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
}
