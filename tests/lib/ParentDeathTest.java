import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import lib.linux.DiesWithThisProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No child outlives the chapter or tool that started it, even one killed outright ({@code kill -9}),
 * which runs no hook: every child is started under the kernel's parent-death signal, in one way,
 * {@code lib/linux/DiesWithThisProcess.java}.
 */
class ParentDeathTest {

    /** The folders whose programs are not the project's own: the tests start their subjects as a user would. */
    private static final List<String> NOT_SEARCHED = List.of("tests", ".git", "results");

    /**
     * Chapter 0 runs {@code cmp}; a JVM killed while cmp compares must take cmp with it. A stand-in
     * named cmp, first on PATH, writes its process id and sleeps, so the chapter is killed mid-search
     * on a small file.
     */
    @Test
    void chapterZeroKilledOutrightTakesCmpWithIt(@TempDir Path dir) throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path pidFile = dir.resolve("cmp.pid");
        Path standIn = bin.resolve("cmp");
        Files.writeString(standIn, "#!/bin/sh\necho $$ > \"$CMP_STAND_IN_PID\"\nexec sleep 600\n");
        Files.setPosixFilePermissions(standIn, PosixFilePermissions.fromString("rwx------"));
        Path file = TestFiles.write(dir.resolve("haystack.bin"), TestFiles.Layout.zeros("64 KiB of zeros", 64 << 10).plant(4096, (byte) 1));

        ProcessBuilder builder = new ProcessBuilder(Subprocess.javaCommand(List.of(), "V00Cmp", file.toString(), "--runs", "1", "--warmup", "0"))
                .redirectOutput(dir.resolve("stdout").toFile()).redirectError(dir.resolve("stderr").toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        builder.environment().put("PATH", bin + ":" + System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        builder.environment().put("CMP_STAND_IN_PID", pidFile.toString());
        Process chapter = builder.start();
        long cmp = -1;
        try {
            cmp = awaitPid(pidFile, chapter, dir);
            chapter.destroyForcibly(); // SIGKILL: no shutdown hook runs
            chapter.waitFor();
            long deadline = System.nanoTime() + Subprocess.PATIENCE_SECONDS * 1_000_000_000L;
            while (sleeping(cmp) && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertTrue(!sleeping(cmp), "cmp (the stand-in, process " + cmp + ") still runs after chapter 0 was killed");
        } finally {
            chapter.destroyForcibly();
            if (cmp > 0 && sleeping(cmp)) {
                ProcessHandle.of(cmp).ifPresent(ProcessHandle::destroyForcibly);
            }
        }
    }

    /**
     * The kernel sends the parent-death signal when the thread that started the child ends: a child
     * asked for by a thread that then ends (a pool's, a virtual thread's carrier) must live on.
     */
    @Test
    void aChildOutlivesTheThreadThatAskedForIt() throws Exception {
        Process[] child = {null};
        Thread asker = Thread.ofPlatform().start(() -> {
            try {
                child[0] = DiesWithThisProcess.start(new ProcessBuilder("sleep", "600"));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        asker.join();
        try {
            assertTrue(child[0] != null, "started");
            Thread.sleep(2000); // the signal comes as the thread ends; were it sent, the child would be gone by now
            assertTrue(sleeping(child[0].pid()), "the child was killed when the thread that asked for it ended");
        } finally {
            if (child[0] != null) {
                child[0].destroyForcibly().waitFor();
            }
        }
    }

    /**
     * Nothing but lib/linux/DiesWithThisProcess.java starts a program: no {@code .start()} of a
     * ProcessBuilder, no {@code Runtime.exec}, no pipeline, in any chapter, tool, notebook or library.
     */
    @Test
    void onlyOneFileStartsPrograms() throws IOException {
        Path root = Path.of("").toAbsolutePath();
        Path mechanism = root.resolve(Path.of("lib", "linux", "DiesWithThisProcess.java"));
        List<String> found = new ArrayList<>();
        List<Path> sources;
        try (Stream<Path> files = Files.walk(root)) {
            sources = files.filter(path -> NOT_SEARCHED.stream().noneMatch(folder -> root.relativize(path).startsWith(folder)))
                    .filter(path -> path.toString().endsWith(".java") || path.toString().endsWith(".jsh"))
                    .filter(path -> !path.equals(mechanism)).sorted().toList();
        }
        assertTrue(sources.size() > 50, "the project's sources: " + sources.size());
        for (Path source : sources) {
            for (String start : programStarts(Files.readString(source, StandardCharsets.UTF_8))) {
                found.add(root.relativize(source) + ": " + start);
            }
        }
        assertTrue(found.isEmpty(), "programs started outside lib/linux/DiesWithThisProcess.java:\n" + String.join("\n", found));
    }

    private static final Pattern BUILDER_VARIABLE = Pattern.compile("\\bProcessBuilder\\s+(\\w+)\\s*=");

    /** The statements of {@code text} that start a program other than through the one mechanism. */
    static List<String> programStarts(String text) {
        List<String> starts = new ArrayList<>();
        List<String> builders = new ArrayList<>();
        for (Matcher variable = BUILDER_VARIABLE.matcher(text); variable.find(); ) {
            builders.add(variable.group(1));
        }
        for (String statement : text.split("[;{}]")) {
            String flat = statement.replaceAll("\\s+", "");
            boolean startsABuilder = flat.contains(".start()") && (flat.contains("ProcessBuilder(")
                    || builders.stream().anyMatch(name -> flat.contains(name + ".start()")));
            if (startsABuilder || flat.contains("getRuntime().exec(") || flat.contains("startPipeline(")) {
                starts.add(statement.strip().replaceAll("\\s+", " "));
            }
        }
        return starts;
    }

    /** The process id the stand-in wrote, once it has; fails when the chapter ended first. */
    private static long awaitPid(Path pidFile, Process chapter, Path logs) throws Exception {
        long deadline = System.nanoTime() + Subprocess.PATIENCE_SECONDS * 1_000_000_000L;
        while (System.nanoTime() < deadline) {
            if (Files.exists(pidFile)) {
                String written = Files.readString(pidFile).strip();
                if (written.matches("\\d+")) {
                    return Long.parseLong(written);
                }
            }
            if (!chapter.isAlive()) {
                fail("chapter 0 ended (status " + chapter.exitValue() + ") before starting cmp:\n" + Files.readString(logs.resolve("stderr")));
            }
            Thread.sleep(50);
        }
        throw new AssertionError("chapter 0 did not start cmp in " + Subprocess.PATIENCE_SECONDS + " s");
    }

    /** Whether process {@code pid} is the stand-in's sleep and has not ended (a zombie has ended). */
    static boolean sleeping(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            char state = stat.charAt(stat.lastIndexOf(')') + 2);
            String command = Files.readString(Path.of("/proc", Long.toString(pid), "cmdline"));
            return state != 'Z' && state != 'X' && command.startsWith("sleep");
        } catch (IOException | RuntimeException e) {
            return false; // gone
        }
    }
}
