import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import lab.results.*;
import lib.cli.UserMistakeException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The model adds up a bill at the unit costs, term by term, and names the term that bounds the time. */
class CostModelTest {

    static final String HEADER = "date,chapter,workers,cache,file_bytes,chunk_bytes,offset,warmup_runs,runs,mean_s,median_s,min_s,max_s,mbps,run_s,warmup_s,"
            + "cpu_model,logical_cores,memory_bytes,kernel,jdk,vector_bits,machine,page_cache,pmd_mapped_pct,read_mode,read_calls_per_gib,"
            + "returned_bytes_per_gib,device_bytes_per_gib,minor_faults_per_gib,major_faults_per_gib,voluntary_switches_per_gib,involuntary_switches_per_gib\n";

    /** 1 ns a call, 1,000 ns a fault, 10,000 a wake-up, 0.25 ns a byte scanned in the cache; scans from memory at 1 and 0.5 ns a byte, copies at 2 and 1, the device at 4 and 2. */
    static final CostModel.Costs COSTS = costs(Double.NaN, Double.NaN, Double.NaN, Double.NaN, java.util.Set.of());

    /** {@link #COSTS}' prices with a fault's fixed cost and its cost per entry, on one thread and on all (NaN: not measured), and those unstable. */
    static CostModel.Costs costs(double fixed, double perEntry, double fixedAll, double perEntryAll, java.util.Set<String> unstable) {
        return costs(fixed, perEntry, fixedAll, perEntryAll, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, unstable);
    }

    /** The same with the populate pair and an entry's unmapping, and no walk cost. */
    static CostModel.Costs costs(double fixed, double perEntry, double fixedAll, double perEntryAll, double populateFixed, double populatePte,
                                 double populateFixedAll, double populatePteAll, double unmapEntry, java.util.Set<String> unstable) {
        return costs(fixed, perEntry, fixedAll, perEntryAll, populateFixed, populatePte, populateFixedAll, populatePteAll, unmapEntry, Double.NaN, unstable);
    }

    /** The same with the populate pair, on one thread and on all (the wall time), an entry's unmapping and its walk in a scan (NaN: not measured). */
    static CostModel.Costs costs(double fixed, double perEntry, double fixedAll, double perEntryAll, double populateFixed, double populatePte,
                                 double populateFixedAll, double populatePteAll, double unmapEntry, double walkEntry, java.util.Set<String> unstable) {
        return new CostModel.Costs(1, 1_000, fixed, perEntry, fixedAll, perEntryAll, Double.NaN, Double.NaN, populateFixed, populatePte,
                populateFixedAll, populatePteAll, unmapEntry, walkEntry, Double.NaN, 10_000, 0.25, Double.NaN, Double.NaN, Double.NaN, 4, 2, 1, 0.5, Double.NaN, Double.NaN, Double.NaN, Double.NaN, 2, 1,
                "read_call", unstable);
    }

    @TempDir
    Path folder;

    @Test
    void aReadingChapterOnTwoWorkersIsBoundByItsOneCoresCopy() throws IOException {
        // 1 GiB, 1,024 calls, all of it copied: one core copies half of it at 2 ns a byte (1.07 s), scans that half in its cache
        // at 0.25 ns a byte (0.13 s) and makes 512 calls (0.5 µs); the shared copy at 1 ns a byte takes 1.07 s, so one core is
        // the bound, and its copy is its largest term
        StudyResults.Row row = row("V13PreadVector", 2, "1024,1073741824,0,0,0,0,0");
        CostModel.Prediction prediction = CostModel.predict(row, COSTS);
        assertEquals((1L << 30) * (2.0 + 0.25) / 2 / 1e9 + 1024 * 1.0 / 2 / 1e9, prediction.seconds(), 1e-12);
        assertEquals("core: copy", prediction.bound());
        // one worker alone would take 2.25 s a GiB, 0.25 of it its scan, against the shared copy's 1.07: more workers
        // shorten the scans, not the copy, and the wall is met at 2 workers
        assertEquals(((1L << 30) * 2.0 + 1024) / ((1L << 30) * 1.0), prediction.workersToWall(), 1e-9);
    }

    @Test
    void pastTheCopyWallEachWorkersScanFollowsItsCopy() throws IOException {
        // on 4 workers one core takes 0.56 ns a byte, but the copy is shared at 1 ns a byte: each worker then scans its
        // quarter in its cache after copying it, 0.25 / 4 ns a byte, which no other worker's copy hides
        StudyResults.Row row = row("V13PreadVector", 4, "1024,1073741824,0,0,0,0,0");
        CostModel.Prediction prediction = CostModel.predict(row, COSTS);
        assertEquals((1L << 30) * (1.0 + 0.25 / 4) / 1e9, prediction.seconds(), 1e-12);
        assertEquals("page-cache copy", prediction.bound());
        assertEquals(((1L << 30) * 2.0 + 1024) / ((1L << 30) * 1.0), prediction.workersToWall(), 1e-9);
    }

    @Test
    void aModelCsvWrittenBeforeTheWorkersToTheWallIsStillRead() throws IOException {
        Path csv = Files.writeString(folder.resolve("model.csv"), CostModel.FIRST_COLUMNS + "\nV13PreadVector,2,as-is,warm,0.1614,0.1400,core: copy\n");
        ModelResults.ModelRow row = CostModel.read(csv).getFirst();
        assertEquals(0.1400, row.predictedSeconds(), 1e-12);
        assertEquals(null, row.workersToWall());
    }

    @Test
    void aMappedChapterScansWhatItDoesNotCopyAndPaysItsFaults() throws IOException {
        // 1 GiB, nothing copied, 512 faults: on one worker 1.07 s of scan and 0.5 ms of faults, against 0.54 s of shared memory
        StudyResults.Row row = row("V04Mmap", 1, "0,0,0,512,0,0,0");
        CostModel.Prediction prediction = CostModel.predict(row, COSTS);
        assertEquals((1L << 30) * 1.0 / 1e9 + 512 * 1_000.0 / 1e9, prediction.seconds(), 1e-12);
        assertEquals("core: scan", prediction.bound());
    }

    /**
     * A chapter that declares a word-at-a-time kernel scans at that kernel's costs: from memory, 1.5 ns a byte here (never
     * below the memory wall's 1), in its cache 0.5; a vector chapter with the same bill keeps the walls' and the
     * vector kernel's; without the word costs, every chapter is priced as before.
     */
    @Test
    void aWordAtATimeKernelIsPricedAtItsOwnScanCosts() throws IOException {
        CostModel.Costs words = wordCosts(0.5, 1.5, java.util.Set.of("scan_word_from_memory"));
        StudyResults.Row wordMapped = row("V04Mmap", 1, "0,0,0,512,0,0,0"), vectorMapped = row("V08Vector256", 1, "0,0,0,512,0,0,0");
        assertEquals((1L << 30) * 1.5 / 1e9 + 512 * 1_000.0 / 1e9, CostModel.predict(wordMapped, words).seconds(), 1e-12);
        assertEquals((1L << 30) * 1.0 / 1e9 + 512 * 1_000.0 / 1e9, CostModel.predict(vectorMapped, words).seconds(), 1e-12);
        assertEquals((1L << 30) * 1.0 / 1e9 + 512 * 1_000.0 / 1e9, CostModel.predict(wordMapped, wordCosts(0.5, 0.8, java.util.Set.of())).seconds(), 1e-12,
                "no scan from memory faster than the wall");
        StudyResults.Row wordReads = row("V03ChunkedLong", 1, "1024,1073741824,0,0,0,0,0"), vectorReads = row("V13PreadVector", 1, "1024,1073741824,0,0,0,0,0");
        assertEquals((1L << 30) * (2.0 + 0.5) / 1e9 + 1024 * 1.0 / 1e9, CostModel.predict(wordReads, words).seconds(), 1e-12);
        assertEquals((1L << 30) * (2.0 + 0.25) / 1e9 + 1024 * 1.0 / 1e9, CostModel.predict(vectorReads, words).seconds(), 1e-12);
        assertEquals((1L << 30) * (2.0 + 0.25) / 1e9 + 1024 * 1.0 / 1e9, CostModel.predict(wordReads, COSTS).seconds(), 1e-12, "no word costs: as before");
        CostModel.Terms terms = CostModel.terms(wordMapped, words);
        assertEquals("scan_word_from_memory", CostModel.unstablePricing(terms, CostModel.predict(terms, 1), words, 1, false));
        // on two workers each core scans half, but the shared memory term is the word kernel's on both threads at once
        StudyResults.Row wordOnTwo = row("V06MmapParallel", 2, "0,0,0,512,0,0,0"), vectorOnTwo = row("V09MmapParallelVector", 2, "0,0,0,512,0,0,0");
        assertEquals((1L << 30) * 1.5 / 1e9 + 512 * 1_000.0 / 2 / 1e9, CostModel.predict(wordOnTwo, words).seconds(), 1e-12);
        assertEquals("memory", CostModel.predict(wordOnTwo, words).bound());
        assertEquals((1L << 30) * 1.0 / 2 / 1e9 + 512 * 1_000.0 / 2 / 1e9, CostModel.predict(vectorOnTwo, words).seconds(), 1e-12);
        CostModel.Terms vectorTerms = CostModel.terms(vectorMapped, words);
        assertEquals("", CostModel.unstablePricing(vectorTerms, CostModel.predict(vectorTerms, 1), words, 1, false));
    }

    /** {@link #COSTS} with the word kernel's two scan costs, ns a byte. */
    private static CostModel.Costs wordCosts(double inCache, double fromMemory, java.util.Set<String> unstable) {
        return new CostModel.Costs(1, 1_000, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
                Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, 10_000, 0.25, inCache, fromMemory, fromMemory, 4, 2, 1, 0.5, Double.NaN, Double.NaN, Double.NaN, Double.NaN, 2, 1,
                "read_call", unstable);
    }

    /**
     * A chapter that declares the CPU's widest kernel meets the memory wall measured with it: here 0.6 ns a byte on one
     * thread and 0.3 on two, against the 256-bit wall's 1 and 0.5; a 256-bit chapter with the same bill keeps the
     * 256-bit wall, and without the widest wall every chapter is priced at the 256-bit one.
     */
    @Test
    void aWidestVectorKernelMeetsTheWallOfItsOwnWidth() throws IOException {
        CostModel.Costs widest = new CostModel.Costs(1, 1_000, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
                Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, 10_000, 0.25, Double.NaN, Double.NaN, Double.NaN, 4, 2, 1, 0.5, 0.6, 0.3, Double.NaN, Double.NaN, 2, 1,
                "read_call", java.util.Set.of());
        StudyResults.Row wide = row("V12Vector512", 1, "0,0,0,512,0,0,0"), narrow = row("V08Vector256", 1, "0,0,0,512,0,0,0");
        assertEquals((1L << 30) * 0.6 / 1e9 + 512 * 1_000.0 / 1e9, CostModel.predict(wide, widest).seconds(), 1e-12);
        assertEquals((1L << 30) * 1.0 / 1e9 + 512 * 1_000.0 / 1e9, CostModel.predict(narrow, widest).seconds(), 1e-12);
        assertEquals((1L << 30) * 1.0 / 1e9 + 512 * 1_000.0 / 1e9, CostModel.predict(wide, COSTS).seconds(), 1e-12, "no widest wall: the 256-bit one");
        // on two workers each core scans half at 0.6 (0.32 s), the shared memory term is the widest wall's on both (0.32 s)
        StudyResults.Row wideOnTwo = row("V16MmapHugePages", 2, "0,0,0,512,0,0,0"), narrowOnTwo = row("V09MmapParallelVector", 2, "0,0,0,512,0,0,0");
        CostModel.Terms wideTerms = CostModel.terms(wideOnTwo, widest);
        assertEquals((1L << 30) * 0.3, wideTerms.shared().get("memory"), 1e-3);
        assertEquals((1L << 30) * 0.5, CostModel.terms(narrowOnTwo, widest).shared().get("memory"), 1e-3);
    }

    /**
     * A mapping's scan meets the memory wall of its pages: its PMD-mapped share at the wall in 2 MiB pages (here 0.4 ns a
     * byte on one thread, 0.2 on two), the rest at the 4 KiB one (1 and 0.5). A 256-bit chapter three quarters PMD-mapped
     * scans at 0.55 ns a byte; refilled `huge`, at 0.4; without the 2 MiB wall, or mapping nothing, at the 4 KiB one. A
     * chapter of the widest vectors keeps its own wall, measured in 4 KiB pages only.
     */
    @Test
    void aMappingsScanMeetsTheWallOfItsPages() throws IOException {
        CostModel.Costs pages = new CostModel.Costs(1, 1_000, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
                Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, 10_000, 0.25, Double.NaN, Double.NaN, Double.NaN, 4, 2, 1, 0.5, 0.6, 0.3, 0.4, 0.2, 2, 1,
                "read_call", java.util.Set.of());
        String bill = "0,0,0,512,0,0,0";
        double faults = 512 * 1_000.0;
        assertEquals(((1L << 30) * 0.55 + faults) / 1e9, CostModel.predict(row("V08Vector256", 1, bill, "as-is", "75.0"), pages).seconds(), 1e-12);
        assertEquals(((1L << 30) * 0.4 + faults) / 1e9, CostModel.predict(row("V08Vector256", 1, bill, "huge", "100.0"), pages).seconds(), 1e-12);
        assertEquals(((1L << 30) * 1.0 + faults) / 1e9, CostModel.predict(row("V08Vector256", 1, bill, "huge", "100.0"), COSTS).seconds(), 1e-12,
                "no wall in 2 MiB pages: the 4 KiB one");
        assertEquals((1L << 30) * 0.2, CostModel.terms(row("V09MmapParallelVector", 2, bill, "huge", "100.0"), pages).shared().get("memory"), 1e-3);
        assertEquals(((1L << 30) * 0.6 + faults) / 1e9, CostModel.predict(row("V12Vector512", 1, bill, "huge", "100.0"), pages).seconds(), 1e-12);
        StudyResults.Row reads = row("V13PreadVector", 2, "1024,1073741824,0,0,0,0,0");
        assertEquals(CostModel.predict(reads, COSTS).seconds(), CostModel.predict(reads, pages).seconds(), 1e-12, "a reading chapter maps nothing");
    }

    @Test
    void aColdChapterIsBoundByTheDevice() throws IOException {
        StudyResults.Row row = row("V14DirectIo", 2, "1024,1073741824,1073741824,0,0,3,0");
        CostModel.Prediction prediction = CostModel.predict(row, COSTS);
        assertEquals((1L << 30) * 2.0 / 1e9, prediction.seconds(), 1e-12);
        assertEquals("device", prediction.bound());
    }

    @Test
    void aFolderWithoutItsUnitCostsIsRefusedInOneLineNamingTheCommand() {
        UserMistakeException refused = assertThrows(UserMistakeException.class, () -> CostModel.unitCosts(folder));
        assertTrue(refused.getMessage().contains("./jbang unit-costs"), refused.getMessage());
    }

    @Test
    void aCostThatIsNoPositiveNumberIsRefused() throws IOException {
        Files.writeString(folder.resolve("costs.csv"), UnitCosts.HEADER + "\n2026-01-01T00:00:00Z,m,read_call,ns,NaN,1,1,1\n");
        UserMistakeException refused = assertThrows(UserMistakeException.class, () -> CostModel.unitCosts(folder));
        assertTrue(refused.getMessage().contains("read_call"), refused.getMessage());
    }

    /** A cost out of all reason (10^308 ns a call is infinite seconds; 10^300 a 300-digit figure) is refused in one line, and no model.csv is written. */
    @ParameterizedTest
    @ValueSource(strings = {"1e308", "1e300", "1e-300", "0.0", "Infinity"})
    void aReadCallOutOfBoundsIsRefusedAndNoModelIsWritten(String readCall) throws IOException {
        machineFolder("read_call,ns," + readCall, "0.5", "1024,1073741824,0,0,0,0,0");
        Path csv = folder.resolve("model.csv");
        Said said = costModel(folder.toString(), "--csv", csv.toString());
        assertEquals(2, said.status(), said.toString());
        assertEquals(1, said.err().lines().count(), said.toString());
        assertTrue(said.err().contains("costs.csv") && said.err().contains("read_call"), said.toString());
        assertTrue(Files.notExists(csv), "no model.csv: " + said);
        assertEquals("", said.out(), "no table either");
    }

    /** A bill the results reader still takes, priced at a cost it still takes, would make a time model.csv cannot hold: refused in one line naming its row, nothing written. */
    @Test
    void aPredictionModelCsvCouldNotHoldIsRefusedNamingItsRow() throws IOException {
        machineFolder("read_call,ns,500000000", "0.5", "1000000000000,1073741824,0,0,0,0,0"); // half a second a call, 10^12 calls: 10^11 s
        Path csv = folder.resolve("model.csv");
        Said said = costModel(folder.toString(), "--csv", csv.toString());
        assertEquals(2, said.status(), said.toString());
        assertEquals(1, said.err().lines().count(), said.toString());
        assertTrue(said.err().contains("scoreboard.csv line 2") && said.err().contains("predicted_s"), said.toString());
        assertTrue(Files.notExists(csv), said.toString());
    }

    /** Every figure written reads back by the reader's rule: the shortest search a 1 GiB row may hold (just under 10 TB/s) is not rounded to a refused 0.0000. */
    @Test
    void aModelOfAShortSearchReadsBack() throws IOException {
        machineFolder("read_call,ns,500", "0.00011", "1024,1073741824,0,0,0,0,0");
        Path csv = folder.resolve("model.csv");
        Said said = costModel(folder.toString(), "--csv", csv.toString());
        assertEquals(0, said.status(), said.toString());
        ModelResults.ModelRow row = CostModel.read(csv).getFirst();
        assertEquals(0.00011, row.measuredSeconds(), 0.00011 / 10);
    }

    /** costs.csv's unit is honoured: 0.0005 ms is 500 ns, and a unit the model does not know is refused in one line. */
    @Test
    void theUnitOfACostIsHonoured() throws IOException {
        machineFolder("read_call,ms,0.0005", "0.5", "1024,1073741824,0,0,0,0,0");
        assertEquals(500, CostModel.unitCosts(folder).call(), 1e-9);
        machineFolder("read_call,furlongs,500", "0.5", "1024,1073741824,0,0,0,0,0");
        UserMistakeException refused = assertThrows(UserMistakeException.class, () -> CostModel.unitCosts(folder));
        assertTrue(refused.getMessage().contains("furlongs") && refused.getMessage().contains("costs.csv line 2"), refused.getMessage());
    }

    /** A --csv that is a folder, or in a folder that does not exist, is one line naming it and why, before anything is read. */
    @Test
    void aCsvThatCannotBeWrittenIsNamedWithTheReason() throws IOException {
        machineFolder("read_call,ns,500", "0.5", "1024,1073741824,0,0,0,0,0");
        Path aFolder = Files.createDirectory(folder.resolve("a folder"));
        Said said = costModel(folder.toString(), "--csv", aFolder.toString());
        assertEquals(2, said.status(), said.toString());
        assertTrue(said.err().contains("'" + aFolder + "'") && said.err().contains("is a directory"), said.toString());
        Path nowhere = folder.resolve("nowhere").resolve("model.csv");
        said = costModel(folder.toString(), "--csv", nowhere.toString());
        assertEquals(2, said.status(), said.toString());
        assertTrue(said.err().contains("'" + nowhere + "'") && said.err().contains("its directory does not exist"), said.toString());
        assertFalse(said.err().contains("partial"), said.toString());
        assertTrue(Files.notExists(nowhere.getParent()));
    }

    /** A folder without wall.csv is one line naming it and the command that measures the walls, not Java's bare path. */
    @Test
    void aMissingWallCsvIsNamedWithTheCommandThatMeasuresIt() throws IOException {
        machineFolder("read_call,ns,500", "0.5", "1024,1073741824,0,0,0,0,0");
        Files.delete(folder.resolve("wall.csv"));
        Said said = costModel(folder.toString());
        assertEquals(2, said.status(), said.toString());
        assertTrue(said.err().contains("no '" + folder.resolve("wall.csv") + "'") && said.err().contains("./jbang wall memory,copy"), said.toString());
    }


    /**
     * A fault is priced at its fixed cost plus each entry it fills, the entries told by the PMD-mapped share: in 4 KiB folios
     * (0 %) a GiB is 262,144 entries, in 2 MiB ones (100 %) 512, whatever the faults; a chapter that maps nothing fills one a fault.
     */
    @Test
    void aFaultIsPricedPerFaultAndPerEntryItFills() throws IOException {
        CostModel.Costs costs = costs(1_000, 10, Double.NaN, Double.NaN, java.util.Set.of());
        StudyResults.Row small = row("V08Vector256", 1, "0,0,0,16384,0,0,0", "small", "0.0");
        assertEquals(262_144, CostModel.entriesPerGiB(small), 1e-9);
        assertEquals(16_384 * 1_000.0 + 262_144 * 10.0, CostModel.faultNanosPerGiB(small, costs), 1e-6);
        StudyResults.Row fewerFaults = row("V04Mmap", 1, "0,0,0,1024,0,0,0", "small", "0.0"); // the same pages, 256 a fault
        assertEquals(1_024 * 1_000.0 + 262_144 * 10.0, CostModel.faultNanosPerGiB(fewerFaults, costs), 1e-6);
        StudyResults.Row huge = row("V08Vector256", 1, "0,0,0,518,0,0,0", "huge", "100.0");
        assertEquals(518, CostModel.entriesPerGiB(huge), 1e-9, "never fewer entries than faults");
        StudyResults.Row fifth = row("V08Vector256", 1, "0,0,0,11537,0,0,0", "as-is", "20.0");
        assertEquals(0.8 * 262_144 + 0.2 * 512, CostModel.entriesPerGiB(fifth), 1e-6);
        StudyResults.Row reads = row("V13PreadVector", 1, "1024,1073741824,0,140,0,0,0");
        assertEquals(140, CostModel.entriesPerGiB(reads), 1e-9);
        // without the two costs, a fault is the one price measured as the cache held the file
        assertEquals(16_384 * 1_000.0, CostModel.faultNanosPerGiB(small, COSTS), 1e-6);
    }

    /** Two workers faulting are held to every thread's faults at once where those are slower than half of one thread's, and the faults come before the scan. */
    @Test
    void faultsThatDoNotScaleAreChargedOnEveryThreadBeforeTheScan() throws IOException {
        StudyResults.Row row = row("V09MmapParallelVector", 2, "0,0,0,16384,0,0,0", "small", "0.0");
        double oneThread = 16_384 * 1_000.0 + 262_144 * 10.0, everyThread = 16_384 * 900.0 + 262_144 * 9.0;
        CostModel.Prediction scaling = CostModel.predict(row, costs(1_000, 10, 500, 5, java.util.Set.of()));
        double scan = Math.max((1L << 30) * 1.0 / 2, (1L << 30) * 0.5); // one core's half at 1 ns a byte, or memory at 0.5
        assertEquals((oneThread / 2 + scan) / 1e9, scaling.seconds(), 1e-12);
        CostModel.Prediction contended = CostModel.predict(row, costs(1_000, 10, 900, 9, java.util.Set.of()));
        assertEquals((everyThread + scan) / 1e9, contended.seconds(), 1e-12);
    }

    /**
     * A chapter that populates its mapping on one thread before its workers start (chapter 10's MAP_POPULATE) pays its
     * faults whole, in turn, before the scan: neither halved between two workers nor priced as every thread's at once. The
     * same bill from chapter 9, whose workers fault their own shards, is shared out; so is chapter 16's, whose workers
     * populate their own shards, where the populate costs were not measured.
     */
    @Test
    void aChapterThatPopulatesOnOneThreadPaysItsFaultsWholeBeforeItsWorkers() throws IOException {
        assertEquals(FaultFilling.POPULATED_ON_ONE_THREAD, CostModel.filling("V10MmapPopulate"));
        assertEquals(FaultFilling.TOUCHED, CostModel.filling("V09MmapParallelVector"));
        assertEquals(FaultFilling.POPULATED_ON_EVERY_WORKER, CostModel.filling("V16MmapHugePages"), "chapter 16's workers populate their own shards");
        assertEquals(FaultFilling.TOUCHED, CostModel.filling("V99NoSuchChapter"));
        StudyResults.Row perWorker = row("V16MmapHugePages", 2, "0,0,0,16384,0,0,0", "small", "0.0");
        assertEquals(CostModel.predict(row("V09MmapParallelVector", 2, "0,0,0,16384,0,0,0", "small", "0.0"), COSTS).seconds(),
                CostModel.predict(perWorker, COSTS).seconds(), 1e-12, "no populate costs: chapter 16's faults are shared out as chapter 9's");
        String bill = "0,0,0,16384,0,0,0";
        double scan = Math.max((1L << 30) * 1.0 / 2, (1L << 30) * 0.5); // one core's half at 1 ns a byte, or memory at 0.5
        StudyResults.Row populated = row("V10MmapPopulate", 2, bill, "small", "0.0"), touched = row("V09MmapParallelVector", 2, bill, "small", "0.0");
        assertEquals((16_384 * 1_000.0 + scan) / 1e9, CostModel.predict(populated, COSTS).seconds(), 1e-12);
        assertEquals((16_384 * 1_000.0 / 2 + scan) / 1e9, CostModel.predict(touched, COSTS).seconds(), 1e-12);
        // where every thread's faults at once are slower than half of one thread's, they price chapter 9, never chapter 10
        CostModel.Costs contended = costs(1_000, 10, 900, 9, java.util.Set.of());
        double oneThread = 16_384 * 1_000.0 + 262_144 * 10.0, everyThread = 16_384 * 900.0 + 262_144 * 9.0;
        assertEquals((oneThread + scan) / 1e9, CostModel.predict(populated, contended).seconds(), 1e-12);
        assertEquals((everyThread + scan) / 1e9, CostModel.predict(touched, contended).seconds(), 1e-12);
        // one worker alone would populate once, then scan the whole GiB: only the scan is a share that more workers split
        CostModel.Prediction alone = CostModel.predict(populated, COSTS);
        assertEquals((16_384 * 1_000.0 + (1L << 30) * 1.0) / ((1L << 30) * 0.5), alone.workersToWall(), 1e-9);
    }

    /**
     * Where the populate costs were measured, a populating chapter's faults are priced at them, whole: chapter 10's at one
     * thread's, chapter 16's two workers at every thread's at once (a wall time, not halved), and chapter 16 alone at one
     * thread's. A touching chapter keeps the touch costs. Every mapping is then torn down at the unmap cost per entry, on
     * one thread, however many workers scanned it; a reading chapter maps nothing, and pays none.
     */
    @Test
    void aPopulatingChapterPaysThePopulateCostsAndEveryMappingItsUnmapping() throws IOException {
        CostModel.Costs costs = costs(1_000, 10, Double.NaN, Double.NaN, 700, 7, 600, 6, 3, java.util.Set.of());
        String bill = "0,0,0,16384,0,0,0";
        double scan = Math.max((1L << 30) * 1.0 / 2, (1L << 30) * 0.5), unmap = 262_144 * 3.0;
        double populatedOne = 16_384 * 700.0 + 262_144 * 7.0, populatedAll = 16_384 * 600.0 + 262_144 * 6.0, touched = 16_384 * 1_000.0 + 262_144 * 10.0;
        assertEquals((populatedOne + unmap + scan) / 1e9, CostModel.predict(row("V10MmapPopulate", 2, bill, "small", "0.0"), costs).seconds(), 1e-12);
        assertEquals((populatedAll + unmap + scan) / 1e9, CostModel.predict(row("V16MmapHugePages", 2, bill, "small", "0.0"), costs).seconds(), 1e-12);
        assertEquals((populatedOne + unmap + (1L << 30) * 1.0) / 1e9, CostModel.predict(row("V16MmapHugePages", 1, bill, "small", "0.0"), costs).seconds(), 1e-12);
        assertEquals((touched / 2 + unmap + scan) / 1e9, CostModel.predict(row("V06MmapParallel", 2, bill, "small", "0.0"), costs).seconds(), 1e-12);
        assertEquals((touched / 2 + unmap + scan) / 1e9, CostModel.predict(row("V09MmapParallelVector", 2, bill, "small", "0.0"), costs).seconds(), 1e-12,
                "two workers: the unmap still on one thread");
        assertEquals((touched + unmap + (1L << 30) * 1.0) / 1e9, CostModel.predict(row("V09MmapParallelVector", 1, bill, "small", "0.0"), costs).seconds(), 1e-12);
        StudyResults.Row reads = row("V13PreadVector", 2, "1024,1073741824,0,0,0,0,0");
        assertEquals(CostModel.predict(reads, COSTS).seconds(), CostModel.predict(reads, costs).seconds(), 1e-12, "a reading chapter unmaps nothing");
        assertEquals(java.util.List.of("populate_fixed_all", "populate_pte_all"), FaultFilling.POPULATED_ON_EVERY_WORKER.pricing(2));
        // at 60 µs a populated fault and 1 µs an entry unmapped, both weigh in chapter 16's time: their instability is named
        CostModel.Costs unstableUnmap = costs(1_000, 10, Double.NaN, Double.NaN, 700, 7, 60_000, 6, 1_000, java.util.Set.of("unmap_entry", "populate_fixed_all"));
        CostModel.Terms terms = CostModel.terms(row("V16MmapHugePages", 2, bill, "small", "0.0"), unstableUnmap);
        assertEquals("populate_fixed_all unmap_entry", CostModel.unstablePricing(terms, CostModel.predict(terms, 2), unstableUnmap, 2, false));
    }

    /**
     * An entry's first touch is priced once. A chapter that populates its mapping fills the entries without touching
     * them, so its scan touches each first, each worker its own shard's: in 4 KiB folios a GiB's 262,144 entries,
     * PMD-mapped its 512. Where those first touches outweigh the scan they bound the time, and an unstable walk cost is
     * named. A chapter that faults by touching has paid them in its faults (c_pte_fill is a first touch less a second),
     * and a reading chapter maps nothing: neither pays the walk cost.
     */
    @Test
    void anEntrysFirstTouchIsPricedOnce() throws IOException {
        CostModel.Costs walking = costs(1_000, 10, Double.NaN, Double.NaN, 2_000, 1, 2_000, 1, Double.NaN, 5_000, java.util.Set.of("walk_entry"));
        double populated = 16_384 * 2_000.0 + 262_144 * 1.0, walks = 262_144 * 5_000.0, scan = (1L << 30) * 1.0;
        CostModel.Terms small = CostModel.terms(row("V10MmapPopulate", 2, "0,0,0,16384,0,0,0", "small", "0.0"), walking);
        CostModel.Prediction prediction = CostModel.predict(small, 2);
        assertEquals((populated + scan / 2 + walks / 2) / 1e9, prediction.seconds(), 1e-12);
        assertEquals("core: " + CostModel.FIRST_TOUCHES, prediction.bound());
        assertEquals("walk_entry", CostModel.unstablePricing(small, prediction, walking, 2, false));
        assertEquals((512 * 2_000.0 + 512 * 1.0 + scan / 2 + 512 * 5_000.0 / 2) / 1e9,
                CostModel.predict(row("V10MmapPopulate", 2, "0,0,0,512,0,0,0", "huge", "100.0"), walking).seconds(), 1e-12);
        double touched = 16_384 * 1_000.0 + 262_144 * 10.0;
        CostModel.Prediction byTouch = CostModel.predict(row("V09MmapParallelVector", 2, "0,0,0,16384,0,0,0", "small", "0.0"), walking);
        assertEquals((touched / 2 + scan / 2) / 1e9, byTouch.seconds(), 1e-12, "a touched entry's first touch is in its fault's price");
        StudyResults.Row reads = row("V13PreadVector", 2, "1024,1073741824,0,0,0,0,0");
        assertEquals(CostModel.predict(reads, COSTS).seconds(), CostModel.predict(reads, walking).seconds(), 1e-12, "a reading chapter walks no mapping");
    }

    /** A cost whose rounds spread by more than a quarter is named for the rows whose weighing terms it prices, and for no other. */
    @Test
    void anUnstableCostIsNamedForTheRowsItPrices() throws IOException {
        // 16,384 faults a GiB at 100 µs: 1.6 s, more than the scan; wake-ups: none
        CostModel.Costs costs = costs(100_000, 10, Double.NaN, Double.NaN, java.util.Set.of("pte_fill", "wake_up"));
        StudyResults.Row mapped = row("V08Vector256", 1, "0,0,0,16384,0,0,0", "small", "0.0");
        CostModel.Terms terms = CostModel.terms(mapped, costs);
        assertEquals("pte_fill", CostModel.unstablePricing(terms, CostModel.predict(terms, 1), costs, 1, false), "wake_up's term weighs nothing here");
        StudyResults.Row reads = row("V13PreadVector", 1, "1024,1073741824,0,0,0,0,0");
        CostModel.Terms readTerms = CostModel.terms(reads, costs);
        assertEquals("", CostModel.unstablePricing(readTerms, CostModel.predict(readTerms, 1), costs, 1, false));

        machineFolder("read_call,ns,500,400,900,5", "0.5", "1024,1073741824,0,0,0,0,0"); // rounds 400–900 around 500: spread 1.0
        Path csv = folder.resolve("model.csv");
        Said said = costModel(folder.toString(), "--csv", csv.toString());
        assertEquals(0, said.status(), said.toString());
        assertEquals("", CostModel.read(csv).getFirst().unstableCosts(), "a read call weighs nothing in a copy of 1 GiB");
        assertTrue(CostModel.unitCosts(folder).unstable().contains("read_call"));
    }

    /** The time compared is the one the book quotes: the trimmed mean of 5 runs or more, else the median; never a plain mean. */
    @Test
    void theMeasuredTimeIsTheTrimmedMeanOfFiveRunsElseTheMedian() throws IOException {
        assertEquals(3.0, CostModel.measuredSeconds(timedRow("1.0 2.0 3.0 4.0 11.0", "4.2")), 1e-12, "2, 3 and 4 kept; the mean is 4.2");
        assertEquals(2.0, CostModel.measuredSeconds(timedRow("1.0 2.0 9.0", "4.0")), 1e-12, "three runs: the median, not their mean 4");
    }

    /** No chapter's time goes into a unit cost: the same costs and predictions come from a folder whose times are three times as long. */
    @Test
    void noChaptersTimeGoesIntoAnyUnitCost() throws IOException {
        machineFolder("read_call,ns,500", "0.5", "1024,1073741824,0,16384,0,0,0");
        CostModel.Costs before = CostModel.unitCosts(folder);
        List<ModelResults.ModelRow> modelled = CostModel.model(folder);
        machineFolder("read_call,ns,500", "1.5", "1024,1073741824,0,16384,0,0,0");
        assertEquals(before, CostModel.unitCosts(folder));
        List<ModelResults.ModelRow> slower = CostModel.model(folder);
        assertEquals(modelled.getFirst().predictedSeconds(), slower.getFirst().predictedSeconds(), 0);
        assertEquals(3 * modelled.getFirst().measuredSeconds(), slower.getFirst().measuredSeconds(), 1e-9);
    }

    /** A read call is priced at an 8-byte read, whatever a 1 MiB read less its copy at the copy wall's pace comes to. */
    @Test
    void aReadCallIsPricedAtAnEightByteRead() throws IOException {
        machineFolder("read_call,ns,500", "0.5", "1024,1073741824,0,0,0,0,0"); // the copy wall: 10,000 MB/s, 0.1 ns a byte
        Files.writeString(folder.resolve("costs.csv"), "2026-01-01T00:00:00Z,m,pread_1mib,ns,306857.6,1,1,1\n", java.nio.file.StandardOpenOption.APPEND);
        CostModel.Costs costs = CostModel.unitCosts(folder);
        assertEquals(500, costs.call(), 1e-9, "a 1 MiB read slower than the copy wall's pace is the drift between two measurements");
        assertEquals("read_call", costs.callFrom());
    }

    /** Every row of pagecache.csv is predicted, as found, in small folios and in huge ones. */
    @Test
    void everyPageCacheRowIsPredicted() throws IOException {
        machineFolder("read_call,ns,500", "0.5", "1024,1073741824,0,0,0,0,0");
        StringBuilder pageCache = new StringBuilder(HEADER);
        for (String[] state : new String[][] {{"as-is", "20.0", "11537"}, {"small", "0.0", "16384"}, {"huge", "100.0", "518"}}) {
            pageCache.append(resultsRow("V08Vector256", 1, "0.5", "2147", "0,0,0," + state[2] + ",0,0,0").replace(",m,as-is,,,", ",m," + state[0] + "," + state[1] + ",,"));
        }
        Files.writeString(folder.resolve("pagecache.csv"), pageCache);
        List<ModelResults.ModelRow> rows = CostModel.model(folder);
        assertEquals(List.of("as-is", "as-is", "small", "huge"), rows.stream().map(ModelResults.ModelRow::pageCache).toList());
        assertTrue(rows.get(2).predictedSeconds() > rows.get(3).predictedSeconds(), "small folios cost more faults than huge: " + rows);
    }

    /** A row is priced at the walls as they stood when it was measured: the mean of the walls measured last before it and first after it. */
    @Test
    void aRowIsPricedAtTheWallsMeasuredAroundIt() throws IOException {
        machineFolder("read_call,ns,500", "0.5", "1024,1073741824,0,0,0,0,0"); // walls at 2026-01-01T00:00:00Z, 10,000 MB/s
        String later = resultsRow("WallMemoryRead", 1, "0.2", "5000", "0,0,0,0,0,0,0").replace("2026-01-01T00:00:00Z", "2026-01-01T00:10:00Z");
        Files.writeString(folder.resolve("wall.csv"), later, java.nio.file.StandardOpenOption.APPEND);
        assertEquals(0.15, UnitPrices.read(folder, "2026-01-01T00:05:00Z").scanOneThread(), 1e-12, "between the two: their mean");
        assertEquals(0.1, UnitPrices.read(folder, "2026-01-01T00:00:00Z").scanOneThread(), 1e-12, "at the first: that one");
        assertEquals(0.2, UnitPrices.read(folder, "2026-01-01T01:00:00Z").scanOneThread(), 1e-12, "after the last: the last");
        assertEquals(0.2, CostModel.unitCosts(folder).scanOneThread(), 1e-12, "no date: the newest");
        assertEquals(0.1, UnitPrices.read(folder, "2026-01-01T00:05:00Z").scanAllThreads(), 1e-12, "two threads measured once: that one");
    }

    /** The unit costs too: each sitting measures them beside its walls, and a row takes those of the sittings around it. */
    @Test
    void aRowIsPricedAtTheUnitCostsMeasuredAroundIt() throws IOException {
        machineFolder("read_call,ns,500", "0.5", "1024,1073741824,0,0,0,0,0");
        Files.writeString(folder.resolve("costs.csv"), "2026-01-01T00:10:00Z,m,read_call,ns,700,600,1000,5\n"
                + "2026-01-01T00:10:00Z,m,wake_up,ns,20000,20000,20000,5\n", java.nio.file.StandardOpenOption.APPEND);
        assertEquals(600, UnitPrices.read(folder, "2026-01-01T00:05:00Z").call(), 1e-9, "between the two sittings: their mean");
        assertEquals(500, UnitPrices.read(folder, "2026-01-01T00:00:00Z").call(), 1e-9, "at the first: that one");
        assertEquals(700, UnitPrices.read(folder, "2026-01-01T01:00:00Z").call(), 1e-9, "after the last: the last");
        assertEquals(700, CostModel.unitCosts(folder).call(), 1e-9, "no date: the newest");
        assertEquals(15000, UnitPrices.read(folder, "2026-01-01T00:05:00Z").wake(), 1e-9, "every cost the same way");
        assertEquals(1000, UnitPrices.read(folder, "2026-01-01T00:05:00Z").fault(), 1e-9, "a cost measured once: that one");
        assertTrue(UnitPrices.read(folder, "2026-01-01T00:05:00Z").unstable().contains("read_call"), "unstable when one sitting's was");
        assertFalse(UnitPrices.read(folder, "2026-01-01T00:00:00Z").unstable().contains("read_call"), "a sitting apart is judged alone");
    }

    /**
     * A busy sitting may measure a fault's two costs and not its one price: the model then needs only the two. Without
     * either, the one price is asked for by name.
     */
    @Test
    void theOneFaultPriceIsNeededOnlyWhereTheTwoAreMissing() throws IOException {
        machineFolder("read_call,ns,500", "0.5", "1024,1073741824,0,0,0,0,0");
        Path costs = folder.resolve("costs.csv");
        String withoutOnePrice = Files.readString(costs).replaceAll("(?m)^.*,minor_fault,.*\n", "");
        Files.writeString(costs, withoutOnePrice + "2026-01-01T00:00:00Z,m,fault_fixed,ns,900,1,1,1\n2026-01-01T00:00:00Z,m,pte_fill,ns,12,1,1,1\n");
        CostModel.Costs priced = CostModel.unitCosts(folder);
        assertEquals(900, priced.faultFixed(), 1e-9);
        assertTrue(Double.isNaN(priced.fault()), "no one price measured, none made up");
        Files.writeString(costs, withoutOnePrice);
        UserMistakeException refused = assertThrows(UserMistakeException.class, () -> CostModel.unitCosts(folder));
        assertTrue(refused.getMessage().contains("has no minor_fault"), refused.getMessage());
    }

    @Test
    void helpSaysTheUsage() {
        Said said = costModel("--help");
        assertEquals(0, said.status(), said.toString());
        assertTrue(said.out().startsWith("Usage: ./jbang lab/report/CostModel.java results/MACHINE"), said.toString());
    }

    /** What the command printed, and its status. */
    record Said(int status, String out, String err) {}

    private static Said costModel(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int status = CostModel.execute(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Said(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /**
     * A machine's folder as a study leaves it: costs.csv with {@code readCall} ("read_call,ns,500") and the other costs in ns,
     * the walls at 10,000 MB/s, and a scoreboard of one V13PreadVector row of {@code meanSeconds} with {@code bill}.
     */
    private void machineFolder(String readCall, String meanSeconds, String bill) throws IOException {
        String date = "2026-01-01T00:00:00Z,m,";
        String readCallRow = readCall.split(",").length > 3 ? readCall : readCall + ",1,1,1";
        Files.writeString(folder.resolve("costs.csv"), UnitCosts.HEADER + "\n" + date + readCallRow + "\n" + date + "minor_fault,ns,1000,1,1,1\n"
                + date + "wake_up,ns,10000,1,1,1\n" + date + "scan_in_cache,ns,0.01,1,1,1\n");
        StringBuilder walls = new StringBuilder(HEADER);
        for (String wall : List.of("WallMemoryRead", "WallPageCacheCopy")) {
            for (int workers : List.of(1, 2)) {
                walls.append(resultsRow(wall, workers, "0.1", "10000", "0,0,0,0,0,0,0"));
            }
        }
        Files.writeString(folder.resolve("wall.csv"), walls);
        Files.writeString(folder.resolve("scoreboard.csv"), HEADER + resultsRow("V13PreadVector", 2, meanSeconds, "1074", bill));
    }

    private static String resultsRow(String chapter, int workers, String meanSeconds, String mbps, String bill) {
        String s = meanSeconds; // every run as long as the mean, so that the row's times agree (median, min_s, max_s, runs, warm-up)
        return "2026-01-01T00:00:00Z," + chapter + "," + workers + ",warm,1073741824,,1073741816,1,5," + s + "," + s + "," + s + "," + s + "," + mbps + ","
                + String.join(" ", s, s, s, s, s) + "," + s + ",Test CPU,2,25000000000,Linux,JDK,512,m,as-is,,," + bill + "\n";
    }

    /** A 1 GiB warm row in page-cache state {@code pageCache}, PMD-mapped {@code pmd} percent. */
    private StudyResults.Row row(String chapter, int workers, String bill, String pageCache, String pmd) throws IOException {
        Path csv = folder.resolve(chapter + "-" + pageCache + ".csv");
        Files.writeString(csv, HEADER + resultsRow(chapter, workers, "1.0", "1074", bill).replace(",m,as-is,,,", ",m," + pageCache + "," + pmd + ",,"));
        return StudyResults.readEveryRow(csv).rows().getFirst();
    }

    /** A 1 GiB row of V08Vector256 with these runs' times and this mean. */
    private StudyResults.Row timedRow(String runs, String mean) throws IOException {
        String[] times = runs.split(" ");
        String median = times[times.length / 2], first = times[0], last = times[times.length - 1];
        Path csv = folder.resolve("timed.csv");
        Files.writeString(csv, HEADER + "2026-01-01T00:00:00Z,V08Vector256,1,warm,1073741824,,1073741816,0," + times.length + "," + mean + "," + median
                + "," + first + "," + last + ",100," + runs + ",,Test CPU,2,25000000000,Linux,JDK,512,m,as-is,,,0,0,0,0,0,0,0\n");
        return StudyResults.readEveryRow(csv).rows().getFirst();
    }

    /** A 1 GiB warm row with the bill's seven counts per GiB, as a study writes it. */
    private StudyResults.Row row(String chapter, int workers, String bill) throws IOException {
        Path csv = folder.resolve(chapter + ".csv");
        Files.writeString(csv, HEADER + "2026-01-01T00:00:00Z," + chapter + "," + workers + ",warm,1073741824,,1073741816,1,5,1.0,1.0,1.0,1.0,1074,"
                + "1.0 1.0 1.0 1.0 1.0,1.0,Test CPU,2,25000000000,Linux,JDK,512,m,as-is,,," + bill + "\n");
        List<StudyResults.Row> rows = StudyResults.readEveryRow(csv).rows();
        assertEquals(1, rows.size());
        return rows.getFirst();
    }
}
