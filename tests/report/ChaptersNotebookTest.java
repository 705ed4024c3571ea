import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import lib.haystack.Haystack;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * notebooks/chapters.jsh, the book in one JShell, run as README runs it on a small haystack: a row for
 * every chapter, with its figures or the reason it could not run here, every answer checked; and, with
 * {@code --interactive}, a session in which a chapter's class can be named and its search called. A bad
 * {@code -D} option is refused in one line before a chapter is compiled; a chapter that could not run
 * makes the run fail, with no chart; a haystack that changes under it is said to have changed; a failed
 * run leaves no temporary file.
 */
class ChaptersNotebookTest {

    @TempDir
    Path dir;

    private List<String> notebook(Path haystack, String... jbangOptions) {
        List<String> command = new ArrayList<>(List.of("./jbang", "-Dhaystack=" + haystack, "-Dsize=16m", "-Druns=1",
                "-Dresults=" + dir.resolve("results"), "-Dchromium=none"));
        command.addAll(List.of(jbangOptions));
        command.add("notebooks/chapters.jsh");
        return command;
    }

    /**
     * The notebook with only these {@code -D} options, and its own temporary folder and results folder, both under
     * {@code dir}. The temporary folder is a JVM option ({@code -R}): JBang sets a {@code -D} once the JVM runs, too late
     * for the JDK, which reads java.io.tmpdir as it starts.
     */
    private List<String> notebookWith(String... properties) throws Exception {
        List<String> command = new ArrayList<>(List.of("./jbang", "-R-Djava.io.tmpdir=" + Files.createDirectories(dir.resolve("tmp")),
                "-Dresults=" + dir.resolve("results"), "-Dchromium=none"));
        command.addAll(List.of(properties));
        command.add("notebooks/chapters.jsh");
        return command;
    }

    /** Exit 2, one line on stderr saying {@code said}, no chapter run, nothing made: no haystack, no chart, no temporary file. */
    private void assertRefusedBeforeCompiling(String said, Path haystack, String... properties) throws Exception {
        Subprocess.Result result = Subprocess.run(notebookWith(properties), dir.resolve("logs"));
        String options = String.join(" ", properties);
        assertEquals(2, result.exitCode(), options + "\n" + result);
        assertEquals(1, result.errorLines().size(), options + "\n" + result);
        assertTrue(result.stderr().contains(said), options + "\n" + result);
        assertFalse(result.stdout().contains("V00Cmp"), "no chapter runs: " + options + "\n" + result);
        assertFalse(Files.exists(haystack), "no haystack is made: " + options);
        assertFalse(Files.exists(dir.resolve("results")), "no chart is drawn: " + options);
        assertNothingLeftIn(dir.resolve("tmp"));
    }

    private static void assertNothingLeftIn(Path temporary) throws Exception {
        try (Stream<Path> left = Files.list(temporary)) {
            assertEquals(List.of(), left.toList(), "the notebook leaves nothing in its temporary folder");
        }
    }

    @Test
    void aBadRunsOptionIsRefusedInOneLineBeforeAnyChapterIsCompiled() throws Exception {
        Path haystack = dir.resolve("not-made.bin"); // missing: made only once the options are found good
        assertRefusedBeforeCompiling("-Druns='abc' is not a whole number", haystack, "-Dhaystack=" + haystack, "-Dsize=1m", "-Druns=abc");
        assertRefusedBeforeCompiling("-Druns must be at least 1, not 0", haystack, "-Dhaystack=" + haystack, "-Dsize=1m", "-Druns=0");
        // a full-width 2, which Java's own Integer.valueOf reads as 2
        assertRefusedBeforeCompiling("is not a whole number (digits 0 to 9)", haystack, "-Dhaystack=" + haystack, "-Dsize=1m", "-Druns=\uFF12");
    }

    @Test
    void aHaystackNoChapterCanReadIsRefusedInOneLineBeforeAnyChapterIsCompiled() throws Exception {
        Path fifo = dir.resolve("pipe");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start().waitFor());
        Path missing = dir.resolve("missing.bin");
        assertRefusedBeforeCompiling("is a directory, not a file", missing, "-Dhaystack=" + Files.createDirectories(dir.resolve("folder")));
        assertRefusedBeforeCompiling("is not a regular file", missing, "-Dhaystack=" + fifo);
        assertRefusedBeforeCompiling("-Dhaystack is empty", missing, "-Dhaystack=");
        assertRefusedBeforeCompiling("-Dsize='garbage' is not a size", missing, "-Dhaystack=" + missing, "-Dsize=garbage");
    }

    @Test
    void aHaystackCutWhileTheChaptersRunIsSaidToHaveChangedNotAnsweredWrongAndNothingIsLeftBehind() throws Exception {
        Path haystack = dir.resolve("small.bin");
        Haystack.create(haystack, 16 << 20);
        Process notebook = Subprocess.start(notebookWith("-Dhaystack=" + haystack, "-Druns=1"), dir.resolve("logs"));
        Path stdout = dir.resolve("logs").resolve("stdout");
        try {
            // Once chapter 0's row is out, the haystack is cut in half: its needle goes, and every later chapter would answer -1.
            long waited = 0;
            while (notebook.isAlive() && Files.readString(stdout).lines().noneMatch(line -> line.startsWith("V00Cmp "))) {
                TimeUnit.MILLISECONDS.sleep(50);
                assertTrue((waited += 50) < Subprocess.PATIENCE_SECONDS * 1000, "chapter 0 never ran:\n" + Files.readString(stdout));
            }
            try (FileChannel cut = FileChannel.open(haystack, StandardOpenOption.WRITE)) {
                cut.truncate(8 << 20);
            }
            assertTrue(notebook.waitFor(Subprocess.PATIENCE_SECONDS, TimeUnit.SECONDS), "still running");
        } finally {
            notebook.descendants().forEach(ProcessHandle::destroyForcibly); // only where the test failed on the way
            notebook.destroyForcibly();
        }
        String out = Files.readString(stdout), err = Files.readString(dir.resolve("logs").resolve("stderr"));
        String result = "exit " + notebook.exitValue() + "\n--- stdout\n" + out + "--- stderr\n" + err;
        assertEquals(2, notebook.exitValue(), result);
        assertTrue(out.lines().noneMatch(line -> line.contains("WRONG")), "no chapter is said to be wrong: " + result);
        List<String> lines = err.lines().filter(line -> !line.isBlank()).toList();
        assertTrue(lines.getLast().contains("changed size during the notebook (16777216 -> 8388608 bytes)"), result);
        assertFalse(Files.exists(dir.resolve("results")), "no chart is drawn: " + result);
        assertNothingLeftIn(dir.resolve("tmp"));
    }

    @Test
    void aNotebookInWhichAChapterCouldNotRunEndsWithStatus2AndDrawsNoChart() throws Exception {
        Path haystack = dir.resolve("small.bin");
        Haystack.create(haystack, 1 << 20);
        // No temporary folder: the CSV through which the harness hands over each chapter's row cannot be made, so no chapter runs.
        List<String> command = List.of("./jbang", "-R-Djava.io.tmpdir=" + dir.resolve("no-such-folder"), "-Dhaystack=" + haystack, "-Druns=1",
                "-Dresults=" + dir.resolve("results"), "-Dchromium=none", "notebooks/chapters.jsh");
        Subprocess.Result result = Subprocess.run(command, dir.resolve("logs"));
        int chapters = Contents.CHAPTERS.size();
        assertEquals(2, result.exitCode(), result.toString());
        assertTrue(result.errorLines().getLast().startsWith(chapters + " of " + chapters + " chapters could not run (V00Cmp, "), result.toString());
        assertFalse(Files.exists(dir.resolve("results")), "no chart of nothing: " + result);
    }

    @Test
    void everyChapterGetsARowWithItsFiguresOrWhyItDidNotRunAndEveryAnswerIsChecked() throws Exception {
        Path haystack = dir.resolve("small.bin");
        Subprocess.Result result = Subprocess.run(notebook(haystack), dir.resolve("logs"));
        assertEquals(0, result.exitCode(), result.toString());
        assertTrue(Files.size(haystack) == 16 << 20, "the haystack is made when missing, as a chapter makes it");
        String expected = Long.toString(Haystack.needleOffset(16 << 20));
        assertTrue(result.stdout().contains("every answer checked against " + expected), result.stdout());
        List<String> chapters = Contents.CHAPTERS.stream().map(Class::getSimpleName).toList();
        for (String chapter : chapters) {
            // the table's row: the chapter, then its figures and "right", or "not run: why"
            assertTrue(result.stdout().lines().anyMatch(line -> line.strip().matches(java.util.regex.Pattern.quote(chapter) + " +\\|.*")
                    && (line.matches(".*\\| +right +\\|.*") || line.contains("not run: "))), chapter + " has no row:\n" + result.stdout());
        }
        assertTrue(result.stdout().lines().noneMatch(line -> line.contains("WRONG")), result.stdout());
        assertTrue(result.stdout().contains("the headline — parallel positional reads"), "each row says the chapter's idea, from its file");
        assertTrue(Files.exists(dir.resolve("results").resolve(lib.harness.Machine.current().name()).resolve("charts/chapters.html")),
                "the progression is drawn: " + result.stdout());
    }

    @Test
    void aSearchPipedIntoAnInteractiveSessionFindsTheNeedleForChapters3And4And13() throws Exception {
        Path haystack = dir.resolve("small.bin");
        Haystack.create(haystack, 16 << 20);
        Path cells = Files.writeString(dir.resolve("cells.jsh"), """
                System.out.println("chapter 3: " + new V03ChunkedLong().search(haystack, 1, 1 << 20));
                System.out.println("chapter 4: " + new V04Mmap().search(haystack, 1));
                System.out.println("chapter 13: " + new V13PreadVector().search(haystack, 2, 1 << 20));
                /exit
                """);
        List<String> command = List.of("bash", "-c", "exec \"$@\" < " + cells, "bash");
        List<String> withNotebook = new ArrayList<>(command);
        withNotebook.addAll(notebook(haystack, "--interactive"));
        Subprocess.Result result = Subprocess.run(withNotebook, dir.resolve("logs"));
        String expected = Long.toString(Haystack.needleOffset(16 << 20));
        for (String chapter : List.of("chapter 3: ", "chapter 4: ", "chapter 13: ")) {
            assertTrue(result.stdout().contains(chapter + expected), chapter + "\n" + result);
        }
    }

    @Test
    void anInteractiveChapterSaysInOneLineToOpenTheNotebook() throws Exception {
        Subprocess.Result result = Subprocess.run(List.of("./jbang", "--interactive", "variants/V04Mmap.java"), dir.resolve("logs"));
        assertEquals(2, result.exitCode(), result.toString());
        assertEquals(1, result.errorLines().size(), result.toString());
        assertTrue(result.stderr().contains("notebooks/chapters.jsh"), result.toString());
    }
}
