import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalDouble;
import lib.harness.PageCache;
import lib.haystack.Haystack;
import lib.linux.CacheStat;
import lib.linux.Native;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * cachestat(2) ({@code lib/linux/CacheStat}) says what mincore(2) says of the same file, cached,
 * evicted and partly read back, and the harness's question "is it all cached?" follows them.
 */
class CacheStatTest {

    private static final int FILE_BYTES = 32 << 20;

    @TempDir
    Path dir;

    @Test
    void aFileJustReadIsAllCachedByBothCounts() throws IOException {
        Path file = readThrough(haystack(), FILE_BYTES);
        OptionalDouble counted = CacheStat.residentShare(file, FILE_BYTES);
        assumeTrue(counted.isPresent(), "this kernel has no cachestat (Linux 6.5 and later)");
        assertEquals(1.0, counted.getAsDouble());
        assertEquals(1.0, mincoreShare(file));
        assertTrue(PageCache.isAllResident(file));
    }

    @Test
    void anEvictedFileAndOnePartlyReadBackCountTheSameByBoth() throws IOException {
        Path file = haystack();
        assumeTrue(CacheStat.residentShare(file, FILE_BYTES).isPresent(), "this kernel has no cachestat (Linux 6.5 and later)");
        Native.evictFromPageCache(file);
        assumeTrue(mincoreShare(file) < 0.1, "this file system keeps evicted pages (tmpfs does)");
        assertEquals(mincoreShare(file), CacheStat.residentShare(file, FILE_BYTES).getAsDouble(), 0.01);
        assertTrue(!PageCache.isAllResident(file));

        readThrough(file, FILE_BYTES / 32);
        double mincore, counted, mincoreAfter;
        int tries = 0;
        do { // the kernel's read-ahead may still be landing: compare between two mincore counts that agree
            mincore = mincoreShare(file);
            counted = CacheStat.residentShare(file, FILE_BYTES).getAsDouble();
            mincoreAfter = mincoreShare(file);
        } while (mincore != mincoreAfter && ++tries < 100);
        assumeTrue(mincore < 1.0, "the kernel read the whole file ahead");
        assertEquals(mincore, counted, 0.01);
        assertTrue(!PageCache.isAllResident(file));
    }

    @Test
    void aFileThatDoesNotOpenGetsNoAnswer() {
        assertTrue(CacheStat.residentShare(dir.resolve("missing.bin"), FILE_BYTES).isEmpty());
    }

    private Path haystack() throws IOException {
        Path file = dir.resolve("haystack.bin");
        Haystack.create(file, FILE_BYTES);
        return file;
    }

    private static Path readThrough(Path file, int bytes) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            in.readNBytes(bytes);
        }
        return file;
    }

    private static double mincoreShare(Path file) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            return Native.residentShare(Native.mapFile(file, Files.size(file), 0, arena));
        }
    }
}
