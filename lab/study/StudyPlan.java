// Which steps the study runs, in which order: the rounds its options and the chapters' traits choose.
// No package line, as every file of study/: the study compiles them together with its //SOURCES.

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import lib.chapter.ChapterTrait;
import lib.cli.Quote;
import lib.cli.UserMistakeException;
import lib.haystack.Haystack;
import lib.linux.HugeFolios;
import lab.tools.Chromium;

/** The study's plan: its steps from its options ({@link Study}) and what each chapter declares (lib/chapter/ChapterTrait). */
final class StudyPlan {

    private StudyPlan() {}

    /**
     * The scoreboard first, then the sweep, the page-cache round, the read sizes and the cold round, with the walls
     * before and after each warm round ({@link WallSittings}), then the flame graphs, the charts and the report:
     * the most wanted figures come first. {@code --quick} takes the scoreboard alone ({@link StudyDepth}).
     */
    static List<StudyStep> plan(Study study, List<String> chapters) throws IOException {
        List<StudyStep> steps = new ArrayList<>();
        for (String chapter : chapters) {
            steps.add(new StudyStep(Study.SCOREBOARD, chapter, StudyStep.CHAPTER_DEFAULT, false));
        }
        if (!study.skip.contains(Study.SCALING) && study.depth.takes(Study.SCALING)) {
            for (String chapter : chapters) {
                if (!declares(study, chapter, ChapterTrait.SINGLE_THREADED) && !declares(study, chapter, ChapterTrait.BYPASSES_PAGE_CACHE)) {
                    study.sweep.forEach(workers -> steps.add(new StudyStep(Study.SCALING, chapter, workers, false)));
                }
            }
        }
        if (!study.skip.contains(Study.PAGE_CACHE_TABLE) && study.depth.takes(Study.PAGE_CACHE_TABLE)) {
            String whyNot = HugeFolios.whyNot(study.file.toAbsolutePath().getParent()); // where the file is, or will be, created
            if (whyNot != null) {
                System.err.println("study: no page-cache round here: " + whyNot);
            } else {
                // State by state: each chapter finds the cache as the one before left it, so the file is read back
                // once per state, not once per chapter (lib/harness/PageCache.prepare keeps a state that is already there).
                for (String state : Study.PAGE_CACHE_STATES) {
                    for (String chapter : chapters) {
                        if (declares(study, chapter, ChapterTrait.MAPS_THE_FILE)) {
                            steps.add(new StudyStep(Study.PAGE_CACHE_TABLE, chapter, StudyStep.CHAPTER_DEFAULT, false, null, state));
                        }
                    }
                }
            }
        }
        if (!study.skip.contains(Study.CHUNKS_TABLE) && study.depth.takes(Study.CHUNKS_TABLE)) {
            for (String chapter : chapters) {
                if (Study.CHUNKS_ROUND_CHOICE.contains(Study.number(chapter))) {
                    study.chunks.forEach(chunk -> steps.add(new StudyStep(Study.CHUNKS_TABLE, chapter, StudyStep.CHAPTER_DEFAULT, false, chunk)));
                }
            }
        }
        if (!study.skip.contains(Study.COLD_TABLE) && study.depth.takes(Study.COLD_TABLE)) { // last of the rounds: no wall bounds it, so no sitting after it
            for (String chapter : chapters) {
                if (Study.COLD_ROUND_CHOICE.contains(Study.number(chapter)) || declares(study, chapter, ChapterTrait.BYPASSES_PAGE_CACHE)) {
                    steps.add(new StudyStep(Study.COLD_TABLE, chapter, StudyStep.CHAPTER_DEFAULT, true));
                }
            }
        }
        boolean wallsWanted = study.only == null || study.only.stream().anyMatch(name -> name.trim().equalsIgnoreCase(Study.ONLY_WALLS));
        if (!study.skip.contains("walls") && wallsWanted) {
            List<StudyStep> interleaved = WallSittings.interleave(steps);
            steps.clear();
            steps.addAll(interleaved);
            if (!study.depth.takes(NativeYardstick.TABLE)) {
                // --quick: the walls' sittings, but not the native yardstick
            } else if (NativeYardstick.compiler().isEmpty()) {
                System.err.println("study: no C compiler (cc) on PATH, so the walls round has no native yardstick (" + NativeYardstick.SOURCE + ")");
            } else {
                int processors = Runtime.getRuntime().availableProcessors();
                for (String yardstick : NativeYardstick.MODES.sequencedKeySet()) {
                    new TreeSet<>(List.of(1, processors)).forEach(workers -> steps.add(new StudyStep(NativeYardstick.TABLE, yardstick, workers, false)));
                }
            }
            // the model, from the unit costs and the walls of every sitting
            steps.add(new StudyStep(Study.MODEL, "CostModel", StudyStep.CHAPTER_DEFAULT, false));
        }
        if (!study.skip.contains(AnswerRound.TABLE) && study.depth.takes(AnswerRound.TABLE)) {
            chapters.stream().filter(AnswerRound::timesOneShot).forEach(chapter -> steps.add(new StudyStep(AnswerRound.TABLE, chapter, StudyStep.CHAPTER_DEFAULT, false)));
        }
        if (study.flamegraphs) {
            for (String chapter : chapters) {
                if (!declares(study, chapter, ChapterTrait.EXTERNAL_PROGRAM)) {
                    steps.add(new StudyStep(Study.FLAMEGRAPHS, chapter, StudyStep.CHAPTER_DEFAULT, false));
                }
            }
        }
        steps.addAll(finish(study));
        return steps;
    }

    /**
     * Refuses, before the first step, a FILE that exists but is no haystack of the project's (one made elsewhere, whose
     * non-zero word is not the needle in its last eight bytes, or a file of zeros) when the plan has the walls or the
     * unit costs: the chapters would time it, but the copy wall looks only at the file's last word and the unit costs
     * time faults over zeros, so both would refuse it late, after the chapters, and the study would end with failed
     * steps. Measuring them on a haystack of their own instead would make a second file as large as FILE, which no
     * tool does unasked (docs/safety.md), so the line says the two ways on: {@code --skip walls}, or a FILE to create.
     */
    static void requireMeasurable(Study study, List<StudyStep> steps) throws IOException {
        boolean needsAHaystack = steps.stream().anyMatch(step -> step.table().equals(Study.WALL_TABLE) || step.table().equals(Study.COSTS));
        if (needsAHaystack && Files.isRegularFile(study.file) && Files.size(study.file) > 0 && !Haystack.endsWithNeedle(study.file)) {
            throw new UserMistakeException(Quote.name(study.file) + " is not a haystack of this project (its last 8 bytes are not the needle), so the walls"
                    + " and the unit costs cannot measure on it; --skip walls times the chapters alone on it, or name a FILE that does not"
                    + " exist yet and the study makes a haystack there");
        }
    }

    private static boolean declares(Study study, String chapter, ChapterTrait trait) {
        return study.traits.get(chapter).contains(trait);
    }

    /**
     * The charts (every notebook of one machine, where Chromium can draw them, in one JShell: see
     * lab/report/Notebooks.java) and the report; with --report-only, the cost model first.
     */
    static List<StudyStep> finish(Study study) throws IOException {
        List<StudyStep> steps = new ArrayList<>();
        if (study.reportOnly) { // the model again from the CSVs there, before the charts draw it
            steps.add(new StudyStep(Study.MODEL, "CostModel", StudyStep.CHAPTER_DEFAULT, false));
        }
        if (!study.skip.contains(Study.CHARTS) && Chromium.find().isEmpty()) {
            System.err.println("study: no Chromium here, so no charts (lab/setup/setup-chromium installs it; "
                    + "then ./jbang study --report-only draws them)");
        } else if (!study.skip.contains(Study.CHARTS)) {
            try (Stream<Path> notebooks = Files.list(Path.of("notebooks"))) {
                steps.add(new StudyStep(Study.CHARTS, notebooks.map(path -> path.getFileName().toString())
                        .filter(name -> name.endsWith(".jsh"))
                        .map(name -> name.substring(0, name.length() - ".jsh".length()))
                        .filter(name -> !Study.ALL_MACHINES_NOTEBOOKS.contains(name) && !Study.MEASURING_NOTEBOOKS.contains(name))
                        .sorted()
                        .collect(Collectors.joining(",")), 1, false));
            }
        }
        steps.add(new StudyStep(Study.REPORT, "index.html", 1, false));
        return steps;
    }

    /**
     * The step as it runs: the chart step without the notebooks whose table this study has not
     * measured (each would stop), each said in one line; empty when none is left.
     */
    static Optional<StudyStep> drawable(Study study, StudyStep step, StudyProgress progress) {
        if (step.table().equals(Study.MODEL)) { // nothing to add up without the unit costs, the walls and the scoreboard
            boolean inputs = Stream.of(Study.COSTS, Study.WALL_TABLE, Study.SCOREBOARD).allMatch(table -> Files.isRegularFile(study.csv(table)));
            return inputs ? Optional.of(step) : Optional.empty();
        }
        if (!step.table().equals(Study.CHARTS)) {
            return Optional.of(step);
        }
        List<String> drawn = new ArrayList<>();
        for (String notebook : step.chapter().split(",")) {
            Optional<String> missing = tableNotMeasured(study, notebook);
            if (missing.isPresent()) { // e.g. --only V04: no sweep, so nothing for the scaling notebook to draw
                progress.println("charts: notebooks/" + notebook + ".jsh left out: no " + missing.get() + ".csv in this study");
            } else {
                drawn.add(notebook);
            }
        }
        return drawn.isEmpty() ? Optional.empty() : Optional.of(new StudyStep(Study.CHARTS, String.join(",", drawn), 1, false));
    }

    /** The results table a notebook draws from, when this study has not measured it. */
    private static Optional<String> tableNotMeasured(Study study, String notebook) {
        String table = switch (notebook) {
            case "chunks" -> Study.CHUNKS_TABLE;
            case "scaling" -> Study.SCALING;
            case "warm-vs-cold" -> Study.COLD_TABLE;
            case "answer" -> AnswerRound.TABLE;
            case "sizes" -> "sizes";
            case "model" -> Study.MODEL;
            default -> Study.SCOREBOARD;
        };
        return Files.isRegularFile(study.folder.resolve(table + ".csv")) ? Optional.empty() : Optional.of(table);
    }

}
