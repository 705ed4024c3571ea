import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lab.results.*;
import org.junit.jupiter.api.Test;

/**
 * README's figures come from one reference machine's study: the machine its scoreboard block names,
 * the marker lab/report/ReadmeTables.java generates README's scoreboard from. That study must hold every
 * chapter in variants/ (but one its CPU could not run, which its machine.json names), each with its bill from the kernel, so that the book can point at a figure
 * for each chapter and each bill. A study made before a chapter, or before the bill was counted,
 * fails here until a fresh one is committed as the reference.
 */
class ReferenceStudyTest {

    static final Path README = Path.of("README.md");

    /** The machine README's scoreboard block names, read as ReadmeTables reads the markers. */
    static String referenceMachine() throws IOException {
        List<ReadmeTables.Block> scoreboards = ReadmeTables.blocks(README.toString(), Files.readString(README)).stream()
                .filter(block -> block.kind().equals("scoreboard")).toList();
        assertEquals(1, scoreboards.size(), "README has one scoreboard block, the reference machine's");
        return scoreboards.getFirst().parameter("machine");
    }

    /** The newest scoreboard row of each chapter in the reference study, read as README's tables read it. */
    static Map<String, StudyResults.Row> referenceScoreboard() throws IOException {
        String machine = referenceMachine();
        ReadmeResults results = new ReadmeResults(ReadmeTables.RESULTS, README.toAbsolutePath().getParent());
        Map<String, StudyResults.Row> newest = new LinkedHashMap<>();
        results.rows(machine, "scoreboard.csv").forEach(row -> newest.put(row.chapter(), row)); // appended in time order
        return newest;
    }

    static List<String> chaptersInVariants() {
        return Contents.CHAPTERS.stream().map(Class::getSimpleName).toList();
    }

    @Test
    void theReferenceStudyHasEveryChapterInVariants() throws IOException {
        Map<String, StudyResults.Row> scoreboard = referenceScoreboard();
        assertFalse(chaptersInVariants().isEmpty());
        String notRunOnThisCpu = new ReadmeResults(ReadmeTables.RESULTS, README.toAbsolutePath().getParent())
                .description(referenceMachine()).text(MachineDescription.NOT_ON_THIS_CPU).orElse("");
        List<String> missing = chaptersInVariants().stream()
                .filter(chapter -> !scoreboard.containsKey(chapter) && !notRunOnThisCpu.contains(chapter)).toList();
        assertEquals(List.of(), missing, "chapters in variants/ without a row in the reference machine's scoreboard ("
                + referenceMachine() + "), other than those its CPU could not run: run a fresh study and commit it as README's reference");
    }

    @Test
    void theReferenceStudyCarriesEachChaptersBill() throws IOException {
        Map<String, StudyResults.Row> scoreboard = referenceScoreboard();
        List<String> unbilled = scoreboard.values().stream()
                .filter(row -> !row.bill().keySet().containsAll(StudyResults.BILL)).map(StudyResults.Row::chapter).toList();
        assertEquals(List.of(), unbilled, "chapters whose row in the reference machine's scoreboard (" + referenceMachine()
                + ") has no bill from the kernel, or only part of it: run a fresh study and commit it as README's reference");
    }
}
