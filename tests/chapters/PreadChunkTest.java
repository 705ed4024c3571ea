import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lib.chapter.NeedleSearch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pread chapter's worker hands its kernel the chunk it read a slice at a time ({@code readAndScan}
 * in chapters 7, 11 and 13): a needle on either side of every slice edge, in a short last slice, or
 * in two slices at once must come back exactly as a byte-by-byte look finds it over the whole chunk.
 */
class PreadChunkTest {

    /** One chapter's read of {@code [from, to)} into a buffer, and its scan. */
    @FunctionalInterface
    interface ReadAndScan {
        long firstNonZeroWord(FileChannel channel, MemorySegment buffer, ByteBuffer bufferView, long from, long to) throws IOException;
    }

    private static final long KIB = 1024;
    private static final long SLICE_BYTES = 64 * KIB;
    /** Not a multiple of a slice: the last one is short and ends mid-page. */
    private static final long CHUNK_BYTES = 3 * SLICE_BYTES + 5 * KIB + 24;

    @TempDir
    Path directory;

    @Test
    void aNeedleAroundEverySliceEdgeIsFoundWhereTheWholeChunkScanFindsIt() throws IOException {
        List<Long> needles = new ArrayList<>();
        for (long edge = SLICE_BYTES; edge < CHUNK_BYTES; edge += SLICE_BYTES) {
            for (long around : new long[] {-8, -1, 0, 1, 7, 8}) {
                needles.add(edge + around);
            }
        }
        needles.addAll(List.of(0L, 7L, CHUNK_BYTES - 8, CHUNK_BYTES - 1));
        for (long needle : needles) {
            Path file = TestFiles.write(directory.resolve("needle-" + needle + ".bin"),
                    TestFiles.Layout.zeros("needle at " + needle, CHUNK_BYTES).plant(needle, (byte) 0x2a));
            long expected = needle / Long.BYTES * Long.BYTES;
            for (ReadAndScan chapter : chapters()) {
                assertEquals(expected, firstNonZeroWord(file, chapter, 0, CHUNK_BYTES), "needle at " + needle);
            }
        }
    }

    @Test
    void theEarlierOfTwoNeedlesInDifferentSlicesWinsAndAnAllZeroChunkHasNone() throws IOException {
        Path file = TestFiles.write(directory.resolve("two.bin"), TestFiles.Layout.zeros("two needles", CHUNK_BYTES)
                .plant(2 * SLICE_BYTES + 16, (byte) 1).plant(SLICE_BYTES + 40, (byte) 2));
        Path zeros = TestFiles.write(directory.resolve("zeros.bin"), TestFiles.Layout.zeros("zeros", CHUNK_BYTES));
        for (ReadAndScan chapter : chapters()) {
            assertEquals(SLICE_BYTES + 40, firstNonZeroWord(file, chapter, 0, CHUNK_BYTES));
            assertEquals(2 * SLICE_BYTES + 16, firstNonZeroWord(file, chapter, SLICE_BYTES + 48, CHUNK_BYTES),
                    "a chunk that starts past the first needle, at an offset that is not a slice's");
            assertEquals(NeedleSearch.NOT_FOUND, firstNonZeroWord(zeros, chapter, 0, CHUNK_BYTES));
        }
    }

    @Test
    void theChaptersScanInSlicesOfTheSizeThisTestChecks() {
        assertEquals(List.of(SLICE_BYTES, SLICE_BYTES, SLICE_BYTES), List.of(V07PreadParallel.SCAN_SLICE_BYTES,
                V11PreadParallelVector256.SCAN_SLICE_BYTES, V13PreadVector.SCAN_SLICE_BYTES));
    }

    private static List<ReadAndScan> chapters() {
        return List.of(V07PreadParallel::readAndScan, V11PreadParallelVector256::readAndScan, V13PreadVector::readAndScan);
    }

    /** Reads {@code [from, to)} of {@code file} into a buffer of its own size, as a worker would, and scans it. */
    private static long firstNonZeroWord(Path file, ReadAndScan chapter, long from, long to) throws IOException {
        try (FileChannel channel = FileChannel.open(file); Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = arena.allocate(to - from, 4096);
            return chapter.firstNonZeroWord(channel, buffer, buffer.asByteBuffer(), from, to);
        }
    }
}
