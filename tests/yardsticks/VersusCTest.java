import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import lab.tools.ToolCommand;
import lib.harness.Machine;
import lib.haystack.Haystack;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * lab/yardsticks/VersusC.java: a reading chapter and native-yardstick.c's pread mode, in turn at each
 * read size, both rows in versus-c.csv with the read size; and a mistake refused in one line.
 */
class VersusCTest {

    static final long FILE_BYTES = 8L << 20;

    @TempDir
    Path dir;

    record Ran(int status, String out, String err) {}

    private static Ran run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        PrintStream outStream = new PrintStream(out, true, StandardCharsets.UTF_8), errStream = new PrintStream(err, true, StandardCharsets.UTF_8);
        int status = ToolCommand.execute("VersusC", new VersusC(outStream, errStream), args, outStream, errStream);
        return new Ran(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aMistakeIsOneLineAndStatusTwo() {
        for (List<String> args : List.of(List.of("--chapter", "V09MmapParallelVector"), List.of("--chunk", "5000"),
                List.of("--chunk", "2g"), List.of("--rounds", "0"), List.of("--workers", "0"), List.of("--warmup", "-1"))) {
            Ran ran = run(args.toArray(String[]::new));
            assertEquals(2, ran.status(), args + ": " + ran);
            assertEquals(1, ran.err().lines().count(), args + ": " + ran);
            assertTrue(ran.err().startsWith("VersusC: "), ran::toString);
        }
    }

    /**
     * "--chunk ," (an empty list to picocli), an empty FILE and a directory are refused in one line
     * before any call: no results folder, no versus-c.csv, no haystack made.
     */
    @Test
    void aRefusalRunsNothingAndLeavesNothingBehind() throws Exception {
        assumeTrue(NativeYardstick.compiler().isPresent(), "no C compiler (cc) on PATH: versus-c refuses that first");
        Path missing = dir.resolve("not-yet.bin"), results = dir.resolve("results");
        Path empty = Files.createFile(dir.resolve("empty.bin"));
        Path folder = Files.createDirectory(dir.resolve("a-folder"));
        List<List<String>> refusals = List.of(List.of(missing.toString(), "--size", "64k", "--chunk", ","),
                List.of(empty.toString()), List.of(folder.toString()));
        for (List<String> args : refusals) {
            List<String> withResults = new java.util.ArrayList<>(args);
            withResults.addAll(List.of("--rounds", "1", "--runs", "1", "--warmup", "0", "--results", results.toString()));
            Ran ran = run(withResults.toArray(String[]::new));
            assertEquals(2, ran.status(), args + ": " + ran);
            assertEquals(1, ran.err().lines().count(), args + ": " + ran);
            assertEquals("", ran.out(), args + ": " + ran);
            assertFalse(Files.exists(results), args + " made the results folder: " + ran);
            assertFalse(Files.exists(missing), args + " made a haystack for a command that cannot run");
        }
        assertTrue(run(missing.toString(), "--size", "64k", "--chunk", ",", "--results", results.toString()).err()
                .contains("--chunk needs at least one read size"));
        // A results root that commits this machine's folder: the line that says so waits until the command runs.
        Path committed = Files.createDirectory(dir.resolve("committed"));
        Files.writeString(committed.resolve("committed-machines.txt"), Machine.current().name() + "\n");
        assertEquals("VersusC: '" + empty + "' is empty: versus-c times reading a file, and there is nothing to read\n",
                run(empty.toString(), "--results", committed.toString()).err());
        try (var inRoot = Files.list(committed)) {
            assertEquals(List.of(committed.resolve("committed-machines.txt")), inRoot.toList());
        }
    }

    /** The chapters versus-c offers are chapters that read in chunks of --chunk, as C's pread mode does. */
    @Test
    void itsChoiceNamesChaptersThatReadInChunks() throws Exception {
        for (String chapter : VersusC.PREAD_CHAPTERS_CHOICE) {
            Path source = Path.of("variants", chapter + ".java");
            assertTrue(Files.exists(source), chapter + " is no chapter in variants/");
            assertTrue(Files.readString(source).matches("(?s).*public class " + chapter + " implements [^{]*\\bChunkedSearch\\b.*"),
                    chapter + " does not read in chunks (lib.chapter.ChunkedSearch)");
        }
    }

    @Test
    void eachSideRecordsTheRightAnswerAtEachReadSize() throws Exception {
        assumeTrue(NativeYardstick.compiler().isPresent(), "no C compiler (cc) on PATH: versus-c says so in one line");
        Path haystack = dir.resolve("haystack.bin");
        Haystack.create(haystack, FILE_BYTES);
        Ran ran = run(haystack.toString(), "--rounds", "1", "--runs", "1", "--warmup", "0", "--workers", "1",
                "--chunk", "64k,1m", "--results", dir.resolve("results").toString());
        assertEquals(0, ran.status(), ran::toString);
        List<CSVRecord> rows = HarnessTest.rows(dir.resolve("results").resolve(Machine.current().name()).resolve(VersusC.CSV_NAME));
        assertEquals(4, rows.size(), rows::toString);
        Map<String, Set<String>> readSizes = rows.stream().collect(Collectors.groupingBy(row -> row.get("chapter"),
                Collectors.mapping(row -> row.get("chunk_bytes"), Collectors.toSet())));
        assertEquals(Map.of(VersusC.C_SIDE, Set.of("65536", "1048576"), "V13PreadVector", Set.of("65536", "1048576")), readSizes);
        for (CSVRecord row : rows) {
            assertEquals(Long.toString(Haystack.needleOffset(FILE_BYTES)), row.get("offset"), row::toString);
            assertEquals("1", row.get("workers"), row::toString);
        }
        assertTrue(ran.out().contains("Java ÷ C"), ran::toString);
    }
}
