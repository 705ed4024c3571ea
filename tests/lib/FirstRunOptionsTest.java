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
 * The JIT options that let a chapter's first run wait less for C2: its vector kernels compiled after 1 % of
 * the usual calls, and the thread that calls one waiting while it compiles. No API lets a running JVM lower a
 * method's compile thresholds, so they cannot be handed to the harness, typed; each chapter asks for
 * them for its own kernels, in its own header, and lib/ names no chapter, in its headers' options or
 * anywhere else: renaming a chapter changes no file there.
 *
 * <p>Every chapter that scans buffers of its own with a vector kernel has each of its vector kernels
 * named, the JVM reads the options as meant, and no option holds a character JBang would quote in the
 * java command it prints (the launcher keeps only unquoted commands, and a quoted one would start
 * JBang's own JVM on every run). No chapter that maps the file asks: compiled that early, from a
 * profile that has not yet seen the loop end, the kernel's code can lack the scalar read that makes
 * a fault in a shrinking mapping catchable ({@code keepFaultsCatchable}), and
 * {@code MappedShrinkTest} saw chapter 10 crash with SIGBUS instead of saying one line.
 */
class FirstRunOptionsTest {

    private static final Path LIB = Path.of("lib");
    private static final Path VARIANTS = Path.of("variants");
    /** A chapter's class name: V, two digits, a capital. */
    private static final Pattern CHAPTER_NAME = Pattern.compile("\\bV\\d\\d[A-Z]\\w*");
    private static final Pattern VECTOR_KERNEL = Pattern.compile("static long (firstNonZeroWord(?:256|512))\\(");
    private static final Pattern SCALED = Pattern.compile("-XX:CompileCommand=CompileThresholdScaling:(\\w+)::(\\w+):0\\.01");
    private static final Pattern WAITED_FOR = Pattern.compile("-XX:CompileCommand=BackgroundCompilation:(\\w+)::(\\w+):false");

    @TempDir
    Path directory;

    @Test
    void noFileInLibNamesAChapter() throws IOException {
        List<String> found = new ArrayList<>();
        List<String> chapters = Contents.CHAPTERS.stream().map(Class::getSimpleName).toList();
        assertTrue(chapters.contains("V13PreadVector"), chapters.toString());
        for (Path file : libSources()) {
            String code = Files.readString(file);
            Matcher named = CHAPTER_NAME.matcher(code);
            while (named.find()) {
                found.add(file + " names " + named.group());
            }
            chapters.stream().filter(code::contains).forEach(chapter -> found.add(file + " names " + chapter));
        }
        assertTrue(found.isEmpty(), String.join("\n", found));
    }

    @Test
    void noHeaderInLibSetsTheJitsPolicyForAMethod() throws IOException {
        List<String> found = new ArrayList<>();
        int headers = 0;
        for (Path file : libSources()) {
            List<String> options = Subprocess.runtimeOptions(file);
            headers += options.isEmpty() ? 0 : 1;
            options.stream().filter(option -> option.startsWith("-XX:CompileCommand")).forEach(option -> found.add(file + ": " + option));
        }
        assertTrue(headers >= 1, "found no //RUNTIME_OPTIONS header under lib/ at all: is this the project's root?");
        assertTrue(found.isEmpty(), String.join("\n", found));
    }

    @Test
    void everyVectorKernelOfAChapterThatReadsIntoItsOwnBuffersIsScaledInItsHeader() throws IOException {
        List<String> mapping = Contents.declaring(lib.chapter.ChapterTrait.MAPS_THE_FILE);
        int named = 0;
        for (Path chapter : chapters()) {
            if (mapping.contains(name(chapter))) {
                continue;
            }
            List<String> options = Subprocess.runtimeOptions(chapter);
            Matcher kernel = VECTOR_KERNEL.matcher(Files.readString(chapter));
            while (kernel.find()) {
                assertTrue(options.contains("-XX:CompileCommand=CompileThresholdScaling:" + name(chapter) + "::" + kernel.group(1) + ":0.01"),
                        chapter + "'s " + kernel.group(1) + ": " + options);
                assertTrue(options.contains("-XX:CompileCommand=BackgroundCompilation:" + name(chapter) + "::" + kernel.group(1) + ":false"),
                        chapter + "'s " + kernel.group(1) + ": " + options);
                assertTrue(options.contains("-XX:CompileCommand=quiet"), chapter + ": the JVM would print its compile commands on stdout");
                named++;
            }
            for (String option : options) {
                assertFalse(option.matches(".*[,'\"*\\\\$].*"), "JBang would quote " + option);
            }
        }
        assertTrue(named >= 9, "found only " + named + " vector kernels in chapters that read into their own buffers");
    }

    @Test
    void aChapterScalesOnlyItsOwnKernelsAndNoChapterThatMapsTheFileScalesAny() throws IOException {
        List<String> mapping = Contents.declaring(lib.chapter.ChapterTrait.MAPS_THE_FILE);
        assertTrue(mapping.size() >= 6, "found only " + mapping);
        int scaled = 0;
        for (Path chapter : chapters()) {
            for (String option : Subprocess.runtimeOptions(chapter)) {
                if (!option.contains("CompileThresholdScaling") && !option.contains("BackgroundCompilation")) {
                    continue;
                }
                Matcher named = option.contains("CompileThresholdScaling") ? SCALED.matcher(option) : WAITED_FOR.matcher(option);
                assertTrue(named.matches(), option);
                assertEquals(name(chapter), named.group(1), chapter + " scales another class's method: " + option);
                assertFalse(mapping.contains(name(chapter)), chapter + " maps the file: " + option);
                assertTrue(Files.readString(chapter).contains("static long " + named.group(2) + "("), option + " names no kernel of " + chapter);
                scaled++;
            }
        }
        assertTrue(scaled >= 18, "found only " + scaled);
    }

    @Test
    void theJvmReadsTheOptionsAsOneScalingAndOneWaitPerKernel() throws IOException, InterruptedException {
        List<String> options = new ArrayList<>(Subprocess.runtimeOptions(VARIANTS.resolve("V13PreadVector.java")));
        options.removeIf(option -> !option.startsWith("-XX:CompileCommand=") || option.equals("-XX:CompileCommand=quiet")); // so that the JVM echoes how it read each command
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElseThrow());
        command.addAll(options);
        command.add("-version");
        Subprocess.Result run = Subprocess.run(command, directory.resolve("logs"));
        assertEquals(0, run.exitCode(), run::toString);
        for (String kernel : List.of("firstNonZeroWord512", "firstNonZeroWord256")) {
            assertTrue(run.stdout().contains("CompileThresholdScaling V13PreadVector." + kernel + " double CompileThresholdScaling = 0.010000"),
                    run::toString);
            assertTrue(run.stdout().contains("BackgroundCompilation V13PreadVector." + kernel + " bool BackgroundCompilation = false"),
                    run::toString);
        }
    }

    private static String name(Path chapter) {
        return chapter.getFileName().toString().replaceFirst("\\.java$", "");
    }

    private static List<Path> chapters() throws IOException {
        try (Stream<Path> files = Files.list(VARIANTS)) {
            List<Path> chapters = files.filter(file -> file.getFileName().toString().matches("V\\d\\d\\w*\\.java")).sorted().toList();
            assertTrue(chapters.size() >= 18, "found only " + chapters);
            return chapters;
        }
    }

    private static List<Path> libSources() throws IOException {
        try (Stream<Path> files = Files.walk(LIB)) {
            List<Path> sources = files.filter(file -> file.toString().endsWith(".java")).sorted().toList();
            assertTrue(sources.size() >= 20, "found only " + sources);
            return sources;
        }
    }
}
