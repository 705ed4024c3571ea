// A step's command line, as a user would type it, and a guess of how long it takes. No package
// line, as every file of study/: the study compiles them together with its //SOURCES.

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.Stream;
import lab.tools.ChildProcess;

/** The command that runs one step in a JVM of its own, and its expected seconds. */
final class StepCommand {

    private StepCommand() {}

    /** The step's command line: the chapter, probe or notebooks run as a user starts them, with the study's options. */
    static List<String> of(Study study, StudyStep step) {
        if (step.table().equals(Study.CHARTS)) {
            List<String> command = new ArrayList<>(List.of("./jbang", "-Dresults=" + study.results, "-Dmachine=" + study.machine, "lab/report/Notebooks.java"));
            Stream.of(step.chapter().split(",")).forEach(notebook -> command.add("notebooks/" + notebook + ".jsh"));
            return command;
        }
        if (step.table().equals(Study.REPORT)) {
            return List.of("(writes " + study.folder.resolve("index.html") + ")");
        }
        if (step.table().equals(NativeYardstick.TABLE)) {
            return study.nativeYardstick.command(step.chapter(), study.file, step.workers(), study.runOptions.runs(), study.runOptions.warmup(),
                    OptionalLong.empty());
        }
        if (step.table().equals(AnswerRound.TABLE)) {
            return AnswerRound.command(study.file, step.chapter(), study.depth.oneShotRuns(study.runOptions), study.csv(AnswerRound.TABLE));
        }
        if (step.table().equals(Study.COSTS)) {
            return ChildProcess.jbang("lab/yardsticks/UnitCosts.java", List.of(study.file.toString(), "--csv", study.csv(Study.COSTS).toString())).command();
        }
        if (step.table().equals(Study.MODEL)) {
            return ChildProcess.jbang("lab/report/CostModel.java", List.of(study.folder.toString(), "--csv", study.csv(Study.MODEL).toString())).command();
        }
        List<String> command = new ArrayList<>();
        if (WallSittings.isSitting(step)) {
            command.add(WallSittings.probes(step));
        } else if (step.table().equals(Study.WALL_TABLE)) {
            command.add(switch (step.chapter()) {
                case "WallMemoryRead" -> "memory";
                case "WallMemoryReadHuge" -> "memory-huge";
                case "WallMemoryReadWidest" -> "memory-widest";
                default -> "copy";
            });
        }
        command.add(study.file.toString());
        command.addAll(study.depth.runsArguments(study.runOptions));
        command.addAll(List.of("--warmup", Integer.toString(study.runOptions.warmup())));
        if (step.workers() != StudyStep.CHAPTER_DEFAULT) {
            command.addAll(List.of("--workers", Integer.toString(step.workers())));
        } else if (WallSittings.isSitting(step)) {
            command.addAll(List.of("--workers", WallSittings.workers(Runtime.getRuntime().availableProcessors())));
        }
        if (step.chunkBytes() != null) {
            command.addAll(List.of("--chunk", Long.toString(step.chunkBytes())));
        }
        if (step.table().equals(Study.FLAMEGRAPHS)) {
            command.addAll(List.of("--profile", "--flamegraphs", study.folder.resolve(Study.FLAMEGRAPHS).toString()));
        } else {
            command.addAll(List.of("--csv", study.csv(step.table()).toString()));
        }
        if (step.cold()) {
            command.add("--cold");
        }
        if (!step.pageCache().equals("as-is")) {
            command.addAll(List.of("--page-cache", step.pageCache()));
        }
        return step.table().equals(Study.WALL_TABLE) ? ChildProcess.jbang("lab/yardsticks/WallProbe.java", command).command()
                : ChildProcess.chapter(step.chapter(), command).command(); // as a user starts it, with its header's options
    }

    /** A chapter's JVM start through JBang, with its checks: the part of a step that no file size changes. */
    static final double START_UP_SECONDS = 4;

    /**
     * A guess of a step's seconds, from the plan, for the time left: a JVM's start, then each pass
     * over the file at a speed typical of its kind: one to warm the cache, the warm-up runs the
     * chapter is given, and the timed runs the run budget leaves (a pass of chapter 2 longer than the
     * budget is its only timed run). The study scales the guesses by how long the timed steps took
     * against theirs ({@link StudyProgress}), so their proportions matter most.
     */
    static double expectedSeconds(Study study, StudyStep step, long fileBytes) {
        if (step.table().equals(Study.CHARTS)) {
            return 15 * step.chapter().split(",").length;
        }
        if (step.table().equals(Study.REPORT)) {
            return 1;
        }
        if (step.table().equals(Study.COSTS) || step.table().equals(Study.MODEL)) {
            return step.table().equals(Study.COSTS) ? 30 : START_UP_SECONDS;
        }
        double megabytesPerSecond = step.cold() ? 2_000 : switch (Study.number(step.chapter())) {
            case "V00" -> 4_000;
            case "V01" -> 1_500;
            case "V02" -> 170;
            case "V14", "V15" -> 2_500;
            default -> 15_000;
        };
        double passSeconds = fileBytes / (megabytesPerSecond * 1e6);
        if (step.table().equals(AnswerRound.TABLE)) { // fresh processes: each a start, a pre-read at most and one search
            return study.depth.oneShotRuns(study.runOptions) * (START_UP_SECONDS + 2 * passSeconds);
        }
        int timedRuns = study.depth.budget(study.runOptions).timedRuns(study.depth.runs(study.runOptions), new double[] {passSeconds});
        return START_UP_SECONDS + (1 + study.runOptions.warmup() + timedRuns) * passSeconds;
    }
}
