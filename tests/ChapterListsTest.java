import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import lib.ChunkedSearch;
import org.junit.jupiter.api.Test;

/**
 * A chapter is a file in variants/ and a line in several other places. Every file there must be in
 * each of them, so that a chapter cannot be half-added: the failure says what is missing where.
 */
class ChapterListsTest {

    private static final Path VARIANTS = Path.of("variants");

    static List<String> chapterFiles() throws IOException {
        try (Stream<Path> files = Files.list(VARIANTS)) {
            return files.map(file -> file.getFileName().toString())
                    .filter(name -> name.matches("V\\d\\d\\w*\\.java"))
                    .map(name -> name.substring(0, name.length() - ".java".length()))
                    .sorted()
                    .toList();
        }
    }

    @Test
    void everyChapterInVariantsIsInTheCatalogTheTestsAndTheReadme() throws IOException {
        String catalog = Files.readString(Path.of("jbang-catalog.json"));
        String readme = Files.readString(Path.of("README.md"));
        Set<String> tested = Chapters.all().stream().map(Chapters::name).collect(Collectors.toSet());
        tested.addAll(Chapters.TESTED_COLD_ONLY);
        List<String> missing = new ArrayList<>();
        for (String chapter : chapterFiles()) {
            String script = "variants/" + chapter + ".java";
            if (!Pattern.compile("\"script-ref\"\\s*:\\s*\"" + Pattern.quote(script) + "\"").matcher(catalog).find()) {
                missing.add("jbang-catalog.json has no alias whose script-ref is " + script);
            }
            if (!tested.contains(chapter)) {
                missing.add("tests/support/Chapters.java does not list " + chapter + " (in all(), or in TESTED_COLD_ONLY)");
            }
            if (!readme.contains("`" + script + "`")) {
                missing.add("README.md never names `" + script + "` (its chapter's heading does)");
            }
        }
        assertTrue(missing.isEmpty(), "a chapter is half-added:\n  " + String.join("\n  ", missing));
    }

    @Test
    void theChaptersThatReadInChunksAreTheOnesTheHarnessNames() throws Exception {
        Set<String> implementing = new TreeSet<>();
        for (String chapter : chapterFiles()) {
            if (ChunkedSearch.class.isAssignableFrom(Class.forName(chapter))) {
                implementing.add(chapter.substring(0, 3));
            }
        }
        Set<String> named = new TreeSet<>(Arrays.asList(ChunkedSearch.CHAPTERS.split(", ")));
        assertEquals(implementing, named, "ChunkedSearch.CHAPTERS (in --chunk's help and error) must name exactly "
                + "the chapters that implement ChunkedSearch");
    }

    @Test
    void everyChapterTestedEverywhereIsAChapterFile() throws IOException {
        List<String> files = chapterFiles();
        for (String chapter : Chapters.all().stream().map(Chapters::name).toList()) {
            assertTrue(files.contains(chapter), chapter + " is in tests/support/Chapters.java but not in variants/");
        }
        Matcher refs = Pattern.compile("\"script-ref\"\\s*:\\s*\"variants/(\\w+)\\.java\"").matcher(Files.readString(Path.of("jbang-catalog.json")));
        while (refs.find()) {
            assertTrue(files.contains(refs.group(1)), "jbang-catalog.json names variants/" + refs.group(1) + ".java, which does not exist");
        }
    }
}
