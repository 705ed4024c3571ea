import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The layout: the lesson (variants/, lib/, notebooks/, results/, README.md) apart from the lab that
 * measures it (lab/). A package is its folder: {@code lib/harness/Harness.java} says
 * {@code package lib.harness;}, so an import sends a reader to the file it names. lib/ is what a
 * chapter needs and nothing else, its packages use one another in one direction only, and one idea
 * per file: no source outside tests/ runs past about 500 lines.
 */
class LayoutTest {

    /** Past about this many lines a file holds several ideas, and is split along them. */
    private static final int MOST_LINES_PER_FILE = 500;

    private static final Pattern PACKAGE = Pattern.compile("(?m)^package ([\\w.]+);");
    private static final Pattern IMPORT = Pattern.compile("(?m)^import (?:static )?lib\\.(\\w+)\\.");

    /** The folders at the top: the lesson's four, docs and tests, CI's, and one lab. (A haystack beside them is a file.) */
    @Test
    void theTopLevelHoldsTheLessonAndOneLab() throws IOException {
        Set<String> folders = new TreeSet<>();
        try (Stream<Path> top = Files.list(Path.of("."))) {
            top.filter(Files::isDirectory).map(path -> path.getFileName().toString()).filter(name -> !name.equals(".git")).forEach(folders::add);
        }
        assertEquals(new TreeSet<>(List.of(".ci", "docs", "lab", "lib", "notebooks", "results", "tests", "variants")), folders);
        for (String file : List.of("README.md", "jbang", "jbang-catalog.json")) {
            assertTrue(Files.isRegularFile(Path.of(file)), file);
        }
    }

    @Test
    void everyFileUnderLibDeclaresThePackageOfItsFolder() throws IOException {
        List<String> wrong = new ArrayList<>();
        List<Path> sources = javaFiles(Path.of("lib"));
        assertTrue(sources.size() > 10, "lib/ holds " + sources);
        for (Path file : sources) {
            String folder = file.getParent().toString().replace(file.getFileSystem().getSeparator(), ".");
            Matcher declared = PACKAGE.matcher(Files.readString(file));
            if (!declared.find() || !declared.group(1).equals(folder)) {
                wrong.add(file + " should say package " + folder + ";");
            }
        }
        assertTrue(wrong.isEmpty(), String.join("\n", wrong));
    }

    @Test
    void noFileOutsideLibDeclaresALibPackage() throws IOException {
        List<String> wrong = new ArrayList<>();
        for (String folder : List.of("variants", "lab", "notebooks")) {
            for (Path file : javaFiles(Path.of(folder))) {
                Matcher declared = PACKAGE.matcher(Files.readString(file));
                if (declared.find() && (declared.group(1).equals("lib") || declared.group(1).startsWith("lib."))) {
                    wrong.add(file + " declares package " + declared.group(1));
                }
            }
        }
        assertTrue(wrong.isEmpty(), String.join("\n", wrong));
    }

    /** lib/ is the chapters' library: it names nothing of the lab, the notebooks or their jars. */
    @Test
    void libNamesNothingOfTheLabOrTheNotebooks() throws IOException {
        List<String> wrong = new ArrayList<>();
        for (Path file : javaFiles(Path.of("lib"))) {
            for (String line : Files.readAllLines(file)) {
                if (line.startsWith("import lab.") || line.startsWith("import tech.tablesaw") || line.startsWith("import notebooks.")
                        || (line.startsWith("//") && (line.contains("../lab/") || line.contains("../notebooks/") || line.contains("tablesaw")))) {
                    wrong.add(file + ": " + line);
                }
            }
        }
        assertTrue(wrong.isEmpty(), String.join("\n", wrong));
    }

    /** An import between two of lib/'s packages goes one way: no two packages use each other, directly or around a loop. */
    @Test
    void libsPackagesFormNoCycle() throws IOException {
        Map<String, Set<String>> uses = new TreeMap<>();
        for (Path file : javaFiles(Path.of("lib"))) {
            if (file.getParent().getFileName().toString().equals("lib")) {
                continue; // lib/Library.java names the folders; it is no package of theirs
            }
            String from = file.getParent().getFileName().toString();
            Matcher imported = IMPORT.matcher(Files.readString(file));
            while (imported.find()) {
                if (!imported.group(1).equals(from)) {
                    uses.computeIfAbsent(from, key -> new TreeSet<>()).add(imported.group(1));
                }
            }
        }
        for (String start : uses.keySet()) {
            List<String> loop = pathBack(uses, start, start, new ArrayList<>(List.of(start)), new TreeSet<>());
            assertTrue(loop == null, "lib's packages use one another around a loop: " + loop + " (" + uses + ")");
        }
    }

    @Test
    void noSourceOutsideTestsRunsPastFiveHundredLines() throws IOException {
        List<String> tooLong = new ArrayList<>();
        for (String folder : List.of("lib", "variants", "lab", "notebooks")) {
            for (Path file : javaFiles(Path.of(folder))) {
                long lines = Files.readAllLines(file).size();
                if (lines > MOST_LINES_PER_FILE) {
                    tooLong.add(file + " has " + lines + " lines");
                }
            }
        }
        assertTrue(tooLong.isEmpty(), String.join("\n", tooLong));
    }

    /** A path from {@code at} back to {@code start} along {@code uses}, or null. */
    private static List<String> pathBack(Map<String, Set<String>> uses, String start, String at, List<String> path, Set<String> seen) {
        for (String next : uses.getOrDefault(at, Set.of())) {
            if (next.equals(start)) {
                List<String> loop = new ArrayList<>(path);
                loop.add(start);
                return loop;
            }
            if (seen.add(next)) {
                path.add(next);
                List<String> found = pathBack(uses, start, next, path, seen);
                if (found != null) {
                    return found;
                }
                path.removeLast();
            }
        }
        return null;
    }

    private static List<Path> javaFiles(Path folder) throws IOException {
        try (Stream<Path> files = Files.walk(folder)) {
            return files.filter(file -> file.toString().endsWith(".java")).sorted().toList();
        }
    }
}
