import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JIT options that let a chapter's first run wait less for C2. They sit in the header of
 * {@code lib/chapter/EarlyCompile.java}, which JBang gives every script that sources lib/, and each names one
 * chapter's kernel: every chapter that scans buffers of its own with a vector kernel has each of its
 * vector kernels named, the JVM reads the option as meant, and no option holds a character JBang
 * would quote in the java command it prints (the launcher keeps only unquoted commands, and a quoted
 * one would start JBang's own JVM on every run).
 *
 * <p>No chapter that maps the file is named: compiled that early, from a profile that has not yet
 * seen the loop end, the kernel's code can lack the scalar read that makes a fault in a shrinking
 * mapping catchable ({@code keepFaultsCatchable}), and {@code MappedShrinkTest} saw chapter 10 crash
 * with SIGBUS instead of saying one line.
 */
class FirstRunOptionsTest {

    static final Path OPTIONS_HEADER = Path.of("lib", "chapter", "EarlyCompile.java");
    private static final Path VARIANTS = Path.of("variants");
    private static final Pattern VECTOR_KERNEL = Pattern.compile("static long (firstNonZeroWord(?:256|512))\\(");
    private static final Pattern SCALED = Pattern.compile("-XX:CompileCommand=CompileThresholdScaling:(\\w+)::(\\w+):0\\.01");

    @TempDir
    Path directory;

    @Test
    void everyVectorKernelOfAChapterThatReadsIntoItsOwnBuffersCompilesEarly() throws IOException {
        List<String> mapping = Contents.declaring(lib.chapter.ChapterTrait.MAPS_THE_FILE);
        List<String> options = Subprocess.runtimeOptions(OPTIONS_HEADER);
        int named = 0;
        for (Path chapter : chapters()) {
            if (mapping.contains(name(chapter))) {
                continue;
            }
            Matcher kernel = VECTOR_KERNEL.matcher(Files.readString(chapter));
            while (kernel.find()) {
                assertTrue(options.contains("-XX:CompileCommand=CompileThresholdScaling:" + name(chapter) + "::" + kernel.group(1) + ":0.01"),
                        chapter + "'s " + kernel.group(1) + ": " + options);
                named++;
            }
        }
        assertTrue(named >= 3, "found only " + named + " vector kernels in chapters that read into their own buffers");
        assertTrue(options.contains("-XX:CompileCommand=quiet"), "the JVM would print the compile commands on stdout");
        for (String option : options) {
            assertFalse(option.matches(".*[,'\"*\\\\$].*"), "JBang would quote " + option);
        }
    }

    @Test
    void everyScaledKernelIsAChaptersOwnAndNoneIsOfAChapterThatMapsTheFile() throws IOException {
        List<String> mapping = Contents.declaring(lib.chapter.ChapterTrait.MAPS_THE_FILE);
        assertTrue(mapping.size() >= 6, "found only " + mapping);
        int scaled = 0;
        for (String option : Subprocess.runtimeOptions(OPTIONS_HEADER)) {
            Matcher named = SCALED.matcher(option);
            if (!option.contains("CompileThresholdScaling")) {
                continue;
            }
            assertTrue(named.matches(), option);
            assertFalse(mapping.contains(named.group(1)), named.group(1) + " maps the file: " + option);
            Path chapter = VARIANTS.resolve(named.group(1) + ".java");
            assertTrue(Files.readString(chapter).contains("static long " + named.group(2) + "("), option + " names no kernel of " + chapter);
            scaled++;
        }
        assertTrue(scaled >= 3, "found only " + scaled);
    }

    /** The tests' own chapter processes get the options too: they name chapters' kernels, so every child may have them all. */
    @Test
    void aChapterStartedByTheTestsHasTheEarlyCompileOptions() {
        String early = "-XX:CompileCommand=CompileThresholdScaling:V13PreadVector::firstNonZeroWord256:0.01";
        assertTrue(Subprocess.javaCommand(List.of(), "V13PreadVector").contains(early), "chapter 13 asks for it");
        assertTrue(Subprocess.javaCommand(List.of(), "V09MmapParallelVector").stream().noneMatch(option -> option.contains("V09MmapParallelVector::")),
                "chapter 9 maps the file");
    }

    @Test
    void theJvmReadsTheOptionsAsOneScalingPerKernel() throws IOException, InterruptedException {
        List<String> options = new ArrayList<>(Subprocess.runtimeOptions(OPTIONS_HEADER));
        options.remove("-XX:CompileCommand=quiet"); // so that the JVM echoes how it read each command
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElseThrow());
        command.addAll(options);
        command.add("-version");
        Subprocess.Result run = Subprocess.run(command, directory.resolve("logs"));
        assertEquals(0, run.exitCode(), run::toString);
        for (String kernel : List.of("firstNonZeroWord512", "firstNonZeroWord256")) {
            assertTrue(run.stdout().contains("CompileThresholdScaling V13PreadVector." + kernel + " double CompileThresholdScaling = 0.010000"),
                    run::toString);
        }
    }

    private static String name(Path chapter) {
        return chapter.getFileName().toString().replaceFirst("\\.java$", "");
    }

    private static List<Path> chapters() throws IOException {
        try (Stream<Path> files = Files.list(VARIANTS)) {
            return files.filter(file -> file.getFileName().toString().matches("V\\d\\d\\w*\\.java")).sorted().toList();
        }
    }
}
