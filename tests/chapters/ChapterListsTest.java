import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SequencedMap;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import lib.chapter.ChapterTrait;
import notebooks.*;
import org.junit.jupiter.api.Test;

/**
 * A chapter is a file in variants/, a class in variants/Contents.java, an alias in the catalog, a line
 * in the test list and a section of README, and nothing else: what it is (mapped, parallel, reading in
 * chunks...) it declares itself, by the types it implements (lib/chapter/ChapterTrait), and every tool derives
 * its rounds and help from that. A chapter cannot be
 * half-added: the failure says what is missing where.
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
            int number = Integer.parseInt(chapter.substring(1, 3));
            if (!Pattern.compile("(?m)^### Chapter " + number + "\\b.*`" + Pattern.quote(script) + "`").matcher(readme).find()) {
                missing.add("README.md has no section '### Chapter " + number + ": … — `" + script + "`'");
            }
        }
        assertTrue(missing.isEmpty(), "a chapter is half-added:\n  " + String.join("\n  ", missing));
    }

    /** A chapter's javadoc's first line: "Chapter N: TITLE — WHAT IT DOES." */
    private static final Pattern FIRST_LINE = Pattern.compile("(?m)^ \\* (Chapter (\\d+): (.+?) — .+\\.)$");

    /**
     * A chapter's title and one-line description are written once, as its javadoc's first line
     * ({@link #FIRST_LINE}); the catalog's description is that line, README's heading is its title,
     * and the charts name a chapter by its class name. Every place that says otherwise is named.
     */
    @Test
    void theCatalogReadmeAndChartsNameEachChapterAsItsJavadocDoes() throws IOException {
        String catalog = Files.readString(Path.of("jbang-catalog.json"));
        String readme = Files.readString(Path.of("README.md"));
        List<String> differences = new ArrayList<>();
        Set<String> shortNames = new java.util.HashSet<>();
        for (String chapter : chapterFiles()) {
            String script = "variants/" + chapter + ".java";
            int number = Integer.parseInt(chapter.substring(1, 3));
            Matcher first = FIRST_LINE.matcher(Files.readString(VARIANTS.resolve(chapter + ".java")));
            if (!first.find() || Integer.parseInt(first.group(2)) != number) {
                differences.add(script + ": its javadoc's first line is not 'Chapter " + number + ": TITLE — WHAT IT DOES.'");
                continue;
            }
            String line = first.group(1), title = first.group(3);
            Matcher described = Pattern.compile("\"script-ref\"\\s*:\\s*\"" + Pattern.quote(script)
                    + "\",\\s*\"description\"\\s*:\\s*\"([^\"]*)\"").matcher(catalog);
            String plain = line.replaceAll("\\{@code ([^}]*)}", "$1");
            if (!described.find() || !described.group(1).equals(plain)) {
                differences.add("jbang-catalog.json's description of " + script + " is not its javadoc's first line: \"" + plain + "\"");
            }
            String heading = "### Chapter " + number + ": " + title.replaceAll("\\{@code ([^}]*)}", "`$1`") + " — `" + script + "`";
            if (!readme.lines().toList().contains(heading)) {
                differences.add("README.md has no heading '" + heading + "', the title in " + script + "'s javadoc");
            }
            String shortName = Notebook.shortName(chapter);
            if (!shortName.startsWith(chapter.substring(0, 3) + " ") || !shortNames.add(shortName)) {
                differences.add("the charts' short name of " + chapter + ", '" + shortName + "', is not its own");
            }
        }
        assertTrue(differences.isEmpty(), "a chapter is named otherwise than its javadoc names it:\n  " + String.join("\n  ", differences));
    }

    /**
     * variants/Contents.java, whose classes the tools ask for their traits, holds every chapter
     * file's class, in order, and nothing else: a chapter left out would be left out of every round.
     */
    @Test
    void theContentsHoldEveryChapterInOrder() throws IOException {
        assertEquals(chapterFiles(), Contents.CHAPTERS.stream().map(Class::getSimpleName).toList(),
                "variants/Contents.java's CHAPTERS and the chapter files in variants/");
        assertEquals(chapterFiles(), List.copyOf(Contents.traits().sequencedKeySet()));
        for (Class<?> chapter : Contents.CHAPTERS) {
            assertTrue(lib.chapter.NeedleSearch.class.isAssignableFrom(chapter), chapter + " is no chapter: it does not implement lib.chapter.NeedleSearch");
            assertEquals(ChapterTrait.of(chapter), Contents.traits().get(chapter.getSimpleName()));
        }
    }

    /** The two rounds the study fills by choice name chapters that exist, and can run that round. */
    @Test
    void theStudysOwnChoicesNameRealChapters() throws IOException {
        String study = Files.readString(Path.of("lab/study/Study.java"));
        Set<String> numbers = chapterFiles().stream().map(chapter -> chapter.substring(0, 3)).collect(Collectors.toSet());
        SequencedMap<String, Set<ChapterTrait>> traits = Contents.traits();
        for (String choice : List.of("COLD_ROUND_CHOICE", "CHUNKS_ROUND_CHOICE")) {
            Matcher declared = Pattern.compile(choice + "\\s*=\\s*Set\\.of\\(([^)]*)\\)").matcher(study);
            assertTrue(declared.find(), "lab/study/Study.java no longer declares " + choice + " = Set.of(...); mend this test with it");
            List<String> chosen = Pattern.compile("\"(V\\d\\d)\"").matcher(declared.group(1)).results().map(hit -> hit.group(1)).toList();
            assertFalse(chosen.isEmpty(), choice + " names no chapter");
            for (String number : chosen) {
                assertTrue(numbers.contains(number), "lab/study/Study.java's " + choice + " names " + number + ", which is no chapter in variants/");
                Set<ChapterTrait> declaredThere = traits.entrySet().stream().filter(entry -> entry.getKey().startsWith(number))
                        .findFirst().orElseThrow().getValue();
                assertFalse(declaredThere.contains(ChapterTrait.EXTERNAL_PROGRAM), choice + " names " + number + ", which is not Java");
                if (choice.startsWith("CHUNKS")) {
                    assertTrue(declaredThere.contains(ChapterTrait.READS_IN_CHUNKS), choice + " names " + number + ", which does not read in chunks");
                }
            }
        }
    }

    /**
     * The size round's chapters, the sweep's own choice, are chapter files, in Java, and its help
     * names the chapters it takes by default: a help that drifted from the choice would mislead.
     */
    @Test
    void theSizeSweepsChoiceNamesRealChaptersAndItsHelpNamesThem() throws IOException {
        List<String> files = chapterFiles();
        SequencedMap<String, Set<ChapterTrait>> traits = Contents.traits();
        assertFalse(SizeSweep.SIZE_ROUND_CHOICE.isEmpty(), "SizeSweep.SIZE_ROUND_CHOICE names no chapter");
        for (String chapter : SizeSweep.SIZE_ROUND_CHOICE) {
            assertTrue(files.contains(chapter), "lab/study/SizeSweep.java's SIZE_ROUND_CHOICE names " + chapter + ", which is no chapter in variants/");
            assertFalse(traits.get(chapter).contains(ChapterTrait.EXTERNAL_PROGRAM), "SIZE_ROUND_CHOICE names " + chapter + ", which is not Java");
        }
        List<Integer> chosen = SizeSweep.SIZE_ROUND_CHOICE.stream().map(chapter -> Integer.parseInt(chapter.substring(1, 3))).sorted().toList();
        picocli.CommandLine.Model.CommandSpec help = new picocli.CommandLine(new SizeSweep(System.out, System.err)).getCommandSpec();
        String summary = String.join(" ", help.usageMessage().description());
        String chaptersOption = String.join(" ", help.findOption("--chapters").description());
        assertEquals(chosen, numbersIn(summary.replaceFirst(" on haystacks.*", "")), "SizeSweep's description: " + summary);
        assertEquals(chosen, numbersIn(chaptersOption.replaceFirst(".*default:", "")), "SizeSweep's --chapters help: " + chaptersOption);
    }

    private static List<Integer> numbersIn(String text) {
        return Pattern.compile("\\d+").matcher(text).results().map(hit -> Integer.parseInt(hit.group())).sorted().toList();
    }

    /**
     * No list of chapters is written out anywhere else in the tools and the library: each is derived
     * from what the chapters declare (a list like "V04-V06, V08" in a help text would miss a new chapter).
     */
    @Test
    void noToolOrLibraryFileKeepsAChapterListOfItsOwn() throws IOException {
        Pattern list = Pattern.compile("(Set|List)\\.of\\(\"V\\d\\d|V\\d\\d-V\\d\\d|\"V\\d\\d, V\\d\\d");
        List<String> found = new ArrayList<>();
        for (String folder : List.of("lib", "lab")) {
            try (Stream<Path> files = Files.walk(Path.of(folder))) {
                for (Path file : files.filter(path -> path.toString().endsWith(".java")).sorted().toList()) {
                    List<String> lines = Files.readAllLines(file);
                    for (int i = 0; i < lines.size(); i++) {
                        if (list.matcher(lines.get(i)).find() && !lines.get(i).contains("_CHOICE = ")) {
                            found.add(file + ":" + (i + 1) + ": " + lines.get(i).strip());
                        }
                    }
                }
            }
        }
        assertTrue(found.isEmpty(), "chapter lists that a new chapter would miss:\n  " + String.join("\n  ", found));
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
