import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lab.results.*;
import lib.harness.Machine;
import lib.harness.ResultsCsv;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The study as a user runs it, {@code ./jbang lab/study/Study.java …}, on a tiny haystack: it writes into
 * its machine's folder under --results, describes the machine, and ends with the report.
 */
class StudyTest {

    @TempDir
    Path directory;

    static final String MACHINE = Machine.current().name();

    /** The study built once before any test: a test that counts a refusal's lines never counts JBang's build messages. */
    @org.junit.jupiter.api.BeforeAll
    static void buildTheStudy(@TempDir Path logs) throws IOException, InterruptedException {
        Subprocess.run(List.of("./jbang", "lab/study/Study.java", "--help"), logs);
    }

    private Subprocess.Result study(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("./jbang", "lab/study/Study.java"));
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
        CSVRecord row = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).build()
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
        assertTrue(wallSteps.stream().allMatch(step -> step.contains("lab/yardsticks/WallProbe.java")
                && step.contains(directory.resolve("results").resolve(MACHINE).resolve("wall.csv").toString())), walls.stdout());
    }

    @Test
    void aStudyOnAnEmptyFileIsRefusedInOneLineBeforeAnyStep() throws Exception {
        Path empty = Files.createFile(directory.resolve("empty.bin"));
        Path results = directory.resolve("results");
        Subprocess.Result result = study(empty.toString(), "--only", "V04", "--runs", "1", "--warmup", "0",
                "--results", results.toString(), "--skip", "charts,pagecache,cold");
        assertEquals(2, result.exitCode(), result.toString());
        List<String> lines = result.errorLines().stream().filter(line -> line.startsWith("Study:")).toList();
        assertEquals(1, lines.size(), result.toString());
        assertTrue(lines.getFirst().contains("is empty"), lines.getFirst());
        assertFalse(Files.exists(results.resolve(MACHINE).resolve("scoreboard.csv")), "a step ran: " + result);
    }

    /**
     * Every refusal of FILE or --results comes before the machine's folder and its lock are made: a refused study
     * leaves --results as it found it (or absent), and says why in one line, in plain words.
     */
    @Test
    void aRefusedStudyCreatesNoFolderAndNoLock() throws Exception {
        Path results = directory.resolve("results");
        Path aDirectory = Files.createDirectory(directory.resolve("a-directory"));
        Path empty = Files.createFile(directory.resolve("empty.bin"));
        Path small = Files.write(directory.resolve("small.bin"), new byte[64]);
        List<List<String>> refused = List.of(
                List.of(aDirectory.toString(), "--quick"),
                List.of(empty.toString(), "--quick"),
                List.of(small.toString(), "--size", "128", "--quick", "--skip", "walls"),
                List.of(directory.resolve("no-such-directory").resolve("haystack.bin").toString(), "--quick"));
        for (List<String> arguments : refused) {
            List<String> command = new ArrayList<>(arguments);
            command.addAll(List.of("--results", results.toString()));
            Subprocess.Result result = study(command.toArray(String[]::new));
            assertEquals(2, result.exitCode(), result.toString());
            assertEquals(1, result.errorLines().stream().filter(line -> line.startsWith("Study:")).count(), result.toString());
            assertFalse(Files.exists(results), arguments + " left " + results + " behind: " + result);
        }

        Path aFile = Files.writeString(directory.resolve("a-file"), "not a folder");
        for (Path notAFolder : List.of(aFile, aFile.resolve("below"))) {
            for (String depth : List.of("--quick", "--dry-run")) { // a dry run refuses it too
                Subprocess.Result result = study(directory.resolve("haystack.bin").toString(), depth, "--results", notAFolder.toString());
                assertEquals(2, result.exitCode(), result.toString());
                List<String> lines = result.errorLines().stream().filter(line -> line.startsWith("Study:")).toList();
                assertEquals(1, lines.size(), result.toString());
                assertTrue(lines.getFirst().contains("--results must be a folder") && lines.getFirst().contains(aFile.toString())
                        && !lines.getFirst().contains("Not a directory"), lines.getFirst());
                assertFalse(Files.exists(directory.resolve("haystack.bin")), "no haystack is made for a refused study");
            }
        }
    }

    /**
     * A file made elsewhere, zeros with one non-zero word that is not the needle: the chapters could time it, but the walls
     * and the unit costs cannot, so a study that plans them refuses it in one line before its first step, and says how to go on.
     */
    @Test
    void aFileThatIsNoHaystackIsRefusedBeforeTheFirstStepWhenTheWallsArePlanned() throws Exception {
        byte[] zeros = new byte[4 << 20];
        zeros[1 << 20] = 1;
        Path foreign = Files.write(directory.resolve("foreign.bin"), zeros);
        Path results = directory.resolve("results");
        Subprocess.Result result = study(foreign.toString(), "--quick", "--only", "V04,walls", "--results", results.toString(), "--skip", "charts");
        assertEquals(2, result.exitCode(), result.toString());
        List<String> lines = result.errorLines().stream().filter(line -> line.startsWith("Study:")).toList();
        assertEquals(1, lines.size(), result.toString());
        assertTrue(lines.getFirst().contains(foreign.toString()) && lines.getFirst().contains("not a haystack")
                && lines.getFirst().contains("--skip walls"), lines.getFirst());
        assertFalse(result.stderr().contains("[1/"), "no step ran: " + result);
        assertFalse(Files.exists(results), "nothing is written: " + result);

        Subprocess.Result chaptersAlone = study(foreign.toString(), "--quick", "--only", "V04", "--results", results.toString(), "--dry-run");
        assertEquals(0, chaptersAlone.exitCode(), "without the walls, the chapters time it: " + chaptersAlone);
    }

    /** A report measures nothing, so it never refuses a folder for a table it cannot read: it lists the table and goes on. */
    @Test
    void reportOnlyListsATableItCannotReadAndWritesTheRest() throws Exception {
        Path results = directory.resolve("results");
        Path folder = Files.createDirectories(results.resolve(MACHINE));
        String older = String.join(",", ResultsCsv.COLUMNS.subList(0, 5));
        for (String[] odd : List.of(new String[] {"scoreboard.csv", ""}, new String[] {"scaling.csv", "\uFEFF" + ResultsCsv.headerLine() + "\n"},
                new String[] {"chunks.csv", older + "\n2026-01-01T00:00:00Z,V04Mmap,2,warm,1024\n"})) {
            Files.writeString(folder.resolve(odd[0]), odd[1]);
        }
        Subprocess.Result result = study("--report-only", "--skip", "charts", "--results", results.toString());
        assertEquals(0, result.exitCode(), result.toString());
        assertFalse(result.stderr().contains("--csv"), "no --csv was given: " + result);
        String page = Files.readString(folder.resolve("index.html"));
        assertTrue(page.contains("scoreboard.csv"), "the empty table is listed as left out");
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

    /**
     * A chapter this CPU cannot run (chapter 12 without AVX-512) is not a failure: the study says it
     * was not run on this CPU, leaves out its later steps, records it in machine.json and the report,
     * and ends with status 0 when the rest ran. Only on a CPU without 512-bit vectors.
     */
    @Test
    void aChapterThisCpuCannotRunIsRecordedAsNotRunAndTheStudySucceeds() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(V12Vector512.WIDEST_BITS < 512, "this CPU runs chapter 12");
        Path results = directory.resolve("results");
        Subprocess.Result result = study(directory.resolve("small.bin").toString(), "--size", "64m", "--runs", "1", "--warmup", "0",
                "--only", "V04,V12", "--skip", "scaling,pagecache,cold,walls,chunks,charts", "--results", results.toString());
        assertEquals(0, result.exitCode(), result.toString());
        String all = result.stdout() + result.stderr();
        assertTrue(all.lines().anyMatch(line -> line.startsWith("study: V12Vector512 not run on this CPU (") && line.contains("AVX-512")), all);
        assertTrue(all.lines().anyMatch(line -> line.contains("answer") && line.contains("V12Vector512") && line.contains("not run on this CPU")),
                "its answer round is left out, not tried: " + all);
        assertTrue(all.lines().anyMatch(line -> line.contains("2 not run on this CPU (V12Vector512), 0 failed")), all);
        assertFalse(all.contains("failed: "), all);
        Path folder = results.resolve(MACHINE);
        assertTrue(Files.readString(folder.resolve("scoreboard.csv")).contains("V04Mmap"), "the other chapter ran");
        assertTrue(Files.readString(folder.resolve("machine.json")).contains("\"" + MachineDescription.NOT_ON_THIS_CPU + "\": \"V12Vector512: "),
                Files.readString(folder.resolve("machine.json")));
        assertTrue(Files.readString(folder.resolve("index.html")).contains("Not run on this CPU, which lacks what they need: V12Vector512: "),
                "the report says so");
    }

    /** --resume skips a chapter whose answer-round row answer.csv already holds, and leaves the file as it was. */
    @Test
    void resumeSkipsAnswerRowsAlreadyWritten() throws Exception {
        Path folder = Files.createDirectories(directory.resolve("results").resolve(MACHINE));
        Path csv = folder.resolve("answer.csv");
        String written = String.join(",", AnswerResults.ANSWER_COLUMNS)
                + "\n2026-11-30,V04Mmap,1,0.5000,0.5000,0.5000,0.5000,0.1,0.1,0.1,0.0,0.1,0.05,0.05,0,0.5000\n";
        Files.writeString(csv, written);
        Subprocess.Result result = study(directory.resolve("small.bin").toString(), "--size", "64m", "--runs", "1", "--warmup", "0",
                "--only", "V04", "--skip", "scaling,pagecache,cold,walls,chunks,charts", "--resume",
                "--results", directory.resolve("results").toString());
        assertEquals(0, result.exitCode(), result.toString());
        String all = result.stdout() + result.stderr();
        assertTrue(all.lines().anyMatch(line -> line.contains("answer") && line.contains("V04Mmap") && line.contains("already done, skipped")),
                all);
        assertEquals(written, Files.readString(csv), "the row already there is kept, none added");
        assertTrue(Files.readString(folder.resolve("scoreboard.csv")).contains("V04Mmap"), "the scoreboard row was not there: measured");
    }

    private List<String> dryRun(String... args) throws IOException, InterruptedException {
        List<String> all = new ArrayList<>(List.of(directory.resolve("none.bin").toString(), "--dry-run",
                "--results", directory.resolve("results").toString()));
        all.addAll(List.of(args));
        Subprocess.Result result = study(all.toArray(String[]::new));
        assertEquals(0, result.exitCode(), result.toString());
        return result.stdout().lines().toList();
    }

    private static final int PROCESSORS = Runtime.getRuntime().availableProcessors();

    /** The steps of one round, as the dry run lists them. */
    private static List<String> round(List<String> steps, String table) {
        return steps.stream().filter(step -> step.startsWith(table + " ")).toList();
    }

    @Test
    void quickIsTheScoreboardWithTheWallsAroundItAtThreeBudgetedRunsAfterOneWarmUp() throws Exception {
        List<String> steps = dryRun("--quick", "--skip", "charts");
        List<String> tables = steps.stream().map(step -> step.split(" ")[0]).distinct().toList();
        assertEquals(List.of("wall", "costs", "scoreboard", "model", "report"), tables, String.join("\n", steps));
        assertTrue(steps.getFirst().startsWith("wall") && steps.getFirst().contains("before scoreboard"), steps.getFirst());
        assertTrue(round(steps, "wall").getLast().contains("after scoreboard"), String.join("\n", steps));
        List<String> chapters = round(steps, "scoreboard").stream().filter(step -> step.contains("./jbang")).toList();
        assertFalse(chapters.isEmpty());
        assertTrue(chapters.stream().allMatch(step -> step.contains(" --runs 3 --budgeted --warmup 1 ")),
                "the JIT warmed up, as every depth does: " + String.join("\n", chapters));
        assertTrue(round(steps, "wall").stream().allMatch(step -> step.contains(" --warmup 1 ")), "a wall's warm-up builds its copy: " + steps);
        assertTrue(round(dryRun("--quick", "--warmup", "2", "--only", "V13"), "scoreboard").getFirst().contains(" --warmup 2 "),
                "a --warmup given is honoured");

        List<String> given = dryRun("--quick", "--runs", "4", "--only", "V13");
        assertTrue(round(given, "scoreboard").getFirst().contains(" --runs 4 ") && given.stream().noneMatch(step -> step.contains("--budgeted")),
                "a --runs given is honoured: " + given);
    }

    @Test
    void theDefaultLeavesRunsToEachChaptersBudgetAndFullTakesEveryRunAndTheLongSweep() throws Exception {
        List<String> standard = dryRun("--only", "V13");
        assertTrue(standard.stream().filter(step -> step.contains("variants/")).noneMatch(step -> step.contains("--runs")),
                "no --runs: each chapter takes 5 runs, fewer when they are slow\n" + String.join("\n", standard));
        List<String> sweep = round(standard, "scaling").stream().map(step -> step.replaceAll(".*workers=(\\d+).*", "$1")).toList();
        assertEquals(new java.util.TreeSet<>(List.of(1, PROCESSORS, 2 * PROCESSORS, 32 * PROCESSORS)).stream()
                .map(String::valueOf).toList(), sweep);

        assertEquals(1, round(standard, "answer").size(), String.join("\n", standard));
        assertTrue(round(standard, "answer").stream().allMatch(step -> step.contains(" --runs 3 ")),
                "the answer round: three fresh processes a chapter\n" + String.join("\n", standard));

        List<String> full = dryRun("--full", "--only", "V13");
        assertEquals(9, round(full, "scaling").size(), "--full sweeps 1,2,4,6,8,12,24,48,96 workers");
        assertTrue(round(full, "answer").size() == 1 && round(full, "answer").stream().allMatch(step -> step.contains(" --runs 5 ")),
                "--full: five\n" + String.join("\n", full));
        assertTrue(full.stream().filter(step -> step.contains("variants/")).allMatch(step -> step.contains(" --runs 5 ")
                && !step.contains("--budgeted")), "--full: every run, however long\n" + String.join("\n", full));
        assertEquals(List.of("1", "3"), round(dryRun("--full", "--only", "V13", "--sweep", "1,3"), "scaling").stream()
                .map(step -> step.replaceAll(".*workers=(\\d+).*", "$1")).toList(), "a --sweep given wins");
    }

    @Test
    void thePageCacheRoundGoesStateByStateSoThatOneFillServesEveryChapter() throws Exception {
        List<String> states = round(dryRun("--only", "V04,V05", "--skip", "charts,answer"), "pagecache").stream()
                .map(step -> step.replaceAll(".*--page-cache (\\S+).*", "$1")).toList();
        Assumptions.assumeFalse(states.isEmpty(), "no page-cache round on this file system");
        assertEquals(List.of("small", "small", "huge", "huge"), states);
    }

    @Test
    void quickAndFullTogetherAreRefusedInOneLine() throws Exception {
        Subprocess.Result result = study(directory.resolve("none.bin").toString(), "--quick", "--full", "--dry-run");
        assertEquals(2, result.exitCode(), result.toString());
        assertEquals(List.of("Study: --quick and --full ask for opposite depths: choose one"), result.errorLines().stream()
                .filter(line -> line.startsWith("Study:")).toList(), result.toString());
        assertFalse(result.stderr().contains("\tat "), "no stack trace: " + result);
    }

    /** The rounds in order, each wall sitting by its label. */
    private static List<String> rounds(List<String> steps) {
        List<String> order = new ArrayList<>();
        for (String step : steps) {
            String table = step.split(" ")[0];
            String entry = table.equals("wall") ? step.replaceAll("^wall\\s+(.+?)\\s{2,}.*", "wall $1") : table;
            if (order.isEmpty() || !order.getLast().equals(entry)) {
                order.add(entry);
            }
        }
        return order;
    }

    /** The rounds but the native yardstick, which comes after the walls' last sitting only where a C compiler is. */
    private static List<String> withoutNative(List<String> rounds) {
        return rounds.stream().filter(round -> !round.equals("native")).toList();
    }

    /** A sitting of the walls and the unit costs right before and right after each warm round; none around the cold round, which no wall bounds. */
    @Test
    void theWallsAreMeasuredBeforeAndAfterEachWarmRound() throws Exception {
        List<String> steps = dryRun("--only", "V13,walls", "--skip", "charts,answer");
        assertEquals(List.of("wall before scoreboard", "costs", "scoreboard", "wall after scoreboard, before scaling", "costs", "scaling",
                "wall after scaling, before chunks", "costs", "chunks", "wall after chunks", "costs", "cold", "model", "report"), withoutNative(rounds(steps)),
                String.join("\n", steps));
        assertTrue(round(steps, "wall").stream().allMatch(step -> step.contains("lab/yardsticks/WallProbe.java memory,memory-widest,copy " + directory.resolve("none.bin"))
                && step.contains("--workers " + (PROCESSORS == 1 ? "1" : "1," + PROCESSORS))), "the walls at 1 worker and one a core");

        List<String> mapped = dryRun("--only", "V04,walls", "--skip", "charts,answer");
        if (mapped.stream().anyMatch(step -> step.startsWith("pagecache"))) { // where the file system caches in 2 MiB folios
            assertEquals(List.of("wall before scoreboard", "costs", "scoreboard", "wall after scoreboard, before pagecache", "costs", "pagecache",
                    "wall after pagecache", "costs", "model", "report"), withoutNative(rounds(mapped)), String.join("\n", mapped));
            assertTrue(round(mapped, "wall").stream().skip(1).allMatch(step -> step.contains("WallProbe.java memory,memory-huge,memory-widest,copy ")),
                    "the 2 MiB wall next to the page-cache round, which it bounds: " + String.join("\n", mapped));
        }
        assertTrue(round(steps, "scaling").stream().filter(step -> step.contains("workers=" + PROCESSORS + " "))
                .allMatch(step -> step.contains("(the scoreboard's row, copied)")), "the sweep's point at one worker a core is the scoreboard's");
    }

    /**
     * A real, tiny study: the sweep's point at one worker a core and the 1 MiB read size are the
     * scoreboard's rows, copied; the walls are measured in a sitting before, between and after the warm rounds.
     */
    @Test
    void rowsAreNotMeasuredTwiceAndTheWallsSitAroundEachWarmRound() throws Exception {
        Path results = directory.resolve("results");
        Subprocess.Result result = study(directory.resolve("small.bin").toString(), "--size", "64m", "--only", "V13,walls",
                "--sweep", "1," + PROCESSORS, "--chunks", "1m", "--runs", "1", "--warmup", "0", "--results", results.toString(),
                "--skip", "charts,pagecache,cold");
        assertEquals(0, result.exitCode(), result.toString());
        Path folder = results.resolve(MACHINE);
        List<CSVRecord> scoreboard = rows(folder.resolve("scoreboard.csv"));
        assertEquals(1, scoreboard.size());
        for (String copy : List.of("scaling.csv", "chunks.csv")) {
            CSVRecord copied = rows(folder.resolve(copy)).stream().filter(row -> row.get("workers").equals(Integer.toString(PROCESSORS))
                    && row.get("chunk_bytes").equals("1048576")).findFirst().orElseThrow(() -> new AssertionError(copy + ": " + result));
            assertEquals(scoreboard.getFirst().toList(), copied.toList(), copy + " holds the scoreboard's own row");
        }
        assertEquals(1, rows(folder.resolve("scaling.csv")).stream().filter(row -> row.get("workers").equals("1")).count());

        // a sitting of the walls before the scoreboard, between each two warm rounds and after the last: four
        List<CSVRecord> walls = rows(folder.resolve("wall.csv"));
        int perSitting = 3 * (PROCESSORS == 1 ? 1 : 2); // the two memory walls (256-bit, widest) and the copy wall at 1 worker and one a core
        assertEquals(4 * perSitting, walls.size(), result.toString());
        assertFalse(Files.exists(folder.resolve("wall-sittings.csv")), "no list of sittings, which nothing read");

        // the unit costs beside the walls, and the cost model from them, the walls and the scoreboard
        List<String> costs = rows(folder.resolve("costs.csv")).stream().map(row -> row.get("cost")).toList();
        assertTrue(costs.containsAll(List.of("read_call", "minor_fault", "wake_up", "scan_in_cache")), costs + "\n" + result);
        assertTrue(rows(folder.resolve("model.csv")).stream().anyMatch(row -> row.get("chapter").equals("V13PreadVector")
                && Double.parseDouble(row.get("predicted_s")) > 0), result.toString());
    }

    private static List<CSVRecord> rows(Path csv) throws IOException {
        return CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).build()
                .parse(new StringReader(Files.readString(csv))).getRecords();
    }

    /** One "Study:" line, exit status 2, no stack trace. */
    private static String refusal(Subprocess.Result result) {
        assertEquals(2, result.exitCode(), result.toString());
        assertFalse(result.stderr().contains("\tat "), "no stack trace: " + result);
        List<String> lines = result.errorLines().stream().filter(line -> !line.isBlank()).toList();
        assertEquals(1, lines.size(), result.toString());
        assertTrue(lines.getFirst().startsWith("Study: "), lines.getFirst());
        return lines.getFirst();
    }

    @Test
    void optionsThatCannotBeMeantAreRefusedInOneLine() throws Exception {
        String results = directory.resolve("results").toString();
        List<List<String>> mistakes = List.of(
                List.of("--skip", "bogus"), List.of("--skip", "scalling"), List.of("--skip", "scaling,,cold"),
                List.of("--only", ","), List.of("--only", "V04,,V13"),
                List.of("--report-only", "--resume"), List.of("--report-only", "--only", "V04"),
                List.of("--report-only", "--runs", "3"), List.of("--report-only", "--skip", "scaling"),
                List.of("--machine", MACHINE));
        for (List<String> mistake : mistakes) {
            List<String> args = new ArrayList<>(mistake);
            args.addAll(List.of("--results", results, "--dry-run"));
            String line = refusal(study(args.toArray(String[]::new)));
            assertTrue(line.contains(mistake.getFirst()), mistake + ": " + line);
            if (mistake.getFirst().equals("--skip") && !mistake.contains("--report-only")) {
                assertTrue(line.contains("scaling, pagecache, cold, walls, chunks, answer, charts"), "lists the rounds: " + line);
            }
        }
        assertFalse(Files.exists(directory.resolve("results")), "nothing is created");
    }

    /** A machine name is one folder under --results, of the characters lib/harness/Machine makes names of. */
    @Test
    void aMachineNameThatIsNoSingleFolderIsRefused() throws Exception {
        Path results = Files.createDirectories(directory.resolve("results"));
        Path escaped = Files.createDirectories(directory.resolve("escaped"));
        Files.writeString(escaped.resolve("scoreboard.csv"), ResultsCsv.headerLine() + "\n");
        for (String name : List.of("../escaped", "a/b", "..", ".", "Intel Xeon", "-x", "x-")) {
            String line = refusal(study("--report-only", "--machine", name, "--skip", "charts", "--results", results.toString()));
            assertTrue(line.contains("--machine"), line);
        }
        assertFalse(Files.exists(escaped.resolve("index.html")), "nothing written outside --results");
        try (var written = Files.list(results)) {
            assertEquals(List.of(), written.toList());
        }
    }

    /** The charts are one step: every notebook of one machine (not machines.jsh, nor chapters.jsh, which measures) in one JShell, lab/report/Notebooks.java. */
    @Test
    void theChartsAreOneStepRunningTheNotebooksInOneJShell() throws Exception {
        Assumptions.assumeTrue(java.util.stream.Stream.of(System.getenv().getOrDefault("PATH", "").split(":"))
                .anyMatch(dir -> !dir.isEmpty() && Files.isExecutable(Path.of(dir, "chromium"))), "charts are drawn where Chromium is");
        Subprocess.Result result = study(directory.resolve("none.bin").toString(), "--only", "V13", "--dry-run",
                "--results", directory.resolve("results").toString());
        assertEquals(0, result.exitCode(), result.toString());
        List<String> charts = result.stdout().lines().filter(step -> step.startsWith("charts")).toList();
        assertEquals(1, charts.size(), result.stdout());
        assertTrue(charts.getFirst().contains(" lab/report/Notebooks.java notebooks/answer.jsh notebooks/chunks.jsh "), charts.getFirst());
        assertTrue(charts.getFirst().endsWith(" notebooks/warmup.jsh") && !charts.getFirst().contains("machines"), charts.getFirst());
        assertFalse(charts.getFirst().contains("chapters.jsh"), "the chapters notebook measures; it draws no study: " + charts.getFirst());
    }

    /** --machine only chooses a folder to report on: a study measures this machine into its own folder, and no other. */
    @Test
    void aStudyNeverWritesIntoAnotherMachinesFolder() throws Exception {
        Path other = Path.of("results", "amd-epyc-2c-avx512");
        Path mix = Files.createDirectories(directory.resolve("mix").resolve(other.getFileName()));
        for (String name : List.of("machine.json", "scoreboard.csv")) {
            Files.copy(other.resolve(name), mix.resolve(name));
        }
        String line = refusal(study(directory.resolve("small.bin").toString(), "--size", "64m", "--runs", "1", "--warmup", "0",
                "--only", "V04", "--skip", "scaling,pagecache,cold,walls,chunks,charts",
                "--results", directory.resolve("mix").toString(), "--machine", "amd-epyc-2c-avx512"));
        assertTrue(line.contains("--report-only"), line);
        for (String name : List.of("machine.json", "scoreboard.csv")) {
            assertEquals(Files.readString(other.resolve(name)), Files.readString(mix.resolve(name)), name + " is untouched");
        }

        // This machine's folder, holding a description of another machine that merely mentions this one's name.
        Path own = Files.createDirectories(directory.resolve("results").resolve(MACHINE));
        String foreign = "{\n  \"name\": \"amd-epyc-2c-avx512\",\n  \"note\": \"\\\"name\\\": \\\"" + MACHINE + "\\\"\"\n}\n";
        Files.writeString(own.resolve("machine.json"), foreign);
        String refused = refusal(study(directory.resolve("small.bin").toString(), "--size", "64m", "--runs", "1", "--warmup", "0",
                "--only", "V04", "--skip", "scaling,pagecache,cold,walls,chunks,charts", "--results", directory.resolve("results").toString()));
        assertTrue(refused.contains("machine.json") && refused.contains("amd-epyc-2c-avx512"), refused);
        assertEquals(foreign, Files.readString(own.resolve("machine.json")), "another machine's description is left alone");
        assertFalse(Files.exists(own.resolve("scoreboard.csv")), "nothing measured into it");
    }

    /**
     * A reader whose machine has the name of a folder committed with the project (results/committed-machines.txt)
     * measures into a folder of their own: the committed figures, which README cites, stay as they are.
     */
    @Test
    void aStudyOnAMachineNamedLikeACommittedFolderLeavesThatFolderAlone() throws Exception {
        Path results = directory.resolve("clone-results");
        Path committed = Files.createDirectories(results.resolve(MACHINE));
        Files.writeString(results.resolve(CommittedMachines.FILE_NAME), "# committed with the project\n" + MACHINE + "\n");
        Path reference = Path.of("results", "amd-epyc-f26m2-2c-avx512");
        Files.writeString(committed.resolve("machine.json"), Files.readString(reference.resolve("machine.json"))
                .replace("amd-epyc-f26m2-2c-avx512", MACHINE)); // the committed folder describes this very machine
        Files.copy(reference.resolve("scoreboard.csv"), committed.resolve("scoreboard.csv"));
        java.util.Map<String, String> before = contents(committed);

        Subprocess.Result result = study(directory.resolve("small.bin").toString(), "--size", "64m", "--runs", "1", "--warmup", "0",
                "--only", "V04", "--skip", "scaling,pagecache,cold,walls,chunks,answer,charts", "--results", results.toString());
        assertEquals(0, result.exitCode(), result.toString());
        assertEquals(before, contents(committed), "the committed folder is untouched");
        Path own = results.resolve(MACHINE + ResultsFolder.OWN_FOLDER_SUFFIX);
        assertTrue(result.stderr().contains(own.toString()), "the study says where it measures instead: " + result);
        List<CSVRecord> rows = rows(own.resolve("scoreboard.csv"));
        assertEquals(1, rows.size());
        assertEquals("V04Mmap", rows.getFirst().get("chapter"));
        assertTrue(Files.readString(own.resolve("machine.json")).contains("\"name\": \"" + MACHINE + "\""));
        assertTrue(Files.readString(own.resolve("index.html")).contains("<code>V04Mmap</code>"), "the report shows the row it measured");
    }

    private static java.util.Map<String, String> contents(Path folder) throws IOException {
        java.util.Map<String, String> contents = new java.util.TreeMap<>();
        try (java.util.stream.Stream<Path> files = Files.list(folder)) {
            for (Path file : files.toList()) {
                contents.put(file.getFileName().toString(), Files.isRegularFile(file) ? Files.readString(file) : "(a folder)");
            }
        }
        return contents;
    }

    /** SIGTERM while a chapter runs: the study stops there, neither "going on" to its next step nor writing the report. */
    @Test
    void aStudyStoppedBySigtermStopsAndWritesNoReport() throws Exception {
        Path results = directory.resolve("results");
        Path logs = directory.resolve("sigterm-logs");
        Process process = Subprocess.start(List.of("./jbang", "lab/study/Study.java", directory.resolve("small.bin").toString(), "--size", "64m",
                "--runs", "3", "--warmup", "1", "--only", "V02", "--skip", "scaling,pagecache,cold,walls,chunks,answer,charts",
                "--results", results.toString()), logs);
        try {
            String said = waitForText(logs.resolve("stderr"), "waiting for", process);
            assertTrue(process.isAlive(), "the study ended before its chapter started:\n" + said);
            ProcessHandle study = java.util.stream.Stream.concat(java.util.stream.Stream.of(process.toHandle()), process.descendants())
                    .filter(handle -> fullCommandLine(handle).contains("java") && fullCommandLine(handle).contains("Study"))
                    .findFirst().orElseThrow();
            study.destroy(); // SIGTERM, as `kill PID` sends it
            assertTrue(process.waitFor(60, java.util.concurrent.TimeUnit.SECONDS), "the study ends after SIGTERM");
        } finally {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
        String stderr = Files.readString(logs.resolve("stderr"));
        assertTrue(process.exitValue() != 0, stderr);
        assertFalse(stderr.contains("going on"), stderr);
        assertFalse(stderr.contains("report:"), "no report step after SIGTERM:\n" + stderr);
        assertFalse(Files.exists(results.resolve(MACHINE).resolve("index.html")), stderr);
    }

    /**
     * A process's whole command line. The JDK's {@code ProcessHandle.Info.commandLine()} keeps only its first 4,096
     * characters, and the study's JVM options come before its main class, once for each folder its sources are in.
     */
    /** Waits until {@code file}'s text holds {@code text}, or {@code process} ended, or the patience ran out. */
    private static String waitForText(Path file, String text, Process process) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(Subprocess.PATIENCE_SECONDS);
        String said = "";
        while (!(said = Files.exists(file) ? Files.readString(file) : "").contains(text) && process.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        return said;
    }

    private static boolean endsWithin(ProcessHandle handle, int seconds) throws InterruptedException {
        for (int tenths = 0; tenths < seconds * 10 && handle.isAlive(); tenths++) {
            Thread.sleep(100);
        }
        return !handle.isAlive();
    }

    /**
     * A compiler that never ends (a cc on PATH that sleeps): the study says what it waits for and for
     * how long, and SIGTERM stops the compiler with the study, instead of leaving it to PID 1.
     */
    @Test
    void aNativeYardstickCompilerThatHangsIsWaitedForWithALimitAndStoppedWithTheStudy() throws Exception {
        Path bin = Files.createDirectories(directory.resolve("bin"));
        Path pidFile = directory.resolve("cc.pid");
        Path cc = Files.writeString(bin.resolve("cc"), "#!/bin/sh\necho $$ > '" + pidFile + "'\nexec sleep 600\n");
        cc.toFile().setExecutable(true);
        Path logs = directory.resolve("cc-logs");
        List<String> command = List.of("env", "PATH=" + bin + ":" + System.getenv("PATH"), "./jbang", "lab/study/Study.java",
                directory.resolve("small.bin").toString(), "--size", "64m", "--runs", "1", "--warmup", "0", "--only", "walls",
                "--skip", "charts,answer", "--results", directory.resolve("results").toString());
        Process process = Subprocess.start(command, logs);
        try {
            String said = waitForText(logs.resolve("stderr"), "building the native yardstick (at most", process);
            assertTrue(process.isAlive() && said.contains("building the native yardstick (at most"), "no line says what is waited for:\n" + said);
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
            while (!Files.exists(pidFile) && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            ProcessHandle compiler = ProcessHandle.of(Long.parseLong(Files.readString(pidFile).strip())).orElseThrow();
            process.toHandle().destroy(); // SIGTERM to the study's JVM, which ./jbang became
            assertTrue(process.waitFor(60, java.util.concurrent.TimeUnit.SECONDS), "the study ends after SIGTERM");
            assertTrue(endsWithin(compiler, 15), "the compiler outlived the study");
        } finally {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
    }

    /** kill -9 of a study runs no hook of its, yet its chapter dies with it, and appends no row beside a resumed study. */
    @Test
    void aStudyKilledOutrightTakesItsChapterWithIt() throws Exception {
        Path results = directory.resolve("results");
        Path logs = directory.resolve("kill-logs");
        Process process = Subprocess.start(List.of("./jbang", "lab/study/Study.java", directory.resolve("small.bin").toString(), "--size", "64m",
                "--runs", "5", "--warmup", "1", "--only", "V02", "--skip", "scaling,pagecache,cold,walls,chunks,answer,charts",
                "--results", results.toString()), logs);
        ProcessHandle chapter = null;
        try {
            String said = waitForText(logs.resolve("stderr"), "waiting for", process);
            assertTrue(process.isAlive(), "the study ended before its chapter started:\n" + said);
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(Subprocess.PATIENCE_SECONDS);
            while (chapter == null && System.nanoTime() < deadline) {
                chapter = process.descendants().filter(handle -> fullCommandLine(handle).contains("V02BufferedByte")
                        && fullCommandLine(handle).contains("java")).findFirst().orElse(null);
                Thread.sleep(20);
            }
            assertTrue(chapter != null, "no chapter started:\n" + Files.readString(logs.resolve("stderr")));
            process.destroyForcibly(); // SIGKILL: no shutdown hook runs
            assertTrue(endsWithin(chapter, 15), "the chapter outlived its study");
        } finally {
            if (chapter != null) {
                chapter.destroyForcibly();
            }
            process.descendants().forEach(ProcessHandle::destroyForcibly);
        }
        Thread.sleep(2000); // time for a surviving chapter's row
        assertFalse(Files.exists(results.resolve(MACHINE).resolve("scoreboard.csv")), "the chapter appended a row after its study died");
    }

    private static String fullCommandLine(ProcessHandle handle) {
        try {
            return Files.readString(Path.of("/proc", Long.toString(handle.pid()), "cmdline"), java.nio.charset.StandardCharsets.ISO_8859_1);
        } catch (IOException gone) { // the process ended meanwhile
            return "";
        }
    }

    /** Two studies in one folder would share its CSVs and the report's partial file: the second is refused, naming the first. */
    @Test
    void aSecondStudyInTheSameFolderIsRefusedNamingTheFirst() throws Exception {
        Path folder = Files.createDirectories(directory.resolve("results").resolve(MACHINE));
        Path lockFile = folder.resolve(".study.lock");
        long pid = ProcessHandle.current().pid();
        try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(lockFile,
                java.nio.file.StandardOpenOption.CREATE_NEW, java.nio.file.StandardOpenOption.WRITE);
             java.nio.channels.FileLock held = channel.lock()) {
            channel.write(java.nio.ByteBuffer.wrap((pid + "\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
            String line = refusal(study("--report-only", "--skip", "charts", "--results", directory.resolve("results").toString()));
            assertTrue(line.contains("another study (PID " + pid + ")"), line);
            assertFalse(Files.exists(folder.resolve("index.html")), "the second study wrote nothing");
        }
        Subprocess.Result afterwards = study("--report-only", "--skip", "charts", "--results", directory.resolve("results").toString());
        assertEquals(0, afterwards.exitCode(), afterwards.toString());
        assertTrue(Files.exists(folder.resolve("index.html")));
        assertEquals("", Files.readString(lockFile), "a study empties its lock file when it ends (never removes it: see lab/study/FolderLock)");
    }
}
