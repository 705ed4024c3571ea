import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import lib.cli.UserMistakeException;
import lib.harness.Machine;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The size sweep's logic on small sizes, with "memory" given as a parameter: which sizes, which
 * runs are warm or cold, the disk-space check, and one real round that records rows and removes
 * the haystacks it made (and only those).
 */
class SizeSweepTest {

    private static final long MIB = 1L << 20, GIB = 1L << 30;

    @TempDir
    Path directory;

    @Test
    void theDefaultSizesRunFrom256MiBToOneAndAHalfTimesMemory() {
        assertEquals(List.of(256 * MIB, GIB, 4 * GIB, 12 * GIB, 36 * GIB), SizeSweep.chosenSizes(null, 24 * GIB));
        // Half of 2 GiB is 1 GiB, already on the list; 1.5 × memory is 3 GiB, where the sweep ends: no 4 GiB.
        assertEquals(List.of(256 * MIB, GIB, 3 * GIB), SizeSweep.chosenSizes(null, 2 * GIB));
        // --memory 128m: from half of it to 1.5 × it, no fixed size past that.
        assertEquals(List.of(64 * MIB, 192 * MIB), SizeSweep.chosenSizes(null, 128 * MIB));
        // Memory that is no whole number of MiB: the sizes are rounded down to whole MiB.
        List<Long> odd = SizeSweep.chosenSizes(null, 3 * GIB + 12345);
        assertTrue(odd.stream().allMatch(bytes -> bytes % MIB == 0), odd::toString);
        assertEquals(List.of(MIB, 3 * MIB), SizeSweep.chosenSizes(List.of(3 * MIB, MIB, 3 * MIB), GIB));
        assertThrows(UserMistakeException.class, () -> SizeSweep.chosenSizes(List.of(MIB + 1), GIB));
        assertThrows(UserMistakeException.class, () -> SizeSweep.parseSizes("1m,two"));
    }

    @Test
    void filesThatFitAreTimedWarmAndLargerOnesColdWithTheirOwnRuns() {
        List<SizeSweep.Step> steps = SizeSweep.plan(List.of(8 * MIB, 2 * MIB), 4 * MIB,
                List.of("V13PreadVector", "V14DirectIo"), directory, 3, 1, 2, directory.resolve("sizes.csv"));
        assertEquals(List.of(2 * MIB, 2 * MIB, 8 * MIB, 8 * MIB), steps.stream().map(SizeSweep.Step::bytes).toList());
        SizeSweep.Step fits = steps.get(0), direct = steps.get(1), past = steps.get(2);
        assertFalse(fits.cold());
        assertTrue(direct.cold(), "O_DIRECT never uses the cache, so it is not warmed");
        assertTrue(past.cold());
        assertEquals(List.of("./jbang", "variants/V13PreadVector.java", directory.resolve("sizes-" + 2 * MIB + ".bin").toString(),
                "--runs", "3", "--warmup", "1", "--csv", directory.resolve("sizes.csv").toString()), fits.command());
        assertEquals(List.of("--runs", "2", "--warmup", "0"), past.command().subList(3, 7));
        assertEquals("--cold", past.command().getLast());
    }

    @Test
    void sizesTheDiskCannotHoldAreRefusedBeforeAByteIsWritten() throws IOException {
        long free = Files.getFileStore(directory).getUsableSpace();
        UserMistakeException tooBig = assertThrows(UserMistakeException.class,
                () -> SizeSweep.checkSpace(List.of(MIB, free), directory, false));
        assertTrue(tooBig.getMessage().contains("free"), tooBig.getMessage());
        // Each fits alone, but kept they do not.
        long half = free / 2 / MIB * MIB + 64 * MIB;
        SizeSweep.checkSpace(List.of(half, half - 8), directory, false);
        assertThrows(UserMistakeException.class, () -> SizeSweep.checkSpace(List.of(half, half - 8), directory, true));
        try (var files = Files.list(directory)) {
            assertEquals(0, files.count());
        }
    }

    @Test
    void aRoundRecordsARowPerChapterAndSizeAndRemovesOnlyTheHaystacksItMade() throws Exception {
        Path csv = directory.resolve("results").resolve("sizes.csv");
        Path mine = Files.write(directory.resolve("sizes-" + 2 * MIB + ".bin"), new byte[Math.toIntExact(2 * MIB)]);
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = SizeSweep.run(List.of(2 * MIB, 6 * MIB), 4 * MIB, List.of("v17"), directory, false, 1, 0, 1, csv, false,
                new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8));
        String said = err.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, said);
        assertTrue(Files.exists(mine), "a haystack the round did not make is left alone");
        assertFalse(Files.exists(directory.resolve("sizes-" + 6 * MIB + ".bin")), said);
        assertTrue(Files.readString(csv.resolveSibling("machine.json")).contains("\"name\""), "the notebooks find the folder by it");
        try (Reader in = Files.newBufferedReader(csv);
             CSVParser rows = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).build().parse(in)) {
            List<CSVRecord> all = rows.getRecords();
            assertEquals(List.of("2097152", "6291456"), all.stream().map(row -> row.get("file_bytes")).toList());
            assertEquals(List.of("warm", "cold"), all.stream().map(row -> row.get("cache")).toList());
            assertTrue(all.stream().allMatch(row -> row.get("chapter").equals("V17ReadDontCache")));
        }
    }

    /**
     * On a machine named like a folder committed with the project, the sweep, like the study, appends
     * to a folder of its own: the figures the book cites get no row of a reader's machine.
     */
    @Test
    void aSweepOnAMachineNamedLikeACommittedFolderWritesIntoAFolderOfItsOwn() throws IOException {
        Path results = Files.createDirectories(directory.resolve("clone-results"));
        String machine = Machine.current().name();
        Files.writeString(results.resolve("committed-machines.txt"), "# committed with the project\n" + machine + "\n");
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int status = SizeSweep.execute(new String[] {"--dry-run", "--results", results.toString(), "--sizes", "2m", "--memory", "4m",
                "--chapters", "V17"}, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String commands = out.toString(StandardCharsets.UTF_8), said = err.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, said);
        Path own = results.resolve(machine + "-local").resolve("sizes.csv");
        assertTrue(commands.contains(own.toString()), commands);
        assertFalse(commands.contains(results.resolve(machine).resolve("sizes.csv").toString()), commands);
        assertTrue(said.contains("holds figures committed with the project") && said.contains(own.getParent().toString()), said);
    }
}
