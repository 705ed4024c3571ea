import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import lib.cli.UserMistakeException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The model adds up a bill at the unit costs, term by term, and names the term that bounds the time. */
class CostModelTest {

    static final String HEADER = "date,chapter,workers,cache,file_bytes,chunk_bytes,offset,warmup_runs,runs,mean_s,median_s,min_s,max_s,mbps,run_s,warmup_s,"
            + "cpu_model,logical_cores,memory_bytes,kernel,jdk,vector_bits,machine,page_cache,pmd_mapped_pct,read_mode,read_calls_per_gib,"
            + "returned_bytes_per_gib,device_bytes_per_gib,minor_faults_per_gib,major_faults_per_gib,voluntary_switches_per_gib,involuntary_switches_per_gib\n";

    /** 1 ns a call, 1,000 ns a fault, 10,000 a wake-up, 0.25 ns a byte scanned in the cache; scans from memory at 1 and 0.5 ns a byte, copies at 2 and 1, the device at 4 and 2. */
    static final CostModel.Costs COSTS = new CostModel.Costs(1, 1_000, 10_000, 0.25, 4, 2, 1, 0.5, 2, 1);

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
        // one worker alone would take 2.25 s a GiB against the shared copy's 1.07: the wall is met at 2.25 workers
        assertEquals(((1L << 30) * 2.25 + 1024) / ((1L << 30) * 1.0), prediction.workersToWall(), 1e-9);
    }

    @Test
    void aModelCsvWrittenBeforeTheWorkersToTheWallIsStillRead() throws IOException {
        Path csv = Files.writeString(folder.resolve("model.csv"), CostModel.FIRST_COLUMNS + "\nV13PreadVector,2,as-is,warm,0.1614,0.1400,core: copy\n");
        CostModel.ModelRow row = CostModel.read(csv).getFirst();
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
        assertTrue(refused.getMessage().contains("lab/yardsticks/UnitCosts.java"), refused.getMessage());
    }

    @Test
    void aCostThatIsNoPositiveNumberIsRefused() throws IOException {
        Files.writeString(folder.resolve("costs.csv"), UnitCosts.HEADER + "\n2026-01-01T00:00:00Z,m,read_call,ns,NaN,1,1,1\n");
        UserMistakeException refused = assertThrows(UserMistakeException.class, () -> CostModel.unitCosts(folder));
        assertTrue(refused.getMessage().contains("read_call"), refused.getMessage());
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
