import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import lib.chapter.MapsTheFile;
import lib.chapter.NeedleSearch;
import lib.harness.Harness;
import lib.harness.PageCache;
import lib.haystack.ReferenceSearch;
import lib.linux.HugeFolios;
import lab.yardsticks.WallMemoryRead;
import lab.yardsticks.WallMemoryReadHuge;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --page-cache small|huge}, checked by what every mapped run records: the share of its mapping
 * that was PMD-mapped, on stderr, in the summary line and in the CSV. The file is 64 MiB, 32 whole
 * 2 MiB regions, since only those can be cached in 2 MiB folios.
 */
class PageCacheOptionTest {

    @TempDir
    static Path dir;
    static Path haystack;

    @TempDir
    Path csvDir;

    @BeforeAll
    static void createHaystack() {
        haystack = dir.resolve("haystack.bin");
        var created = InProcess.run(new V13PreadVector(), haystack.toString(), "--size", "64m", "--runs", "1", "--warmup", "0");
        assertEquals(Harness.FOUND, created.exitCode(), created::toString);
    }

    /**
     * Runs a chapter with one warm-up and two timed runs into a fresh CSV; returns its summary and its row. A
     * mapped chapter's share is measured after its runs only while the whole file is still cached: where the
     * kernel's background reclaim took part of it meanwhile, the share is left out, and the runs are made again,
     * up to {@link #ATTEMPTS} times.
     */
    Map.Entry<Map<String, String>, CSVRecord> run(NeedleSearch chapter, String... options) throws IOException {
        for (int attempt = 1; ; attempt++) {
            Path csv = csvDir.resolve(chapter.getClass().getSimpleName() + "-" + attempt + ".csv");
            List<String> args = new java.util.ArrayList<>(List.of(haystack.toString(), "--runs", "2", "--warmup", "1",
                    "--workers", "2", "--csv", csv.toString()));
            args.addAll(List.of(options));
            var result = InProcess.run(chapter, args.toArray(String[]::new));
            assertEquals(Harness.FOUND, result.exitCode(), result::toString);
            var run = Map.entry(HarnessTest.summaries(result).getLast(), HarnessTest.rows(csv).getLast());
            boolean reclaimedMeanwhile = chapter instanceof MapsTheFile && !run.getKey().containsKey("pmd_mapped_pct")
                    && !PageCache.isAllResident(haystack);
            if (!reclaimedMeanwhile || attempt == ATTEMPTS) {
                return run;
            }
        }
    }

    private static final int ATTEMPTS = 3;

    @Test
    void smallFoliosLeaveNothingPmdMappedEvenForChapter16() throws IOException {
        Assumptions.assumeTrue(HugeFolios.whyNot(haystack) == null, () -> "chapter 16 refuses here: " + whyNot());
        for (NeedleSearch chapter : List.of(new V09MmapParallelVector(), new V16MmapHugePages())) {
            var run = run(chapter, "--page-cache", "small");
            assertEquals("small", run.getKey().get("page_cache"));
            assertEquals("0.0", run.getKey().get("pmd_mapped_pct"), run::toString);
            assertEquals("small", run.getValue().get("page_cache"));
            assertEquals("0.0", run.getValue().get("pmd_mapped_pct"));
        }
    }

    @Test
    void hugeFoliosArePmdMappedByAPlainMappingAndByChapter16() throws IOException {
        Assumptions.assumeTrue(HugeFolios.whyNot(haystack) == null, () -> "no 2 MiB folios here: " + whyNot());
        Assumptions.assumeTrue(HugeFolios.knownToHaveLargeFolios(haystack),
                "this file system is not one known to cache in large folios (ext4 on Linux 6.16+, XFS on 5.18+)");
        for (NeedleSearch chapter : List.of(new V09MmapParallelVector(), new V16MmapHugePages())) {
            var run = run(chapter, "--page-cache", "huge");
            assertEquals("huge", run.getKey().get("page_cache"));
            assertTrue(Double.parseDouble(run.getKey().get("pmd_mapped_pct")) > 0, run::toString);
            assertTrue(Double.parseDouble(run.getValue().get("pmd_mapped_pct")) > 0, run::toString);
        }
    }

    @Test
    void aChapterThatDoesNotMapRecordsNoShare() throws IOException {
        var run = run(new V13PreadVector());
        assertEquals("as-is", run.getKey().get("page_cache"));
        assertFalse(run.getKey().containsKey("pmd_mapped_pct"), run::toString);
        assertEquals("as-is", run.getValue().get("page_cache"));
        assertEquals("", run.getValue().get("pmd_mapped_pct"));
    }

    @Test
    void theTwoMemoryWallsAreOnThePagesTheirNamesSay() throws IOException {
        try (WallMemoryRead small = new WallMemoryRead(); WallMemoryRead huge = new WallMemoryReadHuge()) {
            assertEquals("0.0", run(small).getValue().get("pmd_mapped_pct"));
            Path csv = csvDir.resolve("huge.csv");
            var result = InProcess.run(huge, haystack.toString(), "--runs", "1", "--warmup", "1", "--workers", "2", "--csv", csv.toString());
            Assumptions.assumeFalse(result.exitCode() == Harness.ERROR && result.stderr().contains("no 2 MiB page"),
                    () -> "the kernel gave no 2 MiB page: " + result.stderr());
            assertEquals(Harness.FOUND, result.exitCode(), result::toString);
            assertTrue(Double.parseDouble(HarnessTest.rows(csv).getLast().get("pmd_mapped_pct")) > 0, result::toString);
        }
    }

    @Test
    void refusesInOneLineWhatItCannotDo() throws IOException {
        Path tiny = java.nio.file.Files.write(csvDir.resolve("tiny.bin"), new byte[1 << 20]); // 1 MiB: no 2 MiB folio fits
        for (List<String> args : List.of(
                List.of(haystack.toString(), "--page-cache", "medium"),
                List.of(haystack.toString(), "--page-cache", "huge", "--cold"),
                List.of(tiny.toString(), "--page-cache", "huge"))) {
            var result = InProcess.run(new V09MmapParallelVector(), args.toArray(String[]::new));
            assertEquals(Harness.ERROR, result.exitCode(), result::toString);
            assertEquals(1, result.errorLines().size(), result::toString);
            assertTrue(result.stderr().contains("--page-cache"), result::toString);
        }
    }

    /**
     * Another program refilling the cache under the runs (here the chapter itself, in its first run)
     * must not leave figures labelled with the state asked for: one line, exit 2, no summary, no row.
     * Each case: the state asked for, the state forced in the first run, and whether the chapter maps.
     */
    @Test
    void aCacheRefilledUnderTheRunsIsNotRecordedUnderTheStateAskedFor() throws IOException {
        Assumptions.assumeTrue(HugeFolios.whyNot(haystack) == null, () -> "no 2 MiB folios here: " + whyNot());
        Assumptions.assumeTrue(HugeFolios.knownToHaveLargeFolios(haystack),
                "this file system is not one known to cache in large folios (ext4 on Linux 6.16+, XFS on 5.18+)");
        for (var refill : List.of(new Refill("small", true, true), new Refill("small", true, false), new Refill("huge", false, true),
                new Refill("huge", false, false))) {
            Path csv = csvDir.resolve(refill + ".csv");
            var result = InProcess.run(refill.chapter(), haystack.toString(), "--page-cache", refill.asked(), "--runs", "2",
                    "--warmup", "0", "--csv", csv.toString());
            assertEquals(Harness.ERROR, result.exitCode(), () -> refill + "\n" + result);
            assertEquals(1, result.errorLines().stream().filter(line -> !line.startsWith("  ") && !line.startsWith("page cache: ")).count(),
                    () -> refill + ": one line, besides the runs and what the cache was filled with\n" + result);
            assertTrue(result.stderr().contains("no longer held it in " + (refill.asked().equals("small") ? "4 KiB" : "2 MiB") + " folios"),
                    () -> refill + "\n" + result);
            assertEquals("", result.stdout(), () -> refill + "\n" + result);
            assertFalse(java.nio.file.Files.exists(csv), () -> refill + ": a row was recorded");
        }
    }

    /** A chapter that, in its first run, refills the cache the other way, then searches (mapped, or by plain reads). */
    record Refill(String asked, boolean toHuge, boolean maps) {
        NeedleSearch chapter() {
            java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
            NeedleSearch plain = (file, workers) -> {
                if (!done.getAndSet(true)) {
                    if (toHuge) {
                        PageCache.fillInHugeFolios(file, 2);
                    } else {
                        PageCache.fillInSmallFolios(file);
                    }
                }
                return maps ? new V04Mmap().search(file, workers) : new ReferenceSearch().search(file, workers);
            };
            return maps ? new MappedRefill(plain) : plain;
        }

        @Override
        public String toString() {
            return "--page-cache " + asked + ", refilled in " + (toHuge ? "2 MiB" : "4 KiB") + " folios, " + (maps ? "mapped" : "read");
        }
    }

    record MappedRefill(NeedleSearch search) implements NeedleSearch, MapsTheFile {
        @Override
        public long search(Path file, int workers) throws IOException {
            return search.search(file, workers);
        }
    }

    static String whyNot() {
        return CpuSupport.whyNoHugeFolios(haystack);
    }
}
