import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
        assertPositive(UnitCosts.readNanos(haystack, Long.BYTES, 1_000), "read call");
        assertPositive(UnitCosts.readNanos(haystack, UnitCosts.PREAD_BYTES, 16), "1 MiB read");
        assertPositive(FaultCosts.Pass.of(haystack, 1).nanosPerFault(), "fault");
        FaultCosts.Pass onTwo = FaultCosts.Pass.of(haystack, 2); // its time may come to nothing on a loaded machine, never less
        assertTrue(onTwo.faults() > 0 && onTwo.entries() >= onTwo.faults() && !(onTwo.nanos() < 0), onTwo.toString()); // NaN: no 2 MiB ran at once
        assertPositive(UnitCosts.wakeUpNanos(), "wake-up");
        assertPositive(UnitCosts.scanInCacheNanosPerByte(V13PreadVector::firstNonZeroWord256, 64), "scan in cache");
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

    /** A fault's two costs come back from two passes made of them: a pass of 4 KiB folios (16 entries a fault) and one of 2 MiB (one). */
    @Test
    void theTwoFaultCostsAreSolvedFromTwoPassesOfKnownEntries() {
        double fixed = 1_200, perEntry = 40;
        FaultCosts.Pass small = new FaultCosts.Pass(4_096, 65_536, 4_096 * fixed + 65_536 * perEntry);
        FaultCosts.Pass huge = new FaultCosts.Pass(128, 128, 128 * (fixed + perEntry));
        double[] solved = FaultCosts.solve(small, huge);
        assertEquals(fixed, solved[0], 1e-6);
        assertEquals(perEntry, solved[1], 1e-9);
        assertTrue(Double.isNaN(FaultCosts.solve(small, small)[0]), "one pass twice says nothing of the split");
    }

    /** On several threads, a 2 MiB counts as touched at once when the other threads' 2 MiBs cover half of it or more. */
    @Test
    void aSliceIsAtOnceWhenTheOtherThreadsCoverHalfOfIt() {
        long[] began = {0, 10, 5, 30}, ended = {10, 20, 15, 40}; // part 0: its first two; part 1: the last two
        assertEquals("[true, true, true, false]", java.util.Arrays.toString(FaultCosts.atOnce(began, ended, new int[] {0, 2})));
        assertEquals("[true, true, true, true]", java.util.Arrays.toString(FaultCosts.atOnce(began, ended, new int[] {0})), "one thread: every one");
    }

    /** On a file system that caches in 2 MiB folios, both costs are measured positive, and the scratch files are gone after; elsewhere one line says why not. */
    @Test
    void theFaultCostsAreMeasuredOnScratchFilesThatAreRemoved() throws Exception {
        Path haystack = Files.createDirectory(folder.resolve("haystack")).resolve("small.bin");
        Haystack.create(haystack, 16L << 20, System.err);
        if (lib.linux.HugeFolios.whyNot(folder) != null || !lib.linux.HugeFolios.knownToHaveLargeFolios(folder)) {
            UnitCosts.NotMeasurableHere refused = org.junit.jupiter.api.Assertions.assertThrows(UnitCosts.NotMeasurableHere.class,
                    () -> FaultCosts.measure(haystack, folder, 1, 16L << 20));
            assertTrue(!refused.getMessage().isBlank());
        } else {
            try { // a loaded machine may leave the two passes no positive pair: then one line says so
                var costs = FaultCosts.measure(haystack, folder, 3, 64L << 20);
                assertPositive(lib.counters.Stats.median(costs.get("fault_fixed")), "a fault's fixed cost");
                assertPositive(lib.counters.Stats.median(costs.get("pte_fill")), "an entry's cost");
            } catch (UnitCosts.NotMeasurableHere noPair) {
                assertTrue(noPair.getMessage().startsWith("the two mappings gave no positive pair"), noPair.getMessage());
            }
        }
        try (java.util.stream.Stream<Path> left = Files.list(folder)) {
            assertEquals(List.of(haystack.getParent()), left.toList(), "no scratch file left");
        }
    }

    /**
     * A walk's cost is what a first scan's extra entries added to it: 65,536 entries against 128 over as many bytes, 1.9 ms
     * more, is 1.9 ms over 65,408 entries; a scan with no more entries than the other says nothing. A second scan of
     * 256 MiB in 0.8 ms is 12.5 ns a 4 KiB page, bytes and all.
     */
    @Test
    void aWalkIsTheScansExtraTimeOverItsExtraEntries() {
        long mapped = 256L << 20;
        FaultCosts.Scan small = new FaultCosts.Scan(65_536, 2_000_000, mapped, 800_000), huge = new FaultCosts.Scan(128, 100_000, mapped, 700_000);
        assertEquals(1_900_000.0 / 65_408, small.nanosPerEntryBeyond(huge), 1e-9);
        assertEquals(800_000.0 / 65_536, small.nanosAgainPerPage(), 1e-9);
        assertTrue(Double.isNaN(huge.nanosPerEntryBeyond(small)), "fewer entries: no walk to price");
        assertTrue(Double.isNaN(huge.nanosPerEntryBeyond(huge)), "as many entries: no walk to price");
    }

    /** A cost's row holds its spread, (highest − lowest) ÷ median, and is unstable past a quarter. */
    @Test
    void aCostsRowHoldsItsSpreadAndWhetherItIsStable() {
        String steady = UnitCosts.row("d", "m", "read_call", "ns", new double[] {102, 100, 101});
        assertTrue(steady.endsWith(",101.0,100.0,102.0,3,0.020,stable"), steady);
        String unsteady = UnitCosts.row("d", "m", "pte_fill", "ns", new double[] {100, 140, 110});
        assertTrue(unsteady.endsWith(",0.364,unstable"), unsteady);
    }

    /** A cost whose rounds came to nothing (0 on a busy machine, NaN where threads never met) is said not measured, never written as 0. */
    @Test
    void aCostWhoseRoundsCameToNothingIsLeftOut() {
        List<String> rows = new java.util.ArrayList<>();
        UnitCosts.addUnlessNothing(rows, "d", "m", "minor_fault", "ns", new double[] {0, 0, 4200});
        UnitCosts.addUnlessNothing(rows, "d", "m", "pte_fill_all", "ns", new double[] {Double.NaN, Double.NaN});
        assertEquals(List.of(), rows);
        UnitCosts.addUnlessNothing(rows, "d", "m", "minor_fault", "ns", new double[] {0, 4100, 4200});
        assertEquals(1, rows.size());
        assertTrue(rows.getFirst().contains(",minor_fault,ns,4100,"), rows.toString());
    }

    /** From five rounds on, the lowest and the highest are left out of low, high and the spread: one interrupted round is no instability. */
    @Test
    void fromFiveRoundsOneOutlierOnEitherSideIsLeftOut() {
        String oneInterrupted = UnitCosts.row("d", "m", "fault_fixed", "ns", new double[] {2000, 1.46e6, 2100, 1950, -9e4});
        assertTrue(oneInterrupted.endsWith(",2000,1950,2100,5,0.075,stable"), oneInterrupted);
        String spreadInTheMiddle = UnitCosts.row("d", "m", "fault_fixed", "ns", new double[] {1000, 2000, 3000, 4000, 5000});
        assertTrue(spreadInTheMiddle.endsWith(",3000,2000,4000,5,0.667,unstable"), spreadInTheMiddle);
    }

    /** A costs.csv of before the spread takes rows of its own eight columns, which the model still reads. */
    @Test
    void aCostsCsvOfBeforeTheSpreadKeepsItsColumns() throws Exception {
        Path haystack = folder.resolve("small.bin");
        Haystack.create(haystack, 16L << 20, System.err);
        Path csv = Files.writeString(folder.resolve("costs.csv"), UnitCosts.HEADER + "\n2026-01-01T00:00:00Z,m,read_call,ns,500,400,600,5\n");
        oneRound(haystack, csv).call();
        List<String> lines = Files.readAllLines(csv);
        assertEquals(UnitCosts.HEADER, lines.getFirst());
        assertTrue(lines.size() > 3 && lines.stream().allMatch(line -> line.split(",", -1).length == 8), lines.toString());
        Path fresh = folder.resolve("fresh.csv");
        oneRound(haystack, fresh).call();
        assertEquals(UnitCosts.HEADER_WITH_SPREAD, Files.readAllLines(fresh).getFirst());
    }

    @Test
    void aScratchFileOfTheSameNameAlreadyThereIsNeitherWrittenNorRemoved() throws IOException {
        Path haystack = folder.resolve("haystack.bin");
        Haystack.create(haystack, 16L << 20, System.err);
        Path theirs = Files.writeString(folder.resolve("unit-costs-" + ProcessHandle.current().pid() + "-huge.bin"), "someone else's");
        UnitCosts.NotMeasurableHere refused = org.junit.jupiter.api.Assertions.assertThrows(UnitCosts.NotMeasurableHere.class,
                () -> FaultCosts.measure(haystack, folder, 1, 16L << 20));
        assertEquals("someone else's", Files.readString(theirs), refused.getMessage());
        assertTrue(Files.notExists(folder.resolve("unit-costs-" + ProcessHandle.current().pid() + "-small.bin")), "the scratch file this run made is removed");
    }

    /** The command as {@code UnitCosts FILE --rounds 1 --csv CSV} would set it up. */
    private static UnitCosts oneRound(Path file, Path csv) {
        UnitCosts command = new UnitCosts();
        command.file = file;
        command.rounds = 1;
        command.csv = csv;
        command.scratchBytes = 16L << 20; // 8 folios of 2 MiB: enough to run every step, quickly
        return command;
    }

    private static void assertPositive(double value, String what) {
        assertTrue(value > 0 && Double.isFinite(value), what + ": " + value);
    }
}
