///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
//SOURCES ../LabWithChapters.java *.java ../report/StudyReport.java ../yardsticks/NativeYardstick.java
//COMPILE_OPTIONS --add-modules jdk.incubator.vector
//RUNTIME_OPTIONS --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Locale;
import java.util.Map;
import java.util.SequencedMap;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import lab.results.*;
import lib.chapter.ChapterTrait;
import lib.cli.SizeConverter;
import lab.tools.ToolCommand;
import lib.cli.UserMistakeException;
import lib.haystack.Haystack;
import lib.harness.Machine;
import lib.harness.ProjectVersion;
import lib.harness.ResultsCsv;
import lib.harness.RunOptions;
import lab.tools.ChildProcess;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The whole study in one command, from a fresh clone to this machine's report: every chapter, in
 * order, each in a JVM of its own, on one haystack, into {@code results/MACHINE/} (see lib/harness/Machine).
 *
 * <ol>
 *   <li>the scoreboard (warm page cache, one worker per processor) into {@code scoreboard.csv}, opened
 *       by "chapter zero": {@code cmp FILE /dev/zero}, the yardstick a shell user would reach for;
 *   <li>the worker sweep of the parallel chapters into {@code scaling.csv}, one JVM per worker count;
 *   <li>the page-cache round: the chapters that map the file, with the cache read back in 4 KiB folios
 *       and in 2 MiB folios ({@code --page-cache small|huge}), into {@code pagecache.csv};
 *   <li>the read sizes of chapters 3 and 13, one JVM per size, into {@code chunks.csv};
 *   <li>the cold-cache round, the file evicted before every run, into {@code cold.csv};
 *   <li>the walls (lab/yardsticks/WallProbe.java) at one worker and one per processor, into {@code wall.csv}, before and
 *       after each warm round, so that each is measured in the conditions of what it bounds (see WallSittings),
 *       and where a C compiler is, the native yardstick (lab/yardsticks/native-yardstick.c) likewise, into {@code native.csv};
 *   <li>with {@code --flamegraphs}, each chapter once more with {@code --profile}, into {@code flamegraphs/};
 *   <li>the charts, by running the notebooks for this machine (where Chromium is installed), and
 *       the report, {@code index.html}, with {@code machine.json} beside it.
 * </ol>
 *
 * Each chapter runs as {@code ./jbang variants/VNN….java FILE --csv …}, so no chapter's JIT, heap or
 * mappings leak into the next one's figures. Each row is appended once its runs are done, so an
 * interrupted study keeps what it finished, and {@code --resume} skips those rows next time.
 *
 * <pre>
 * How to run (from the project's root):   ./jbang lab/study/Study.java
 * A quick try:   ./jbang lab/study/Study.java /tmp/small.bin --size 64m --runs 1 --warmup 0 --only V04 --results /tmp/study
 * </pre>
 */
@Command(name = "Study", mixinStandardHelpOptions = true, versionProvider = ProjectVersion.class,
        customSynopsis = {"./jbang lab/study/Study.java [FILE] [--runs N] [--warmup N] [--size SIZE]",
                "    [--quick | --full] [--only VNN[,VNN...]] [--sweep N[,N...]]",
                "    [--chunks SIZE[,SIZE...]] [--skip ROUND[,ROUND...]] [--flamegraphs]",
                "    [--sizes[=SIZE[,SIZE...]] [--keep-haystacks]] [--results DIR] [--resume]",
                "    [--report-only [--machine NAME]] [--dry-run] [--help] [--version]"},
        sortOptions = false, usageHelpAutoWidth = true,
        description = {"Runs every chapter, the walls and the read sizes on one haystack, into results/MACHINE/, "
                + "then draws the charts and writes the report, results/MACHINE/index.html.",
                "Rounds: by default the scoreboard, scaling (a short sweep), pagecache, chunks and cold, with the walls "
                        + "measured before and after each warm round, and 5 timed runs a chapter, 3 when a run takes over 5 s, "
                        + "1 when one takes over 30 s; --quick: the scoreboard and the walls around it, 3 runs; "
                        + "--full: every round with the long sweep, and every run however long."},
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:every step ran, or was not run on this CPU because it lacks what the chapter needs (AVX-512)", "2:a step failed (the others still ran) or an error (one line on stderr)"})
public class Study implements Callable<Integer> {

    /*
     * Which chapter goes into which round follows from what each chapter declares (lib/chapter/ChapterTrait):
     * the worker sweep takes those with workers whose warm runs read the page cache, the page-cache
     * round those that map the file, the cold round those that read around the cache. Two rounds
     * also take chapters of the study's choosing (ChapterListsTest checks that they exist):
     */
    /** Timed cold as well: one of each way of reading the file. */
    static final Set<String> COLD_ROUND_CHOICE = Set.of("V01", "V03", "V06", "V07", "V11", "V13", "V16", "V17");
    /** Read sizes swept: one thread reading in order, and the headline. */
    static final Set<String> CHUNKS_ROUND_CHOICE = Set.of("V03", "V13");
    static final List<String> PAGE_CACHE_STATES = List.of("small", "huge");
    /** The walls, as lab/yardsticks/WallProbe.java names them (its first argument) and records them (chapter column). */
    static final List<String> WALLS = List.of("WallMemoryRead", "WallMemoryReadHuge", "WallMemoryReadWidest", "WallPageCacheCopy");
    /** What {@code --only} takes besides chapters, for the walls round. */
    static final String ONLY_WALLS = "walls";

    static final String SCOREBOARD = "scoreboard", SCALING = "scaling", COLD_TABLE = "cold", WALL_TABLE = "wall", CHUNKS_TABLE = "chunks",
            PAGE_CACHE_TABLE = "pagecache";
    static final List<String> TABLES = List.of(SCOREBOARD, SCALING, PAGE_CACHE_TABLE, COLD_TABLE, WALL_TABLE, CHUNKS_TABLE,
            NativeYardstick.TABLE);
    /** Not CSVs: the round that records one async-profiler flame graph per chapter, the charts, the report. */
    static final String FLAMEGRAPHS = "flamegraphs", CHARTS = "charts", REPORT = "report";
    /** The machine's unit costs (lab/yardsticks/UnitCosts.java) and the cost model's table (lab/report/CostModel.java): CSVs of their own. */
    static final String COSTS = "costs", MODEL = "model";
    /** The rounds --skip can leave out. */
    static final List<String> SKIPPABLE = List.of(SCALING, PAGE_CACHE_TABLE, COLD_TABLE, "walls", CHUNKS_TABLE, AnswerRound.TABLE, CHARTS);
    /** Notebooks that draw every machine at once, not this machine's report. */
    static final Set<String> ALL_MACHINES_NOTEBOOKS = Set.of("machines");
    /** The notebook that measures the chapters itself, in one JVM (notebooks/chapters.jsh): not a chart of a study's rows. */
    static final Set<String> MEASURING_NOTEBOOKS = Set.of("chapters");

    @Mixin
    RunOptions runOptions;

    @Option(names = "--only", paramLabel = "VNN[,VNN...]", split = ",", hideParamSyntax = true,
            description = "Only these chapters, in every round, e.g. V00,V04,V13 (V00 is cmp); add 'walls' for the walls.")
    List<String> only;

    @Option(names = "--quick", description = "The scoreboard alone, 3 timed runs a chapter (fewer when runs are slow) "
            + "after one warm-up run, the walls before and after it, the charts and the report.")
    boolean quick;

    @Option(names = "--full", description = "Every round at full depth: the sweep over 1,2,4,6,8,12,24,48,96 workers, and every "
            + "run of --runs however long (the default sweeps 1, 2, 4 and 64 workers on 2 cores, "
            + "and a chapter whose runs take over 5 s takes 3 of them, over 30 s one).")
    boolean full;

    @Option(names = "--sweep", paramLabel = "N[,N...]", split = ",", hideParamSyntax = true,
            description = "Worker counts of the scaling round (default: 1, then 1, 2 and 32 per processor; with --full 1,2,4,6,8,12,24,48,96).")
    List<Integer> sweep;

    /** --quick, --full or neither; set with the options, in {@link #call}. */
    StudyDepth depth = StudyDepth.STANDARD;

    @Option(names = "--chunks", paramLabel = "SIZE[,SIZE...]", split = ",", hideParamSyntax = true, converter = SizeConverter.class,
            defaultValue = "4k,16k,64k,256k,1m,4m,16m,64m",
            description = "Read sizes of the chunks round (default: ${DEFAULT-VALUE}).")
    List<Long> chunks;

    @Option(names = "--skip", paramLabel = "ROUND[,ROUND...]", split = ",", hideParamSyntax = true,
            description = "Leave out rounds: scaling, pagecache, cold, walls, chunks, answer, charts.")
    List<String> skip = new ArrayList<>();

    @Option(names = "--flamegraphs", description = "Add a round: each chapter once more with --profile, "
            + "its flame graph in results/MACHINE/flamegraphs (figures of this round are not recorded: the profiler costs a little).")
    boolean flamegraphs;

    @Option(names = "--sizes", arity = "0..1", paramLabel = "SIZE[,SIZE...]", fallbackValue = "", hideParamSyntax = true,
            description = "Add a round, not run by default (it takes long and makes files up to 1.5 × memory): chapters 3, 9, 13, 14, 15 "
                    + "and 17 on haystacks of these sizes (default: 256m, 1g, 4g, half of memory, 1.5 × memory, none past that) beside FILE, "
                    + "into sizes.csv (lab/study/SizeSweep.java).")
    String sizes;

    @Option(names = "--keep-haystacks", description = "With --sizes, leave the haystacks the round made.")
    boolean keepHaystacks;

    @Option(names = "--results", paramLabel = "DIR", defaultValue = "results",
            description = "The results root (default: ${DEFAULT-VALUE}): the study writes into DIR/MACHINE/, created if missing.")
    Path results;

    @Option(names = "--resume", description = "Skip rows the CSVs already hold for this chapter, worker count, cache, read size and file size "
            + "(answer.csv: for this chapter).")
    boolean resume;

    @Option(names = "--report-only", description = "Measure nothing: draw the charts and write index.html from the CSVs already there.")
    boolean reportOnly;

    @Option(names = "--machine", paramLabel = "NAME",
            description = "With --report-only, the machine folder under --results to report on (default: this machine's).")
    String machineName;

    @Option(names = "--dry-run", description = "Print the steps and the commands, run nothing.")
    boolean dryRun;

    @Spec
    CommandLine.Model.CommandSpec spec;

    /** A machine's name as lib/harness/Machine makes it: lower-case words and numbers joined by single hyphens, one folder. */
    static final Pattern MACHINE_NAME = Pattern.compile("[a-z0-9]+(?:-[a-z0-9]+)*");
    /** What --report-only leaves no room for: it measures nothing. */
    static final List<String> MEASURING_OPTIONS = List.of("--resume", "--only", "--sweep", "--chunks", "--flamegraphs",
            "--runs", "--warmup", "--size");

    // What the study works with, once its options are checked: read by StudyPlan, StepCommand and StudyFolder.

    /** FILE, from {@link #runOptions}. */
    Path file;
    Path folder;
    String machine;
    /** Every chapter in variants/, with what it declares of itself. */
    SequencedMap<String, Set<ChapterTrait>> traits;
    final NativeYardstick nativeYardstick = new NativeYardstick("study");
    private boolean reportWritten;
    /** Chapters this CPU cannot run (chapter 12 without AVX-512), with the chapter's reason: not run again, not failures. */
    final Map<String, String> notOnThisCpu = new LinkedHashMap<>();
    /** The haystack's size, for machine.json when it is written again. */
    long studiedBytes;

    /** One line for a mistake or an I/O failure, as every tool says it (lab/tools/ToolCommand); a bug's stack trace. */
    public static void main(String[] args) {
        ToolCommand.run("Study", new Study(), args);
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        depth = StudyDepth.of(quick, full);
        sweep = sweep != null ? sweep : depth.sweep(Runtime.getRuntime().availableProcessors());
        runOptions.check();
        RunOptions.checkWorkers("--sweep", sweep);
        file = runOptions.file();
        for (long chunk : chunks) {
            if (chunk < Long.BYTES || chunk % Long.BYTES != 0) {
                throw new UserMistakeException("--chunks sizes must be positive multiples of 8 bytes, not " + chunk);
            }
        }
        ChildProcess.requireProjectRoot();
        StudyOptions.check(this);
        // A study measures into its own machine's folder, never into one committed with the project (CommittedMachines).
        if (machineName != null) {
            folder = results.resolve(machineName);
        } else {
            folder = reportOnly ? results.resolve(CommittedMachines.studyFolder(results, Machine.current().name()))
                    : CommittedMachines.ownFolder(results, "study", System.err);
        }
        machine = folder.getFileName().toString();
        List<String> chapters = chapters();
        List<StudyStep> steps = reportOnly ? StudyPlan.finish(this) : StudyPlan.plan(this, chapters);
        if (steps.stream().noneMatch(StudyStep::measures) && !reportOnly) {
            throw new UserMistakeException("nothing to run: --only " + String.join(",", only) + " leaves no step");
        }
        StudyPlan.requireMeasurable(this, steps); // a FILE the walls and the unit costs cannot read is refused now, not after the chapters
        int processors = Runtime.getRuntime().availableProcessors();
        if (dryRun) {
            StudyFolder.checkResultsFolders(this); // what the study would refuse, its dry run refuses
            steps.forEach(step -> System.out.println(step + "   " + (ReusedRows.sameAsScoreboard(step, processors)
                    ? "(the scoreboard's row, copied) " : "") + String.join(" ", StepCommand.of(this, step))));
            return sizeRound(true);
        }
        if (reportOnly && !Files.isDirectory(folder)) {
            throw new UserMistakeException("no results for " + machine + " in " + results + " (" + folder + " does not exist)");
        }
        if (!reportOnly) {
            StudyFolder.checkBeforeCreating(this); // a refusal leaves no folder and no lock behind
        }
        Files.createDirectories(folder);
        try (FolderLock locked = FolderLock.acquire(folder)) { // one study at a time in a folder
            return run(steps);
        }
    }

    /** The steps, in this machine's folder, locked. */
    private int run(List<StudyStep> steps) throws IOException, InterruptedException {
        for (String table : reportOnly ? List.<String>of() : TABLES) { // a report measures nothing: what it cannot read, it lists
            ResultsCsv.checkWritable(csv(table)); // a foreign file is refused before an hour is spent
        }
        long fileBytes = -1;
        Set<String> done = Set.of();
        if (!reportOnly) {
            done = resume ? StudyFolder.rowsPresent(this) : Set.of(); // a broken row is named before an hour is spent
            StudyFolder.checkMachineDescription(this); // before a haystack is made for a study that cannot run
            runOptions.findOrCreateFile(System.err);
            fileBytes = Files.size(file);
            Haystack.requireNotEmpty(file, "a study");
            StudyFolder.describeMachine(this, fileBytes);
        }
        int sizeRoundStatus = reportOnly ? 0 : sizeRound(false); // first, so that the charts and the report at the end draw it

        int processors = Runtime.getRuntime().availableProcessors();
        List<String> failed = new ArrayList<>();
        Set<String> onScoreboard = new HashSet<>(); // chapters whose scoreboard row is this study's: only those are copied
        int skipped = 0, notRun = 0;
        try (StudyProgress progress = StudyProgress.start(steps.stream().mapToDouble(step -> StepCommand.expectedSeconds(this, step, sizeOf(file))).toArray())) {
            for (int i = 0; i < steps.size(); i++) {
                StudyStep step = steps.get(i);
                if (ChildProcess.stopping()) {
                    throw new ChildProcess.StoppedException("stopped by a signal before " + step.toString().replaceAll("\\s+", " ")
                            + "; what finished before it is kept (--resume goes on from there)");
                }
                if (((step.measures() || step.table().equals(AnswerRound.TABLE)) && done.contains(step.key(fileBytes))) || graphPresent(step)) {
                    progress.skip(i, step + "  already done, skipped");
                    skipped++;
                    if (step.table().equals(SCOREBOARD)) {
                        onScoreboard.add(step.chapter());
                    }
                    continue;
                }
                if (ReusedRows.sameAsScoreboard(step, processors) && onScoreboard.contains(step.chapter())
                        && ReusedRows.copy(csv(SCOREBOARD), step.chapter(), fileBytes, csv(step.table()))) {
                    progress.skip(i, step + "  the scoreboard's row, the same measurement: copied, not run again");
                    skipped++;
                    continue;
                }
                if (notOnThisCpu.containsKey(step.chapter())) {
                    progress.skip(i, step + "  not run on this CPU: " + notOnThisCpu.get(step.chapter()));
                    notRun++;
                    continue;
                }
                Optional<StudyStep> runnable = StudyPlan.drawable(this, step, progress);
                if (runnable.isEmpty()) {
                    progress.skip(i, step + "  no table of theirs in this study, skipped");
                    skipped++;
                    continue;
                }
                step = runnable.get();
                progress.begin(i, step.toString());
                boolean ok = switch (step.table()) {
                    case REPORT -> report(progress);
                    case NativeYardstick.TABLE -> nativeYardstick.measure(step.chapter(), file, step.workers(), runOptions.runs(),
                            runOptions.warmup(), OptionalLong.empty(), csv(step.table()), progress::println).isPresent();
                    default -> runTool(step, progress);
                };
                progress.end(i);
                if (!ok && notOnThisCpu.containsKey(step.chapter())) {
                    notRun++;
                } else if (!ok) {
                    failed.add(step.toString().replaceAll("\\s+", " "));
                } else if (step.table().equals(SCOREBOARD)) {
                    onScoreboard.add(step.chapter());
                }
            }
            progress.println(String.format(Locale.ROOT, "study: %d steps in %s: %d ran, %d skipped, %s%d failed",
                    steps.size(), progress.elapsed(), steps.size() - skipped - notRun - failed.size(), skipped,
                    notRun == 0 ? "" : notRun + " not run on this CPU (" + String.join(", ", notOnThisCpu.keySet()) + "), ", failed.size()));
        }
        failed.forEach(step -> System.err.println("  failed: " + step));
        if (reportWritten) {
            System.err.println("study: the report is " + folder.resolve("index.html").toAbsolutePath().normalize().toUri());
        }
        return failed.isEmpty() && sizeRoundStatus == 0 ? 0 : 2;
    }

    /** The size round, with --sizes: its haystacks beside FILE, its rows in this study's folder. */
    private int sizeRound(boolean dryRun) throws IOException, InterruptedException {
        if (sizes == null) {
            return 0;
        }
        long memoryBytes = Machine.current().memoryBytes();
        List<Long> asked = sizes.isBlank() ? null : SizeSweep.parseSizes(sizes);
        List<String> chosen = only == null ? SizeSweep.SIZE_ROUND_CHOICE : SizeSweep.SIZE_ROUND_CHOICE.stream()
                .filter(chapter -> only.stream().anyMatch(name -> number(name.trim()).equals(number(chapter)))).toList();
        Path haystacks = file.toAbsolutePath().getParent();
        return SizeSweep.run(SizeSweep.chosenSizes(asked, memoryBytes), memoryBytes, chosen, haystacks, keepHaystacks,
                runOptions.runs(), runOptions.warmup(), SizeSweep.DEFAULT_RUNS_PAST_MEMORY, csv("sizes"), dryRun, System.out, System.err);
    }

    /** Every chapter in variants/ (variants/Contents.java), in order; with --only, those named. */
    private List<String> chapters() throws IOException {
        traits = Contents.traits();
        List<String> chapters = List.copyOf(traits.sequencedKeySet());
        if (only == null) {
            return chapters;
        }
        Set<String> wanted = new LinkedHashSet<>();
        for (String name : only) {
            String number = number(name.trim());
            if (number.equalsIgnoreCase(ONLY_WALLS)) {
                continue;
            }
            if (chapters.stream().noneMatch(chapter -> number(chapter).equals(number))) {
                throw new UserMistakeException("--only " + name + ": no such chapter (V00 to V" + number(chapters.getLast()).substring(1)
                        + ", or '" + ONLY_WALLS + "')");
            }
            wanted.add(number);
        }
        return chapters.stream().filter(chapter -> wanted.contains(number(chapter))).toList();
    }

    /** "V06MmapParallel", "v6" and "V06" all become "V06" ({@link StudyResults#chapterNumber}). */
    static String number(String chapter) {
        return StudyResults.chapterNumber(chapter);
    }

    /** With --resume, a chapter whose flame graph is already there is not profiled again. */
    private boolean graphPresent(StudyStep step) {
        return resume && step.table().equals(FLAMEGRAPHS)
                && Files.exists(folder.resolve(FLAMEGRAPHS).resolve(step.chapter() + ".html"));
    }

    private static long sizeOf(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return 0;
        }
    }

    /**
     * One chapter, wall probe or notebook in its own JVM: its runs go to stderr as they happen, its
     * summary line to stdout, both through the progress display. A measuring step that exits with
     * 1 counts only when the row it appended says the file is all zeros ({@link ChapterExit#answered}).
     */
    private boolean runTool(StudyStep step, StudyProgress progress) throws IOException, InterruptedException {
        long passes = runOptions.warmup() + runOptions.runs() + 1; // and one to warm the cache
        if (step.table().equals(FLAMEGRAPHS)) {
            Files.createDirectories(folder.resolve(FLAMEGRAPHS)); // the study's own; a chapter never makes a --flamegraphs folder
        }
        Path results = step.measures() ? csv(step.table()) : null;
        int rowsBefore = results == null ? 0 : ResultsCsv.rows(results).size();
        ChildProcess.Ended ended = ChildProcess.of(StepCommand.of(this, step))
                .timeLimit(ChildProcess.JBANG_START_UP, step.table().equals(CHARTS) ? 0 : passes * sizeOf(file))
                .relayOut(progress::printOut)
                .relayErr(progress::println)
                .run(String.join(" ", StepCommand.of(this, step)), line -> progress.println("study: " + line));
        if (ended.timedOut()) {
            progress.println("study: " + ended.timeOutLine() + "; going on");
            return false;
        }
        List<Map<String, String>> rows = results == null ? List.of() : ResultsCsv.rows(results);
        if (step.measures() ? ChapterExit.answered(ended, rows.subList(Math.min(rowsBefore, rows.size()), rows.size())) : ended.status() == 0) {
            return true;
        }
        Optional<String> lacks = step.measures() ? ChapterExit.notOnThisCpu(ended) : Optional.empty();
        if (lacks.isPresent()) { // the CPU's want, not the chapter's failure: said here, in machine.json and in the report
            notOnThisCpu.put(step.chapter(), lacks.get());
            progress.println("study: " + step.chapter() + " not run on this CPU (" + lacks.get() + "); its other steps are left out too; going on");
            StudyFolder.describeMachine(this, studiedBytes);
            return false;
        }
        progress.println("study: " + step.chapter() + " ended with status " + ended.status()
                + (ended.status() == 1 && step.measures() ? " without a row saying the file is all zeros" : "")
                + " (its message is above); going on");
        return false;
    }

    /** Writes index.html from what the machine's folder holds now. */
    private boolean report(StudyProgress progress) {
        try {
            progress.println("report: " + StudyReport.write(folder));
            reportWritten = true;
            return true;
        } catch (IOException | RuntimeException e) {
            progress.println("study: the report could not be written: " + (e instanceof IOException io ? lib.cli.IoMessage.of(io) : e.getMessage()));
            return false;
        }
    }

    Path csv(String table) {
        return folder.resolve(table + ".csv");
    }
}
