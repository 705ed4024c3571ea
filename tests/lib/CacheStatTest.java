import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
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

        readWithoutReadAhead(file, FILE_BYTES / 32);
        double mincore = mincoreShare(file);
        assertTrue(mincore > 0 && mincore < 0.5, "read a 32nd of the file: " + mincore);
        assertEquals(mincore, CacheStat.residentShare(file, FILE_BYTES).getAsDouble(), 0.01);
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

    /**
     * Reads the first {@code bytes} of {@code file} with the kernel's read-ahead off (POSIX_FADV_RANDOM):
     * read-ahead would leave pages still being read in, which cachestat counts and mincore does not yet.
     */
    private static void readWithoutReadAhead(Path file, int bytes) throws IOException {
        int fd = Native.open(file, Native.O_RDONLY);
        try (Arena arena = Arena.ofConfined()) {
            Native.fadvise(fd, Native.POSIX_FADV_RANDOM);
            MemorySegment buffer = arena.allocate(bytes);
            for (long done = 0; done < bytes; ) {
                done += Native.pread(fd, buffer.asSlice(done), done);
            }
        } finally {
            Native.close(fd);
        }
    }

    private static double mincoreShare(Path file) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            return Native.residentShare(Native.mapFile(file, Files.size(file), 0, arena));
        }
    }
}
