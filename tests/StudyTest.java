import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lib.Machine;
import lib.ResultsCsv;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The study as a user runs it, {@code ./jbang tools/Study.java …}, on a tiny haystack: it writes into
 * its machine's folder under --results, describes the machine, and ends with the report.
 */
class StudyTest {

    @TempDir
    Path directory;

    static final String MACHINE = Machine.current().name();

    private Subprocess.Result study(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("./jbang", "tools/Study.java"));
        command.addAll(List.of(args));
        return Subprocess.run(command, directory.resolve("logs-" + System.nanoTime()));
    }

    @Test
    void aTrialIntoANewResultsFolderWritesTheReportAndTheMachine() throws Exception {
        Path results = directory.resolve("results");
        // The charts are the notebooks' (tested with them) and take a minute each: left out here.
        Subprocess.Result result = study(directory.resolve("small.bin").toString(), "--size", "64m", "--only", "V04",
                "--runs", "1", "--warmup", "0", "--results", results.toString(), "--skip", "charts,pagecache");
        assertEquals(0, result.exitCode(), result.toString());
        Path folder = results.resolve(MACHINE);
        Path index = folder.resolve("index.html");
        assertTrue(Files.isRegularFile(index), "no " + index + "\n" + result);
        assertTrue(result.stderr().contains(index.toUri().toString()), "the study ends by saying where the report is");
        String page = Files.readString(index);
        assertTrue(page.contains(MACHINE) && page.contains("V04Mmap") && page.contains("class=\"trial\""), page);

        String json = Files.readString(folder.resolve("machine.json"));
        assertTrue(json.contains("\"name\": \"" + MACHINE + "\""), json);
        assertTrue(json.contains("\"trial\": true"), "a 64 MiB study of one run is a trial: " + json);

        List<String> rows = Files.readAllLines(folder.resolve("scoreboard.csv"));
        assertEquals(ResultsCsv.headerLine(), rows.getFirst());
        assertEquals(2, rows.size(), "--only V04: one row");
        CSVRecord row = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get()
                .parse(new StringReader(String.join("\n", rows))).getRecords().getFirst();
        assertEquals("V04Mmap", row.get("chapter"), rows.get(1));
        assertEquals(MACHINE, row.get("machine"), "each row names its machine: " + rows.get(1));
        for (String other : List.of("scaling.csv", "cold.csv", "wall.csv", "chunks.csv", "pagecache.csv")) {
            assertFalse(Files.exists(folder.resolve(other)), "--only V04 has no " + other);
        }
    }

    @Test
    void onlyLimitsEveryRound() throws Exception {
        Subprocess.Result result = study(directory.resolve("none.bin").toString(), "--only", "V13", "--dry-run",
                "--results", directory.resolve("results").toString());
        assertEquals(0, result.exitCode(), result.toString());
        List<String> steps = result.stdout().lines().toList();
        for (String round : List.of("scoreboard", "scaling", "cold", "chunks")) {
            assertTrue(steps.stream().anyMatch(step -> step.startsWith(round)), round + " is missing:\n" + result.stdout());
        }
        assertTrue(steps.stream().filter(step -> !step.startsWith("charts") && !step.startsWith("report"))
                .allMatch(step -> step.contains("V13PreadVector")), result.stdout());
        assertTrue(steps.getLast().startsWith("report"), "the report is the last step");
        assertTrue(steps.stream().noneMatch(step -> step.startsWith("wall")), "no walls unless asked for");
        assertFalse(Files.exists(directory.resolve("none.bin")), "a dry run creates nothing");

        Subprocess.Result walls = study(directory.resolve("none.bin").toString(), "--only", "V13,walls", "--dry-run",
                "--skip", "scaling,cold,chunks,charts", "--results", directory.resolve("results").toString());
        List<String> wallSteps = walls.stdout().lines().filter(step -> step.startsWith("wall")).toList();
        assertFalse(wallSteps.isEmpty(), walls.toString());
        assertTrue(wallSteps.stream().allMatch(step -> step.contains("tools/WallProbe.java")
                && step.contains(directory.resolve("results").resolve(MACHINE).resolve("wall.csv").toString())), walls.stdout());
    }

    @Test
    void resumeOnABrokenRowNamesItsFileAndLine() throws Exception {
        Path folder = Files.createDirectories(directory.resolve("results").resolve(MACHINE));
        Path csv = folder.resolve("scoreboard.csv");
        Files.writeString(csv, ResultsCsv.headerLine() + "\n2026-11-30T03:");
        Subprocess.Result result = study(directory.resolve("none.bin").toString(), "--size", "64m", "--only", "V04",
                "--resume", "--results", directory.resolve("results").toString());
        assertEquals(2, result.exitCode(), result.toString());
        List<String> lines = result.errorLines().stream().filter(line -> line.startsWith("Study:")).toList();
        assertEquals(1, lines.size(), result.toString());
        assertFalse(result.stderr().contains("\tat "), "no stack trace: " + result);
        assertTrue(lines.getFirst().contains(csv + " line 2"), lines.getFirst());
        assertFalse(Files.exists(directory.resolve("none.bin")), "nothing is created before the row is mended");
    }
}
