import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import notebooks.*;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A notebook takes no arguments, only -D properties (notebooks/Notebook.java, {@code Notebook.arguments}):
 * {@code --help} or {@code -h} prints its usage with status 0, anything else is one line with status 2,
 * and either way no result is read and no chart is written. Run as a user runs a notebook, through JBang,
 * on a copy of the fixture, so that nothing in the project can change.
 */
class NotebookArgumentsTest {

    static final Path FIXTURE = NotebookTest.FIXTURE;
    static final String ALPHA = NotebookTest.ALPHA;
    /** The first statement of a notebook: its arguments checked, its charts named. */
    static final Pattern ARGUMENTS = Pattern.compile("Notebook\\.arguments(?:DrawingHere)?\\(args, \"([^\"]+)\"((?:, \"[^\"]+\")*)\\);");
    /** A chart a notebook writes, by its literal name, or the literal start of its name ({@code "warmup-" + tableName}). */
    static final Pattern CHART = Pattern.compile("Notebook\\.chart\\((?:\\w+, )?\"([^\"]+)\"(\\s*\\+)?");

    @BeforeAll
    static void quitThrowsInsteadOfExiting() {
        System.setProperty("report.quit", "throw");
    }

    @Test
    void helpPrintsTheUsageAndReadsAndWritesNoResults(@TempDir Path dir) throws Exception {
        Path root = dir.resolve("results");
        NotebookTest.copyTree(FIXTURE, root);
        Map<String, String> before = files(root);

        Subprocess.Result result = Subprocess.run(List.of("./jbang", "-Dresults=" + root, "-Dmachine=" + ALPHA,
                "-Dchromium=none", "notebooks/scoreboard.jsh", "--help"), dir.resolve("logs"));
        assertEquals(0, result.exitCode(), result.toString());
        assertTrue(result.stdout().startsWith("Usage: ./jbang [-Dresults=DIR] [-Dmachine=NAME] notebooks/scoreboard.jsh\n"), result.toString());
        assertTrue(result.stdout().contains("\nThe scoreboard: every chapter with a warm page cache"), "its header's words: " + result.stdout());
        assertTrue(result.stdout().contains("It writes scoreboard.html and .png, scoreboard-spread.html and .png into results/MACHINE/charts/."),
                result.stdout());
        // read, the fixture's scoreboard.csv would have had its bad rows said ("line 7: left out")
        assertFalse(result.stdout().contains("left out") || result.stdout().contains("tables: scoreboard"), result.stdout());
        assertEquals(List.of(), saidOnStderr(result), result.toString());
        assertEquals(before, files(root), "nothing under the results root changed");
    }

    @Test
    void anyOtherArgumentIsOneLineAndStatus2AndNothingRuns(@TempDir Path dir) throws Exception {
        Path root = dir.resolve("results");
        NotebookTest.copyTree(FIXTURE, root);
        Map<String, String> before = files(root);

        // by its alias, as jbang-catalog.json names it; the argument a user might have meant as -Dmachine
        Subprocess.Result result = Subprocess.run(List.of("./jbang", "-Dresults=" + root, "-Dchromium=none", "warm-vs-cold",
                "--machine", ALPHA), dir.resolve("logs"));
        assertEquals(2, result.exitCode(), result.toString());
        assertEquals(List.of("warm-vs-cold takes no arguments: '--machine' '" + ALPHA + "' (only -D options, before it: see --help)"),
                saidOnStderr(result), result.toString());
        assertEquals("", result.stdout(), "not a line of the notebook ran: " + result);
        assertEquals(before, files(root), "nothing under the results root changed");
    }

    /** In one JShell (lab/report/Notebooks.java) and in the tests, where quit throws: no argument is nothing, one is refused. */
    @Test
    void whereQuitThrowsAnArgumentIsRefusedWithTheSameLine() {
        Notebook.arguments(new String[0], "scoreboard", "scoreboard", "scoreboard-spread");
        Notebook.Quit refused = assertThrows(Notebook.Quit.class,
                () -> Notebook.arguments(new String[] {"--help", "line\nbreak"}, "scaling", "scaling-all"));
        assertEquals("scaling takes no arguments: '--help' 'line\\nbreak' (only -D options, before it: see --help)", refused.getMessage());
    }

    @Test
    void theUsageTellsTheChaptersNotebookDrawsForThisMachineOnly() {
        String chapters = Notebook.usage("chapters", false, "chapters");
        assertTrue(chapters.startsWith("Usage: ./jbang [-Dresults=DIR] notebooks/chapters.jsh\n\nThe book in one JShell"), chapters);
        assertTrue(chapters.contains("MACHINE: this machine.\n") && !chapters.contains("-Dmachine"), chapters);
        String scaling = Notebook.usage("scaling", true, "scaling-all", "scaling-relative");
        assertTrue(scaling.contains("MACHINE: -Dmachine=NAME, else this machine when it has results, else the most recent study.\n"), scaling);
        assertFalse(scaling.contains("//") || scaling.contains("import "), "the header's words only: " + scaling);
    }

    /** So that a new notebook is held to it too: the check comes before any line that reads, and names every chart the notebook writes. */
    @Test
    void everyNotebookChecksItsArgumentsFirstAndNamesEachChartItWrites() throws IOException {
        List<Path> notebooks;
        try (var files = Files.list(Path.of("notebooks"))) {
            notebooks = files.filter(file -> file.toString().endsWith(".jsh")).sorted().toList();
        }
        assertTrue(notebooks.size() >= 11, notebooks.toString());
        for (Path notebook : notebooks) {
            String name = notebook.getFileName().toString().replaceFirst("\\.jsh$", "");
            String firstStatement = Files.readString(notebook).lines()
                    .filter(line -> !line.isBlank() && !line.startsWith("//") && !line.startsWith("import ")).findFirst().orElse("");
            Matcher arguments = ARGUMENTS.matcher(firstStatement);
            assertTrue(arguments.find(), notebook + " begins with " + firstStatement);
            assertEquals(name, arguments.group(1), notebook.toString());
            List<String> declared = Arrays.stream(arguments.group(2).split(",")).map(String::strip)
                    .filter(chart -> !chart.isEmpty()).map(chart -> chart.replace("\"", "")).toList();
            List<String> drawn = new ArrayList<>();
            Matcher chart = CHART.matcher(Files.readString(notebook));
            while (chart.find()) {
                String start = chart.group(1);
                boolean named = chart.group(2) == null ? declared.contains(start) : declared.stream().anyMatch(d -> d.startsWith(start));
                assertTrue(named, notebook + " draws " + start + (chart.group(2) == null ? "" : "…") + " but names only " + declared);
                drawn.add(start);
            }
            assertEquals(declared.size(), drawn.size(), notebook + " names " + declared + " but draws " + drawn);
        }
    }

    /** The stderr lines the notebook wrote: not JBang's own, nor the JVM's notices. */
    private static List<String> saidOnStderr(Subprocess.Result result) {
        return result.errorLines().stream().filter(line -> !line.startsWith("[jbang]")).toList();
    }

    /** Every file and folder under {@code root}, each with its size, its last change and its bytes' hash. */
    private static Map<String, String> files(Path root) throws IOException {
        Map<String, String> files = new TreeMap<>();
        try (var paths = Files.walk(root)) {
            for (Path path : paths.toList()) {
                files.put(root.relativize(path).toString(), Files.isDirectory(path) ? "folder"
                        : Files.size(path) + " " + Files.getLastModifiedTime(path) + " " + Arrays.hashCode(Files.readAllBytes(path)));
            }
        }
        return files;
    }
}
