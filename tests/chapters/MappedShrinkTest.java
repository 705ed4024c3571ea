import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import lib.chapter.NeedleSearch;
import lib.harness.Harness;
import lib.haystack.Haystack;
import lib.linux.HugeFolios;
import lib.linux.Native;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A mapped chapter whose file is truncated by another program while it scans: one line and exit
 * 2, never a JVM crash. The scan must be compiled code by then (the scalar and the vector kernels
 * reach the fault through different paths in the JIT), so each chapter runs long enough to be
 * compiled before the file is cut, and the cut is repeated until it fell inside a scan rather
 * than between two runs (which is the other, duller outcome: "changed size").
 */
class MappedShrinkTest {

    /** Big enough that a scan is most of the time a run takes, small enough to write in a blink (sparse). */
    private static final long FILE_BYTES = 256L << 20;
    /** Runs before the cut: by then C2 has compiled the kernel (it is called per 1 MiB chunk, thousands of times). */
    private static final int RUNS_BEFORE_CUT = 40;
    /**
     * A mapped chapter's runs are followed by the harness's look at how the file is mapped (its PMD
     * count, from /proc/self/smaps) outside the scan, so cuts often fall between two runs: with 6
     * tries, all six did so for chapter 16 in one run of the suite out of about a dozen. A try that
     * cuts inside a scan ends the test, so the extra tries cost nothing when the first ones hit.
     */
    private static final int MAX_TRIES = 16;

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"V04Mmap", "V08Vector256", "V09MmapParallelVector", "V10MmapPopulate", "V12Vector512", "V16MmapHugePages"})
    void fileCutWhileAMappedChapterScansIsOneLineNotACrash(String chapter) throws Exception {
        assumeTrue(!chapter.equals("V12Vector512") || V12Vector512.WIDEST_BITS >= 512, "V12Vector512 needs 512-bit vectors");
        // chapter 16 populates each shard with MADV_POPULATE_READ first, which meets the cut as EFAULT, not as a fault in a scan
        assumeTrue(!chapter.equals("V16MmapHugePages") || HugeFolios.whyNot(dir) == null, () -> "chapter 16 cannot run here");
        List<String> outcomes = new ArrayList<>();
        for (int attempt = 1; attempt <= MAX_TRIES; attempt++) {
            Path work = Files.createDirectory(dir.resolve("try" + attempt)); // the child's working directory
            Path file = TestFiles.writeSparse(work.resolve("haystack.bin"),
                    TestFiles.Layout.zeros("haystack", FILE_BYTES).plant(Haystack.needleOffset(FILE_BYTES), (byte) 1));
            List<String> command = Subprocess.javaCommand(List.of(), chapter, file.toString(),
                    "--runs", "1000000", "--warmup", "0");
            Path logs = Files.createDirectory(dir.resolve("logs" + attempt));
            Process process = new ProcessBuilder(command).directory(work.toFile())
                    .redirectOutput(logs.resolve("stdout").toFile())
                    .redirectError(logs.resolve("stderr").toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                    .start();
            try {
                waitForRuns(process, logs.resolve("stderr"), RUNS_BEFORE_CUT);
                try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) { // the test's own file
                    channel.truncate(1 << 20);
                }
                assertTrue(process.waitFor(Subprocess.PATIENCE_SECONDS, TimeUnit.SECONDS), chapter + " never ended");
            } finally {
                process.destroyForcibly().waitFor();
            }
            var result = new Subprocess.Result(process.exitValue(), Files.readString(logs.resolve("stdout")),
                    Files.readString(logs.resolve("stderr")));
            try (Stream<Path> left = Files.list(work)) {
                assertEquals(List.of(file), left.toList(), () -> "the JVM left files behind (a crash report?)\n" + result);
            }
            assertEquals(Harness.ERROR, result.exitCode(), result::toString);
            assertEquals("", result.stdout(), "stdout is for summaries; a crash banner there is read by scripts");
            List<String> lines = result.errorLines().stream().filter(line -> !line.startsWith("  ")).toList();
            assertEquals(1, lines.size(), result::toString);
            outcomes.add(lines.getFirst());
            if (lines.getFirst().contains("shrank during the search")) {
                return; // the cut fell inside a scan, and it was one line
            }
            assertTrue(lines.getFirst().contains("changed size"), result::toString); // the cut fell between two runs
        }
        throw new AssertionError("in " + MAX_TRIES + " tries the cut never fell inside a scan: " + outcomes);
    }

    /**
     * Chapter 16's first step on each shard, MADV_POPULATE_READ ({@code V16MmapHugePages.populate}),
     * meets a cut file as EFAULT rather than as a fault in a scan: the same event, so the same one
     * line. Here the cut always comes first.
     */
    @Test
    void populatingAMappingWhoseFileWasCutGivesTheShrankLine() throws IOException {
        Path file = TestFiles.writeSparse(dir.resolve("cut.bin"),
                TestFiles.Layout.zeros("haystack", 8L << 20).plant(Haystack.needleOffset(8L << 20), (byte) 1));
        NeedleSearch cutThenPopulate = (path, workers) -> {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment mapped = Native.mapFile(path, Files.size(path), 0, arena);
                try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE)) { // the test's own file
                    channel.truncate(1 << 20);
                }
                V16MmapHugePages.populate(mapped); // the chapter's own first step on a shard
                return V16MmapHugePages.firstNonZeroWordWidest(mapped, 0, mapped.byteSize());
            }
        };
        var result = InProcess.run(cutThenPopulate, file.toString(), "--runs", "1", "--warmup", "0");
        assertEquals(Harness.ERROR, result.exitCode(), result::toString);
        assertEquals(1, result.errorLines().size(), result::toString);
        assertTrue(result.stderr().contains("shrank during the search"), result::toString);
        assertEquals("", result.stdout());
    }

    /**
     * The other window a cut can fall in: after a chapter read the file's size, before it mapped
     * that many bytes. The JDK's {@code map} then refuses ("cannot extend file to required size"),
     * and the harness must name the cause, the file's change, rather than pass on the JDK's words.
     * Here the cut always falls in that window.
     */
    @Test
    void mappingAFileCutAfterItsSizeWasReadGivesTheChangedSizeLine() throws IOException {
        Path file = TestFiles.writeSparse(dir.resolve("cut.bin"),
                TestFiles.Layout.zeros("haystack", 8L << 20).plant(Haystack.needleOffset(8L << 20), (byte) 1));
        NeedleSearch sizeThenCutThenMap = (path, workers) -> {
            try (Arena arena = Arena.ofConfined();
                 FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
                long bytes = channel.size(); // as chapter 4 does, just before its map
                try (FileChannel writer = FileChannel.open(path, StandardOpenOption.WRITE)) { // the test's own file
                    writer.truncate(1 << 20);
                }
                MemorySegment mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, bytes, arena);
                return V04Mmap.firstNonZeroWordScalar(mapped, 0, mapped.byteSize());
            }
        };
        var result = InProcess.run(sizeThenCutThenMap, file.toString(), "--runs", "1", "--warmup", "0");
        assertEquals(Harness.ERROR, result.exitCode(), result::toString);
        assertEquals(1, result.errorLines().size(), result::toString);
        assertTrue(result.stderr().contains("changed size during the search"), result::toString);
        assertEquals("", result.stdout());
    }

    /** Until the child has printed {@code runs} run lines. */
    private static void waitForRuns(Process process, Path stderr, int runs) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Subprocess.PATIENCE_SECONDS);
        while (Files.readString(stderr).lines().filter(line -> line.startsWith("  run ")).count() < runs) {
            assertTrue(process.isAlive(), () -> "the chapter ended before the cut: " + read(stderr));
            assertTrue(System.nanoTime() < deadline, "the chapter never got going");
            Thread.sleep(20);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return e.toString();
        }
    }
}
