import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A chapter's file holds its whole search: it imports from lib/ nothing that reads, scans, splits
 * the work or hooks the harness, its header asks only for what a reader needs to run it, and a
 * kernel it shares with another chapter is written the same way in both,
 * so that {@code diff} between two chapters shows only what one changes.
 */
class ChapterSourcesTest {

    /** lib/ classes that were, or would be, a chapter's lesson kept elsewhere. */
    private static final Set<String> NOT_FROM_LIB = Set.of("ParallelSearch", "PositionalReader", "WordKernel", "VectorKernel",
            "ParallelRelease", "EarlyCompile", "PmdMapping", "PmdShares", "Kernel", "Shard", "DirectReader", "UringReader",
            "DontCacheReader");
    /** The only JVM options a chapter's header may ask for. */
    private static final Set<String> HEADER_OPTIONS = Set.of("--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED");
    /** Methods written once and copied: each must read the same in every chapter that has it. */
    private static final Set<String> SHARED_METHODS = Set.of("firstNonZeroWordScalar", "firstNonZeroWord256", "firstNonZeroWord512",
            "firstNonZeroWordWidest", "keepFaultsCatchable");
    private static final Pattern LIB_IMPORT = Pattern.compile("(?m)^import (?:static )?lib\\.(?:[a-z]\\w*\\.)*([A-Z]\\w*)");
    private static final Pattern STATIC_METHOD = Pattern.compile("(?m)^    static \\S+ (\\w+)\\(");

    static List<Path> chapters() throws IOException {
        try (var files = Files.list(Path.of("variants"))) {
            return files.filter(file -> file.getFileName().toString().matches("V\\d\\d\\w*\\.java")).sorted().toList();
        }
    }

    @Test
    void noChapterImportsALibClassThatReadsScansSplitsOrHooksTheHarness() throws IOException {
        List<String> found = new ArrayList<>();
        for (Path chapter : chapters()) {
            Matcher imported = LIB_IMPORT.matcher(Files.readString(chapter));
            while (imported.find()) {
                if (NOT_FROM_LIB.contains(imported.group(1))) {
                    found.add(chapter + " imports lib." + imported.group(1));
                }
            }
            String code = Files.readString(chapter);
            for (String libClass : NOT_FROM_LIB) {
                if (Pattern.compile("lib\\.(?:[a-z]\\w*\\.)*" + libClass + "(?:\\.|::)").matcher(code).find()) {
                    found.add(chapter + " uses lib." + libClass);
                }
            }
        }
        assertTrue(found.isEmpty(), String.join("\n", found));
    }

    @Test
    void aChaptersHeaderAsksOnlyForTheIncubatorModuleNativeAccessAndItsKernelsCompileThresholds() throws IOException {
        List<String> found = new ArrayList<>();
        for (Path chapter : chapters()) {
            for (String line : Files.readAllLines(chapter)) {
                if (line.startsWith("//RUNTIME_OPTIONS ") || line.startsWith("//COMPILE_OPTIONS ") || line.startsWith("//JAVA_OPTIONS ")) {
                    for (String option : line.substring(line.indexOf(' ') + 1).trim().split("\\s+")) {
                        // -XX:CompileCommand: its own kernels compiled sooner, each checked by FirstRunOptionsTest
                        if (!HEADER_OPTIONS.contains(option) && !option.startsWith("-XX:CompileCommand=")) {
                            found.add(chapter + " asks for " + option);
                        }
                    }
                }
            }
        }
        assertTrue(found.isEmpty(), String.join("\n", found));
    }

    @Test
    void aMethodSharedByChaptersReadsTheSameInEach() throws IOException {
        Map<String, Map<String, Path>> versions = new LinkedHashMap<>();
        for (Path chapter : chapters()) {
            String code = Files.readString(chapter);
            Matcher method = STATIC_METHOD.matcher(code);
            while (method.find()) {
                if (SHARED_METHODS.contains(method.group(1))) {
                    versions.computeIfAbsent(method.group(1), name -> new LinkedHashMap<>()).putIfAbsent(body(code, method.start()), chapter);
                }
            }
        }
        List<String> differing = new ArrayList<>();
        versions.forEach((name, bodies) -> {
            if (bodies.size() > 1) {
                differing.add(name + " is written " + bodies.size() + " ways, first in " + bodies.values());
            }
        });
        assertTrue(differing.isEmpty(), String.join("\n", differing));
        assertTrue(versions.keySet().containsAll(List.of("firstNonZeroWordScalar", "firstNonZeroWord256", "keepFaultsCatchable")), versions.keySet().toString());
    }

    /** A method's text, from its line to the closing brace at its own indentation. */
    private static String body(String code, int start) {
        int end = code.indexOf("\n    }\n", start);
        return code.substring(start, end + "\n    }\n".length());
    }
}
