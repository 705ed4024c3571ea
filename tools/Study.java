///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
//SOURCES ../lib/*.java
//SOURCES StudyReport.java
//SOURCES StudyProgress.java
//SOURCES SizeSweep.java
//COMPILE_OPTIONS --add-modules jdk.incubator.vector
//RUNTIME_OPTIONS --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import lib.FileChangedException;
import lib.HugeFolios;
import lib.Machine;
import lib.Measurement;
import lib.NeedleSearch;
import lib.PageCache;
import lib.ProjectVersion;
import lib.ResultsCsv;
import lib.RunOptions;
import lib.SizeConverter;
import lib.Sizes;
import lib.UserMistakeException;
import lib.WrongAnswerException;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The whole study in one command, from a fresh clone to this machine's report: every chapter, in
 * order, each in a JVM of its own, on one haystack, into {@code results/MACHINE/} (see lib/Machine).
 *
 * <ol>
 *   <li>the scoreboard (warm page cache, one worker per processor) into {@code scoreboard.csv}, opened
 *       by "chapter zero": {@code cmp FILE /dev/zero}, the yardstick a shell user would reach for;
 *   <li>the worker sweep of the parallel chapters into {@code scaling.csv}, one JVM per worker count;
 *   <li>the page-cache round: the chapters that map the file, with the cache read back in 4 KiB folios
 *       and in 2 MiB folios ({@code --page-cache small|huge}), into {@code pagecache.csv};
 *   <li>the cold-cache round, the file evicted before every run, into {@code cold.csv};
 *   <li>the walls (tools/WallProbe.java) at one worker and one per processor, into {@code wall.csv};
 *   <li>the read sizes of chapters 3 and 13, one JVM per size, into {@code chunks.csv};
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
 * How to run (from the project's root):   ./jbang tools/Study.java
 * A quick try:   ./jbang tools/Study.java /tmp/small.bin --size 64m --runs 1 --warmup 0 --only V04 --results /tmp/study
 * </pre>
 */
@Command(name = "Study", mixinStandardHelpOptions = true, versionProvider = ProjectVersion.class,
        customSynopsis = {"./jbang tools/Study.java [FILE] [--runs N] [--warmup N] [--size SIZE]",
                "    [--only VNN[,VNN...]] [--sweep N[,N...]] [--chunks SIZE[,SIZE...]]",
                "    [--skip ROUND[,ROUND...]] [--flamegraphs] [--sizes[=SIZE[,SIZE...]] [--keep-haystacks]]",
                "    [--results DIR] [--resume]",
                "    [--report-only [--machine NAME]] [--dry-run] [--help] [--version]"},
        sortOptions = false, usageHelpAutoWidth = true,
        description = "Runs every chapter, the walls and the read sizes on one haystack, into results/MACHINE/, "
                + "then draws the charts and writes the report, results/MACHINE/index.html.",
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:every step ran", "2:a step failed (the others still ran) or an error (one line on stderr)"})
public class Study implements Callable<Integer> {

    /** The chapters with a worker count worth sweeping. */
    static final Set<String> PARALLEL = Set.of("V06", "V07", "V09", "V10", "V11", "V13", "V16", "V17");
    /** The chapters timed with a cold page cache: one of each way of reading the file, and those written for it. */
    static final Set<String> COLD = Set.of("V01", "V03", "V06", "V07", "V11", "V13", "V14", "V15", "V16", "V17");
    /** The chapters that map the file, timed with the page cache in small and in 2 MiB folios. */
    static final Set<String> MAPPED = Set.of("V04", "V05", "V06", "V08", "V09", "V10", "V12", "V16");
    static final List<String> PAGE_CACHE_STATES = List.of("small", "huge");
    /** The chapters whose read size is swept: one thread reading in order, and the headline. */
    static final Set<String> CHUNKED = Set.of("V03", "V13");
    /** Chapter zero is not Java: GNU cmp reports the first byte where FILE differs from endless zeros. */
    static final String CMP_CHAPTER = "V00Cmp";
    /** The two walls, as tools/WallProbe.java names them (its first argument) and records them (chapter column). */
    static final List<String> WALLS = List.of("WallMemoryRead", "WallMemoryReadHuge", "WallPageCacheCopy");
    /** What {@code --only} takes besides chapters, for the walls round. */
    static final String ONLY_WALLS = "walls";

    static final String SCOREBOARD = "scoreboard", SCALING = "scaling", COLD_TABLE = "cold", WALL_TABLE = "wall", CHUNKS_TABLE = "chunks",
            PAGE_CACHE_TABLE = "pagecache";
    static final List<String> TABLES = List.of(SCOREBOARD, SCALING, PAGE_CACHE_TABLE, COLD_TABLE, WALL_TABLE, CHUNKS_TABLE);
    /** Not CSVs: the round that records one async-profiler flame graph per chapter, the charts, the report. */
    static final String FLAMEGRAPHS = "flamegraphs", CHARTS = "charts", REPORT = "report";
    /** The rounds --skip can leave out. */
    static final List<String> SKIPPABLE = List.of(SCALING, PAGE_CACHE_TABLE, COLD_TABLE, "walls", CHUNKS_TABLE, CHARTS);
    /** Notebooks that draw every machine at once, not this machine's report. */
    static final Set<String> ALL_MACHINES_NOTEBOOKS = Set.of("machines");
    /** Below these, a study is a trial (machine.json says so, and so do the charts and the report). */
    static final long FULL_STUDY_BYTES = 1L << 30;
    static final int FULL_STUDY_RUNS = 5;

    static final Pattern SUMMARY = Pattern.compile("^variant=\\S+ .*");
    static final Pattern CMP_DIFFERS = Pattern.compile("differ: (?:byte|char) (\\d+)");

    @Mixin
    RunOptions runOptions;

    @Option(names = "--only", paramLabel = "VNN[,VNN...]", split = ",", hideParamSyntax = true,
            description = "Only these chapters, in every round, e.g. V00,V04,V13 (V00 is cmp); add 'walls' for the walls.")
    List<String> only;

    @Option(names = "--sweep", paramLabel = "N[,N...]", split = ",", hideParamSyntax = true, defaultValue = "1,2,4,6,8,12,24,48,96",
            description = "Worker counts of the scaling round (default: ${DEFAULT-VALUE}).")
    List<Integer> sweep;

    @Option(names = "--chunks", paramLabel = "SIZE[,SIZE...]", split = ",", hideParamSyntax = true, converter = SizeConverter.class,
            defaultValue = "4k,16k,64k,256k,1m,4m,16m,64m",
            description = "Read sizes of the chunks round (default: ${DEFAULT-VALUE}).")
    List<Long> chunks;

    @Option(names = "--skip", paramLabel = "ROUND[,ROUND...]", split = ",", hideParamSyntax = true,
            description = "Leave out rounds: scaling, pagecache, cold, walls, chunks, charts.")
    List<String> skip = new ArrayList<>();

    @Option(names = "--flamegraphs", description = "Add a round: each chapter once more with --profile, "
            + "its flame graph in results/MACHINE/flamegraphs (figures of this round are not recorded: the profiler costs a little).")
    boolean flamegraphs;

    @Option(names = "--sizes", arity = "0..1", paramLabel = "SIZE[,SIZE...]", fallbackValue = "", hideParamSyntax = true,
            description = "Add a round, not run by default (it takes long and makes files up to 1.5 × memory): chapters 3, 9, 13, 14, 15 "
                    + "and 17 on haystacks of these sizes (default: 256m, 1g, 4g, half of memory, 1.5 × memory) beside FILE, "
                    + "into sizes.csv (tools/SizeSweep.java).")
    String sizes;

    @Option(names = "--keep-haystacks", description = "With --sizes, leave the haystacks the round made.")
    boolean keepHaystacks;

    @Option(names = "--results", paramLabel = "DIR", defaultValue = "results",
            description = "The results root (default: ${DEFAULT-VALUE}): the study writes into DIR/MACHINE/, created if missing.")
    Path results;

    @Option(names = "--resume", description = "Skip rows the CSVs already hold for this chapter, worker count, cache, read size and file size.")
    boolean resume;

    @Option(names = "--report-only", description = "Measure nothing: draw the charts and write index.html from the CSVs already there.")
    boolean reportOnly;

    @Option(names = "--machine", paramLabel = "NAME",
            description = "With --report-only, the machine folder under --results to report on (default: this machine's).")
    String machineName;

    @Option(names = "--dry-run", description = "Print the steps and the commands, run nothing.")
    boolean dryRun;

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
         * What identifies its row in the CSVs, as {@link #rowKey} reads it back: the worker count only
         * where the table sweeps it, the read size only in the chunks table.
         */
        String key(long fileBytes) {
            return rowKey(table, chapter, SWEPT_WORKERS.contains(table) ? Integer.toString(workers) : "",
                    table.equals(PAGE_CACHE_TABLE) ? cache() + "/" + pageCache : cache(),
                    Long.toString(fileBytes), table.equals(CHUNKS_TABLE) ? Long.toString(chunkBytes) : "");
        }

        boolean measures() {
            return TABLES.contains(table);
        }

        @Override
        public String toString() {
            return switch (table) {
                case CHARTS -> "charts      notebooks/" + chapter + ".jsh";
                case REPORT -> "report      index.html";
                default -> String.format(Locale.ROOT, "%-11s %-28s %-11s %s%s", table, chapter,
                        workers == CHAPTER_DEFAULT ? "" : "workers=" + workers, cache(),
                        (chunkBytes == null ? "" : " chunk=" + Sizes.human(chunkBytes))
                                + (table.equals(PAGE_CACHE_TABLE) ? ", page cache " + pageCache : ""));
            };
        }
    }

    static String rowKey(String table, String chapter, String workers, String cache, String fileBytes, String chunk) {
        return String.join("|", table, chapter, workers, cache, fileBytes, chunk);
    }

    /** The tables whose rows differ by worker count; the others run each chapter at its own. */
    static final Set<String> SWEPT_WORKERS = Set.of(SCALING, WALL_TABLE);

    /** FILE, from {@link #runOptions}. */
    private Path file;
    private volatile Process running;
    private Path folder;
    private String machine;

    public static void main(String[] args) {
        Study study = new Study();
        CommandLine commandLine = new CommandLine(study)
                .setParameterExceptionHandler((e, ignored) -> fail(e.getMessage()))
                .setExecutionExceptionHandler((e, ignoredLine, ignoredResult) -> fail(e));
        System.exit(commandLine.execute(args));
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
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
        machine = machineName != null ? machineName : Machine.current().name();
        folder = results.resolve(machine);
        List<String> chapters = chapters();
        List<Step> steps = reportOnly ? finish() : plan(chapters);
        if (steps.stream().noneMatch(Step::measures) && !reportOnly) {
            throw new UserMistakeException("nothing to run: --only " + String.join(",", only) + " leaves no step");
        }
        if (dryRun) {
            steps.forEach(step -> System.out.println(step + "   " + String.join(" ", command(step))));
            return sizeRound(true);
        }
        if (reportOnly && !Files.isDirectory(folder)) {
            throw new UserMistakeException("no results for " + machine + " in " + results + " (" + folder + " does not exist)");
        }
        Files.createDirectories(folder);
        for (String table : TABLES) {
            ResultsCsv.checkWritable(csv(table)); // a foreign file is refused before an hour is spent
        }
        long fileBytes = -1;
        Set<String> done = Set.of();
        if (!reportOnly) {
            done = resume ? rowsPresent() : Set.of(); // a broken row is named before an hour is spent
            runOptions.findOrCreateFile(System.err);
            fileBytes = Files.size(file);
            describeMachine(fileBytes);
        }
        int sizeRoundStatus = reportOnly ? 0 : sizeRound(false); // first, so that the charts and the report at the end draw it

        Runtime.getRuntime().addShutdownHook(new Thread(this::stopRunningChapter)); // Ctrl-C or kill
        List<String> failed = new ArrayList<>();
        int skipped = 0;
        try (StudyProgress progress = StudyProgress.start(steps.stream().mapToDouble(step -> expectedSeconds(step, Files.exists(file) ? sizeOf(file) : 0)).toArray())) {
            for (int i = 0; i < steps.size(); i++) {
                Step step = steps.get(i);
                if ((step.measures() && done.contains(step.key(fileBytes))) || graphPresent(step)) {
                    progress.skip(i, step + "  already done, skipped");
                    skipped++;
                    continue;
                }
                Optional<String> missingTable = tableNotMeasured(step);
                if (missingTable.isPresent()) { // e.g. --only V04: no sweep, so nothing for the scaling notebook to draw
                    progress.skip(i, step + "  no " + missingTable.get() + ".csv in this study, skipped");
                    skipped++;
                    continue;
                }
                progress.begin(i, step.toString());
                boolean ok = switch (step.table()) {
                    case REPORT -> report(progress);
                    default -> step.chapter().equals(CMP_CHAPTER) ? runCmp(step) : runTool(step, progress);
                };
                progress.end(i);
                if (!ok) {
                    failed.add(step.toString().replaceAll("\\s+", " "));
                }
            }
            progress.println(String.format(Locale.ROOT, "study: %d steps in %s: %d ran, %d skipped, %d failed",
                    steps.size(), progress.elapsed(), steps.size() - skipped - failed.size(), skipped, failed.size()));
        }
        failed.forEach(step -> System.err.println("  failed: " + step));
        System.err.println("study: the report is " + folder.resolve("index.html").toAbsolutePath().normalize().toUri());
        return failed.isEmpty() && sizeRoundStatus == 0 ? 0 : 2;
    }

    /** The size round, with --sizes: its haystacks beside FILE, its rows in this study's folder. */
    private int sizeRound(boolean dryRun) throws IOException, InterruptedException {
        if (sizes == null) {
            return 0;
        }
        long memoryBytes = Machine.current().memoryBytes();
        List<Long> asked = sizes.isBlank() ? null : SizeSweep.parseSizes(sizes);
        List<String> chosen = only == null ? SizeSweep.CHAPTERS : SizeSweep.CHAPTERS.stream()
                .filter(chapter -> only.stream().anyMatch(name -> number(name.trim()).equals(number(chapter)))).toList();
        Path haystacks = file.toAbsolutePath().getParent();
        return SizeSweep.run(SizeSweep.chosenSizes(asked, memoryBytes), memoryBytes, chosen, haystacks, keepHaystacks,
                runOptions.runs(), runOptions.warmup(), SizeSweep.DEFAULT_RUNS_PAST_MEMORY, csv("sizes"), dryRun, System.out, System.err);
    }

    /** Every chapter script in variants/, in order, chapter zero first; with --only, those named. */
    private List<String> chapters() throws IOException {
        List<String> chapters = new ArrayList<>(List.of(CMP_CHAPTER));
        try (Stream<Path> scripts = Files.list(Path.of("variants"))) {
            scripts.map(path -> path.getFileName().toString())
                    .filter(name -> name.matches("V\\d\\d\\w*\\.java"))
                    .map(name -> name.substring(0, name.length() - ".java".length()))
                    .sorted()
                    .forEach(chapters::add);
        }
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
     * The scoreboard first, then the sweep, the page-cache round, the cold round, the walls and the read sizes, then the
     * flame graphs, the charts and the report: the most wanted figures come first.
     */
    private List<Step> plan(List<String> chapters) throws IOException {
        int processors = Runtime.getRuntime().availableProcessors();
        List<Step> steps = new ArrayList<>();
        for (String chapter : chapters) {
            steps.add(new Step(SCOREBOARD, chapter, chapter.equals(CMP_CHAPTER) ? 1 : Step.CHAPTER_DEFAULT, false));
        }
        if (!skip.contains(SCALING)) {
            for (String chapter : chapters) {
                if (PARALLEL.contains(number(chapter))) {
                    sweep.forEach(workers -> steps.add(new Step(SCALING, chapter, workers, false)));
                }
            }
        }
        String noPageCacheRound = skip.contains(PAGE_CACHE_TABLE) ? null
                : HugeFolios.whyNot(file.toAbsolutePath().getParent()); // where the file is, or will be, created
        if (noPageCacheRound != null) {
            System.err.println("study: no page-cache round here: " + noPageCacheRound);
        } else if (!skip.contains(PAGE_CACHE_TABLE)) {
            for (String chapter : chapters) {
                if (MAPPED.contains(number(chapter))) {
                    PAGE_CACHE_STATES.forEach(state ->
                            steps.add(new Step(PAGE_CACHE_TABLE, chapter, Step.CHAPTER_DEFAULT, false, null, state)));
                }
            }
        }
        if (!skip.contains(COLD_TABLE)) {
            for (String chapter : chapters) {
                if (COLD.contains(number(chapter))) {
                    steps.add(new Step(COLD_TABLE, chapter, Step.CHAPTER_DEFAULT, true));
                }
            }
        }
        boolean wallsWanted = only == null || only.stream().anyMatch(name -> name.trim().equalsIgnoreCase(ONLY_WALLS));
        if (!skip.contains("walls") && wallsWanted) {
            for (String wall : WALLS) {
                new TreeSet<>(List.of(1, processors)).forEach(workers -> steps.add(new Step(WALL_TABLE, wall, workers, false)));
            }
        }
        if (!skip.contains(CHUNKS_TABLE)) {
            for (String chapter : chapters) {
                if (CHUNKED.contains(number(chapter))) {
                    chunks.forEach(chunk -> steps.add(new Step(CHUNKS_TABLE, chapter, Step.CHAPTER_DEFAULT, false, chunk)));
                }
            }
        }
        if (flamegraphs) {
            for (String chapter : chapters) {
                if (!chapter.equals(CMP_CHAPTER)) {
                    steps.add(new Step(FLAMEGRAPHS, chapter, Step.CHAPTER_DEFAULT, false));
                }
            }
        }
        steps.addAll(finish());
        return steps;
    }

    /** The charts (every notebook of one machine, where Chromium can draw them) and the report. */
    private List<Step> finish() throws IOException {
        List<Step> steps = new ArrayList<>();
        if (!skip.contains(CHARTS) && chromium().isEmpty()) {
            System.err.println("study: no Chromium here, so no charts (tools/setup-chromium installs it; "
                    + "then ./jbang tools/Study.java --report-only draws them)");
        }
        if (!skip.contains(CHARTS) && chromium().isPresent()) {
            try (Stream<Path> notebooks = Files.list(Path.of("notebooks"))) {
                notebooks.map(path -> path.getFileName().toString())
                        .filter(name -> name.endsWith(".jsh"))
                        .map(name -> name.substring(0, name.length() - ".jsh".length()))
                        .filter(name -> !ALL_MACHINES_NOTEBOOKS.contains(name))
                        .sorted()
                        .forEach(name -> steps.add(new Step(CHARTS, name, 1, false)));
            }
        }
        steps.add(new Step(REPORT, "index.html", 1, false));
        return steps;
    }

    /** The results table a chart step draws from, when this study has not measured it (the notebook would stop). */
    private Optional<String> tableNotMeasured(Step step) {
        if (!step.table().equals(CHARTS)) {
            return Optional.empty();
        }
        String table = switch (step.chapter()) {
            case "chunks" -> CHUNKS_TABLE;
            case "scaling" -> SCALING;
            case "warm-vs-cold" -> COLD_TABLE;
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

    /** "V06MmapParallel", "v6" and "V06" all become "V06". */
    static String number(String chapter) {
        Matcher digits = Pattern.compile("^[vV](\\d{1,2})(\\D.*)?$").matcher(chapter);
        return digits.matches() ? String.format(Locale.ROOT, "V%02d", Integer.parseInt(digits.group(1))) : chapter;
    }

    private List<String> command(Step step) {
        if (step.chapter().equals(CMP_CHAPTER)) {
            return List.of("cmp", file.toString(), "/dev/zero");
        }
        if (step.table().equals(CHARTS)) {
            return List.of("./jbang", "-Dresults=" + results, "-Dmachine=" + machine, "notebooks/" + step.chapter() + ".jsh");
        }
        if (step.table().equals(REPORT)) {
            return List.of("(writes " + folder.resolve("index.html") + ")");
        }
        List<String> command = new ArrayList<>(List.of("./jbang"));
        if (step.table().equals(WALL_TABLE)) {
            command.addAll(List.of("tools/WallProbe.java", switch (step.chapter()) {
                case "WallMemoryRead" -> "memory";
                case "WallMemoryReadHuge" -> "memory-huge";
                default -> "copy";
            }));
        } else {
            command.add("variants/" + step.chapter() + ".java");
        }
        command.addAll(List.of(file.toString(), "--runs", Integer.toString(runOptions.runs()), "--warmup", Integer.toString(runOptions.warmup())));
        if (step.workers() != Step.CHAPTER_DEFAULT) {
            command.addAll(List.of("--workers", Integer.toString(step.workers())));
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
        return command;
    }

    /** With --resume, a chapter whose flame graph is already there is not profiled again. */
    private boolean graphPresent(Step step) {
        return resume && step.table().equals(FLAMEGRAPHS)
                && Files.exists(folder.resolve(FLAMEGRAPHS).resolve(step.chapter() + ".html"));
    }

    /**
     * A rough guess of a step's seconds, for the time left: a JVM's start, then each pass over the
     * file at a speed typical of its kind. The study scales every guess by how long the finished
     * steps really took, so only their proportions matter.
     */
    double expectedSeconds(Step step, long fileBytes) {
        if (step.table().equals(CHARTS)) {
            return 40;
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
        double passes = runOptions.warmup() + runOptions.runs() + 1; // and one to warm the cache
        return (step.chapter().equals(CMP_CHAPTER) ? 1 : 4) + passes * fileBytes / (megabytesPerSecond * 1e6);
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
     * summary line to stdout, both through the progress display.
     */
    private boolean runTool(Step step, StudyProgress progress) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command(step)).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        if (!progress.interactive()) {
            builder.redirectError(ProcessBuilder.Redirect.INHERIT);
        }
        Process process = builder.start();
        running = process;
        Thread errors = null;
        if (progress.interactive()) {
            errors = Thread.ofVirtual().start(() -> {
                try (BufferedReader err = process.errorReader(StandardCharsets.UTF_8)) {
                    err.lines().forEach(progress::println);
                } catch (IOException | java.io.UncheckedIOException ignored) {
                    // the process ended; what it said is already shown
                }
            });
        }
        try (BufferedReader out = process.inputReader(StandardCharsets.UTF_8)) {
            out.lines().forEach(progress::printOut);
        }
        int status = process.waitFor();
        if (errors != null) {
            errors.join();
        }
        running = null;
        if (status == 0 || (status == 1 && step.measures())) { // 1: the file is all zeros, which is a result too
            return true;
        }
        progress.println("study: " + step.chapter() + " ended with status " + status + " (its message is above); going on");
        return false;
    }

    /** Writes index.html from what the machine's folder holds now. */
    private boolean report(StudyProgress progress) {
        try {
            progress.println("report: " + StudyReport.write(folder));
            return true;
        } catch (IOException | RuntimeException e) {
            progress.println("study: the report could not be written: " + e.getMessage());
            return false;
        }
    }

    /**
     * machine.json: what this machine is, where the haystack lives, and whether the study is a trial.
     * Written anew by each study into its own machine's folder; a machine.json it did not write (of
     * another machine's name) is left alone.
     */
    private void describeMachine(long fileBytes) throws IOException {
        Path json = folder.resolve("machine.json");
        if (Files.exists(json) && !Files.readString(json).contains("\"name\": \"" + machine + "\"")) {
            throw new UserMistakeException(json + " describes another machine; left it alone (choose another --results)");
        }
        int runs = runOptions.runs(), warmup = runOptions.warmup();
        boolean trial = warmup == 0 || runs < FULL_STUDY_RUNS || fileBytes < FULL_STUDY_BYTES;
        Files.writeString(json, Machine.json(Machine.current().description(file, java.time.Instant.now(), trial)));
        if (trial) {
            List<String> why = new ArrayList<>();
            if (fileBytes < FULL_STUDY_BYTES) {
                why.add("a " + Sizes.human(fileBytes) + " file");
            }
            if (warmup == 0) {
                why.add("no warm-up");
            }
            if (runs < FULL_STUDY_RUNS) {
                why.add(runs + (runs == 1 ? " run" : " runs"));
            }
            System.err.println("study: a trial (" + String.join(", ", why) + "): machine.json and the report say so");
        }
    }

    /**
     * Chapter zero: {@code cmp FILE /dev/zero}, timed from starting the process to its exit. A chapter's
     * run excludes its JVM's start-up; cmp's start-up is a millisecond or so, so the two compare fairly.
     */
    private boolean runCmp(Step step) throws IOException, InterruptedException {
        PageCache.warm(file);
        Measurement.Result result;
        try {
            result = new Measurement(step.chapter(), file, System.out, System.err)
                    .runs(runOptions.warmup(), runOptions.runs())
                    .workers(step.workers())
                    .time(this::cmpOnce);
        } catch (WrongAnswerException | FileChangedException | CmpFailedException e) {
            System.err.println("study: " + step.chapter() + ": " + e.getMessage() + "; no figure recorded");
            return false;
        }
        ResultsCsv.append(csv(step.table()), List.of(ResultsCsv.row(result)));
        return true;
    }

    /** cmp could not compare: its message, not an offset, is what it gave. */
    static final class CmpFailedException extends IOException {
        CmpFailedException(String message) {
            super(message);
        }
    }

    /**
     * Runs cmp once. Returns the offset of the first non-zero 8-byte word (cmp counts bytes from 1;
     * the word's offset is that byte's, rounded down to 8), or -1 for a file of zeros.
     */
    private long cmpOnce() throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command(new Step(SCOREBOARD, CMP_CHAPTER, 1, false)))
                .redirectErrorStream(true);
        builder.environment().put("LC_ALL", "C"); // its message in English, to be read below
        Process process = builder.start();
        running = process;
        String output;
        try (Reader out = new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)) {
            output = new BufferedReader(out).lines().reduce("", (a, b) -> a + b + "\n");
        }
        int status = process.waitFor();
        running = null;
        Matcher differs = CMP_DIFFERS.matcher(output);
        if (status == 1 && differs.find()) {
            long firstDifferentByte = Long.parseLong(differs.group(1)) - 1;
            return NeedleSearch.wordContaining(firstDifferentByte);
        }
        if (status == 1 && output.contains("EOF on " + file)) {
            return NeedleSearch.NOT_FOUND; // the file ended before any byte differed from zero
        }
        throw new CmpFailedException("cmp failed (status " + status + "): " + output.strip());
    }

    /**
     * Rows already in the CSVs, as {@link #rowKey}. A row that cannot be read stops the study with
     * one line naming its file and line: skipping it would run that step again, trusting it would
     * keep a broken figure.
     */
    private Set<String> rowsPresent() throws IOException {
        Set<String> present = new HashSet<>();
        for (String table : TABLES) {
            Path csv = csv(table);
            if (!Files.exists(csv)) {
                continue;
            }
            try (Reader in = Files.newBufferedReader(csv); CSVParser parser = CSVFormat.DEFAULT.builder().setHeader()
                    .setSkipHeaderRecord(true).get().parse(in)) {
                for (String column : List.of("chapter", "workers", "cache", "file_bytes", "chunk_bytes")) {
                    if (!parser.getHeaderMap().containsKey(column)) {
                        throw new UserMistakeException(csv + " line 1: no column " + column + "; not a results CSV of this project");
                    }
                }
                int columns = parser.getHeaderNames().size();
                for (CSVRecord row : parser) {
                    long line = row.getRecordNumber() + 1;
                    if (row.size() != columns) {
                        throw new UserMistakeException(csv + " line " + line + ": " + row.size() + " values for " + columns
                                + " columns; mend or remove that line, then resume");
                    }
                    present.add(rowKey(table, row.get("chapter"), SWEPT_WORKERS.contains(table) ? row.get("workers") : "",
                            table.equals(PAGE_CACHE_TABLE) && row.isMapped("page_cache") ? row.get("cache") + "/" + row.get("page_cache") : row.get("cache"),
                            row.get("file_bytes"), table.equals(CHUNKS_TABLE) ? row.get("chunk_bytes") : ""));
                }
            } catch (java.io.UncheckedIOException | IllegalStateException e) { // commons-csv's word for a malformed file
                throw new UserMistakeException(csv + ": cannot be read as CSV (" + e.getMessage().lines().findFirst().orElse("") + ")");
            }
        }
        return present;
    }

    private Path csv(String table) {
        return folder.resolve(table + ".csv");
    }

    private void stopRunningChapter() {
        Process process = running;
        if (process != null && process.isAlive()) {
            process.descendants().forEach(ProcessHandle::destroy);
            process.destroy();
        }
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
