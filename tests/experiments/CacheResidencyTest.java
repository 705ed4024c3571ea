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

/**
 * The residency tool's logic on small files. Memory is never short here, so both chapters keep the
 * bystander; what tells them apart is what each leaves of the file it scanned.
 */
class CacheResidencyTest {

    private static final long MIB = 1 << 20;

    @TempDir
    Path directory;

    @Test
    void eachScanReportsTheBystanderBeforeAndAfterAndWhatItLeftOfTheFile() throws IOException {
        Path scanned = TestFiles.write(directory.resolve("scanned.bin"), TestFiles.Layout.zeros("scanned", 24 * MIB).plant(24 * MIB - 1, (byte) 1));
        Path bystander = TestFiles.write(directory.resolve("bystander.bin"), TestFiles.Layout.zeros("bystander", 4 * MIB));

        CacheResidency.Row plain = CacheResidency.measure(CacheResidency.chapter("V13"), scanned, bystander, 1);
        assertEquals("V13PreadVector", plain.chapter());
        assertEquals(24 * MIB, plain.fileBytes());
        assertEquals(4 * MIB, plain.bystanderBytes());
        assertTrue(plain.bystanderBeforePct() > 99, plain.line());
        assertTrue(plain.scannedResidentPct() > 50, "a plain scan leaves the file cached: " + plain.line());
        assertEquals("", plain.readMode());

        CacheResidency.Row dontCache = CacheResidency.measure(CacheResidency.chapter("v17"), scanned, bystander, 1);
        assertEquals("V17ReadDontCache", dontCache.chapter());
        assertTrue(dontCache.keptPct() > 90, dontCache.line());
        assertTrue(dontCache.scannedResidentPct() < 10, "chapter 17 leaves the file out of the cache: " + dontCache.line());
        assertTrue(List.of("rwf_dontcache", "fadv_dontneed").contains(dontCache.readMode()), dontCache.line());
    }

    @Test
    void rowsGoToACsvWithItsHeaderOnceAndAForeignCsvIsRefused() throws IOException {
        Path csv = directory.resolve("residency.csv");
        CacheResidency.Row row = new CacheResidency.Row("V17ReadDontCache", 2, 100, 10, 100, 95, 1, 0.5, "rwf_dontcache");
        CacheResidency.checkCsv(csv);
        CacheResidency.append(csv, List.of(row));
        CacheResidency.checkCsv(csv); // its own file is appended to
        CacheResidency.append(csv, List.of(row));
        List<String> lines = Files.readAllLines(csv);
        assertEquals(3, lines.size());
        assertEquals(String.join(",", CacheResidency.COLUMNS), lines.getFirst());
        assertTrue(lines.get(1).contains(",V17ReadDontCache,2,100,10,100.0,95.0,95.0,1.0,0.500,rwf_dontcache,"), lines.get(1));

        Path foreign = Files.writeString(directory.resolve("notes.csv"), "a,b\n1,2\n");
        assertThrows(UserMistakeException.class, () -> CacheResidency.checkCsv(foreign));
        assertEquals("a,b\n1,2\n", Files.readString(foreign));
    }

    /** A bystander of another size than --bystander-size (1 GiB unless given) is refused naming that option, not --size. */
    @Test
    void aBystanderOfAnotherSizeIsRefusedNamingBystanderSize() throws Exception {
        Path scanned = TestFiles.write(directory.resolve("scanned.bin"), TestFiles.Layout.zeros("scanned", 4 * MIB));
        Path bystander = TestFiles.write(directory.resolve("bystander.bin"), TestFiles.Layout.zeros("bystander", 4 * MIB));
        Subprocess.Result result = Subprocess.run(Subprocess.javaCommand(List.of(), "CacheResidency", scanned.toString(),
                "--bystander", bystander.toString()), directory.resolve("logs"));
        assertEquals(2, result.exitCode(), result.toString());
        List<String> lines = result.errorLines();
        assertEquals(1, lines.size(), result.toString());
        assertTrue(lines.getFirst().contains("not the --bystander-size " + (1L << 30) + " you asked for"), lines.getFirst());
    }

    /** "--chapters ," is an empty list to picocli: one line, status 2, and no CSV or bystander made. */
    @Test
    void anEmptyListOfChaptersIsRefusedInOneLine() throws IOException {
        Path scanned = TestFiles.write(directory.resolve("scanned.bin"), TestFiles.Layout.zeros("scanned", MIB));
        Path bystander = directory.resolve("bystander.bin"), csv = directory.resolve("residency.csv");
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(), err = new java.io.ByteArrayOutputStream();
        int status = CacheResidency.execute(new String[] {scanned.toString(), "--bystander", bystander.toString(), "--bystander-size", "1m",
                "--chapters", ",", "--csv", csv.toString()}, new java.io.PrintStream(out, true), new java.io.PrintStream(err, true));
        assertEquals(2, status, err.toString());
        assertEquals(List.of("CacheResidency: --chapters needs at least one chapter, V13 or V17 or V13,V17"), err.toString().lines().toList());
        assertTrue(!Files.exists(csv) && !Files.exists(bystander), "nothing is made for a refused command");
    }

    @Test
    void onlyChapters13And17AreMeasured() {
        assertEquals("V13PreadVector", CacheResidency.chapter("V13PreadVector").getClass().getSimpleName());
        assertTrue(assertThrows(UserMistakeException.class, () -> CacheResidency.chapter("V14")).getMessage().contains("only V13 and V17"));
    }
}
