import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lib.Kernel;
import lib.NeedleSearch;
import lib.PositionalReader;
import lib.VectorKernel;
import lib.WordKernel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pread worker hands its kernel the chunk it read a slice at a time: a needle on either side of
 * every slice edge, in a short last slice, or in two slices at once must come back exactly as the
 * word-by-word kernel finds it over the whole chunk.
 */
class PositionalReaderTest {

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
            for (Kernel kernel : kernels()) {
                assertEquals(expected, firstNonZeroWord(file, kernel, 0, CHUNK_BYTES), "needle at " + needle);
            }
        }
    }

    @Test
    void theEarlierOfTwoNeedlesInDifferentSlicesWinsAndAnAllZeroChunkHasNone() throws IOException {
        Path file = TestFiles.write(directory.resolve("two.bin"), TestFiles.Layout.zeros("two needles", CHUNK_BYTES)
                .plant(2 * SLICE_BYTES + 16, (byte) 1).plant(SLICE_BYTES + 40, (byte) 2));
        Path zeros = TestFiles.write(directory.resolve("zeros.bin"), TestFiles.Layout.zeros("zeros", CHUNK_BYTES));
        for (Kernel kernel : kernels()) {
            assertEquals(SLICE_BYTES + 40, firstNonZeroWord(file, kernel, 0, CHUNK_BYTES));
            assertEquals(2 * SLICE_BYTES + 16, firstNonZeroWord(file, kernel, SLICE_BYTES + 48, CHUNK_BYTES),
                    "a chunk that starts past the first needle, at an offset that is not a slice's");
            assertEquals(NeedleSearch.NOT_FOUND, firstNonZeroWord(zeros, kernel, 0, CHUNK_BYTES));
        }
    }

    private static List<Kernel> kernels() {
        return List.of(WordKernel::firstNonZeroWord, VectorKernel::firstNonZeroWordWidest);
    }

    private static long firstNonZeroWord(Path file, Kernel kernel, long from, long to) throws IOException {
        try (PositionalReader reader = new PositionalReader(file, to - from, kernel)) {
            return reader.firstNonZeroWord(from, to);
        }
    }
}
