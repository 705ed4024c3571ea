import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import lib.chapter.Shard;
import lib.harness.Harness;
import lib.harness.PageCache;
import lib.linux.Native;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Chapter 17's two ways of leaving the page cache alone: {@code RWF_DONTCACHE} where the file system
 * takes it, {@code POSIX_FADV_DONTNEED} behind the reader where it does not. Both must find the
 * same needle as the reference, both must leave the file they read out of the cache, and the chapter
 * must say in one line, and record, which one it used.
 */
class DontCacheTest {

    private static final long MIB = 1 << 20;
    /** Not a multiple of anything: shards and chunks end mid-page. */
    private static final long AWKWARD_BYTES = 3 * MIB + 3 * 4096 + 517;
    private static final Path SHARED_MEMORY = Path.of("/dev/shm");

    @TempDir
    Path directory;

    @Test
    void theFallbackFindsTheNeedleOnEveryEdgeWithOneToEightWorkers() throws IOException {
        SortedSet<Long> edges = new TreeSet<>();
        for (int workers = 1; workers <= 8; workers++) {
            for (Shard shard : Shard.split(AWKWARD_BYTES, workers)) {
                for (long edge : new long[] {shard.start(), shard.start() + 7, shard.end() - 8, shard.end() - 1,
                        shard.start() + MIB - 1, shard.start() + MIB}) {
                    if (edge >= 0 && edge < AWKWARD_BYTES) {
                        edges.add(edge);
                    }
                }
            }
        }
        for (long edge : edges) {
            TestFiles.Layout layout = TestFiles.Layout.zeros("needle at " + edge, AWKWARD_BYTES).plant(edge, (byte) 0x2a);
            Path file = TestFiles.write(directory.resolve("edge-" + edge + ".bin"), layout);
            for (int workers = 1; workers <= 8; workers++) {
                for (long chunkBytes : new long[] {MIB, 8200}) {
                    assertEquals(layout.expectedOffset(), search(file, workers, chunkBytes, V17ReadDontCache.Mode.FADV_DONTNEED),
                            layout.details() + ", " + workers + " workers, " + chunkBytes + "-byte chunks");
                }
            }
            Files.delete(file);
        }
        Path zeros = TestFiles.write(directory.resolve("zeros.bin"), TestFiles.Layout.zeros("all zeros", AWKWARD_BYTES));
        assertEquals(-1, search(zeros, 3, MIB, V17ReadDontCache.Mode.FADV_DONTNEED));
    }

    @Test
    void eitherWayTheFileReadIsNotLeftInTheCacheWhereAPlainReadLeavesIt() throws IOException {
        Path file = TestFiles.write(directory.resolve("read-once.bin"), TestFiles.Layout.zeros("32 MiB of zeros", 32 * MIB));
        List<V17ReadDontCache.Mode> modes = V17ReadDontCache.modeFor(file).mode() == V17ReadDontCache.Mode.RWF_DONTCACHE
                ? List.of(V17ReadDontCache.Mode.RWF_DONTCACHE, V17ReadDontCache.Mode.FADV_DONTNEED)
                : List.of(V17ReadDontCache.Mode.FADV_DONTNEED);
        for (V17ReadDontCache.Mode mode : modes) {
            PageCache.evict(file);
            // One worker: several would each leave the readahead past their shard's end behind.
            assertEquals(-1, search(file, 1, MIB, mode));
            double left = PageCache.residentShare(file);
            assertTrue(left < 0.10, mode + " left " + Math.round(left * 100) + " % of the file it read in the cache");
        }
        PageCache.evict(file);
        assertEquals(-1, new V13PreadVector().search(file, 1));
        double plain = PageCache.residentShare(file);
        assertTrue(plain > 0.50, "a plain read (chapter 13) left only " + Math.round(plain * 100) + " % in the cache");
    }

    @Test
    void whereTheFlagIsTakenTheRowSaysSo() throws IOException {
        Path file = TestFiles.write(directory.resolve("haystack.bin"), TestFiles.Layout.zeros("needle", 2 * MIB).plant(MIB + 9, (byte) 1));
        assumeTrue(V17ReadDontCache.modeFor(file).refusal() == null, "this file system refuses RWF_DONTCACHE");
        Subprocess.Result run = runChapter(file, directory.resolve("rows.csv"));
        assertEquals(Harness.FOUND, run.exitCode(), run::toString);
        assertTrue(run.stderr().contains("V17ReadDontCache: reading with RWF_DONTCACHE"), run.stderr());
        assertEquals("rwf_dontcache", onlyRow(directory.resolve("rows.csv")).get("read_mode"));
    }

    @Test
    void whereTheFlagIsRefusedItSaysSoInOneLineAndTheRowRecordsTheFallback() throws IOException {
        assumeTrue(Files.isDirectory(SHARED_MEMORY) && Native.fileSystemMagic(SHARED_MEMORY) == Native.TMPFS_MAGIC,
                "no tmpfs at /dev/shm to refuse the flag");
        Path shared = Files.createTempDirectory(SHARED_MEMORY, "dont-cache-test-");
        try {
            Path file = TestFiles.write(shared.resolve("haystack.bin"), TestFiles.Layout.zeros("needle", 2 * MIB).plant(5, (byte) 1));
            assumeTrue(V17ReadDontCache.modeFor(file).refusal() != null, "tmpfs took RWF_DONTCACHE here");
            Subprocess.Result run = runChapter(file, directory.resolve("rows.csv"));
            assertEquals(Harness.FOUND, run.exitCode(), run::toString);
            List<String> refusals = run.stderr().lines().filter(line -> line.contains("RWF_DONTCACHE")).toList();
            assertEquals(1, refusals.size(), run.stderr());
            assertTrue(refusals.getFirst().contains("refused") && refusals.getFirst().contains("POSIX_FADV_DONTNEED"), refusals.getFirst());
            assertEquals("fadv_dontneed", onlyRow(directory.resolve("rows.csv")).get("read_mode"));
            Files.delete(file);
        } finally {
            Files.delete(shared);
        }
    }

    private static long search(Path file, int workers, long chunkBytes, V17ReadDontCache.Mode mode) throws IOException {
        return new V17ReadDontCache().search(file, workers, chunkBytes, mode);
    }

    private static Subprocess.Result runChapter(Path file, Path csv) {
        return InProcess.run(new V17ReadDontCache(), file.toString(), "--runs", "1", "--warmup", "0", "--workers", "2",
                "--csv", csv.toString());
    }

    private static CSVRecord onlyRow(Path csv) throws IOException {
        try (Reader in = Files.newBufferedReader(csv);
             CSVParser rows = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).build().parse(in)) {
            List<CSVRecord> all = rows.getRecords();
            assertEquals(1, all.size());
            return all.getFirst();
        }
    }
}
