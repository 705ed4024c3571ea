import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import lib.haystack.Haystack;
import lib.linux.Native;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The unit costs are measured, positive and finite, on a small haystack; what cannot be measured is refused in one line. */
class UnitCostsTest {

    @TempDir
    Path folder;

    @Test
    void eachCostIsMeasuredAsAPositiveFigure() throws Exception {
        Path haystack = folder.resolve("small.bin");
        Haystack.create(haystack, 16L << 20, System.err);
        assertPositive(UnitCosts.readCallNanos(haystack), "read call");
        assertPositive(UnitCosts.faultNanos(haystack), "fault");
        assertPositive(UnitCosts.wakeUpNanos(), "wake-up");
        assertPositive(UnitCosts.scanInCacheNanosPerByte(), "scan in cache");
        if (Native.fileSystemMagic(haystack) != Native.TMPFS_MAGIC && Native.fileSystemMagic(haystack) != Native.RAMFS_MAGIC) {
            assertPositive(UnitCosts.deviceNanosPerByte(haystack, 1), "device, one read in flight");
            assertPositive(UnitCosts.deviceNanosPerByte(haystack, UnitCosts.DEEP_QUEUE), "device, eight in flight");
        }
    }

    @Test
    void aFileThatIsNoHaystackIsRefusedAndNothingIsWritten() throws IOException {
        Path notAHaystack = Files.writeString(folder.resolve("notes.txt"), "not zeros");
        Path csv = folder.resolve("costs.csv");
        lib.cli.UserMistakeException refused = org.junit.jupiter.api.Assertions.assertThrows(lib.cli.UserMistakeException.class,
                oneRound(notAHaystack, csv)::call);
        assertTrue(refused.getMessage().contains("is not a haystack"), refused.getMessage());
        assertTrue(Files.notExists(csv));
    }

    @Test
    void aSecondSittingAppendsToItsCostsCsvAndAForeignCsvIsLeftAlone() throws Exception {
        Path haystack = folder.resolve("small.bin");
        Haystack.create(haystack, 16L << 20, System.err);
        Path csv = folder.resolve("costs.csv");
        for (int sitting = 1; sitting <= 2; sitting++) {
            oneRound(haystack, csv).call();
            long rowsOfScanInCache = Files.readAllLines(csv).stream().filter(line -> line.contains(",scan_in_cache,")).count();
            assertEquals(sitting, rowsOfScanInCache, "after sitting " + sitting);
        }
        Path foreign = Files.writeString(folder.resolve("other.csv"), "name,value\nx,1\n");
        lib.cli.UserMistakeException refused = org.junit.jupiter.api.Assertions.assertThrows(lib.cli.UserMistakeException.class,
                oneRound(haystack, foreign)::call);
        assertTrue(refused.getMessage().contains("is not a costs.csv"), refused.getMessage());
        assertEquals("name,value\nx,1\n", Files.readString(foreign));
    }

    /** A --csv that is a folder, or in a folder that does not exist, is refused in one line naming it and why, before a cost is measured. */
    @Test
    void aCsvThatIsAFolderOrInAMissingFolderIsRefusedNamingIt() throws IOException {
        Path haystack = folder.resolve("small.bin");
        Haystack.create(haystack, 1L << 20, System.err);
        Path aFolder = Files.createDirectory(folder.resolve("costs"));
        Path nowhere = folder.resolve("nowhere").resolve("costs.csv");
        for (String[] csvAndWhy : new String[][] {{aFolder.toString(), "is a directory"}, {nowhere.toString(), "its directory does not exist"}}) {
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(), err = new java.io.ByteArrayOutputStream();
            int status = UnitCosts.execute(new String[] {haystack.toString(), "--rounds", "1", "--csv", csvAndWhy[0]},
                    new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8), new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
            String said = err.toString(java.nio.charset.StandardCharsets.UTF_8);
            assertEquals(2, status, said);
            assertEquals(1, said.lines().count(), said);
            assertTrue(said.startsWith("UnitCosts: --csv '" + csvAndWhy[0] + "'") && said.contains(csvAndWhy[1]), said);
            assertEquals("", out.toString(java.nio.charset.StandardCharsets.UTF_8), "no cost was measured");
        }
        assertTrue(Files.notExists(nowhere.getParent()), "no folder is made");
    }

    /** The command as {@code UnitCosts FILE --rounds 1 --csv CSV} would set it up. */
    private static UnitCosts oneRound(Path file, Path csv) {
        UnitCosts command = new UnitCosts();
        command.file = file;
        command.rounds = 1;
        command.csv = csv;
        return command;
    }

    private static void assertPositive(double value, String what) {
        assertTrue(value > 0 && Double.isFinite(value), what + ": " + value);
    }
}
