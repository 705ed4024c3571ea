import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import lib.chapter.NeedleSearch;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every chapter, with each of its readers, on a file just over 2 GiB, with its only non-zero word past 2^31: the offset an
 * {@code int} cannot hold, and the size a {@code byte[]} or a {@code MappedByteBuffer} cannot.
 *
 * <p>The file is sparse: only the needle is written, the rest is a hole that reads as zeros, so
 * making it takes no time and no disk. It is made once for the whole class and deleted after.
 */
class BigFileTest {

    static final long TWO_GIB = 1L << 31;
    static final long FILE_BYTES = TWO_GIB + 4096 + 5; // not a multiple of 8 either
    /** A byte in the middle of a word, 4 KiB past 2 GiB: the answer is its word, {@code TWO_GIB + 4096 - 8}. */
    static final long NEEDLE_BYTE_OFFSET = TWO_GIB + 4096 - 8 + 3;
    /** Two workers: the machine's cores, and a shard edge below 2 GiB with the needle beyond it. */
    static final int WORKERS = 2;

    @TempDir
    static Path dir;
    static Path bigFile;
    static TestFiles.Layout layout;

    @BeforeAll
    static void writeSparseFile() throws IOException {
        layout = TestFiles.Layout.zeros("just over 2 GiB, needle past 2^31", FILE_BYTES).plant(NEEDLE_BYTE_OFFSET, (byte) 0x4e);
        bigFile = TestFiles.writeSparse(dir.resolve("big-haystack.bin"), layout);
    }

    @AfterAll
    static void deleteFile() throws IOException {
        if (bigFile != null) {
            Files.deleteIfExists(bigFile); // at once, rather than when the temporary folder goes
        }
    }

    static Stream<Arguments> chapters() {
        return Chapters.everyReader().stream().map(chapter -> Arguments.of(Named.of(Chapters.nameAndReader(chapter), chapter)));
    }

    /** Reads back the needle's word and its neighbours (a full reference scan would add seconds). */
    @Test
    void theFileIsWhatTheTestsBelowAssume() throws IOException {
        assertEquals(FILE_BYTES, Files.size(bigFile));
        assertTrue(layout.expectedOffset() > Integer.MAX_VALUE, "the needle must lie past what an int can index");
        ByteBuffer around = ByteBuffer.allocate(3 * Long.BYTES);
        try (FileChannel channel = FileChannel.open(bigFile)) {
            long start = layout.expectedOffset() - Long.BYTES;
            while (around.hasRemaining() && channel.read(around, start + around.position()) > 0) { }
        }
        byte[] expected = new byte[3 * Long.BYTES];
        expected[(int) (NEEDLE_BYTE_OFFSET - layout.expectedOffset()) + Long.BYTES] = layout.nonZeroBytes().get(NEEDLE_BYTE_OFFSET);
        assertArrayEquals(expected, around.array(), "the words before, at and after the needle");
    }

    @ParameterizedTest(name = "{0} finds the word planted past 2 GiB")
    @MethodSource("chapters")
    void findsTheWordPastTwoGiB(NeedleSearch chapter) throws IOException {
        CpuSupport.assumeChapterRunsHere(chapter);
        assertEquals(layout.expectedOffset(), chapter.search(bigFile, WORKERS), layout.details());
    }

    /** Chapter 1's lesson: the obvious call cannot hold a file over 2 GiB, since a byte[] cannot. */
    @Test
    void readAllBytesCannotReadAFileOverTwoGiB() {
        OutOfMemoryError error = assertThrows(OutOfMemoryError.class, () -> Files.readAllBytes(bigFile));
        System.out.println("    Files.readAllBytes on " + FILE_BYTES + " bytes: " + error);
    }
}
