import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import lib.chapter.NeedleSearch;
import lib.counters.PmdMapping;
import lib.harness.PageCache;
import lib.linux.HugeFolios;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The page-cache states behind {@code --page-cache}, checked the way the kernel reports them: the
 * share of a mapping that {@code /proc/self/smaps} shows PMD-mapped. Large folios need 2 MiB-aligned,
 * 2 MiB-sized regions of the file, so the file is 64 MiB.
 */
class PageCacheFoliosTest {

    static final long FILE_BYTES = 64L << 20;
    static final long NEEDLE_BYTE = FILE_BYTES - 5;

    @TempDir
    Path dir;

    Path haystack() throws IOException {
        return TestFiles.write(dir.resolve("haystack.bin"), TestFiles.Layout.zeros("64 MiB, needle near the end", FILE_BYTES)
                .plant(NEEDLE_BYTE, (byte) 0x4e));
    }

    /** Maps the file plainly, scans it all (so every page is faulted in), and reads smaps before unmapping. */
    static PmdMapping scanAndMeasure(Path file, boolean adviseHuge) throws IOException {
        try (FileChannel channel = FileChannel.open(file); Arena arena = Arena.ofConfined()) {
            MemorySegment mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size(), arena);
            if (adviseHuge) {
                HugeFolios.advise(mapped);
            }
            assertEquals(NeedleSearch.wordContaining(NEEDLE_BYTE), V08Vector256.firstNonZeroWord256(mapped, 0, mapped.byteSize()));
            return PmdMapping.of(mapped);
        }
    }

    @Test
    void smallFoliosAreNeverPmdMappedEvenThroughAHugePageMapping() throws IOException {
        Path file = haystack();
        String reason = CpuSupport.whyNoHugeFolios(dir);
        Assumptions.assumeTrue(reason == null || !reason.contains("tmpfs"), () -> "no eviction here: " + reason);
        PageCache.fillInSmallFolios(file);
        for (boolean adviseHuge : new boolean[] {false, true}) {
            PmdMapping mapping = scanAndMeasure(file, adviseHuge);
            assertEquals(FILE_BYTES, mapping.rssBytes(), "the whole scanned file is resident: " + mapping);
            assertEquals(0, mapping.filePmdMappedBytes(), "MADV_HUGEPAGE " + adviseHuge + ": " + mapping);
        }
    }

    @Test
    void hugeFoliosArePmdMappedByThePopulatingMappingAndByAPlainOneAfter() throws IOException {
        Path file = haystack();
        String reason = CpuSupport.whyNoHugeFolios(dir);
        Assumptions.assumeTrue(reason == null, () -> "no 2 MiB folios here: " + reason);
        PmdMapping filled = PageCache.fillInHugeFolios(file, 2);
        Assumptions.assumeTrue(filled.filePmdMappedBytes() > 0 || HugeFolios.knownToHaveLargeFolios(file),
                () -> "this file system made no 2 MiB folio, and is not one known to (" + filled + ")");
        // Not necessarily all 32: where memory is fragmented, a 2 MiB folio the kernel cannot get falls back to smaller ones.
        assertTrue(filled.filePmdMappedBytes() > 0, "the populating mapping maps 2 MiB folios 2 MiB at a time: " + filled);
        PmdMapping plain = scanAndMeasure(file, false);
        assertTrue(plain.filePmdMappedBytes() > 0, "a plain mapping of 2 MiB folios maps them 2 MiB at a time: " + plain);
    }

    /** What {@code --page-cache STATE} says it did to the file, on stderr. */
    static String prepare(Path file, PageCache.Folios folios) throws IOException {
        ByteArrayOutputStream said = new ByteArrayOutputStream();
        PageCache.prepare(file, folios, 2, new PrintStream(said, true, StandardCharsets.UTF_8));
        return said.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aStateTheCacheAlreadyHoldsIsKeptAndAnyOtherIsMadeAfresh() throws IOException {
        Path file = haystack();
        String reason = CpuSupport.whyNoHugeFolios(dir);
        Assumptions.assumeTrue(reason == null, () -> "no 2 MiB folios here: " + reason);
        PmdMapping filled = PageCache.fillInHugeFolios(file, 2);
        Assumptions.assumeTrue(filled.filePmdMappedBytes() > 0, () -> "this file system made no 2 MiB folio (" + filled + ")");

        String fromHuge = prepare(file, PageCache.Folios.SMALL);
        assertTrue(fromHuge.contains("evicted and read back in 4 KiB folios"), "2 MiB folios are not small ones: " + fromHuge);
        String again = prepare(file, PageCache.Folios.SMALL);
        assertTrue(again.contains("already held whole in 4 KiB folios"), "nothing to redo: " + again);
        assertEquals(0, scanAndMeasure(file, true).filePmdMappedBytes(), "still small after the kept state");
        String toHuge = prepare(file, PageCache.Folios.HUGE);
        assertTrue(toHuge.contains("evicted and read back in 2 MiB folios"), "small folios are not 2 MiB ones: " + toHuge);
    }

    @Test
    void anEmptyMappingMeasuresNothing() {
        PmdMapping none = new PmdMapping(0, 0, 0);
        assertTrue(Double.isNaN(none.pmdMappedPercent()));
        assertEquals("", PmdMapping.percent(none.pmdMappedPercent()));
    }
}
