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
        CostModel.ModelRow row = CostModel.read(csv).getFirst();
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
        assertTrue(said.err().contains("no '" + folder.resolve("wall.csv") + "'") && said.err().contains("WallProbe.java"), said.toString());
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
        Files.writeString(folder.resolve("costs.csv"), UnitCosts.HEADER + "\n" + date + readCall + ",1,1,1\n" + date + "minor_fault,ns,1000,1,1,1\n"
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
