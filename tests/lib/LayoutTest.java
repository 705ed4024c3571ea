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
 * A package is its folder: {@code lib/harness/Harness.java} says {@code package lib.harness;}, so an
 * import sends a reader to the file it names. Nothing outside lib/ declares a lib package. And one
 * idea per file: no source outside tests/ runs past about 500 lines.
 */
class LayoutTest {

    /** Past about this many lines a file holds several ideas, and is split along them. */
    private static final int MOST_LINES_PER_FILE = 500;

    private static final Pattern PACKAGE = Pattern.compile("(?m)^package ([\\w.]+);");

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
        for (String folder : List.of("variants", "study", "report", "notebooks", "yardsticks", "experiments")) {
            for (Path file : javaFiles(Path.of(folder))) {
                Matcher declared = PACKAGE.matcher(Files.readString(file));
                if (declared.find() && (declared.group(1).equals("lib") || declared.group(1).startsWith("lib."))) {
                    wrong.add(file + " declares package " + declared.group(1));
                }
            }
        }
        assertTrue(wrong.isEmpty(), String.join("\n", wrong));
    }

    @Test
    void noSourceOutsideTestsRunsPastFiveHundredLines() throws IOException {
        List<String> tooLong = new ArrayList<>();
        for (String folder : List.of("lib", "variants", "study", "report", "notebooks", "yardsticks", "experiments")) {
            for (Path file : javaFiles(Path.of(folder))) {
                long lines = Files.readAllLines(file).size();
                if (lines > MOST_LINES_PER_FILE) {
                    tooLong.add(file + " has " + lines + " lines");
                }
            }
        }
        assertTrue(tooLong.isEmpty(), String.join("\n", tooLong));
    }

    private static List<Path> javaFiles(Path folder) throws IOException {
        try (Stream<Path> files = Files.walk(folder)) {
            return files.filter(file -> file.toString().endsWith(".java")).sorted().toList();
        }
    }
}
