import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import lib.chapter.NeedleSearch;
import lib.counters.PmdMapping;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Chapter 9's parallel release of a mapping ({@code V09MmapParallelVector.releasePageTables}), checked the way the kernel reports it: after it, none
 * of the mapping is resident in the process ({@code Rss} in {@code /proc/self/smaps}), and the file
 * still reads the same through it.
 */
class ParallelReleaseTest {

    static final long FILE_BYTES = 8L << 20;
    static final long NEEDLE_BYTE = FILE_BYTES - 3;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2, 3, 8})
    void everyWorkersShardIsReleasedAndTheFileStillReadsTheSame(int workers) throws IOException {
        Path file = TestFiles.write(dir.resolve("haystack.bin"), TestFiles.Layout.zeros("8 MiB, needle near the end", FILE_BYTES)
                .plant(NEEDLE_BYTE, (byte) 0x21));
        try (FileChannel channel = FileChannel.open(file); Arena arena = Arena.ofShared()) {
            MemorySegment mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size(), arena);
            long needle = NeedleSearch.wordContaining(NEEDLE_BYTE);
            assertEquals(needle, V09MmapParallelVector.firstNonZeroWord256(mapped, 0, mapped.byteSize()));
            assertEquals(FILE_BYTES, PmdMapping.of(mapped).rssBytes(), "the scan faulted every page in");

            V09MmapParallelVector.releasePageTables(mapped, workers);

            assertEquals(0, PmdMapping.of(mapped).rssBytes(), "nothing of the mapping is left mapped");
            assertEquals(needle, V09MmapParallelVector.firstNonZeroWord256(mapped, 0, mapped.byteSize()), "read again, faulted back in");
        }
    }

    @Test
    void aMappingSmallerThanOneShardPerWorkerIsReleasedWhole() throws IOException {
        long bytes = 2 * V09MmapParallelVector.SHARD_ALIGN_BYTES + 5; // three shards at most, released with eight workers
        Path file = TestFiles.write(dir.resolve("small.bin"), TestFiles.Layout.zeros("three shards", bytes).plant(bytes - 1, (byte) 1));
        try (FileChannel channel = FileChannel.open(file); Arena arena = Arena.ofShared()) {
            MemorySegment mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size(), arena);
            assertEquals(NeedleSearch.wordContaining(bytes - 1), V09MmapParallelVector.firstNonZeroWord256(mapped, 0, bytes));
            V09MmapParallelVector.releasePageTables(mapped, 8);
            assertEquals(0, PmdMapping.of(mapped).rssBytes());
        }
    }

    @Test
    void anEmptyMappingHasNothingToRelease() {
        assertDoesNotThrow(() -> V09MmapParallelVector.releasePageTables(MemorySegment.NULL, 2));
    }
}
