package lib.harness;

import lib.chapter.ChunkedSearch;
import lib.chapter.EarlyCompile;
import lib.chapter.ExternalProgram;
import lib.chapter.MapsTheFile;
import lib.chapter.NeedleSearch;
import lib.chapter.Shard;
import lib.chapter.SingleThreaded;
import lib.harness.FoliosConverter;
import lib.cli.PathConverter;
import lib.cli.CountConverter;
import lib.cli.Quote;
import lib.cli.SizeConverter;
import lib.cli.ProjectCommandLine;
import lib.cli.Sizes;
import lib.cli.UserMistakeException;
import lib.counters.KernelCounters;
import lib.counters.PerfStat;
import lib.counters.PmdMapping;
import lib.harness.PmdShares;
import lib.counters.Profiler;
import lib.haystack.MappedFileShrankException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The command line every chapter shares: find or create the haystack, warm or evict it, run the
 * search untimed (warm-up) and timed, check every answer, print and record the figures.
 *
 * <pre>
 *   ./jbang variants/VNN….java [FILE] [--runs N] [--warmup N] [--workers N[,N…]] [--cold] [--csv PATH] [--size SIZE]
 *       [--chunk SIZE[,SIZE…]] [--page-cache as-is|small|huge] [--profile [--flamegraphs DIR]] [--perf]
 * </pre>
 *
 * A chapter that offers a choice of its own (chapter 2's {@code --reader}) declares it as a picocli
 * {@code @Option} field in its own class; the harness adds those options to its command line.
 *
 * Exit status: 0 a non-zero word was found, 1 the file is all zeros, 2 anything went wrong, 3 this CPU
 * lacks what the chapter needs ({@link CpuLacksException}).
 * Each run is reported on stderr; stdout carries only the summary lines, one per worker count (and chunk size),
 * as space-separated {@code key=value} pairs for scripts to read.
 */
@Command(mixinStandardHelpOptions = true, versionProvider = ProjectVersion.class,
        sortOptions = false, usageHelpAutoWidth = true,
        description = "Finds the first non-zero 8-byte word of FILE and times how long that takes.",
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:a non-zero word was found", "1:the file is all zeros", "2:an error (one line on stderr)",
                "3:this CPU lacks what the chapter needs, such as AVX-512 (one line on stderr)"})
public final class Harness implements java.util.concurrent.Callable<Integer> {

    public static final int FOUND = 0, ALL_ZEROS = 1, ERROR = 2, NOT_ON_THIS_CPU = 3;
    /** Between the chapter's name and the reason, on the one line of a chapter this CPU cannot run (status 3). */
    public static final String NOT_ON_THIS_CPU_SAID = ": not run on this CPU: ";

    @Mixin
    RunOptions runOptions = new RunOptions();

    @Option(names = "--workers", paramLabel = "N[,N...]", split = ",", hideParamSyntax = true, converter = CountConverter.class,
            description = "Worker threads; a list sweeps them (default: the number of processors; a single-threaded chapter uses 1).")
    List<Integer> workers;

    @Option(names = "--cold", description = "Evict the file from the page cache before every run.")
    boolean cold;

    @Option(names = "--csv", paramLabel = "PATH", description = "Append one row per worker count to this results CSV.")
    Path csv;

    @Option(names = "--chunk", paramLabel = "SIZE[,SIZE...]", split = ",", hideParamSyntax = true, converter = SizeConverter.class,
            description = "Bytes per read, for a chapter that reads in chunks (one marked lib.chapter.ChunkedSearch); a list sweeps them (default: 1m).")
    List<Long> chunks;

    @Option(names = "--page-cache", paramLabel = "as-is|small|huge", converter = FoliosConverter.class,
            description = "The page cache the warm runs start from: as-is, after one plain read unless it is all cached already (default); small, evicted "
                    + "and read back in 4 KiB folios; huge, evicted and read back in 2 MiB folios through MADV_HUGEPAGE. "
                    + "A chapter that maps the file (one marked lib.chapter.MapsTheFile) reports the share of its mapping that was PMD-mapped.")
    PageCache.Folios pageCache = PageCache.Folios.AS_IS;

    @Option(names = "--profile", description = "Record an async-profiler flame graph of the timed runs in --flamegraphs.")
    boolean profile;

    @Option(names = "--perf", description = "Count the CPU's instructions, cycles, cache and dTLB misses over the timed runs with "
            + "perf stat, per GiB, on stderr, where this machine lets perf count them (one line says when it does not); recorded nowhere.")
    boolean perf;

    @Option(names = "--flamegraphs", paramLabel = "DIR",
            description = "Where --profile writes CHAPTER.html, never over an earlier one (default: results/MACHINE/flamegraphs, "
                    + "this machine's results folder).")
    Path flamegraphs;

    /** --flamegraphs, or this machine's results folder's: a chapter's graph sits beside its machine's figures. */
    private Path flameGraphDirectory() {
        return flamegraphs != null ? flamegraphs : Path.of("results", Machine.current().name(), "flamegraphs");
    }

    private Profiler profiler;
    /** The line for a single-threaded chapter asked for other worker counts, printed once its runs are done. */
    private String singleThreadNote;

    private final NeedleSearch search;
    private final String chapter;
    private final PrintStream out;
    private final PrintStream err;

    private Harness(NeedleSearch search, PrintStream out, PrintStream err) {
        this.search = search;
        this.chapter = search.getClass().getSimpleName();
        this.out = out;
        this.err = err;
    }

    /** A chapter's {@code main}: runs the command line and exits with its status. */
    public static void run(NeedleSearch search, String[] args) {
        if (!asksOnlyForHelpOrVersion(args)) { // with --help or --version no search comes: a compile would only delay the answer
            EarlyCompile.startFor(search); // while the options are read and the file checked
        }
        Phases.end("main");
        int status = execute(search, args, System.out, System.err);
        if (status == FOUND || status == ALL_ZEROS) { // a refusal stays one line
            Phases.print(System.err); // after the answer, which is out and flushed: the JVM's exit is all that is left
        }
        System.exit(status);
    }

    /**
     * Whether the command line asks for the usage or the version ({@code -h}, {@code --help}, {@code -V},
     * {@code --version}, or short ones together such as {@code -hV}), which picocli answers before any search.
     */
    public static boolean asksOnlyForHelpOrVersion(String[] args) {
        for (String arg : args) {
            if (arg.equals("--help") || arg.equals("--version") || arg.matches("-[hV]+")) {
                return true;
            }
        }
        return false;
    }

    /** The whole command line as a method, for tests: returns the exit status instead of exiting. */
    public static int execute(NeedleSearch search, String[] args, PrintStream out, PrintStream err) {
        if (args.length == 1 && (args[0].equals("--version") || args[0].equals("-V")) && printedVersion(out)) {
            return FOUND;
        }
        Harness harness = new Harness(search, out, err);
        String refused = PlainCommandLine.refusedBeforeParsing(args);
        if (refused != null) {
            return harness.fail(refused);
        }
        if (!declaresOptions(search) && PlainCommandLine.read(args, harness)) { // no model to build (docs/startup.md)
            try {
                return harness.call();
            } catch (Exception | Error e) { // what picocli's handlers below do with them
                return harness.fail(e);
            }
        }
        try {
            return harness.commandLine().execute(args);
        } catch (Error e) { // picocli hands exceptions to the handler below but lets errors through
            return harness.fail(e); // uncaught, the JVM would exit 1, which here means "all zeros"
        }
    }

    /** Picocli's model of this command: its options, the chapter's own among them, and what it does with a mistake. */
    CommandLine commandLine() {
        CommandLine commandLine = ProjectCommandLine.of(this) // every count through CountConverter, a Path through PathConverter
                .setCommandName(chapter)
                .setOut(new java.io.PrintWriter(out, true))
                .setErr(new java.io.PrintWriter(err, true))
                .setParameterExceptionHandler((e, ignored) -> fail(PathConverter.message(e)))
                .setExecutionExceptionHandler((e, ignoredLine, ignoredResult) -> fail(e));
        if (declaresOptions(search)) { // a chapter's own choice, such as chapter 2's --reader, set on the chapter itself
            commandLine.setCaseInsensitiveEnumValuesAllowed(true).addMixin("chapter", search);
        }
        commandLine.getCommandSpec().usageMessage().customSynopsis(synopsis(commandLine.getCommandSpec()));
        return commandLine;
    }

    /**
     * Prints the version line as picocli would, without building picocli's model of the options, which
     * is most of what {@code --version} alone waits for (docs/startup.md). Picocli formats the line
     * ({@code String.format}, its {@code @|bold …|@} markup): a line that has either is left to picocli.
     */
    private static boolean printedVersion(PrintStream out) {
        String version = ProjectVersion.describe();
        if (version.contains("%") || version.contains("@|")) {
            return false;
        }
        out.println(version);
        out.flush();
        return true;
    }

    /** The usage lines as README writes them, with --chunk only where it applies, then the chapter's own options. */
    private String[] synopsis(CommandLine.Model.CommandSpec spec) {
        List<String> lines = new ArrayList<>(List.of(chapter + " [FILE] [--runs N] [--warmup N] [--workers N[,N...]]",
                "    [--cold] [--csv PATH] [--size SIZE] [--page-cache as-is|small|huge]"));
        if (search instanceof ChunkedSearch) {
            lines.add("    [--chunk SIZE[,SIZE...]]");
        }
        CommandLine.Model.CommandSpec own = spec.mixins().get("chapter");
        if (own != null) {
            lines.add("    " + own.options().stream().map(option -> "[" + option.longestName() + " " + option.paramLabel() + "]")
                    .collect(Collectors.joining(" ")));
        }
        lines.add("    [--profile [--flamegraphs DIR]] [--perf] [--help] [--version]");
        return lines.toArray(String[]::new);
    }

    /** Whether the chapter declares picocli options of its own (fields marked {@code @Option}). */
    private static boolean declaresOptions(NeedleSearch search) {
        for (java.lang.reflect.Field field : search.getClass().getDeclaredFields()) {
            if (field.isAnnotationPresent(Option.class)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        checkOptions();
        // Every output is checked before the first run, so a figure is never measured only to be lost.
        Profiler.checkOptions(profile, flamegraphs, flameGraphDirectory());
        if (csv != null) {
            ResultsCsv.checkWritable(csv, runOptions.file());
        }
        if (profile) {
            profiler = Profiler.load(err);
        }
        if (perf) {
            String why = PerfStat.whyNot();
            if (why != null) {
                err.println(chapter + ": --perf: " + why + "; the runs go on without them");
                perf = false;
            }
        }
        Path haystack = runOptions.findOrCreateFile(err);
        List<Step> steps = steps(haystack); // every value of a sweep checked before the first is searched
        if (cold) {
            PageCache.requireColdPossible(haystack); // before the chapter's note, which may probe the file: a refusal is one line
        }
        String note = search.note(haystack);
        if (note == null && EarlyCompile.declaredBy(search).isPresent()) {
            note = "scanning with " + EarlyCompile.widestDescription();
        }
        if (note != null) {
            err.println(chapter + ": " + note);
        }
        KernelCounters.missing().forEach(line -> err.println(chapter + ": " + line)); // once, not per worker count or chunk size
        Phases.end("checked");
        if (!cold) {
            prepareCache(haystack);
        }
        Phases.end("preread");
        EarlyCompile.stop(); // the runs have both cores to themselves
        long answer = NeedleSearch.NOT_FOUND;
        List<List<?>> rows = new ArrayList<>();
        try {
            for (Step step : steps) {
                Measurement measurement = measurement(haystack, step.workers());
                Measurement.Result result = search instanceof ChunkedSearch chunked
                        ? measurement.chunkBytes(step.chunkBytes()).time(() -> chunked.search(haystack, step.workers(), step.chunkBytes()))
                        : measurement.time(() -> search.search(haystack, step.workers()));
                answer = record(result, rows);
                Phases.end("answer");
            }
        } finally {
            PmdMapping.stopRecording(); // a failed run leaves nothing recording for later callers in this JVM
        }
        if (singleThreadNote != null) {
            err.println(singleThreadNote);
        }
        if (profiler != null) {
            err.println("flame graph: " + profiler.writeFlameGraph(flameGraphDirectory(), chapter));
        }
        if (csv != null && Files.size(haystack) == 0) { // no bytes, no speed: a row of 0 MB/s would mislead every table
            err.println(chapter + ": no row written to " + csv + ": " + Quote.name(haystack) + " is empty, so nothing was timed");
        } else if (csv != null) { // only now: a command that failed part-way records nothing
            ResultsCsv.append(csv, rows);
        }
        return answer >= 0 ? FOUND : ALL_ZEROS;
    }

    /** The loop for one worker count: evicts the file before each run with --cold, profiles only the timed runs. */
    private Measurement measurement(Path haystack, int workerCount) throws IOException {
        PmdShares pmdShares = new PmdShares(); // how the file was mapped, read outside the runs' time
        PerfStat[] perfStat = {null};
        int[] timedRuns = {0};
        long fileBytes = Files.size(haystack);
        return new Measurement(chapter, haystack, out, err)
                .runs(runOptions.warmup(), runOptions.runs())
                .budget(runOptions.budget())
                .workers(workerCount)
                .cold(cold)
                .beforeEachRun((index, timed) -> {
                    if (profiler != null && timed && index == 0) {
                        profiler.resume(); // the timed runs only: warm-up is mostly the JIT at work
                    }
                    if (cold) {
                        PageCache.evict(haystack);
                    }
                    pmdShares.beforeRun(timed);
                    if (perf && timed && index == 0) {
                        perfStat[0] = PerfStat.start(); // last: the eviction above is not the search's
                    }
                    timedRuns[0] += timed ? 1 : 0;
                })
                .untimedInEachRun(() -> {
                    Phases.end("first_search");
                    return pmdShares.afterRun(search instanceof MapsTheFile ? haystack : null);
                })
                .untimedCountsInEachRun(pmdShares::readingCounts)
                .runNote(pmdShares::note)
                .afterRuns(() -> {
                    if (perfStat[0] != null) {
                        try {
                            err.println(chapter + ": " + perfStat[0].stop(fileBytes * timedRuns[0]));
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        perfStat[0] = null;
                    }
                    pmdShares.afterLastRun();
                    PageCache.requireStillHeld(haystack, pageCache, pmdShares);
                })
                .pageCache(pageCache)
                .pmdMappedPercent(pmdShares::medianPercent)
                .readMode(search::readMode);
    }

    /**
     * The page cache as --page-cache asks. As-is needs no pre-read when every page of the file is
     * already cached (mincore tells): a one-shot run then starts at once.
     */
    private void prepareCache(Path haystack) throws IOException {
        if (pageCache == PageCache.Folios.AS_IS) {
            Phases.note("preread", PageCache.warmUnlessCached(haystack) ? "yes" : "no");
            return;
        }
        PageCache.prepare(haystack, pageCache, Runtime.getRuntime().availableProcessors(), err);
        Phases.note("preread", "yes");
    }

    /** Pauses the profiler and keeps the CSV row for the end; returns the answer. */
    private long record(Measurement.Result result, List<List<?>> rows) {
        if (profiler != null) {
            profiler.pause();
        }
        if (csv != null) {
            rows.add(ResultsCsv.row(result));
        }
        return result.offset();
    }

    /**
     * One measurement of the command: a worker count and, for a chapter that reads in chunks, the
     * chunk --chunk asked for and the one each worker reads (0 and 0 for any other chapter).
     */
    private record Step(int workers, long requestedBytes, long chunkBytes) {}

    /**
     * The measurements the command asks for, one per worker count (and chunk size), all checked
     * before any is searched: a sweep whose last value would be refused is refused whole, in one line.
     * Only then does a line say which chunks were cut to a worker's share.
     */
    private List<Step> steps(Path haystack) throws IOException {
        List<Step> steps = new ArrayList<>();
        for (int workerCount : workerCounts()) {
            if (search instanceof ChunkedSearch chunked) {
                for (long requestedBytes : chunks != null ? chunks : List.of(ChunkedSearch.DEFAULT_CHUNK_BYTES)) {
                    steps.add(new Step(workerCount, requestedBytes, chunkFor(chunked, haystack, requestedBytes, workerCount)));
                }
            } else {
                steps.add(new Step(workerCount, 0, 0));
            }
        }
        for (Step step : steps) {
            if (step.chunkBytes() < step.requestedBytes()) {
                err.println(chapter + ": --chunk " + Sizes.human(step.requestedBytes()) + " is more than a worker's share of the file with "
                        + step.workers() + " workers; each reads " + Sizes.human(step.chunkBytes()) + " at a time");
            }
        }
        return steps;
    }

    /**
     * The chunk each worker really reads: no more than its shard of the file when --chunk asks for
     * more (a bigger buffer would only be zeroed and never filled), no less than the chapter can read without re-reading, and
     * buffers for every worker with a shard to read that fit in the memory available, as chapter 1 checks for its one.
     */
    private long chunkFor(ChunkedSearch chunked, Path haystack, long requestedBytes, int workerCount) throws IOException {
        long smallest = chunked.smallestChunkBytes(haystack);
        if (requestedBytes < smallest) {
            throw new UserMistakeException("--chunk " + requestedBytes + " is less than the " + smallest + " bytes " + chapter
                    + " reads at a time on the file system of " + Quote.name(haystack) + "; use --chunk " + smallest + " or more");
        }
        long fileBytes = Files.size(haystack);
        long shardBytes = Shard.largestBytes(fileBytes, workerCount);
        long chunkBytes = chunks == null ? requestedBytes // the default, 1 MiB: small enough whatever the file
                : Math.max(smallest, Math.min(requestedBytes, shardBytes));
        // Only a worker with a shard holds buffers: on a file smaller than a shard per worker the others get none.
        long readingWorkers = Shard.split(fileBytes, workerCount).size();
        long bufferBytes = readingWorkers * chunked.buffersPerWorker(chunkBytes) * chunkBytes; // at most 2^12 workers, each under 2^32 bytes of buffers: no overflow
        AvailableMemory available = AvailableMemory.now();
        if (available.known() && bufferBytes > available.bytes()) {
            throw new UserMistakeException(readingWorkers + (readingWorkers == 1 ? " worker" : " workers") + " reading " + Sizes.human(chunkBytes) + " at a time need "
                    + Sizes.human(bufferBytes) + " of buffers; only " + available + " of memory is available: use a smaller --chunk"
                    + " or fewer --workers");
        }
        return chunkBytes;
    }

    private void checkOptions() {
        runOptions.check();
        if (cold && pageCache != PageCache.Folios.AS_IS) {
            throw new UserMistakeException("--page-cache " + pageCache + " sets up the cache for warm runs, and --cold empties it before every run: choose one");
        }
        if (workers != null) {
            RunOptions.checkWorkers("--workers", workers);
        }
        if (chunks != null && chunks.isEmpty()) {
            throw new UserMistakeException("--chunk needs at least one size, such as 1m or 64k,1m");
        }
        if (chunks != null && !(search instanceof ChunkedSearch)) {
            throw new UserMistakeException("--chunk applies only to the chapters that read in chunks (those that implement "
                    + "lib.chapter.ChunkedSearch), and " + chapter + " does not");
        }
        for (long chunkBytes : chunks != null ? chunks : List.<Long>of()) {
            if (chunkBytes < Long.BYTES || chunkBytes > ChunkedSearch.MAX_CHUNK_BYTES || chunkBytes % Long.BYTES != 0) {
                throw new UserMistakeException("--chunk must be a multiple of 8 bytes, at most 1 GiB, not " + chunkBytes);
            }
        }
        if (profile && search instanceof ExternalProgram) {
            throw new UserMistakeException("--profile records Java's flame graph, and this chapter's search is another program");
        }
        if (search instanceof SingleThreaded && workers != null && !workers.equals(List.of(1))) {
            String asked = workers.stream().map(String::valueOf).collect(Collectors.joining(","));
            // Said once the runs are done: a chapter that then refuses (chapter 12 without AVX-512) says one line, its refusal.
            singleThreadNote = chapter + ": searches on one thread; --workers " + asked + " does not apply, so it ran and recorded workers=1";
        }
    }

    /** The --workers list; a single-threaded chapter has one worker, whatever was asked. */
    private List<Integer> workerCounts() {
        if (search instanceof SingleThreaded) {
            return List.of(1);
        }
        return workers != null ? workers : List.of(Runtime.getRuntime().availableProcessors());
    }

    private int fail(Throwable e) {
        if (e instanceof CpuLacksException lacks) {
            err.println(chapter + NOT_ON_THIS_CPU_SAID + lacks.getMessage());
            return NOT_ON_THIS_CPU;
        }
        String message = switch (e) {
            case UserMistakeException user -> user.getMessage();
            case MappedFileShrankException shrank -> shrankDuringTheSearch();
            case NoSuchFileException missing -> "no such file: " + Quote.name(missing.getFile());
            case AccessDeniedException denied -> "permission denied: " + Quote.name(denied.getFile());
            case IOException io -> io.getMessage() != null ? io.getMessage() : io.toString();
            case OutOfMemoryError oom -> "out of memory: " + oom.getMessage();
            case InternalError fault when String.valueOf(fault.getMessage()).contains("unsafe memory access") -> shrankDuringTheSearch();
            default -> null;
        };
        if (message == null) { // not the user's mistake: a bug deserves its stack trace
            e.printStackTrace(err);
            return ERROR;
        }
        return fail(message);
    }

    private String shrankDuringTheSearch() {
        return Quote.name(runOptions.file()) + " shrank during the search: a mapped page no longer had a file behind it; no figure is reported";
    }

    private int fail(String message) {
        err.println(chapter + ": " + message);
        return ERROR;
    }
}
