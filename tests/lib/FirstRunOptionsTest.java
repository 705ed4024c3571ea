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

/**
 * A first run waits less for C2 through what the chapter hands the harness, typed
 * ({@code lib.chapter.CompilesEarly}), not through JIT options that name a chapter's methods. So
 * lib/ names no chapter, in its headers' JVM options or anywhere else: renaming a chapter changes no
 * file there. The option that once scaled each named kernel's compile threshold (to 1 %) bought the
 * one-shot nothing measurable beside the early compile, and is gone.
 */
class FirstRunOptionsTest {

    private static final Path LIB = Path.of("lib");
    /** A chapter's class name: V, two digits, a capital. */
    private static final Pattern CHAPTER_NAME = Pattern.compile("\\bV\\d\\d[A-Z]\\w*");

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

    private static List<Path> libSources() throws IOException {
        try (Stream<Path> files = Files.walk(LIB)) {
            List<Path> sources = files.filter(file -> file.toString().endsWith(".java")).sorted().toList();
            assertTrue(sources.size() >= 20, "found only " + sources);
            return sources;
        }
    }
}
