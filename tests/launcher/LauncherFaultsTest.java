import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./jbang} when its surroundings are not as usual: several starts of one script right after
 * an edit, a source changed while JBang builds it, a remembered JDK path or a JAVA_HOME that names
 * an older JDK, a cache folder that cannot be written or sits on a full file system, HOME unset, and a
 * {@code jbang} on PATH that is a link to the launcher. Each start runs the script's current code,
 * or ends with the launcher's one line and status 2; none leaves a temporary file behind.
 * Each test but the one about HOME keeps the launcher's cache in a folder of its own.
 */
class LauncherFaultsTest {

    private static final String FROM_CACHE = "jbang: unchanged, starting from the launch cache";
    private static final String ASKED_JBANG = "jbang: changed or new, asking JBang";

    @TempDir
    Path dir;

    private Path cacheHome;

    record Launch(int status, String out, String err) {
        boolean askedJBang() {
            return err.lines().anyMatch(ASKED_JBANG::equals);
        }

        @Override
        public String toString() {
            return "exit " + status + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    /** A script whose output is its greeting, kept in a source its //SOURCES line includes. */
    @BeforeEach
    void writeScript() throws IOException {
        Files.createDirectories(dir.resolve("lib"));
        Files.writeString(script(), """
                //SOURCES lib/*.java
                public class Hello {
                    public static void main(String[] args) {
                        System.out.println(lib.Greeting.text());
                    }
                }
                """);
        writeGreeting("first");
        // JBang's class path comes from the user's cache, so that no test fetches it with Maven again.
        cacheHome = Files.createDirectories(dir.resolve("cache"));
        Path ownCache = Files.createDirectories(cacheHome.resolve("haystack-jbang"));
        if (Files.isDirectory(LaunchCache.folder())) {
            try (Stream<Path> files = Files.list(LaunchCache.folder())) {
                for (Path classpath : files.filter(f -> f.getFileName().toString().endsWith(".classpath")).toList()) {
                    Files.copy(classpath, ownCache.resolve(classpath.getFileName()));
                }
            }
        }
    }

    private Path script() {
        return dir.resolve("Hello.java");
    }

    private void writeGreeting(String greeting) throws IOException {
        Files.writeString(dir.resolve("lib/Greeting.java"),
                "package lib;\npublic class Greeting {\n    public static String text() {\n        return \"" + greeting + "\";\n    }\n}\n");
    }

    /** The environment of a start: this test's cache, the trace on; a null value removes the variable. */
    private Map<String, String> environment(Map<String, String> changes) {
        Map<String, String> environment = new HashMap<>();
        environment.put("XDG_CACHE_HOME", cacheHome.toString());
        environment.put("HAYSTACK_LAUNCH_TRACE", "1");
        environment.put("HAYSTACK_LAUNCH_CACHE", null);
        environment.put("HAYSTACK_CLASS_ARCHIVE", null);
        environment.putAll(changes);
        return environment;
    }

    private Process start(List<String> command, Map<String, String> changes, String name) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectOutput(dir.resolve(name + ".out").toFile()).redirectError(dir.resolve(name + ".err").toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        environment(changes).forEach((variable, value) -> {
            if (value == null) {
                builder.environment().remove(variable);
            } else {
                builder.environment().put(variable, value);
            }
        });
        return builder.start();
    }

    private Launch finish(Process process, String name) throws IOException, InterruptedException {
        if (!process.waitFor(300, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            throw new AssertionError("./jbang still running after 300 s");
        }
        return new Launch(process.exitValue(), Files.readString(dir.resolve(name + ".out")), Files.readString(dir.resolve(name + ".err")));
    }

    private Launch launch(List<String> command, Map<String, String> changes) throws IOException, InterruptedException {
        return finish(start(command, changes, "launch"), "launch");
    }

    private Launch launch(Map<String, String> changes) throws IOException, InterruptedException {
        return launch(List.of("./jbang", script().toString()), changes);
    }

    private static void assertRan(String greeting, Launch launch) {
        assertEquals(0, launch.status(), launch.toString());
        assertEquals(greeting + "\n", launch.out(), launch.toString());
    }

    /** No file named like a temporary one (NAME.PID) is left in the cache. */
    private void assertNoTemporaryFiles(Path cache) throws IOException {
        try (Stream<Path> files = Files.walk(cache)) {
            assertEquals(List.of(), files.filter(f -> f.getFileName().toString().matches(".*\\.[0-9]+")).toList());
        }
    }

    @Test
    void severalStartsOfOneScriptRightAfterAnEditAllRunTheNewCode() throws Exception {
        assertRan("first", launch(Map.of()));
        writeGreeting("second");
        List<Process> starts = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            starts.add(start(List.of("./jbang", script().toString()), Map.of(), "start" + i));
        }
        int builds = 0;
        for (int i = 0; i < starts.size(); i++) {
            Launch launch = finish(starts.get(i), "start" + i);
            assertRan("second", launch);
            builds += launch.askedJBang() ? 1 : 0;
        }
        assertEquals(1, builds, "one start builds, the others wait for it and start from its build");
        assertNoTemporaryFiles(cacheHome);
    }

    /**
     * An option for every JVM that prints on stdout, given while the script needs a build, also
     * makes JBang's own JVM print there, into the command the launcher reads from it: one line
     * saying so, not a shell's syntax error. Once built, a start from the launch cache runs with it.
     */
    @Test
    void aJvmOptionThatPrintsOnStdoutDuringABuildIsOneLineNotAShellError() throws Exception {
        Map<String, String> printsCompiles = Map.of("JAVA_TOOL_OPTIONS", "-XX:+PrintCompilation");
        Launch building = launch(printsCompiles);
        assertEquals(2, building.status(), building.toString());
        assertTrue(building.err().lines().anyMatch(line -> line.startsWith("jbang: JBang's own JVM printed more than the command it built")),
                building.toString());
        assertTrue(building.err().lines().noneMatch(line -> line.contains("syntax error") || line.contains("not found")), building.toString());
        assertRan("first", launch(Map.of()));
        Launch cached = launch(printsCompiles);
        assertEquals(0, cached.status(), cached.toString());
        assertTrue(cached.out().lines().anyMatch("first"::equals), cached.toString());
    }

    /** An edit undone while JBang builds, then made again: the build of the undone version must not pass for the edit's. */
    @Test
    void aSourceChangedDuringTheBuildIsNeverBoundToIt() throws Exception {
        assertRan("old", launchAfter("old"));
        writeGreeting("new");
        Process building = start(List.of("./jbang", script().toString()), Map.of(), "building");
        try (BufferedReader err = new BufferedReader(new InputStreamReader(
                Files.newInputStream(waitForFile(dir.resolve("building.err"))), StandardCharsets.UTF_8))) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(300);
            for (String line = ""; line != null && !line.equals(ASKED_JBANG) && System.nanoTime() < deadline; ) {
                line = err.readLine();
                if (line == null && building.isAlive()) {
                    Thread.sleep(5);
                    line = "";
                }
            }
        }
        writeGreeting("old"); // undone the moment JBang is asked
        finish(building, "building");
        writeGreeting("new"); // and made again
        assertRan("new", launch(Map.of()));
        assertRan("new", launch(Map.of()));
    }

    /**
     * An edit that lands while javac runs, undone once the start ends: JBang named its jar after the
     * sources it hashed before javac read the edit, and must not hand that jar, of code that no
     * longer exists, to any later start, with the launch cache or without. The edit is made by a
     * javac stand-in that changes the greeting, once, before it hands over to the JDK's own.
     */
    @Test
    void anEditThatLandsWhileJavacRunsIsNeverRunOnceUndone() throws Exception {
        Path realJdk = Path.of(System.getProperty("java.home"));
        Path jdk = standInJdk(realJdk);
        Path edited = dir.resolve("edited-once");
        Path javac = Files.writeString(jdk.resolve("bin/javac"), """
                #!/bin/sh
                if [ ! -e '%s' ]; then
                  : > '%s'
                  sed -i 's/ALPHA/BETA/' '%s'
                fi
                exec '%s' "$@"
                """.formatted(edited, edited, dir.resolve("lib/Greeting.java"), realJdk.resolve("bin/javac")));
        javac.toFile().setExecutable(true);
        for (String cache : List.of("on", "off")) {
            Files.deleteIfExists(edited);
            writeGreeting("ALPHA");
            Map<String, String> withTheStandIn = Map.of("JAVA_HOME", jdk.toString(), "HAYSTACK_LAUNCH_CACHE", cache,
                    "JBANG_CACHE_DIR", dir.resolve("jbang-cache-" + cache).toString());
            Launch editedDuringTheBuild = launch(withTheStandIn);
            assertTrue(Files.exists(edited), "the stand-in for javac ran: " + editedDuringTheBuild);
            assertEquals(0, editedDuringTheBuild.status(), editedDuringTheBuild.toString());
            writeGreeting("ALPHA"); // the edit undone
            assertRan("ALPHA", launch(withTheStandIn));
            assertRan("ALPHA", launch(withTheStandIn));
        }
    }

    /**
     * A JDK folder that is {@code realJdk} but for a {@code bin/javac} this test writes. JBang compiles
     * with the JDK its own JVM runs on, which a JVM finds from where its {@code libjvm.so} really
     * is: so {@code bin/java} and that library are copies, and everything else is a link.
     */
    private Path standInJdk(Path realJdk) throws IOException {
        Path jdk = dir.resolve("jdk");
        for (String folder : List.of("", "bin", "lib", "lib/server")) {
            Files.createDirectories(jdk.resolve(folder));
            try (Stream<Path> entries = Files.list(realJdk.resolve(folder))) {
                for (Path entry : entries.toList()) {
                    String name = realJdk.relativize(entry).toString();
                    if (name.equals("bin/java") || name.equals("lib/server/libjvm.so")) {
                        Files.copy(entry, jdk.resolve(name), java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
                    } else if (!List.of("bin", "lib", "lib/server", "bin/javac").contains(name)) {
                        Files.createSymbolicLink(jdk.resolve(name), entry);
                    }
                }
            }
        }
        return jdk;
    }

    private Launch launchAfter(String greeting) throws IOException, InterruptedException {
        writeGreeting(greeting);
        return launch(Map.of());
    }

    private static Path waitForFile(Path file) throws InterruptedException {
        while (!Files.exists(file)) {
            Thread.sleep(5);
        }
        return file;
    }

    /** A project whose path holds a line break starts its scripts, as they would without the launch cache. */
    @Test
    void aProjectPathWithALineBreakStartsItsScripts() throws Exception {
        Path project = Files.createDirectories(dir.resolve("new\nline"));
        Files.createDirectories(project.resolve("lab/setup"));
        Files.copy(Path.of("jbang"), project.resolve("jbang"), java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
        Files.copy(Path.of("lab/setup/jbang-bootstrap.pom.xml"), project.resolve("lab/setup/jbang-bootstrap.pom.xml"));
        Files.createDirectories(project.resolve("lib"));
        Files.copy(script(), project.resolve("Hello.java"));
        Files.copy(dir.resolve("lib/Greeting.java"), project.resolve("lib/Greeting.java"));
        for (int start = 0; start < 2; start++) {
            Launch launch = launch(List.of(project.resolve("jbang").toString(), project.resolve("Hello.java").toString()), Map.of());
            assertRan("first", launch);
            assertEquals("", launch.err().lines().filter(line -> !line.startsWith("jbang: ") && !line.startsWith("[jbang]"))
                    .collect(java.util.stream.Collectors.joining("\n")), launch.toString());
        }
    }

    @Test
    void aRememberedJdkPathThatNowNamesAnOlderJdkIsDropped() throws Exception {
        Path oldJdk = Files.createDirectories(dir.resolve("jdk-17/bin"));
        for (String tool : List.of("java", "javac")) {
            Path binary = Files.writeString(oldJdk.resolve(tool), "#!/bin/sh\necho 'a JDK 17 stand-in' >&2\nexit 1\n");
            binary.toFile().setExecutable(true);
        }
        Files.writeString(oldJdk.resolveSibling("release"), "IMPLEMENTOR=\"Test\"\nJAVA_VERSION=\"17.0.9\"\n");
        Path javaHomeFile = cacheHome.resolve("haystack-jbang/java-home");
        Files.writeString(javaHomeFile, oldJdk.getParent() + "\n"); // an alternatives switch, a moved link
        Map<String, String> noJavaHome = new HashMap<>();
        noJavaHome.put("JAVA_HOME", null); // as in a new shell: the remembered path is then taken as it is
        assertRan("first", launch(noJavaHome));
        assertNotEquals(oldJdk.getParent().toString(), Files.readString(javaHomeFile).strip());
    }

    /** A JDK is told by its release file, never by starting its java: a JAVA_HOME naming a JDK 17 is passed over, unstarted. */
    @Test
    void anOlderJdkInJavaHomeIsPassedOverWithoutStartingIt() throws Exception {
        Path oldJdk = Files.createDirectories(dir.resolve("jdk-17/bin"));
        Path started = dir.resolve("jdk-17-started");
        for (String tool : List.of("java", "javac")) {
            Path binary = Files.writeString(oldJdk.resolve(tool), "#!/bin/sh\n: > '" + started + "'\nexit 1\n");
            binary.toFile().setExecutable(true);
        }
        Files.writeString(oldJdk.resolveSibling("release"), "IMPLEMENTOR=\"Test\"\nJAVA_VERSION=\"17.0.9\"\n");
        assertRan("first", launch(Map.of("JAVA_HOME", oldJdk.getParent().toString())));
        assertFalse(Files.exists(started), "the launcher started the JDK 17's java or javac");
    }

    @Test
    void aCacheFolderThatCannotBeWrittenOnlyCostsTime() throws Exception {
        Map<String, String> noJavaHome = new HashMap<>();
        noJavaHome.put("JAVA_HOME", null); // so that a start without a remembered JDK looks for one, and remembers it
        assertRan("first", launch(noJavaHome));
        Path cache = cacheHome.resolve("haystack-jbang");
        Files.delete(cache.resolve("java-home"));
        writeGreeting("second");
        List<String> readOnly = List.of("chmod", "-R", "a-w", cache.toString());
        assertEquals(0, new ProcessBuilder(readOnly).inheritIO().start().waitFor());
        try {
            Launch launch = launch(Permissions.obeying(List.of("./jbang", script().toString())), noJavaHome);
            assertRan("second", launch);
            assertTrue(launch.askedJBang(), launch.toString());
            assertTrue(launch.err().lines().anyMatch("jbang: looking for a JDK 25 or newer"::equals), launch.toString());
            assertTrue(launch.err().lines().noneMatch(line -> line.contains("denied") || line.contains("Read-only")), launch.toString());
        } finally {
            new ProcessBuilder("chmod", "-R", "u+w", cache.toString()).inheritIO().start().waitFor();
        }
        assertTrue(Files.notExists(cache.resolve("java-home")));
    }

    /** A cache folder that cannot be written before JBang was ever fetched: it is fetched for the one start, and nothing stays behind. */
    @Test
    void aFreshReadOnlyCacheFolderStillStartsTheScript() throws Exception {
        Path readOnlyHome = Files.createDirectories(dir.resolve("read-only-cache"));
        assertEquals(0, new ProcessBuilder("chmod", "a-w", readOnlyHome.toString()).inheritIO().start().waitFor());
        Path temporary = Files.createDirectories(dir.resolve("tmp"));
        try {
            Launch launch = launch(Permissions.obeying(List.of("./jbang", script().toString())),
                    Map.of("XDG_CACHE_HOME", readOnlyHome.toString(), "TMPDIR", temporary.toString()));
            assertRan("first", launch);
            try (var left = Files.list(temporary)) {
                assertEquals(List.of(), left.toList(), "the class path fetched for one start stays behind");
            }
        } finally {
            new ProcessBuilder("chmod", "u+w", readOnlyHome.toString()).inheritIO().start().waitFor();
        }
    }

    @Test
    void aFullCacheFileSystemOnlyCostsTimeAndLeavesNoTemporaryFile() throws Exception {
        boolean root = "0".equals(new String(new ProcessBuilder("id", "-u").start().getInputStream().readAllBytes()).strip());
        List<String> unshare = root ? List.of("unshare", "--mount") : List.of("unshare", "--mount", "--map-root-user");
        List<String> probe = new ArrayList<>(unshare);
        probe.addAll(List.of("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", dir.toString()));
        Process probing = new ProcessBuilder(probe).redirectErrorStream(true).start();
        probing.getInputStream().readAllBytes();
        assumeTrue(probing.waitFor() == 0, "cannot mount a small tmpfs in a mount namespace of its own (unshare)");

        Path mountPoint = Files.createDirectories(dir.resolve("full"));
        List<String> command = new ArrayList<>(unshare);
        command.addAll(List.of("bash", "-c", """
                mount -t tmpfs -o size=64k tmpfs "$1" && mkdir "$1/haystack-jbang" && cp "$2"/*.classpath "$1/haystack-jbang/" &&
                  { cat /dev/zero > "$1/filler" 2> /dev/null; [ "$(df --output=avail "$1" | tail -n 1)" -eq 0 ]; } || exit 99
                ./jbang "$3"; status=$?
                find "$1" -regextype posix-extended -regex '.*\\.[0-9]+' -printf 'left behind: %P\\n' >&2
                exit $status
                """, "bash", mountPoint.toString(), cacheHome.resolve("haystack-jbang").toString(), script().toString()));
        Map<String, String> environment = new HashMap<>(Map.of("XDG_CACHE_HOME", mountPoint.toString()));
        if (!root) { // mapped to root, the account's JVMs would take root's home folder from the account database
            String home = System.getProperty("user.home");
            environment.putIfAbsent("JBANG_DIR", System.getenv().getOrDefault("JBANG_DIR", home + "/.jbang"));
            environment.putIfAbsent("JBANG_REPO", System.getenv().getOrDefault("JBANG_REPO", home + "/.m2/repository"));
        }
        for (String greeting : List.of("first", "second")) {
            writeGreeting(greeting);
            Launch launch = launch(command, environment);
            assertRan(greeting, launch);
            assertTrue(launch.err().lines().noneMatch(line -> line.startsWith("left behind") || line.contains("write error")), launch.toString());
        }
    }

    @Test
    void withHomeUnsetTheAccountsHomeHoldsTheCache() throws Exception {
        Map<String, String> noHome = new HashMap<>();
        noHome.put("HOME", null);
        noHome.put("XDG_CACHE_HOME", null);
        try {
            assertRan("first", launch(noHome));
            assertRan("first", launch(noHome));
        } finally { // the launch entry this test made in the account's cache
            byte[] pathSum = MessageDigest.getInstance("SHA-256").digest(script().toRealPath().toString().getBytes(StandardCharsets.UTF_8));
            Path entry = Path.of(System.getProperty("user.home"), ".cache/haystack-jbang/launch", HexFormat.of().formatHex(pathSum));
            Files.deleteIfExists(entry);
            Files.deleteIfExists(entry.resolveSibling(entry.getFileName() + ".lock"));
        }
    }

    @Test
    void aJbangOnPathThatIsALinkToTheLauncherFindsTheProject() throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path link = Files.createSymbolicLink(bin.resolve("jbang"), Path.of("jbang").toAbsolutePath());
        try {
            Launch launch = launch(List.of("bash", "-c", "exec jbang \"$0\"", script().toString()), Map.of("PATH", bin + ":" + System.getenv("PATH")));
            assertRan("first", launch);
        } finally {
            Files.delete(link); // JUnit warns of a link that leads out of its temporary folder
        }
    }
}
