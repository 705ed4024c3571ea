//DEPS info.picocli:picocli:4.7.7
//DEPS org.apache.commons:commons-csv:1.14.1
//DEPS me.tongfei:progressbar:0.10.1
package lib;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The command line every chapter shares: find or create the haystack, warm or evict it, run the
 * search untimed (warm-up) and timed, check every answer, print and record the figures.
 *
 * <pre>
 *   ./jbang variants/VNN….java [FILE] [--runs N] [--warmup N] [--workers N[,N…]] [--cold] [--csv PATH] [--size SIZE]
 *       [--chunk SIZE[,SIZE…]] [--profile [--flamegraphs DIR]]
 * </pre>
 *
 * Exit status: 0 a non-zero word was found, 1 the file is all zeros, 2 anything went wrong.
 * Each run is reported on stderr; stdout carries only the summary lines, one per worker count (and chunk size),
 * as space-separated {@code key=value} pairs for scripts to read.
 */
@Command(mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        description = "Finds the first non-zero 8-byte word of FILE and times how long that takes.",
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:a non-zero word was found", "1:the file is all zeros", "2:an error (one line on stderr)"})
public final class Harness implements java.util.concurrent.Callable<Integer> {

    public static final int FOUND = 0, ALL_ZEROS = 1, ERROR = 2;

    @Parameters(arity = "0..1", paramLabel = "FILE",
            description = "File to search (default: ${DEFAULT-VALUE}). If it does not exist, a haystack of --size is created there.",
            defaultValue = "haystack.bin")
    Path file;

    @Option(names = "--runs", paramLabel = "N", defaultValue = "5", description = "Timed runs (default: ${DEFAULT-VALUE}).")
    int runs;

    @Option(names = "--warmup", paramLabel = "N", defaultValue = "1",
            description = "Untimed runs first, while the JIT compiles (default: ${DEFAULT-VALUE}).")
    int warmup;

    @Option(names = "--workers", paramLabel = "N[,N...]", split = ",",
            description = "Worker threads; a list sweeps them (default: the number of processors).")
    List<Integer> workers;

    @Option(names = "--cold", description = "Evict the file from the page cache before every run.")
    boolean cold;

    @Option(names = "--csv", paramLabel = "PATH", description = "Append one row per worker count to this results CSV.")
    Path csv;

    @Option(names = "--size", paramLabel = "SIZE", converter = SizeConverter.class,
            description = "Size of a haystack created for a FILE that does not exist: 4g, 64m, ... (default: 4g).")
    Long size;

    @Option(names = "--chunk", paramLabel = "SIZE[,SIZE...]", split = ",", converter = SizeConverter.class,
            description = "Bytes per read for the chapters that read in chunks (V03, V07, V11, V13, V14, V15); a list sweeps them (default: 1m).")
    List<Long> chunks;

    @Option(names = "--profile", description = "Record an async-profiler flame graph of the timed runs in --flamegraphs.")
    boolean profile;

    @Option(names = "--flamegraphs", paramLabel = "DIR", defaultValue = "results/flamegraphs",
            description = "Where --profile writes CHAPTER.html, never over an earlier one (default: ${DEFAULT-VALUE}).")
    Path flamegraphs;

    private Profiler profiler;

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
        System.exit(execute(search, args, System.out, System.err));
    }

    /** The whole command line as a method, for tests: returns the exit status instead of exiting. */
    public static int execute(NeedleSearch search, String[] args, PrintStream out, PrintStream err) {
        Harness harness = new Harness(search, out, err);
        CommandLine commandLine = new CommandLine(harness)
                .setCommandName(harness.chapter)
                .setOut(new java.io.PrintWriter(out, true))
                .setErr(new java.io.PrintWriter(err, true))
                .setParameterExceptionHandler((e, ignored) -> harness.fail(e.getMessage()))
                .setExecutionExceptionHandler((e, ignoredLine, ignoredResult) -> harness.fail(e));
        try {
            return commandLine.execute(args);
        } catch (Error e) { // picocli hands exceptions to the handler above but lets errors through
            return harness.fail(e); // uncaught, the JVM would exit 1, which here means "all zeros"
        }
    }

    @Override
    public Integer call() throws IOException {
        checkOptions();
        if (profile) {
            profiler = Profiler.load(err);
        }
        if (csv != null) {
            ResultsCsv.checkWritable(csv);
        }
        Path haystack = findOrCreate(file);
        long bytes = Files.size(haystack);
        long expected = Haystack.endsWithNeedle(haystack) ? Haystack.needleOffset(bytes) : -2;
        if (!cold) {
            PageCache.warm(haystack);
        }
        long answer = NeedleSearch.NOT_FOUND;
        List<List<?>> rows = new ArrayList<>();
        for (int workerCount : workerCounts()) {
            for (int chunkBytes : chunkSizes()) {
                answer = measure(haystack, bytes, expected, workerCount, chunkBytes, rows);
            }
        }
        if (profiler != null) {
            err.println("flame graph: " + profiler.writeFlameGraph(flamegraphs, chapter));
        }
        if (csv != null) { // only now: a command that failed part-way records nothing
            ResultsCsv.append(csv, rows);
        }
        return answer >= 0 ? FOUND : ALL_ZEROS;
    }

    /** Warm-up runs, then timed runs, for one worker count; prints the summary and adds its CSV row to {@code rows}. */
    private long measure(Path haystack, long bytes, long expected, int workerCount, int chunkBytes, List<List<?>> rows)
            throws IOException {
        double[] warmupSeconds = new double[warmup];
        double[] seconds = new double[runs];
        long answer = 0;
        for (int i = 0; i < warmup + runs; i++) {
            if (profiler != null && i == warmup) {
                profiler.resume(); // the timed runs only: warm-up is mostly the JIT at work
            }
            if (cold) {
                PageCache.evict(haystack);
            }
            long start = System.nanoTime();
            long offset = search instanceof ChunkedSearch chunked
                    ? chunked.search(haystack, workerCount, chunkBytes)
                    : search.search(haystack, workerCount);
            double elapsed = (System.nanoTime() - start) / 1e9;
            checkAnswer(haystack, bytes, expected, i == 0 ? offset : answer, offset);
            answer = offset;
            boolean timed = i >= warmup;
            if (timed) {
                seconds[i - warmup] = elapsed;
            } else {
                warmupSeconds[i] = elapsed;
            }
            err.printf(Locale.ROOT, "  %s %d: %.4f s  %,.0f MB/s  offset %d%n",
                    timed ? "run" : "warm-up", timed ? i - warmup + 1 : i + 1,
                    elapsed, Stats.megabytesPerSecond(bytes, elapsed), offset);
        }
        if (profiler != null) {
            profiler.pause();
        }
        double mean = Stats.trimmedMean(seconds);
        double median = Stats.median(seconds);
        double mbps = Stats.megabytesPerSecond(bytes, mean);
        out.printf(Locale.ROOT, "variant=%s workers=%d offset=%d runs=%d mean_s=%.4f median_s=%.4f mbps=%.0f cache=%s bytes=%d chunk_bytes=%d%n",
                chapter, workerCount, answer, runs, mean, median, mbps, cold ? "cold" : "warm", bytes, chunkBytes);
        if (csv != null) {
            rows.add(ResultsCsv.row(chapter, workerCount, cold ? "cold" : "warm", bytes, chunkBytes, answer,
                    warmupSeconds, seconds));
        }
        return answer;
    }

    /** Every answer must agree with the first, the file must not have changed, and a haystack's must be its needle. */
    private void checkAnswer(Path haystack, long bytes, long expected, long previous, long offset) throws IOException {
        if (Files.size(haystack) != bytes) {
            throw new FileChangedException(haystack + " changed size during the search (" + bytes + " -> "
                    + Files.size(haystack) + " bytes); no figure is reported");
        }
        if (offset != previous) {
            throw new WrongAnswerException("runs disagree: offset " + previous + ", then " + offset);
        }
        if (expected != -2 && offset != expected) {
            long reference = new ReferenceSearch().search(haystack, 1);
            if (reference == offset) {
                throw new WrongAnswerException(haystack + " ends with the needle but has a non-zero word at offset "
                        + offset + ": a damaged haystack, not timed");
            }
            throw new WrongAnswerException(chapter + " answered " + offset + " but a plain scan finds " + reference);
        }
    }

    private void checkOptions() {
        if (runs < 1) {
            throw new UserMistakeException("--runs must be at least 1, not " + runs);
        }
        if (warmup < 0) {
            throw new UserMistakeException("--warmup cannot be negative");
        }
        for (int count : workerCounts()) {
            if (count < 1 || count > 4096) {
                throw new UserMistakeException("--workers must be between 1 and 4096, not " + count);
            }
        }
        if (size != null && (size < Long.BYTES || size % Long.BYTES != 0)) {
            throw new UserMistakeException("--size must be a positive multiple of 8 bytes, not " + size);
        }
        if (chunks != null && !(search instanceof ChunkedSearch)) {
            throw new UserMistakeException("--chunk applies only to the chapters that read in chunks (V03, V07, V11, V13, V14, V15)");
        }
        for (long chunkBytes : chunks != null ? chunks : List.<Long>of()) {
            if (chunkBytes < Long.BYTES || chunkBytes > (1L << 30) || chunkBytes % Long.BYTES != 0) {
                throw new UserMistakeException("--chunk must be a multiple of 8 bytes, at most 1 GiB, not " + chunkBytes);
            }
        }
    }

    private List<Integer> chunkSizes() {
        return chunks != null ? chunks.stream().map(Long::intValue).toList() : List.of(ParallelSearch.CHUNK_BYTES);
    }

    private List<Integer> workerCounts() {
        return workers != null ? workers : List.of(Runtime.getRuntime().availableProcessors());
    }

    /** An existing regular file is searched as it is; a missing one becomes a new haystack. */
    private Path findOrCreate(Path path) throws IOException {
        if (Files.isSymbolicLink(path) && !Files.exists(path)) {
            throw new UserMistakeException(path + " is a symbolic link to nothing; refusing to create a file through it");
        }
        if (!Files.exists(path)) {
            long bytes = size != null ? size : Haystack.DEFAULT_BYTES;
            Haystack.checkCreatable(path, bytes); // a refusal is one line, not "creating..." then an error
            err.println("creating a " + Sizes.human(bytes) + " haystack at " + path + " (needle at offset "
                    + Haystack.needleOffset(bytes) + ")");
            Haystack.create(path, bytes);
            return path;
        }
        if (Files.isDirectory(path)) {
            throw new UserMistakeException(path + " is a directory, not a file");
        }
        if (!Files.isRegularFile(path)) {
            throw new UserMistakeException(path + " is not a regular file (a pipe or a device cannot be timed as a haystack)");
        }
        if (!Files.isReadable(path)) {
            throw new UserMistakeException("cannot read " + path + ": permission denied");
        }
        if (size != null && Files.size(path) != size) {
            throw new UserMistakeException(path + " exists with " + Files.size(path) + " bytes, not the --size " + size
                    + " you asked for; it is left as it is (choose another FILE for a new haystack)");
        }
        return path;
    }

    private int fail(Throwable e) {
        String message = switch (e) {
            case UserMistakeException user -> user.getMessage();
            case NoSuchFileException missing -> "no such file: " + missing.getFile();
            case AccessDeniedException denied -> "permission denied: " + denied.getFile();
            case IOException io -> io.getMessage() != null ? io.getMessage() : io.toString();
            case OutOfMemoryError oom -> "out of memory: " + oom.getMessage();
            case InternalError fault when String.valueOf(fault.getMessage()).contains("unsafe memory access") ->
                    file + " shrank during the search: a mapped page no longer had a file behind it; no figure is reported";
            default -> null;
        };
        if (message == null) { // not the user's mistake: a bug deserves its stack trace
            e.printStackTrace(err);
            return ERROR;
        }
        return fail(message);
    }

    private int fail(String message) {
        err.println(chapter + ": " + message);
        return ERROR;
    }

    /** A wrong or inconsistent answer: the figures would be a lie, so none are reported. */
    public static final class WrongAnswerException extends IOException {
        WrongAnswerException(String message) {
            super(message);
        }
    }

    static final class SizeConverter implements CommandLine.ITypeConverter<Long> {
        @Override
        public Long convert(String text) {
            try {
                return Sizes.parse(text);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }
}
