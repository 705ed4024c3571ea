import static org.junit.jupiter.api.Assertions.assertEquals;
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
 * so that {@code diff} between two chapters shows only what one changes. And it opens with its idea:
 * {@code main}, then what it changes, then one fold line, below which it holds only code word for
 * word as in the chapter it changes.
 */
class ChapterSourcesTest {

    /** lib/ classes that were, or would be, a chapter's lesson kept elsewhere. */
    private static final Set<String> NOT_FROM_LIB = Set.of("ParallelSearch", "PositionalReader", "WordKernel", "VectorKernel",
            "ParallelRelease", "EarlyCompile", "PmdMapping", "PmdShares", "Kernel", "Shard", "DirectReader", "UringReader",
            "DontCacheReader");
    /** The only JVM options a chapter's header may ask for. */
    private static final Set<String> HEADER_OPTIONS = Set.of("--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED");
    /** Methods written once and copied: each must read the same in every chapter of its kind (mapping the file, or not). */
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
    void aMethodSharedByChaptersReadsTheSameInEachChapterOfItsKind() throws IOException {
        // A chapter that maps the file calls keepFaultsCatchable in its vector kernels; one that scans
        // buffers of its own has no mapping to guard. Within each kind, one text per method.
        Map<String, Map<String, Path>> versions = new LinkedHashMap<>();
        for (Path chapter : chapters()) {
            String code = Files.readString(chapter);
            String kind = mapsTheFile(code) ? "mapped" : "reading";
            Matcher method = STATIC_METHOD.matcher(code);
            while (method.find()) {
                if (SHARED_METHODS.contains(method.group(1))) {
                    versions.computeIfAbsent(method.group(1) + " (" + kind + ")", name -> new LinkedHashMap<>())
                            .putIfAbsent(body(code, method.start()), chapter);
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
        assertTrue(versions.keySet().containsAll(List.of("firstNonZeroWordScalar (mapped)", "firstNonZeroWord256 (mapped)",
                "keepFaultsCatchable (mapped)", "firstNonZeroWordScalar (reading)", "firstNonZeroWord256 (reading)")), versions.keySet().toString());
        // The two kinds of a kernel differ by the guard's call alone.
        for (String kernel : List.of("firstNonZeroWord256", "firstNonZeroWord512", "firstNonZeroWordWidest", "firstNonZeroWordScalar")) {
            var mapped = versions.get(kernel + " (mapped)");
            var reading = versions.get(kernel + " (reading)");
            if (mapped != null && reading != null) {
                String withoutGuard = mapped.keySet().iterator().next().replace(GUARD_CALL, "");
                assertEquals(reading.keySet().iterator().next(), withoutGuard, kernel + ": " + mapped.values() + " against " + reading.values());
            }
        }
    }

    @Test
    void onlyAChapterThatMapsTheFileGuardsItsKernelsAgainstAShrinkingMapping() throws IOException {
        List<String> found = new ArrayList<>();
        for (Path chapter : chapters()) {
            String code = Files.readString(chapter);
            boolean vectorKernel = code.contains("static long firstNonZeroWord256(") || code.contains("static long firstNonZeroWord512(");
            if (!mapsTheFile(code) && code.contains("keepFaultsCatchable")) {
                found.add(chapter + " scans only buffers of its own, yet guards against a shrinking mapping");
            }
            if (mapsTheFile(code) && vectorKernel && !code.contains(GUARD_CALL)) {
                found.add(chapter + " maps the file and scans it with vectors, without keepFaultsCatchable");
            }
            int paragraphs = code.split("SIGBUS", -1).length - 1;
            if (paragraphs > 1) {
                found.add(chapter + " explains the guard " + paragraphs + " times");
            }
        }
        assertTrue(found.isEmpty(), String.join("\n", found));
    }

    /**
     * The cost model takes a chapter's faults on one thread when its class says it populates on one thread: a chapter
     * says so exactly when it maps the file with MAP_POPULATE, which the kernel fills on the calling thread.
     */
    @Test
    void aChapterSaysItPopulatesOnOneThreadExactlyWhenItMapsWithMapPopulate() throws IOException {
        List<String> found = chaptersWhoseMarkerAndCallDisagree("PopulatesOnOneThread", "Native.MAP_POPULATE");
        assertTrue(found.isEmpty(), String.join("\n", found));
    }

    /** The cost model prices a chapter's populating calls on every worker when its class says so: exactly when it calls MADV_POPULATE_READ. */
    @Test
    void aChapterSaysItPopulatesOnEveryWorkerExactlyWhenItCallsMadvPopulateRead() throws IOException {
        List<String> found = chaptersWhoseMarkerAndCallDisagree("PopulatesOnEveryWorker", "Native.MADV_POPULATE_READ");
        assertTrue(found.isEmpty(), String.join("\n", found));
    }

    /** The cost model prices a chapter's scan from memory at the widest kernel's wall when its class says so: exactly when it has that kernel. */
    @Test
    void aChapterSaysItScansWithTheWidestVectorExactlyWhenItHasThe512BitKernel() throws IOException {
        List<String> found = chaptersWhoseMarkerAndCallDisagree("ScansWithWidestVector", "static long firstNonZeroWord512(");
        assertTrue(found.isEmpty(), String.join("\n", found));
    }

    /** The cost model prices a chapter's scan at the word kernel's costs when its class says so: exactly when it has no vector kernel. */
    @Test
    void aChapterSaysItScansWordByWordExactlyWhenItsOnlyKernelIsTheWordLoop() throws IOException {
        List<String> found = new ArrayList<>();
        Pattern declares = Pattern.compile("(?m)^public class \\w+ implements [^{]*\\bScansWordByWord\\b");
        for (Path chapter : chapters()) {
            String code = Files.readString(chapter);
            boolean onlyWords = code.contains("static long firstNonZeroWordScalar(") && !code.contains("LongVector"), says = declares.matcher(code).find();
            if (onlyWords != says) {
                found.add(chapter + (onlyWords ? " scans word by word without implementing ScansWordByWord" : " implements ScansWordByWord, yet has a vector kernel or none"));
            }
        }
        assertTrue(found.isEmpty(), String.join("\n", found));
    }

    /** Each chapter that uses {@code call} without implementing {@code marker}, or implements it without using the call, said in a line. */
    private static List<String> chaptersWhoseMarkerAndCallDisagree(String marker, String call) throws IOException {
        List<String> found = new ArrayList<>();
        Pattern declares = Pattern.compile("(?m)^public class \\w+ implements [^{]*\\b" + marker + "\\b");
        for (Path chapter : chapters()) {
            String code = Files.readString(chapter);
            boolean calls = code.contains(call), says = declares.matcher(code).find();
            if (calls != says) {
                found.add(chapter + (calls ? " uses " + call + " without implementing " + marker : " implements " + marker + " without using " + call));
            }
        }
        return found;
    }

    @Test
    void aChaptersFirstNewMethodStartsWithinItsFirst80Lines() throws IOException {
        List<String> late = new ArrayList<>();
        for (Path chapter : chapters()) {
            if (number(chapter) < 2) {
                continue;
            }
            List<String> lines = Files.readAllLines(chapter);
            int main = indexOf(lines, MAIN);
            assertTrue(main >= 0, chapter + " has no main");
            int first = -1;
            for (int i = endOf(lines, main) + 1; i < lines.size() && first < 0; i++) {
                if (METHOD.matcher(lines.get(i)).find()) {
                    first = i;
                }
            }
            if (first < 0 || first + 1 > FIRST_METHOD_BY_LINE) {
                late.add(chapter + ": the first method after main starts at line " + (first + 1));
            }
        }
        assertTrue(late.isEmpty(), String.join("\n", late));
    }

    @Test
    void belowItsFoldAChapterHoldsOnlyTheCodeOfTheChapterItChanges() throws IOException {
        List<String> problems = new ArrayList<>();
        for (Path chapter : chapters()) {
            List<String> lines = Files.readAllLines(chapter);
            List<Integer> folds = new ArrayList<>();
            for (int i = 0; i < lines.size(); i++) {
                if (lines.get(i).contains("===== below:")) {
                    folds.add(i);
                }
            }
            if (folds.isEmpty() && number(chapter) > 3) {
                problems.add(chapter + " has no fold line");
                continue;
            }
            if (folds.isEmpty()) {
                // Chapters 0 to 3 repeat nothing: each member is new, not a copy of any chapter before.
                for (Path earlier : chapters().stream().filter(other -> number(other) < number(chapter)).toList()) {
                    String earlierCode = "\n" + Files.readString(earlier);
                    for (String member : members(lines, endOf(lines, indexOf(lines, MAIN)) + 1, lines.size())) {
                        if (earlierCode.contains("\n" + member + "\n")) {
                            problems.add(chapter + " has no fold, yet repeats " + earlier + "'s " + firstLine(member));
                        }
                    }
                }
                continue;
            }
            if (folds.size() > 1) {
                problems.add(chapter + " has " + folds.size() + " fold lines");
                continue;
            }
            int fold = folds.getFirst();
            Matcher line = FOLD.matcher(lines.get(fold));
            if (!line.matches()) {
                problems.add(chapter + ": the fold line is not in the form '" + FOLD.pattern() + "': " + lines.get(fold));
                continue;
            }
            Path changed = Path.of("variants", line.group(2));
            if (!Files.isRegularFile(changed) || number(changed) != Integer.parseInt(line.group(1))
                    || !Path.of("variants", line.group(3)).equals(chapter) || number(changed) >= number(chapter)) {
                problems.add(chapter + ": the fold line names chapter " + line.group(1) + ", " + line.group(2) + " and " + line.group(3));
                continue;
            }
            String changedCode = "\n" + Files.readString(changed);
            for (String member : members(lines, fold + 1, lines.size())) {
                if (!changedCode.contains("\n" + member + "\n")) {
                    problems.add(chapter + ": below the fold, yet not word for word in " + changed + ": " + firstLine(member));
                }
            }
            for (String member : members(lines, endOf(lines, indexOf(lines, MAIN)) + 1, fold)) {
                if (changedCode.contains("\n" + member + "\n")) {
                    problems.add(chapter + ": above the fold, yet word for word in " + changed + ": " + firstLine(member));
                }
            }
        }
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    @Test
    void theMemberReaderFindsFieldsMethodsAndTypes() {
        List<String> lines = List.of("class A {", "    /** A field. */", "    static final int A = 1;", "",
                "    @Override", "    public long f(int a,", "                  int b) {", "        return a;", "    }",
                "    enum E { X, Y }", "    // a comment", "    static final long B =", "            2;", "}");
        assertEquals(List.of("    static final int A = 1;", "    @Override\n    public long f(int a,\n                  int b) {\n        return a;\n    }",
                "    enum E { X, Y }", "    static final long B =\n            2;"), members(lines, 0, lines.size()));
    }

    /** The fold line: "    // ===== below: chapter K's code, unchanged (diff variants/VKK….java variants/VNN….java) =====". */
    static final Pattern FOLD = Pattern.compile(
            "    // ===== below: chapter (\\d+)'s code, unchanged \\(diff variants/(V\\d\\d\\w*\\.java) variants/(V\\d\\d\\w*\\.java)\\) =====");
    private static final Pattern MAIN = Pattern.compile("^    public static void main\\(");
    /** A method or constructor at a class's own level: a name and its parameters, no '=' before them. */
    private static final Pattern METHOD = Pattern.compile("^    (?!return\\b|record\\b|enum\\b|class\\b|interface\\b)[\\w<>\\[\\], .?]*?\\b\\w+\\([^=]*$");
    private static final int FIRST_METHOD_BY_LINE = 80;
    private static final String GUARD_CALL = "        keepFaultsCatchable(segment, from, to);\n";

    static int number(Path chapter) {
        return Integer.parseInt(chapter.getFileName().toString().substring(1, 3));
    }

    static boolean mapsTheFile(String code) {
        return Pattern.compile("(?m)^public class \\w+ implements [^{]*\\bMapsTheFile\\b").matcher(code).find();
    }

    private static int indexOf(List<String> lines, Pattern pattern) {
        for (int i = 0; i < lines.size(); i++) {
            if (pattern.matcher(lines.get(i)).find()) {
                return i;
            }
        }
        return -1;
    }

    /** The line that closes the member starting at {@code start}. */
    private static int endOf(List<String> lines, int start) {
        int end = start;
        while (!lines.get(end).equals("    }")) {
            end++;
        }
        return end;
    }

    /**
     * The class's own members in {@code [from, to)} of the lines (fields, methods, nested types), each
     * from its first line (annotations included) to its last, comments and blank lines left out.
     */
    static List<String> members(List<String> lines, int from, int to) {
        List<String> members = new ArrayList<>();
        for (int i = from; i < to; i++) {
            String line = lines.get(i);
            String code = line.strip();
            if (!line.startsWith("    ") || line.startsWith("     ") || code.startsWith("//") || code.startsWith("/*") || code.startsWith("*")) {
                continue;
            }
            int end = i;
            while (lines.get(end).strip().startsWith("@")) {
                end++;
            }
            while (!lines.get(end).endsWith("{") && !lines.get(end).endsWith(";") && !lines.get(end).endsWith("}")) {
                end++;
            }
            if (lines.get(end).endsWith("{")) {
                end = endOf(lines, end);
            }
            members.add(String.join("\n", lines.subList(i, end + 1)));
            i = end;
        }
        return members;
    }

    private static String firstLine(String member) {
        return member.lines().filter(line -> !line.strip().startsWith("@")).findFirst().orElse(member).strip();
    }

    /** A method's text, from its line to the closing brace at its own indentation. */
    private static String body(String code, int start) {
        int end = code.indexOf("\n    }\n", start);
        return code.substring(start, end + "\n    }\n".length());
    }
}
