import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a learner runs first, re-run the way many learners have it, not the way the project is
 * developed: no LANG (the POSIX locale, as after {@code su -}, under cron, in many containers), a
 * HOME that is not the account's own (as CI runners set it), and, where the suite runs as root and
 * setpriv is there, an account without privileges (nobody, 65534) with a home folder of its own.
 * Each time a chapter searches a file whose name is not ASCII and names it legibly, a name the
 * locale cannot hold is refused in one line with status 2, and a notebook prints its tables.
 */
class AnyAccountTest {

    @TempDir
    Path dir;

    /** The environment of a learner without LANG, whose HOME is {@code home}. */
    private static Map<String, String> posixLocale(Path home) {
        Map<String, String> environment = new HashMap<>();
        for (String variable : List.of("LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_MESSAGES", "XDG_CACHE_HOME",
                "HAYSTACK_LAUNCH_CACHE", "HAYSTACK_CLASS_ARCHIVE", "HAYSTACK_LAUNCH_TRACE")) {
            environment.put(variable, null);
        }
        environment.put("HOME", home.toString());
        return environment;
    }

    /** JBang's class path from the user's cache, so that the launcher does not fetch it with Maven again. */
    private static void copyClassPath(Path home, String from, String to) throws IOException {
        Path cache = Files.createDirectories(home.resolve(".cache/haystack-jbang"));
        if (Files.isDirectory(LaunchCache.folder())) {
            try (Stream<Path> files = Files.list(LaunchCache.folder())) {
                for (Path classpath : files.filter(f -> f.getFileName().toString().endsWith(".classpath")).toList()) {
                    Files.writeString(cache.resolve(classpath.getFileName()), Files.readString(classpath).replace(from, to));
                }
            }
        }
    }

    private Subprocess.Result run(Path workingDirectory, List<String> command, Map<String, String> environment, String logs)
            throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).directory(workingDirectory.toAbsolutePath().toFile())
                .redirectOutput(dir.resolve(logs + ".out").toFile()).redirectError(dir.resolve(logs + ".err").toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        environment.forEach((variable, value) -> {
            if (value == null) {
                builder.environment().remove(variable);
            } else {
                builder.environment().put(variable, value);
            }
        });
        Process process = builder.start();
        if (!process.waitFor(Subprocess.PATIENCE_SECONDS, java.util.concurrent.TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            throw new AssertionError("still running: " + command);
        }
        return new Subprocess.Result(process.exitValue(), Files.readString(dir.resolve(logs + ".out")),
                Files.readString(dir.resolve(logs + ".err")));
    }

    /** A chapter in {@code project}, run by {@code as} with {@code environment}, on files in {@code files}. */
    private void chapterSearchesAndRefuses(Path project, List<String> as, Map<String, String> environment, Path files)
            throws IOException, InterruptedException {
        Path named = files.resolve("héllo wörld.bin"); // not ASCII, as many a learner's folder is
        List<String> command = new ArrayList<>(as);
        command.addAll(List.of("./jbang", "variants/V04Mmap.java", named.toString(), "--size", "64k", "--runs", "1", "--warmup", "0"));
        Subprocess.Result search = run(project, command, environment, "search");
        assertEquals(0, search.exitCode(), search::toString);
        assertTrue(search.stdout().contains("offset=65528"), search::toString);
        assertTrue(search.stderr().contains("'" + named + "'"), "the name, legible:\n" + search);
        assertFalse(search.stdout().contains("?"), search::toString);

        List<String> badName = new ArrayList<>(as);
        badName.addAll(List.of("bash", "-c", "exec ./jbang variants/V04Mmap.java \"$(printf '%s/bad\\377.bin' \"$0\")\" --size 64k --runs 1",
                files.toString()));
        Subprocess.Result refused = run(project, badName, environment, "refused");
        assertEquals(2, refused.exitCode(), refused::toString);
        assertEquals(1, refused.errorLines().size(), refused::toString);
        assertTrue(refused.stderr().contains("not valid"), refused::toString);
        try (Stream<Path> made = Files.list(files)) {
            assertEquals(List.of(named), made.filter(f -> f.getFileName().toString().startsWith("bad")
                    || f.equals(named)).toList(), "a file of another name was created");
        }
    }

    @Test
    void inThePosixLocaleWithHomeElsewhere() throws Exception {
        Path home = Files.createDirectories(dir.resolve("home"));
        copyClassPath(home, "", "");
        Map<String, String> environment = posixLocale(home);
        Path project = Path.of("").toAbsolutePath();
        chapterSearchesAndRefuses(project, List.of(), environment, home);

        Path results = dir.resolve("results");
        try (Stream<Path> fixture = Files.walk(NotebookTest.FIXTURE)) {
            for (Path from : fixture.toList()) {
                Files.copy(from, results.resolve(NotebookTest.FIXTURE.relativize(from).toString()));
            }
        }
        Subprocess.Result notebook = run(project, List.of("./jbang", "-Dresults=" + results, "-Dmachine=" + NotebookTest.ALPHA,
                "-Dchromium=none", "notebooks/scoreboard.jsh"), environment, "notebook");
        assertEquals(0, notebook.exitCode(), notebook::toString);
        assertTrue(notebook.stdout().contains("×"), "a notebook's table sizes, legible:\n" + notebook);
        assertFalse(notebook.stdout().contains("?"), notebook::toString);
    }

    /**
     * The same chapter as an account without privileges: the parts of the project a chapter needs,
     * copied where that account can read them, and the Maven repository linked file by file (hard
     * links: no copy, and the originals stay the user's, read-only to that account).
     */
    @Test
    void asAnAccountWithoutPrivileges() throws Exception {
        assumeTrue(Permissions.isRoot(), "the suite itself runs without privileges here: the test above is that account's");
        assumeTrue(Permissions.onPath("setpriv"), "running as root without setpriv: cannot become an account without privileges");
        Path repository = Path.of(System.getProperty("user.home"), ".m2", "repository");
        assumeTrue(Files.isDirectory(repository), "no Maven repository at " + repository + " to lend that account");
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path project = dir.resolve("project");
        Files.createDirectories(project.resolve("lab/setup"));
        Path m2 = dir.resolve("m2");
        Subprocess.Result linked = run(Path.of(""), List.of("bash", "-c", """
                cp -r jbang lib variants "$1/" && cp lab/setup/jbang-bootstrap.pom.xml "$1/lab/setup/" && cp -al "$2" "$3" &&
                  find "$3" -type d -exec chown 65534:65534 {} +
                """, "bash", project.toString(), repository.toString(), m2.toString()), Map.of(), "copy");
        assumeTrue(linked.exitCode() == 0, "cannot lend the Maven repository to that account (hard links across file systems?): " + linked);
        Path home = Files.createDirectories(dir.resolve("home"));
        copyClassPath(home, repository.toString(), m2.toString());
        run(Path.of(""), List.of("chown", "-R", "65534:65534", home.toString()), Map.of(), "chown");

        Map<String, String> environment = posixLocale(home);
        environment.put("JBANG_REPO", m2.toString()); // JBang's defaults are under the home folder of the account database's: /nonexistent
        environment.put("JBANG_DIR", home.resolve(".jbang").toString());
        chapterSearchesAndRefuses(project, List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"),
                environment, home);
    }
}
