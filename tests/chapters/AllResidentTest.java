import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lib.harness.Harness;
import lib.harness.PageCache;
import lib.linux.Native;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The check a one-shot run makes before its first search: is the whole file cached already? The
 * JDK's {@code isLoaded} must say what {@link PageCache#residentShare} says, and a warm run must
 * skip its pre-read exactly when the file is all cached, and say so on its phases line.
 */
class AllResidentTest {

    private static final long MIB = 1 << 20;

    @TempDir
    Path directory;

    @Test
    void aFileJustReadIsAllResidentAndAfterEvictionItIsNot() throws IOException {
        Path file = TestFiles.write(directory.resolve("haystack.bin"), TestFiles.Layout.zeros("8 MiB and a page", 8 * MIB + 4096));
        assumeEvictable(file);
        PageCache.warm(file);
        assertEquals(1.0, PageCache.residentShare(file));
        assertTrue(PageCache.isAllResident(file));
        PageCache.evict(file);
        assertFalse(PageCache.isAllResident(file));
        PageCache.warm(file);
        assertTrue(PageCache.isAllResident(file));
    }

    @Test
    void anEmptyFileIsNeverAllResidentSoItIsReadAsBefore() throws IOException {
        Path empty = Files.createFile(directory.resolve("empty.bin"));
        assertFalse(PageCache.isAllResident(empty));
    }

    @Test
    void aOneShotRunReadsTheFileFirstOnlyWhenItIsNotAllCached() throws IOException, InterruptedException {
        Path file = TestFiles.write(directory.resolve("haystack.bin"),
                TestFiles.Layout.zeros("needle", 4 * MIB).plant(3 * MIB + 8, (byte) 7));
        assumeEvictable(file);
        PageCache.evict(file);
        Subprocess.Result cold = oneShot(file);
        assertEquals(Harness.FOUND, cold.exitCode(), cold::toString);
        assertTrue(cold.stderr().contains(" preread=yes"), cold.stderr());
        // The pre-read brought the file back: more of it is cached than eviction may leave (a tenth).
        // Not "all of it": on a machine short of memory the kernel may already have taken back a page
        // of a file read once, a moment ago (seen in a CI run beside another).
        double resident = PageCache.residentShare(file);
        assertTrue(resident > 0.10, "the pre-read left " + resident + " of the file cached");

        // The page cache is the machine's: on a busy one the kernel may reclaim a page read a moment
        // ago (it waits on the inactive list) before the next process looks. A one-shot that finds
        // the file all cached must skip the read; it gets three chances to find it so.
        List<String> warmRuns = new ArrayList<>();
        for (int chance = 0; chance < 3; chance++) {
            PageCache.warmUnlessCached(file);
            assertTrue(PageCache.isAllResident(file), "the file is cached before the warm one-shot");
            Subprocess.Result warm = oneShot(file);
            assertEquals(Harness.FOUND, warm.exitCode(), warm::toString);
            assertTrue(warm.stdout().contains("offset=" + (3 * MIB + 8)), warm.stdout());
            if (warm.stderr().contains(" preread=no")) {
                return;
            }
            warmRuns.add(warm.stderr());
        }
        throw new AssertionError("a one-shot on a cached file read it first, three times:\n" + String.join("\n", warmRuns));
    }

    /**
     * A sparse file on tmpfs: its holes are not resident, so a check of residency alone would call it
     * evicted, and a "cold" run would read RAM. It is refused by its file system's type, in one line.
     */
    @Test
    void coldIsRefusedOnTmpfsEvenForASparseFile() throws Exception {
        Path sharedMemory = Path.of("/dev/shm");
        assumeTrue(Files.isDirectory(sharedMemory) && Files.isWritable(sharedMemory)
                && Native.fileSystemMagic(sharedMemory) == Native.TMPFS_MAGIC, "no writable tmpfs at /dev/shm");
        Path shared = Files.createTempDirectory(sharedMemory, "cold-test-");
        try {
            Path file = shared.resolve("sparse.bin");
            try (var sparse = new java.io.RandomAccessFile(file.toFile(), "rw")) {
                sparse.setLength(8 * MIB); // all holes: nothing resident
            }
            assertEquals(0.0, PageCache.residentShare(file));
            lib.cli.UserMistakeException refused = org.junit.jupiter.api.Assertions.assertThrows(lib.cli.UserMistakeException.class,
                    () -> PageCache.evict(file));
            assertTrue(refused.getMessage().startsWith("--cold: ") && refused.getMessage().contains("tmpfs"), refused.getMessage());

            Subprocess.Result cold = Subprocess.run(Subprocess.javaCommand(List.of(), "V13PreadVector", file.toString(),
                    "--runs", "1", "--warmup", "0", "--cold", "--csv", directory.resolve("cold.csv").toString()),
                    Files.createTempDirectory(directory, "cold-"));
            assertEquals(2, cold.exitCode(), cold.toString());
            assertTrue(cold.stderr().contains("tmpfs") && !cold.stderr().contains("\tat "), cold.toString());
            assertFalse(Files.exists(directory.resolve("cold.csv")), "no row recorded as cold");
        } finally {
            try (var left = Files.walk(shared)) {
                for (Path path : left.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(path);
                }
            }
        }
    }

    private Subprocess.Result oneShot(Path file) throws IOException, InterruptedException {
        Path logs = Files.createTempDirectory(directory, "one-shot-");
        return Subprocess.run(Subprocess.javaCommand(List.of(), "V13PreadVector", file.toString(), "--runs", "1", "--warmup", "0"), logs);
    }

    /** Eviction needs a disk's file system: tmpfs keeps every page. */
    private static void assumeEvictable(Path file) throws IOException {
        long magic = Native.fileSystemMagic(file);
        assumeTrue(magic != Native.TMPFS_MAGIC && magic != Native.RAMFS_MAGIC, "the temporary directory is on tmpfs or ramfs");
    }
}
