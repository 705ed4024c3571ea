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
import lib.ChapterTrait;
import org.junit.jupiter.api.Test;

/**
 * A chapter is a file in variants/, an alias in the catalog, a line in the test list and a section of
 * README, and nothing else: what it is (mapped, parallel, reading in chunks...) it declares itself
 * (lib/chapter/ChapterTrait), and every tool derives its rounds and help from that. A chapter cannot be
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

    /** What the study reads from each chapter's source is what the chapter's class declares. */
    @Test
    void theTraitsReadFromEachChaptersSourceAreTheOnesItsClassDeclares() throws Exception {
        SequencedMap<String, Set<ChapterTrait>> read = ChapterTrait.inVariants(VARIANTS);
        assertEquals(chapterFiles(), List.copyOf(read.sequencedKeySet()));
        for (String chapter : chapterFiles()) {
            assertEquals(ChapterTrait.of(Class.forName(chapter)), read.get(chapter), chapter + ": the traits its "
                    + "'public class … implements' line names differ from those its class has (an interface that extends a marker?)");
        }
    }

    /** The two rounds the study fills by choice name chapters that exist, and can run that round. */
    @Test
    void theStudysOwnChoicesNameRealChapters() throws IOException {
        String study = Files.readString(Path.of("study/Study.java"));
        Set<String> numbers = chapterFiles().stream().map(chapter -> chapter.substring(0, 3)).collect(Collectors.toSet());
        SequencedMap<String, Set<ChapterTrait>> traits = ChapterTrait.inVariants(VARIANTS);
        for (String choice : List.of("COLD_ROUND_CHOICE", "CHUNKS_ROUND_CHOICE")) {
            Matcher declared = Pattern.compile(choice + "\\s*=\\s*Set\\.of\\(([^)]*)\\)").matcher(study);
            assertTrue(declared.find(), "study/Study.java no longer declares " + choice + " = Set.of(...); mend this test with it");
            List<String> chosen = Pattern.compile("\"(V\\d\\d)\"").matcher(declared.group(1)).results().map(hit -> hit.group(1)).toList();
            assertFalse(chosen.isEmpty(), choice + " names no chapter");
            for (String number : chosen) {
                assertTrue(numbers.contains(number), "study/Study.java's " + choice + " names " + number + ", which is no chapter in variants/");
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
        SequencedMap<String, Set<ChapterTrait>> traits = ChapterTrait.inVariants(VARIANTS);
        assertFalse(SizeSweep.SIZE_ROUND_CHOICE.isEmpty(), "SizeSweep.SIZE_ROUND_CHOICE names no chapter");
        for (String chapter : SizeSweep.SIZE_ROUND_CHOICE) {
            assertTrue(files.contains(chapter), "study/SizeSweep.java's SIZE_ROUND_CHOICE names " + chapter + ", which is no chapter in variants/");
            assertFalse(traits.get(chapter).contains(ChapterTrait.EXTERNAL_PROGRAM), "SIZE_ROUND_CHOICE names " + chapter + ", which is not Java");
        }
        List<Integer> chosen = SizeSweep.SIZE_ROUND_CHOICE.stream().map(chapter -> Integer.parseInt(chapter.substring(1, 3))).sorted().toList();
        picocli.CommandLine.Model.CommandSpec help = new picocli.CommandLine(new SizeSweep()).getCommandSpec();
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
        for (String folder : List.of("lib", "study", "report", "yardsticks", "experiments")) {
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
