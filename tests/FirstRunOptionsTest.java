import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JIT options the vector chapters pass so that their first run waits less for C2: every chapter
 * that scans its own buffers with {@code VectorKernel} asks for both kernels, the JVM reads the option
 * as meant, and no option holds a character JBang would quote in the java command it prints (the
 * launcher keeps only unquoted commands, and a quoted one would start JBang's own JVM on every run).
 *
 * <p>A chapter that maps the file must not ask: compiled that early, from a profile that has not yet
 * seen the loop end, the kernel's code can lack the scalar read that makes a fault in a shrinking
 * mapping catchable ({@code VectorKernel.keepFaultsCatchable}), and {@code MappedShrinkTest} saw
 * chapter 10 crash with SIGBUS instead of saying one line.
 */
class FirstRunOptionsTest {

    private static final Path VARIANTS = Path.of("variants");
    private static final List<String> KERNELS = List.of("firstNonZeroWord512", "firstNonZeroWord256");

    @TempDir
    Path directory;

    @Test
    void everyVectorChapterThatReadsIntoItsOwnBuffersScalesTheCompileThresholdsOfBothKernels() throws IOException {
        List<String> mapping = lib.ChapterTrait.chaptersDeclaring(lib.ChapterTrait.MAPS_THE_FILE);
        List<Path> chapters = vectorChapters().stream().filter(chapter -> !mapping.contains(name(chapter))).toList();
        assertTrue(chapters.size() >= 4, "found only " + chapters);
        for (Path chapter : chapters) {
            List<String> options = Subprocess.runtimeOptions(chapter);
            for (String kernel : KERNELS) {
                assertTrue(options.contains("-XX:CompileCommand=CompileThresholdScaling:lib.VectorKernel::" + kernel + ":0.01"),
                        chapter + ": " + options);
            }
            assertTrue(options.contains("-XX:CompileCommand=quiet"), chapter + " would print the compile commands on stdout");
            for (String option : options) {
                assertFalse(option.matches(".*[,'\"*\\\\$].*"), chapter + ": JBang would quote " + option);
            }
        }
    }

    @Test
    void noChapterThatMapsTheFileCompilesItsKernelEarly() throws IOException {
        List<String> mapping = lib.ChapterTrait.chaptersDeclaring(lib.ChapterTrait.MAPS_THE_FILE);
        List<Path> mapped = vectorChapters().stream().filter(chapter -> mapping.contains(name(chapter))).toList();
        assertTrue(mapped.size() >= 4, "found only " + mapped);
        for (Path chapter : mapped) {
            assertTrue(Subprocess.runtimeOptions(chapter).stream().noneMatch(option -> option.contains("CompileThresholdScaling")),
                    chapter + " maps the file: " + Subprocess.runtimeOptions(chapter));
        }
    }

    private static String name(Path chapter) {
        return chapter.getFileName().toString().replaceFirst("\\.java$", "");
    }

    /** The tests' own chapter processes: the runner gathers every header's options, the child gets its chapter's alone. */
    @Test
    void aChapterStartedByTheTestsHasItsOwnJitCommandsOnly() {
        String early = "-XX:CompileCommand=CompileThresholdScaling:lib.VectorKernel::firstNonZeroWord256:0.01";
        assertFalse(Subprocess.javaCommand(List.of(), "V09MmapParallelVector").contains(early), "chapter 9 maps the file");
        assertTrue(Subprocess.javaCommand(List.of(), "V13PreadVector").contains(early), "chapter 13 asks for it");
    }

    @Test
    void theJvmReadsTheOptionsAsOneScalingPerKernel() throws IOException, InterruptedException {
        List<String> options = new ArrayList<>(Subprocess.runtimeOptions(VARIANTS.resolve("V13PreadVector.java")));
        options.remove("-XX:CompileCommand=quiet"); // so that the JVM echoes how it read each command
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElseThrow());
        command.addAll(options);
        command.add("-version");
        Subprocess.Result run = Subprocess.run(command, directory.resolve("logs"));
        assertEquals(0, run.exitCode(), run::toString);
        for (String kernel : KERNELS) {
            assertTrue(run.stdout().contains("CompileThresholdScaling lib/VectorKernel." + kernel + " double CompileThresholdScaling = 0.010000"),
                    run::toString);
        }
    }

    private static List<Path> vectorChapters() throws IOException {
        try (Stream<Path> files = Files.list(VARIANTS)) {
            return files.filter(file -> file.getFileName().toString().endsWith(".java"))
                    .filter(file -> read(file).contains("VectorKernel"))
                    .sorted()
                    .toList();
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
