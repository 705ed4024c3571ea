import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./jbang} starts an unchanged script from the java command it kept, and never a stale
 * build: a changed line in a source the script includes, a file added to one of its //SOURCES
 * globs or a changed script each go back to JBang, which rebuilds. A script that does not compile
 * ends with status 2 and the launcher's one line, not 1. The class-data archive the launcher writes
 * for a chapter is one the JVM can map, trained on a search, and a rebuild removes it. The JDK it found is not asked
 * its version again on every command.
 */
class LauncherCacheTest {

    private static final String FROM_CACHE = "jbang: unchanged, starting from the launch cache";
    private static final String ASKED_JBANG = "jbang: changed or new, asking JBang";
    private static final String BY_STAMPS = "jbang: (every file as stamped when its checksum was last found right: not read again)";

    @TempDir
    Path project;

    record Launch(int status, String out, List<String> err) {
        boolean fromCache() {
            return err.contains(FROM_CACHE);
        }

        boolean askedJBang() {
            return err.contains(ASKED_JBANG);
        }

        @Override
        public String toString() {
            return "exit " + status + "\n--- stdout\n" + out + "--- stderr\n" + String.join("\n", err);
        }
    }

    private Path script() {
        return project.resolve("Hello.java");
    }

    private void writeSources(String greeting) throws IOException {
        Files.createDirectories(project.resolve("lib"));
        Files.writeString(script(), """
                //SOURCES lib/*.java
                public class Hello {
                    public static void main(String[] args) {
                        System.out.println(lib.Greeting.text() + " " + (present("lib.Extra") ? "extra" : "no-extra")
                                + " " + String.join("|", args));
                    }

                    static boolean present(String name) {
                        try {
                            Class.forName(name);
                            return true;
                        } catch (ClassNotFoundException e) {
                            return false;
                        }
                    }
                }
                """);
        writeGreeting(greeting);
    }

    private void writeGreeting(String greeting) throws IOException {
        Files.writeString(project.resolve("lib/Greeting.java"),
                "package lib;\npublic class Greeting {\n    public static String text() {\n        return \"" + greeting + "\";\n    }\n}\n");
    }

    private Launch launch(String... args) throws IOException, InterruptedException {
        return launch(script(), Map.of(), args);
    }

    private Launch launch(Path program, Map<String, String> environment, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("./jbang", program.toString()));
        command.addAll(List.of(args));
        return launch(command, environment);
    }

    private Launch launch(List<String> command, Map<String, String> environment) throws IOException, InterruptedException {
        Path out = project.resolve("out.txt"), err = project.resolve("err.txt");
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectOutput(out.toFile()).redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        builder.environment().put("HAYSTACK_LAUNCH_TRACE", "1");
        builder.environment().remove("HAYSTACK_LAUNCH_CACHE");
        builder.environment().remove("HAYSTACK_CLASS_ARCHIVE");
        builder.environment().putAll(environment);
        Process process = builder.start();
        if (!process.waitFor(300, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            throw new AssertionError("./jbang still running after 300 s");
        }
        return new Launch(process.exitValue(), Files.readString(out), Files.readAllLines(err));
    }

    private Launch expect(String output, boolean fromCache, String... args) throws IOException, InterruptedException {
        Launch launch = launch(args);
        assertEquals(0, launch.status(), launch.toString());
        assertEquals(output + "\n", launch.out(), launch.toString());
        assertEquals(fromCache, launch.fromCache(), launch.toString());
        assertEquals(!fromCache, launch.askedJBang(), launch.toString());
        return launch;
    }

    /**
     * Once a start has found the checksum right and every file is over 2 s old, later starts trust
     * the files' stamps instead of reading them; an edit that keeps a file's size, or a file added
     * to a folder a glob lists, still rebuilds.
     */
    @Test
    void aStartTrustsStampsOnlyWhileEveryFileKeepsThem() throws IOException, InterruptedException {
        writeSources("first");
        expect("first no-extra a", false, "a");
        Thread.sleep(3_100); // stamps are kept only when every time in them is over 2 whole seconds old
        assertFalse(expect("first no-extra b", true, "b").err().contains(BY_STAMPS), "the first start after a build checks the checksum");
        assertTrue(expect("first no-extra c", true, "c").err().contains(BY_STAMPS), "the next trusts the stamps");

        writeGreeting("frist"); // the same size: only its times of change differ
        expect("frist no-extra d", false, "d");
        Thread.sleep(3_100);
        expect("frist no-extra e", true, "e");
        assertTrue(expect("frist no-extra f", true, "f").err().contains(BY_STAMPS));

        Files.writeString(project.resolve("lib/Extra.java"), "package lib;\npublic class Extra {}\n"); // a new file in a glob's folder
        expect("frist extra g", false, "g");
    }

    @Test
    void anUnchangedScriptStartsFromTheCacheAndAnyChangeRebuilds() throws IOException, InterruptedException {
        writeSources("first");
        expect("first no-extra a", false, "a");
        expect("first no-extra b b|it's", true, "b b", "it's"); // the arguments reach the program as they were given

        writeGreeting("second"); // a changed line in an included source
        expect("second no-extra c", false, "c");
        expect("second no-extra c", true, "c");

        Files.writeString(project.resolve("lib/Extra.java"), "package lib;\npublic class Extra {}\n"); // a new file in a glob
        expect("second extra d", false, "d");
        expect("second extra d", true, "d");

        Files.writeString(script(), Files.readString(script()) + "// a comment changes the script\n");
        expect("second extra e", false, "e");
        expect("second extra e", true, "e");

        Files.delete(project.resolve("lib/Extra.java")); // a file gone from a glob
        expect("second no-extra f", false, "f");
    }

    /** Where ./jbang keeps the class-data archive for {@code program}: its launch entry, named after the program's path, plus ".jsa". */
    private static Path classArchive(Path program) throws IOException, NoSuchAlgorithmException {
        byte[] pathSum = MessageDigest.getInstance("SHA-256").digest(program.toRealPath().toString().getBytes(StandardCharsets.UTF_8));
        return LaunchCache.folder().resolve("launch").resolve(HexFormat.of().formatHex(pathSum) + ".jsa");
    }

    /** The launch entry of this test's script would otherwise stay in the user's cache. */
    @AfterEach
    void removeLaunchEntry() throws Exception {
        if (Files.exists(script())) {
            Path archive = classArchive(script());
            Files.deleteIfExists(archive.resolveSibling(archive.getFileName().toString().replace(".jsa", "")));
        }
    }

    /** A chapter of this project: only chapters get a class-data archive. */
    private static final Path CHAPTER = Path.of("variants/V00Cmp.java");

    @Test
    void aChapterStartedFromTheCacheMapsAClassArchiveThatARebuildRemoves() throws Exception {
        Path archive = classArchive(CHAPTER);
        launch(CHAPTER, Map.of(), "--version"); // the launch entry for the current build, however the cache stood
        Files.deleteIfExists(archive); // the user's own archive: the next start from the cache makes it again

        // Under a file-size limit the archive cannot be written, a failure the JVM treats as fatal: the
        // chapter still answers with its own status, and the empty file left says "tried", so later
        // starts do not pay for another try.
        Launch limited = launch(List.of("bash", "-c", "ulimit -f 64 && exec ./jbang \"$0\" --version", CHAPTER.toString()), Map.of());
        assertEquals(0, limited.status(), limited.toString());
        assertTrue(limited.out().startsWith("haystack-search "), limited.toString());
        assertEquals(0, Files.size(archive), "a failed try leaves an empty file");
        Files.delete(archive);

        Launch first = launch(CHAPTER, Map.of(), "--version");
        assertTrue(first.fromCache(), first.toString());
        assertEquals(0, first.status(), first.toString());
        assertTrue(first.out().startsWith("haystack-search "), first.toString());
        assertTrue(Files.size(archive) > 0, "no archive after a start from the cache");
        assertEquals(List.of(), leftovers(archive), "the training search's files stayed behind");

        // The archive was trained on a search, not on --version: a search maps from it the classes of
        // the run's bill and of the foreign-function linker that the bill's getrusage call readies.
        Path haystack = project.resolve("small.bin"), classLog = project.resolve("classes.log");
        Launch search = launch(CHAPTER, Map.of("JAVA_TOOL_OPTIONS", "-Xlog:class+load=info:file=" + classLog),
                haystack.toString(), "--size", "64k", "--runs", "1", "--warmup", "0");
        assertEquals(0, search.status(), search.toString());
        String loaded = Files.readString(classLog);
        for (String trained : List.of("lib.counters.KernelCounters", "jdk.internal.foreign.abi.SharedUtils")) {
            assertTrue(loaded.contains(trained + " source: shared objects file"), trained + " was not mapped from an archive:\n" + loaded);
        }

        // -Xshare:on makes a JVM that cannot map an archive it is given refuse to start, where it would otherwise ignore it.
        Launch strict = launch(CHAPTER, Map.of("JAVA_TOOL_OPTIONS", "-Xshare:on"), "--version");
        assertEquals(0, strict.status(), strict.toString());
        assertEquals(first.out(), strict.out(), strict.toString());

        // A JBANG_ setting is part of the build's checksum: to the launcher, a changed one is a new build.
        Launch rebuilt = launch(CHAPTER, Map.of("JBANG_LAUNCHER_CACHE_TEST", "1"), "--version");
        assertTrue(rebuilt.askedJBang(), rebuilt.toString());
        assertEquals(first.out(), rebuilt.out(), rebuilt.toString());
        assertFalse(Files.exists(archive), "the archive of the build before is still there");
        launch(CHAPTER, Map.of(), "--version"); // the user's build again, from JBang
        Launch again = launch(CHAPTER, Map.of(), "--version"); // and from the cache, with a new archive
        assertTrue(again.fromCache(), again.toString());
        assertTrue(Files.size(archive) > 0, "no archive for the build after");
    }

    /** What a training for {@code archive} writes beside it, each named after the launcher's process: "[.]ARCHIVE.PID…". */
    private static List<String> leftovers(Path archive) throws IOException {
        String prefix = archive.getFileName() + ".";
        try (var files = Files.list(archive.getParent())) {
            return files.map(path -> path.getFileName().toString())
                    .filter(name -> name.startsWith(prefix) || name.startsWith("." + prefix)).sorted().toList();
        }
    }

    /**
     * A start stopped while it trains, as the study stops a chapter (SIGTERM to the launcher and every process it
     * started), removes what the training wrote and leaves no archive, so the next start tries again. What a start
     * killed outright left goes with the next training, once the process it is named after is gone.
     */
    @Test
    void aStartStoppedWhileItTrainsLeavesNothingAndWhatAKilledOneLeftIsSweptLater() throws Exception {
        Path archive = classArchive(CHAPTER);
        launch(CHAPTER, Map.of(), "--version"); // the launch entry for the current build
        Files.deleteIfExists(archive);

        Process start = new ProcessBuilder("./jbang", CHAPTER.toString(), "--version")
                .redirectOutput(project.resolve("stopped.out").toFile()).redirectError(project.resolve("stopped.err").toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile())).start();
        List<ProcessHandle> family = new ArrayList<>();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(300);
            while (start.isAlive() && System.nanoTime() < deadline
                    && start.descendants().noneMatch(process -> commandLine(process).contains("-XX:DumpLoadedClassList="))) {
                Thread.sleep(20);
            }
            assertTrue(start.isAlive(), "the start ended before its training search began");
            family.addAll(start.descendants().toList());
            family.add(start.toHandle());
            family.forEach(ProcessHandle::destroy); // SIGTERM to each
            for (ProcessHandle process : family) {
                process.onExit().get(120, TimeUnit.SECONDS);
            }
        } finally {
            family.forEach(ProcessHandle::destroyForcibly);
            start.destroyForcibly().waitFor();
        }
        assertEquals(128 + 15, start.exitValue(), "the launcher ends by the signal it was sent");
        assertEquals(List.of(), leftovers(archive), "a training stopped by SIGTERM left files behind");
        assertFalse(Files.exists(archive), "an archive from a training that was stopped");

        Process finished = new ProcessBuilder("true").start();
        finished.waitFor();
        long gone = finished.pid(), alive = ProcessHandle.current().pid();
        List<String> planted = new ArrayList<>(), ofTheLivingOne = new ArrayList<>();
        for (long pid : List.of(gone, alive)) {
            for (String suffix : List.of("", ".classes", ".training.bin", ".training.bin.partial-" + pid)) {
                String name = archive.getFileName() + "." + pid + suffix;
                Path file = archive.resolveSibling(suffix.contains(".partial-") ? "." + name : name); // a creation's partial file is hidden
                Files.writeString(file, "left by a start killed outright");
                planted.add(file.getFileName().toString());
                if (pid == alive) {
                    ofTheLivingOne.add(file.getFileName().toString());
                }
            }
        }
        try {
            Launch next = launch(CHAPTER, Map.of(), "--version");
            assertEquals(0, next.status(), next.toString());
            assertTrue(Files.size(archive) > 0, "no archive from the start after the stopped one");
            assertEquals(ofTheLivingOne.stream().sorted().toList(), leftovers(archive),
                    "the files of a process that is gone are swept; those of one still running are not");
        } finally {
            for (String name : planted) {
                Files.deleteIfExists(archive.resolveSibling(name));
            }
        }
    }

    /** A process's whole command line, or "" once it has ended. */
    private static String commandLine(ProcessHandle process) {
        try {
            return Files.readString(Path.of("/proc", Long.toString(process.pid()), "cmdline"), StandardCharsets.ISO_8859_1);
        } catch (IOException gone) {
            return "";
        }
    }

    @Test
    void aScriptOutsideTheChaptersGetsNoArchive() throws Exception {
        writeSources("plain");
        expect("plain no-extra a", false, "a");
        expect("plain no-extra b", true, "b");
        assertFalse(Files.exists(classArchive(script())), "an archive for a script that is not a chapter");
    }

    private static final String LOOKED_FOR_A_JDK = "jbang: looking for a JDK 25 or newer";

    @Test
    void theJdkFoundBeforeIsNotAskedItsVersionAgainEvenWhenJavaHomeNamesIt() throws Exception {
        writeSources("jdk");
        expect("jdk no-extra a", false, "a"); // finds a JDK if none was found before
        Path javaHomeFile = LaunchCache.folder().resolve("java-home");
        String known = Files.readString(javaHomeFile).strip();

        for (Map<String, String> javaHome : List.of(Map.of("JAVA_HOME", known), Map.of("JAVA_HOME", ""))) {
            Launch launch = launch(script(), javaHome, "b");
            assertEquals("jdk no-extra b\n", launch.out(), launch.toString());
            assertFalse(launch.err().contains(LOOKED_FOR_A_JDK), "JAVA_HOME=" + javaHome.get("JAVA_HOME") + ": " + launch);
        }
        Path notAJdk = Files.createDirectories(project.resolve("not-a-jdk"));
        Launch elsewhere = launch(script(), Map.of("JAVA_HOME", notAJdk.toString()), "c");
        assertTrue(elsewhere.err().contains(LOOKED_FOR_A_JDK), "another JAVA_HOME is checked: " + elsewhere);
        assertEquals("jdk no-extra c\n", elsewhere.out(), "and a JDK 25 is found all the same: " + elsewhere);
        assertEquals(known, Files.readString(javaHomeFile).strip());
    }

    @Test
    void aScriptThatDoesNotCompileEndsWithStatusTwoAndOneLine() throws IOException, InterruptedException {
        writeSources("fine");
        expect("fine no-extra g", false, "g");
        Files.writeString(project.resolve("lib/Greeting.java"), "package lib;\npublic class Greeting {\n"); // cut short
        Launch broken = launch("h");
        assertEquals(2, broken.status(), broken.toString());
        assertEquals("", broken.out(), broken.toString());
        assertTrue(broken.err().getLast().startsWith("jbang: JBang did not start Hello.java"), broken.toString());
    }
}
