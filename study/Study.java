///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
//SOURCES ../lib/**/*.java
//SOURCES ../variants/*.java
//SOURCES ../report/StudyResults.java
//SOURCES ../report/StudyReport.java
//SOURCES AnswerRound.java
//SOURCES StudyProgress.java
//SOURCES ../yardsticks/NativeYardstick.java
//SOURCES StudyDepth.java
//SOURCES WallSittings.java
//SOURCES ReusedRows.java
//SOURCES ChildProcess.java
//SOURCES FolderLock.java
//SOURCES ../report/CommittedMachines.java
//SOURCES SizeSweep.java
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
import java.util.Locale;
import java.util.Map;
import java.util.SequencedMap;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import lib.chapter.ChapterTrait;
import lib.linux.HugeFolios;
import lib.harness.Machine;
import lib.harness.ProjectVersion;
import lib.cli.Quote;
import lib.harness.ResultsCsv;
import lib.harness.RunOptions;
import lib.cli.SizeConverter;
import lib.cli.Sizes;
import lib.cli.UserMistakeException;
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
 *   <li>the walls (yardsticks/WallProbe.java) at one worker and one per processor, into {@code wall.csv}, before and
 *       after each warm round, so that each is measured in the conditions of what it bounds (see WallSittings),
 *       and where a C compiler is, the native yardstick (yardsticks/native-yardstick.c) likewise, into {@code native.csv};
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
 * How to run (from the project's root):   ./jbang study/Study.java
 * A quick try:   ./jbang study/Study.java /tmp/small.bin --size 64m --runs 1 --warmup 0 --only V04 --results /tmp/study
 * </pre>
 */
@Command(name = "Study", mixinStandardHelpOptions = true, versionProvider = ProjectVersion.class,
        customSynopsis = {"./jbang study/Study.java [FILE] [--runs N] [--warmup N] [--size SIZE]",
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
    /** The two walls, as yardsticks/WallProbe.java names them (its first argument) and records them (chapter column). */
    static final List<String> WALLS = List.of("WallMemoryRead", "WallMemoryReadHuge", "WallPageCacheCopy");
    /** What {@code --only} takes besides chapters, for the walls round. */
    static final String ONLY_WALLS = "walls";

    static final String SCOREBOARD = "scoreboard", SCALING = "scaling", COLD_TABLE = "cold", WALL_TABLE = "wall", CHUNKS_TABLE = "chunks",
            PAGE_CACHE_TABLE = "pagecache";
    static final List<String> TABLES = List.of(SCOREBOARD, SCALING, PAGE_CACHE_TABLE, COLD_TABLE, WALL_TABLE, CHUNKS_TABLE,
            NativeYardstick.TABLE);
    /** Not CSVs: the round that records one async-profiler flame graph per chapter, the charts, the report. */
    static final String FLAMEGRAPHS = "flamegraphs", CHARTS = "charts", REPORT = "report";
    /** The rounds --skip can leave out. */
    static final List<String> SKIPPABLE = List.of(SCALING, PAGE_CACHE_TABLE, COLD_TABLE, "walls", CHUNKS_TABLE, AnswerRound.TABLE, CHARTS);
    /** Notebooks that draw every machine at once, not this machine's report. */
    static final Set<String> ALL_MACHINES_NOTEBOOKS = Set.of("machines");

    @Mixin
    RunOptions runOptions;

    @Option(names = "--only", paramLabel = "VNN[,VNN...]", split = ",", hideParamSyntax = true,
            description = "Only these chapters, in every round, e.g. V00,V04,V13 (V00 is cmp); add 'walls' for the walls.")
    List<String> only;

    @Option(names = "--quick", description = "The scoreboard alone, 3 timed runs a chapter (fewer when runs are slow) "
            + "and no warm-up run, the walls before and after it, the charts and the report.")
    boolean quick;

    @Option(names = "--full", description = "Every round at full depth: the sweep over 1,2,4,6,8,12,24,48,96 workers, and every "
            + "run of --runs however long (the default sweeps 1, 2, 4 and 64 workers on 2 cores, "
            + "and a chapter whose runs take over 5 s takes 3 of them, over 30 s one).")
    boolean full;

    @Option(names = "--sweep", paramLabel = "N[,N...]", split = ",", hideParamSyntax = true,
            description = "Worker counts of the scaling round (default: 1, then 1, 2 and 32 per processor; with --full 1,2,4,6,8,12,24,48,96).")
    List<Integer> sweep;

    /** --quick, --full or neither; set with the options, in {@link #call}. */
    private StudyDepth depth = StudyDepth.STANDARD;

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
                    + "into sizes.csv (study/SizeSweep.java).")
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

    /**
     * One step: a chapter (or wall, notebook) at a worker count, warm or cold, at a read size (null:
     * the chapter's own), from a page-cache state ({@code --page-cache}), into one table.
     */
    record Step(String table, String chapter, int workers, boolean cold, Long chunkBytes, String pageCache) {
        /** The chapter's own worker count: one per processor, or 1 for a single-threaded chapter (the chapter knows). */
        static final int CHAPTER_DEFAULT = 0;

        Step(String table, String chapter, int workers, boolean cold) {
            this(table, chapter, workers, cold, null);
        }

        Step(String table, String chapter, int workers, boolean cold, Long chunkBytes) {
            this(table, chapter, workers, cold, chunkBytes, "as-is");
        }

        String cache() {
            return cold ? "cold" : "warm";
        }

        /**
         * What identifies its row in the CSVs, as a row read back gives it ({@link StudyResults#resumeKey};
         * the answer round's, {@link AnswerRound#resumeKey}).
         */
        String key(long fileBytes) {
            if (table.equals(AnswerRound.TABLE)) {
                return AnswerRound.resumeKey(chapter);
            }
            return StudyResults.resumeKey(table, chapter, workers, cache(), pageCache, fileBytes, chunkBytes);
        }

        boolean measures() {
            return TABLES.contains(table);
        }

        @Override
        public String toString() {
            return switch (table) {
                case CHARTS -> "charts      notebooks/{" + chapter + "}.jsh";
                case REPORT -> "report      index.html";
                default -> String.format(Locale.ROOT, "%-11s %-28s %-11s %s%s", table, chapter,
                        workers == CHAPTER_DEFAULT ? "" : "workers=" + workers, cache(),
                        (chunkBytes == null ? "" : " chunk=" + Sizes.human(chunkBytes))
                                + (table.equals(PAGE_CACHE_TABLE) ? ", page cache " + pageCache : ""));
            };
        }
    }


    /** FILE, from {@link #runOptions}. */
    private Path file;
    private Path folder;
    private String machine;
    /** Every chapter in variants/, with what it declares of itself. */
    private SequencedMap<String, Set<ChapterTrait>> traits;
    private final NativeYardstick nativeYardstick = new NativeYardstick();
    private boolean reportWritten;
    /** Chapters this CPU cannot run (chapter 12 without AVX-512), with the chapter's reason: not run again, not failures. */
    private final Map<String, String> notOnThisCpu = new LinkedHashMap<>();
    /** The haystack's size, for machine.json when it is written again. */
    private long studiedBytes;

    public static void main(String[] args) {
        Study study = new Study();
        CommandLine commandLine = new CommandLine(study)
                .setParameterExceptionHandler((e, ignored) -> fail(e.getMessage()))
                .setExecutionExceptionHandler((e, ignoredLine, ignoredResult) -> fail(e));
        System.exit(commandLine.execute(args));
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
        if (!Files.isExecutable(Path.of("jbang")) || !Files.isDirectory(Path.of("variants"))) {
            throw new UserMistakeException("run the study from the project's root directory (where ./jbang and variants/ are)");
        }
        checkOptions();
        // A study measures into its own machine's folder, never into one committed with the project (CommittedMachines).
        machine = machineName != null ? machineName : CommittedMachines.studyFolder(results, Machine.current().name());
        folder = results.resolve(machine);
        if (!reportOnly && !machine.equals(Machine.current().name())) {
            System.err.println("study: " + results.resolve(Machine.current().name()) + " holds figures committed with the project (see "
                    + results.resolve(CommittedMachines.FILE_NAME) + "), so this study measures into " + folder + " instead");
        }
        List<String> chapters = chapters();
        List<Step> steps = reportOnly ? finish() : plan(chapters);
        if (steps.stream().noneMatch(Step::measures) && !reportOnly) {
            throw new UserMistakeException("nothing to run: --only " + String.join(",", only) + " leaves no step");
        }
        int processors = Runtime.getRuntime().availableProcessors();
        if (dryRun) {
            steps.forEach(step -> System.out.println(step + "   " + (ReusedRows.sameAsScoreboard(step, processors)
                    ? "(the scoreboard's row, copied) " : "") + String.join(" ", command(step))));
            return sizeRound(true);
        }
        if (reportOnly && !Files.isDirectory(folder)) {
            throw new UserMistakeException("no results for " + machine + " in " + results + " (" + folder + " does not exist)");
        }
        Files.createDirectories(folder);
        try (FolderLock locked = FolderLock.acquire(folder)) { // one study at a time in a folder
            return run(steps);
        }
    }

    /** The steps, in this machine's folder, locked. */
    private int run(List<Step> steps) throws IOException, InterruptedException {
        for (String table : TABLES) {
            ResultsCsv.checkWritable(csv(table)); // a foreign file is refused before an hour is spent
        }
        WallSittings.checkWritable(folder);
        long fileBytes = -1;
        Set<String> done = Set.of();
        if (!reportOnly) {
            done = resume ? rowsPresent() : Set.of(); // a broken row is named before an hour is spent
            checkMachineDescription(); // before a haystack is made for a study that cannot run
            runOptions.findOrCreateFile(System.err);
            fileBytes = Files.size(file);
            describeMachine(fileBytes);
        }
        int sizeRoundStatus = reportOnly ? 0 : sizeRound(false); // first, so that the charts and the report at the end draw it

        int processors = Runtime.getRuntime().availableProcessors();
        List<String> failed = new ArrayList<>();
        Set<String> onScoreboard = new HashSet<>(); // chapters whose scoreboard row is this study's: only those are copied
        int skipped = 0, notRun = 0;
        try (StudyProgress progress = StudyProgress.start(steps.stream().mapToDouble(step -> expectedSeconds(step, Files.exists(file) ? sizeOf(file) : 0)).toArray())) {
            for (int i = 0; i < steps.size(); i++) {
                Step step = steps.get(i);
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
                Optional<Step> runnable = drawable(step, progress);
                if (runnable.isEmpty()) {
                    progress.skip(i, step + "  no table of theirs in this study, skipped");
                    skipped++;
                    continue;
                }
                step = runnable.get();
                progress.begin(i, step.toString());
                java.time.Instant started = java.time.Instant.now();
                long wallRows = WallSittings.isSitting(step) ? WallSittings.rows(csv(WALL_TABLE)) : 0;
                boolean ok = switch (step.table()) {
                    case REPORT -> report(progress);
                    case NativeYardstick.TABLE -> nativeYardstick.measure(step.chapter(), file, step.workers(), runOptions.runs(),
                            runOptions.warmup(), csv(step.table()), progress::println);
                    default -> runTool(step, progress);
                };
                if (WallSittings.isSitting(step)) {
                    WallSittings.record(folder, step.chapter(), started, java.time.Instant.now(), wallRows, WallSittings.rows(csv(WALL_TABLE)));
                }
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

    /**
     * Refuses in one line what cannot be meant: a --skip or --only naming nothing or no round,
     * --machine for a study that measures (it measures this machine, into this machine's folder) or
     * naming no machine folder, and options --report-only would silently ignore.
     */
    private void checkOptions() {
        CommandLine.ParseResult given = spec.commandLine().getParseResult();
        if (only != null && (only.isEmpty() || only.stream().anyMatch(String::isBlank))) {
            throw new UserMistakeException("--only names an empty chapter (a comma too many?); give chapters, e.g. --only V04,V13");
        }
        for (String round : skip) {
            if (!SKIPPABLE.contains(round)) {
                throw new UserMistakeException("--skip " + Quote.name(round) + ": no such round; the rounds are " + String.join(", ", SKIPPABLE));
            }
        }
        if (machineName != null && !MACHINE_NAME.matcher(machineName).matches()) {
            throw new UserMistakeException("--machine " + Quote.name(machineName) + " is not a machine's name: lower-case letters and "
                    + "digits joined by single hyphens, as lib/harness/Machine names a machine, one folder under --results");
        }
        if (!reportOnly) {
            if (machineName != null) {
                throw new UserMistakeException("--machine goes with --report-only: a study measures this machine, into its own folder ("
                        + Machine.current().name() + "); leave --machine out");
            }
            return;
        }
        for (String option : MEASURING_OPTIONS) {
            if (given.hasMatchedOption(option)) {
                throw new UserMistakeException("--report-only measures nothing, so " + option + " would be ignored; leave one of them out");
            }
        }
        if (given.hasMatchedPositional(0)) {
            throw new UserMistakeException("--report-only measures nothing, so FILE would be ignored; leave one of them out");
        }
        if (skip.stream().anyMatch(round -> !round.equals(CHARTS))) {
            throw new UserMistakeException("--report-only runs no rounds: only --skip charts goes with it");
        }
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

    /**
     * The scoreboard first, then the sweep, the page-cache round, the read sizes and the cold round, with the walls
     * before and after each warm round ({@link WallSittings}), then the flame graphs, the charts and the report:
     * the most wanted figures come first. {@code --quick} takes the scoreboard alone ({@link StudyDepth}).
     */
    private List<Step> plan(List<String> chapters) throws IOException {
        List<Step> steps = new ArrayList<>();
        for (String chapter : chapters) {
            steps.add(new Step(SCOREBOARD, chapter, Step.CHAPTER_DEFAULT, false));
        }
        if (!skip.contains(SCALING) && depth.takes(SCALING)) {
            for (String chapter : chapters) {
                if (!declares(chapter, ChapterTrait.SINGLE_THREADED) && !declares(chapter, ChapterTrait.BYPASSES_PAGE_CACHE)) {
                    sweep.forEach(workers -> steps.add(new Step(SCALING, chapter, workers, false)));
                }
            }
        }
        String noPageCacheRound = skip.contains(PAGE_CACHE_TABLE) || !depth.takes(PAGE_CACHE_TABLE) ? null
                : HugeFolios.whyNot(file.toAbsolutePath().getParent()); // where the file is, or will be, created
        if (noPageCacheRound != null) {
            System.err.println("study: no page-cache round here: " + noPageCacheRound);
        } else if (!skip.contains(PAGE_CACHE_TABLE) && depth.takes(PAGE_CACHE_TABLE)) {
            // State by state: each chapter finds the cache as the one before left it, so the file is read back
            // once per state, not once per chapter (lib/harness/PageCache.prepare keeps a state that is already there).
            for (String state : PAGE_CACHE_STATES) {
                for (String chapter : chapters) {
                    if (declares(chapter, ChapterTrait.MAPS_THE_FILE)) {
                        steps.add(new Step(PAGE_CACHE_TABLE, chapter, Step.CHAPTER_DEFAULT, false, null, state));
                    }
                }
            }
        }
        if (!skip.contains(CHUNKS_TABLE) && depth.takes(CHUNKS_TABLE)) {
            for (String chapter : chapters) {
                if (CHUNKS_ROUND_CHOICE.contains(number(chapter))) {
                    chunks.forEach(chunk -> steps.add(new Step(CHUNKS_TABLE, chapter, Step.CHAPTER_DEFAULT, false, chunk)));
                }
            }
        }
        if (!skip.contains(COLD_TABLE) && depth.takes(COLD_TABLE)) { // last of the rounds: no wall bounds it, so no sitting after it
            for (String chapter : chapters) {
                if (COLD_ROUND_CHOICE.contains(number(chapter)) || declares(chapter, ChapterTrait.BYPASSES_PAGE_CACHE)) {
                    steps.add(new Step(COLD_TABLE, chapter, Step.CHAPTER_DEFAULT, true));
                }
            }
        }
        boolean wallsWanted = only == null || only.stream().anyMatch(name -> name.trim().equalsIgnoreCase(ONLY_WALLS));
        if (!skip.contains("walls") && wallsWanted) {
            List<Step> interleaved = WallSittings.interleave(steps);
            steps.clear();
            steps.addAll(interleaved);
            if (!depth.takes(NativeYardstick.TABLE)) {
                // --quick: the walls' sittings, but not the native yardstick
            } else if (NativeYardstick.compiler().isEmpty()) {
                System.err.println("study: no C compiler (cc) on PATH, so the walls round has no native yardstick (" + NativeYardstick.SOURCE + ")");
            } else {
                int processors = Runtime.getRuntime().availableProcessors();
                for (String yardstick : NativeYardstick.MODES.sequencedKeySet()) {
                    new TreeSet<>(List.of(1, processors)).forEach(workers -> steps.add(new Step(NativeYardstick.TABLE, yardstick, workers, false)));
                }
            }
        }
        if (!skip.contains(AnswerRound.TABLE) && depth.takes(AnswerRound.TABLE)) {
            chapters.stream().filter(AnswerRound::timesOneShot).forEach(chapter -> steps.add(new Step(AnswerRound.TABLE, chapter, Step.CHAPTER_DEFAULT, false)));
        }
        if (flamegraphs) {
            for (String chapter : chapters) {
                if (!declares(chapter, ChapterTrait.EXTERNAL_PROGRAM)) {
                    steps.add(new Step(FLAMEGRAPHS, chapter, Step.CHAPTER_DEFAULT, false));
                }
            }
        }
        steps.addAll(finish());
        return steps;
    }

    private boolean declares(String chapter, ChapterTrait trait) {
        return traits.get(chapter).contains(trait);
    }

    /**
     * The charts (every notebook of one machine, where Chromium can draw them, in one JShell: see
     * report/Notebooks.java) and the report.
     */
    private List<Step> finish() throws IOException {
        List<Step> steps = new ArrayList<>();
        if (!skip.contains(CHARTS) && chromium().isEmpty()) {
            System.err.println("study: no Chromium here, so no charts (setup/setup-chromium installs it; "
                    + "then ./jbang study/Study.java --report-only draws them)");
        }
        if (!skip.contains(CHARTS) && chromium().isPresent()) {
            try (Stream<Path> notebooks = Files.list(Path.of("notebooks"))) {
                steps.add(new Step(CHARTS, notebooks.map(path -> path.getFileName().toString())
                        .filter(name -> name.endsWith(".jsh"))
                        .map(name -> name.substring(0, name.length() - ".jsh".length()))
                        .filter(name -> !ALL_MACHINES_NOTEBOOKS.contains(name))
                        .sorted()
                        .collect(java.util.stream.Collectors.joining(",")), 1, false));
            }
        }
        steps.add(new Step(REPORT, "index.html", 1, false));
        return steps;
    }

    /**
     * The step as it runs: the chart step without the notebooks whose table this study has not
     * measured (each would stop), each said in one line; empty when none is left.
     */
    private Optional<Step> drawable(Step step, StudyProgress progress) {
        if (!step.table().equals(CHARTS)) {
            return Optional.of(step);
        }
        List<String> drawn = new ArrayList<>();
        for (String notebook : step.chapter().split(",")) {
            Optional<String> missing = tableNotMeasured(notebook);
            if (missing.isPresent()) { // e.g. --only V04: no sweep, so nothing for the scaling notebook to draw
                progress.println("charts: notebooks/" + notebook + ".jsh left out: no " + missing.get() + ".csv in this study");
            } else {
                drawn.add(notebook);
            }
        }
        return drawn.isEmpty() ? Optional.empty() : Optional.of(new Step(CHARTS, String.join(",", drawn), 1, false));
    }

    /** The results table a notebook draws from, when this study has not measured it. */
    private Optional<String> tableNotMeasured(String notebook) {
        String table = switch (notebook) {
            case "chunks" -> CHUNKS_TABLE;
            case "scaling" -> SCALING;
            case "warm-vs-cold" -> COLD_TABLE;
            case "answer" -> AnswerRound.TABLE;
            case "sizes" -> "sizes";
            default -> SCOREBOARD;
        };
        return Files.isRegularFile(folder.resolve(table + ".csv")) ? Optional.empty() : Optional.of(table);
    }

    /** The Chromium on PATH that draws the notebooks' PNGs, as the notebooks look for it. */
    static Optional<Path> chromium() {
        for (String name : List.of("chromium", "chromium-browser", "google-chrome")) {
            for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
                if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, name))) {
                    return Optional.of(Path.of(dir, name));
                }
            }
        }
        return Optional.empty();
    }

    /** "V06MmapParallel", "v6" and "V06" all become "V06" ({@link StudyResults#chapterNumber}). */
    static String number(String chapter) {
        return StudyResults.chapterNumber(chapter);
    }

    private List<String> command(Step step) {
        if (step.table().equals(CHARTS)) {
            List<String> command = new ArrayList<>(List.of("./jbang", "-Dresults=" + results, "-Dmachine=" + machine, "report/Notebooks.java"));
            Stream.of(step.chapter().split(",")).forEach(notebook -> command.add("notebooks/" + notebook + ".jsh"));
            return command;
        }
        if (step.table().equals(REPORT)) {
            return List.of("(writes " + folder.resolve("index.html") + ")");
        }
        if (step.table().equals(NativeYardstick.TABLE)) {
            return nativeYardstick.command(step.chapter(), file, step.workers(), runOptions.runs(), runOptions.warmup());
        }
        if (step.table().equals(AnswerRound.TABLE)) {
            return AnswerRound.command(file, step.chapter(), depth.oneShotRuns(runOptions), csv(AnswerRound.TABLE));
        }
        List<String> command = new ArrayList<>();
        if (WallSittings.isSitting(step)) {
            command.add(WallSittings.probes(step));
        } else if (step.table().equals(WALL_TABLE)) {
            command.add(switch (step.chapter()) {
                case "WallMemoryRead" -> "memory";
                case "WallMemoryReadHuge" -> "memory-huge";
                default -> "copy";
            });
        }
        command.add(file.toString());
        command.addAll(depth.runsArguments(runOptions));
        boolean warmupGiven = spec != null && spec.commandLine().getParseResult().hasMatchedOption("--warmup");
        command.addAll(List.of("--warmup", Integer.toString(depth.warmup(runOptions, warmupGiven, step.table().equals(WALL_TABLE)))));
        if (step.workers() != Step.CHAPTER_DEFAULT) {
            command.addAll(List.of("--workers", Integer.toString(step.workers())));
        } else if (WallSittings.isSitting(step)) {
            command.addAll(List.of("--workers", WallSittings.workers(Runtime.getRuntime().availableProcessors())));
        }
        if (step.chunkBytes() != null) {
            command.addAll(List.of("--chunk", Long.toString(step.chunkBytes())));
        }
        if (step.table().equals(FLAMEGRAPHS)) {
            command.addAll(List.of("--profile", "--flamegraphs", folder.resolve(FLAMEGRAPHS).toString()));
        } else {
            command.addAll(List.of("--csv", csv(step.table()).toString()));
        }
        if (step.cold()) {
            command.add("--cold");
        }
        if (!step.pageCache().equals("as-is")) {
            command.addAll(List.of("--page-cache", step.pageCache()));
        }
        return step.table().equals(WALL_TABLE) ? ChildProcess.jbang("yardsticks/WallProbe.java", command).command()
                : ChildProcess.chapter(step.chapter(), command).command(); // as a user starts it, with its header's options
    }

    /** With --resume, a chapter whose flame graph is already there is not profiled again. */
    private boolean graphPresent(Step step) {
        return resume && step.table().equals(FLAMEGRAPHS)
                && Files.exists(folder.resolve(FLAMEGRAPHS).resolve(step.chapter() + ".html"));
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
    double expectedSeconds(Step step, long fileBytes) {
        if (step.table().equals(CHARTS)) {
            return 15 * step.chapter().split(",").length;
        }
        if (step.table().equals(REPORT)) {
            return 1;
        }
        double megabytesPerSecond = step.cold() ? 2_000 : switch (number(step.chapter())) {
            case "V00" -> 4_000;
            case "V01" -> 1_500;
            case "V02" -> 170;
            case "V14", "V15" -> 2_500;
            default -> 15_000;
        };
        double passSeconds = fileBytes / (megabytesPerSecond * 1e6);
        if (step.table().equals(AnswerRound.TABLE)) { // fresh processes: each a start, a pre-read at most and one search
            return depth.oneShotRuns(runOptions) * (START_UP_SECONDS + 2 * passSeconds);
        }
        int timedRuns = depth.budget(runOptions).timedRuns(depth.runs(runOptions), new double[] {passSeconds});
        boolean warmupGiven = spec != null && spec.commandLine().getParseResult().hasMatchedOption("--warmup");
        int warmupRuns = depth.warmup(runOptions, warmupGiven, step.table().equals(WALL_TABLE));
        return START_UP_SECONDS + (1 + warmupRuns + timedRuns) * passSeconds;
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
     * 1 counts only when the row it appended says the file is all zeros ({@link ChildProcess.Ended#answered}).
     */
    private boolean runTool(Step step, StudyProgress progress) throws IOException, InterruptedException {
        long passes = runOptions.warmup() + runOptions.runs() + 1; // and one to warm the cache
        ChildProcess.Ended ended = ChildProcess.of(command(step))
                .resultsIn(step.measures() ? csv(step.table()) : null)
                .timeLimit(ChildProcess.JBANG_START_UP, step.table().equals(CHARTS) ? 0 : passes * sizeOf(file))
                .relayOut(progress::printOut)
                .relayErr(progress::println)
                .run(String.join(" ", command(step)), line -> progress.println("study: " + line));
        if (ended.timedOut()) {
            progress.println("study: " + ended.timeOutLine() + "; going on");
            return false;
        }
        if (step.measures() ? ended.answered() : ended.status() == 0) {
            return true;
        }
        Optional<String> lacks = step.measures() ? ended.notOnThisCpu() : Optional.empty();
        if (lacks.isPresent()) { // the CPU's want, not the chapter's failure: said here, in machine.json and in the report
            notOnThisCpu.put(step.chapter(), lacks.get());
            progress.println("study: " + step.chapter() + " not run on this CPU (" + lacks.get() + "); its other steps are left out too; going on");
            describeMachine(studiedBytes);
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
            progress.println("study: the report could not be written: " + e.getMessage());
            return false;
        }
    }

    /**
     * machine.json: what this machine is, where the haystack lives, and whether the study is a trial.
     * Written anew by each study into its own machine's folder, whole or not at all (a new file renamed
     * over the old); a machine.json that describes another machine, or none, is left alone.
     */
    private void describeMachine(long fileBytes) throws IOException {
        studiedBytes = fileBytes;
        checkMachineDescription();
        Path json = folder.resolve("machine.json");
        Path partial = folder.resolve(".machine.json.partial-" + ProcessHandle.current().pid());
        List<String> trial = StudyResults.trialReasons(false, fileBytes, depth.runs(runOptions), runOptions.warmup() == 0);
        try {
            Map<String, Object> description = new LinkedHashMap<>(Machine.current().description(file, java.time.Instant.now(), !trial.isEmpty()));
            if (!notOnThisCpu.isEmpty()) {
                description.put(StudyResults.NOT_ON_THIS_CPU, notOnThisCpu.entrySet().stream()
                        .map(chapter -> chapter.getKey() + ": " + chapter.getValue()).collect(Collectors.joining("; ")));
            }
            Files.writeString(partial, Machine.json(description),
                    java.nio.file.StandardOpenOption.CREATE_NEW, java.nio.file.StandardOpenOption.WRITE);
            Files.move(partial, json, java.nio.file.StandardCopyOption.ATOMIC_MOVE, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(partial);
        }
        if (!trial.isEmpty() && notOnThisCpu.isEmpty()) { // said once, not again when machine.json is written anew
            System.err.println("study: a trial (" + String.join(", ", trial) + "): machine.json and the report say so");
        }
    }

    /** Refuses a folder whose machine.json describes another machine, or none: it is never rewritten. */
    private void checkMachineDescription() throws IOException {
        Path json = folder.resolve("machine.json");
        if (Files.exists(json, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            String described = describedMachine(json);
            if (!Machine.current().name().equals(described)) {
                throw new UserMistakeException(Quote.name(json) + " describes " + (described == null ? "no machine of this project's"
                        : "another machine, " + Quote.name(described)) + "; left it alone (choose another --results)");
            }
        }
    }

    /** The "name" of the machine {@code json} describes, or null when it is no regular file holding a JSON object with one. */
    private static String describedMachine(Path json) {
        if (!Files.isRegularFile(json, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return null;
        }
        return StudyResults.readDescription(json).text("name").orElse(null);
    }

    /**
     * Rows already in the CSVs, as {@link Step#key} gives them. A row that cannot be read stops the
     * study with one line naming its file and line: skipping it would run that step again, trusting
     * it would keep a broken figure.
     */
    private Set<String> rowsPresent() {
        Set<String> present = new HashSet<>();
        for (String table : TABLES) {
            if (!Files.exists(csv(table))) {
                continue;
            }
            StudyResults.Csv rows;
            try {
                rows = StudyResults.read(csv(table));
            } catch (StudyResults.NotResultsException notResults) {
                throw new UserMistakeException(notResults.getMessage());
            }
            if (!rows.problems().isEmpty()) {
                throw new UserMistakeException(rows.problems().getFirst() + "; mend or remove that line, then resume");
            }
            rows.rows().forEach(row -> present.add(row.resumeKey(table)));
        }
        present.addAll(AnswerRound.rowsPresent(csv(AnswerRound.TABLE)));
        return present;
    }

    private Path csv(String table) {
        return folder.resolve(table + ".csv");
    }

    private static int fail(Throwable e) {
        if (e instanceof UserMistakeException || e instanceof IOException) {
            return fail(e.getMessage() != null ? e.getMessage() : e.toString());
        }
        e.printStackTrace(); // not the user's mistake: a bug deserves its stack trace
        return 2;
    }

    private static int fail(String message) {
        System.err.println("Study: " + message);
        return 2;
    }

}
