///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
//SOURCES ../LabWithChapters.java GoBench.java GoHaystack.java
//COMPILE_OPTIONS --add-modules jdk.incubator.vector
//RUNTIME_OPTIONS --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import lab.results.*;
import lib.chapter.ChapterTrait;
import lib.cli.Sizes;
import lib.cli.UserMistakeException;
import lib.harness.Machine;
import lib.harness.Measurement;
import lib.harness.ResultsCsv;
import lib.harness.RunOptions;
import lib.haystack.Haystack;
import lab.tools.ChapterCall;
import lab.tools.ChildProcess;
import lab.tools.HeldLines;
import lab.tools.ResultsOutput;
import lab.tools.ToolCommand;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The Go article's own benchmark beside the Java chapters: same machine, same file, same sitting.
 *
 * <p>For each pair (Go {@code v1} and chapter 1, … {@code v11} and chapter 11, {@code v12} and
 * {@code v13} where the binary has them and the CPU has AVX-512), the Go variant and the Java chapter
 * run one after the other on the same warm haystack with the same worker count, each in a process
 * of its own, {@code --runs} times (pair 2, one byte per call, at most
 * {@link #BYTE_PER_CALL_MOST_RUNS}); that is one round, and the sitting is {@code --rounds} of them,
 * the order of the two sides swapped every round. A noisy machine moves whole rounds, so each round
 * is compared on its own (Go's median run over Java's) and the pair's figure is the median of those
 * ratios, marked ahead or behind only when Java won or lost every round (lab/results/StudyResults.java's
 * rule, which README's table and the report use too).
 *
 * <p>Both sides go to {@code versus-go.csv} in the results folder, one row per call: the Java rows
 * written by the chapter itself ({@code --csv}), the Go rows named {@code Go v1} … with the Go
 * release and the binary's variants in the {@code jdk} column.
 *
 * <pre>
 * How to run (from the project's root; build the Go benchmark first, see README "Java beside Go"):
 *   ./jbang lab/yardsticks/VersusGo.java --go-bench ../gobench                 # or: jbang versus-go --go-bench ...
 * A quick try:   ./jbang lab/yardsticks/VersusGo.java --go-bench ../gobench --rounds 1 --runs 3 --only 1,8
 * </pre>
 */
@Command(name = "VersusGo", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        description = "Runs the Go article's benchmark and the matching Java chapters alternately on one haystack.",
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:every call ran and answered right", "2:a call failed (the others still ran) or an error (one line on stderr)"})
public class VersusGo implements Callable<Integer> {

    /**
     * A Go variant, by the name its {@code Name()} returns, and the Java chapter that tells the same idea;
     * {@code mostRuns}: the most timed runs a call of this pair makes, whatever {@code --runs} asks.
     */
    record Pair(int number, String goVariant, Class<?> chapter, boolean needsAvx512, int mostRuns) {
        Pair(int number, String goVariant, Class<?> chapter, boolean needsAvx512) {
            this(number, goVariant, chapter, needsAvx512, Integer.MAX_VALUE);
        }

        /** The timed runs of each of this pair's calls when {@code --runs} asks for {@code asked}. */
        int runs(int asked) {
            return Math.min(asked, mostRuns);
        }

        String label() {
            return "v" + number + " / " + javaChapter();
        }

        String goChapter() {
            return "Go v" + number;
        }

        /**
         * Chapters 1–5, 8 and 12 search on one thread, and so do their Go variants, which ignore
         * WORKERS: both sides run and record one worker, as the chapters do on their own.
         */
        boolean singleThreaded() {
            return ChapterTrait.of(chapter).contains(ChapterTrait.SINGLE_THREADED);
        }

        /** The Java chapter's name, as its rows and its command name it ("V04Mmap"). */
        String javaChapter() {
            return chapter.getName();
        }
    }

    /**
     * Pair 2 hands out one byte per call on both sides, and Go's v2 is the slowest Go variant by far: 236 MB/s,
     * 18 s a run on 4 GiB, on an Intel Xeon VM. Its minutes once kept it out of the sittings; its calls make
     * at most this many runs instead: fewer runs, never none.
     */
    static final int BYTE_PER_CALL_MOST_RUNS = 3;

    static final List<Pair> PAIRS = List.of(
            new Pair(1, "v1-naive-readall", V01ReadAll.class, false),
            new Pair(2, "v2-bufio-byte", V02BufferedByte.class, false, BYTE_PER_CALL_MOST_RUNS),
            new Pair(3, "v3-chunked-uint64", V03ChunkedLong.class, false),
            new Pair(4, "v4-mmap", V04Mmap.class, false),
            new Pair(5, "v5-mmap-madvise", V05MmapMadvise.class, false),
            new Pair(6, "v6-mmap-parallel", V06MmapParallel.class, false),
            new Pair(7, "v7-pread-parallel", V07PreadParallel.class, false),
            new Pair(8, "v8-simd-avx2", V08Vector256.class, false),
            new Pair(9, "v9-parallel-simd", V09MmapParallelVector.class, false),
            new Pair(10, "v10-populate-parallel-simd", V10MmapPopulate.class, false),
            new Pair(11, "v11-pread-simd", V11PreadParallelVector256.class, false),
            new Pair(12, "v12-archsimd-avx512", V12Vector512.class, true),
            new Pair(13, "v13-pread-archsimd", V13PreadVector.class, true)); // Go's v13 refuses to run without AVX-512

    static final String CSV_NAME = "versus-go.csv";
    /** The JVM's own warning at every start of a chapter, not the chapter's words. */
    static final String JVM_NOTICE = "WARNING: Using incubator modules";

    @Option(names = "--go-bench", paramLabel = "PATH", required = true,
            description = "The Go article's benchmark binary (cmd/bench of its code, built as README says).")
    Path goBench;

    @Option(names = "--haystack", paramLabel = "FILE", defaultValue = "go-haystack.bin",
            description = "The haystack both sides search (default: ${DEFAULT-VALUE}). Created if missing; an existing file "
                    + "is used only after every byte is checked to be a haystack of the size the Go benchmark was built for "
                    + "(it says which), since the Go benchmark rewrites any other file.")
    Path haystackPath;

    @Option(names = "--rounds", paramLabel = "N", defaultValue = "3",
            description = "Rounds: every pair once per round, the two sides' order swapped each round (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--runs", paramLabel = "N", defaultValue = "5",
            description = "Timed runs per call (default: ${DEFAULT-VALUE}); pair 2, one byte per call and the slowest by far, "
                    + "makes at most " + BYTE_PER_CALL_MOST_RUNS + ".")
    int runs;

    @Option(names = "--warmup", paramLabel = "N", defaultValue = "1",
            description = "Untimed runs of each Java chapter first, while the JIT compiles (default: ${DEFAULT-VALUE}; Go has no JIT).")
    int warmup;

    @Option(names = "--workers", paramLabel = "N",
            description = "Workers on both sides of the parallel pairs: WORKERS for Go, --workers for Java "
                    + "(default: the number of processors; the single-threaded pairs run on one).")
    Integer workers;

    @Option(names = "--only", paramLabel = "N[,N...]", split = ",",
            description = "Only these pairs, by number: 1,8 or v1,V08 (default: 1 to 11, and 12, 13 where the binary and CPU allow).")
    List<String> only;

    @Option(names = "--results", paramLabel = "DIR", defaultValue = "results",
            description = "The results root (default: ${DEFAULT-VALUE}): rows go to DIR/MACHINE/" + CSV_NAME + ".")
    Path results;

    private final PrintStream out;
    private final PrintStream err;
    private GoBench bench;

    VersusGo(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    public static void main(String[] args) {
        System.exit(execute(args, System.out, System.err));
    }

    /** The command line as a method, for tests: returns the exit status. */
    static int execute(String[] args, PrintStream out, PrintStream err) {
        return ToolCommand.execute("VersusGo", new VersusGo(out, err), args, out, err);
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        checkOptions();
        List<Pair> asked = asked();
        ChildProcess.requireProjectRoot();
        bench = new GoBench(goBench);
        HeldLines whereRowsGo = new HeldLines();
        Path csv = CommittedMachines.ownFolder(results, "versus-go", whereRowsGo.stream()).resolve(CSV_NAME);
        ResultsOutput.check(csv, haystackPath); // a foreign file is refused before the haystack is made
        long haystackBytes = bench.haystackBytes(err); // asked on a throwaway file: the binary rewrites a file of any other size
        GoHaystack haystack = GoHaystack.prepare(haystackPath, haystackBytes, err);
        return sitting(asked, haystack, csv, whereRowsGo);
    }

    /** The rounds, the table, the failures. */
    private int sitting(List<Pair> asked, GoHaystack haystack, Path csv, HeldLines whereRowsGo) throws IOException, InterruptedException {
        String goVersion = bench.goVersion();
        List<String> inBinary = bench.variants(haystack.bytes(), PAIRS.stream().map(Pair::goVariant).toList(), err);
        List<Pair> pairs = runnable(asked, inBinary);
        if (pairs.isEmpty()) {
            throw new UserMistakeException("nothing to run: the Go benchmark " + goBench + " has none of the variants asked for");
        }
        ResultsOutput.create(csv, haystackPath); // the first thing the sitting writes: nothing is left to refuse
        whereRowsGo.sayTo(err);
        String goDescription = goVersion + "; variants: " + PAIRS.stream().filter(pair -> inBinary.contains(pair.goVariant()))
                .map(pair -> "v" + pair.number()).collect(Collectors.joining(" "));
        int workerCount = workers != null ? workers : Runtime.getRuntime().availableProcessors();
        err.printf(Locale.ROOT, "versus-go: %s (%s), %d pairs, %d rounds of %d runs, %d workers for the parallel pairs, haystack %s%n",
                goBench, goDescription, pairs.size(), rounds, runs, workerCount, haystack.path());

        long lastLineBefore = lastLine(csv); // the sitting's rows are those after it
        List<String> failures = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            boolean goFirst = round % 2 == 1;
            for (Pair pair : pairs) {
                for (boolean goTurn : goFirst ? List.of(true, false) : List.of(false, true)) {
                    err.printf(Locale.ROOT, "[round %d/%d] %s%n", round, rounds, goTurn ? pair.goChapter() + " (" + pair.goVariant() + ")" : pair.javaChapter());
                    int pairWorkers = pair.singleThreaded() ? 1 : workerCount; // the same on both sides
                    String failure = goTurn
                            ? runGo(pair, haystack, pairWorkers, goDescription, csv)
                            : runJava(pair, haystack, pairWorkers, csv);
                    if (failure != null) {
                        err.println("versus-go: " + failure);
                        failures.add("round " + round + ": " + failure);
                    }
                }
            }
        }
        printTable(pairs, csv, lastLineBefore, haystack.bytes(), workerCount, goDescription);
        err.println("versus-go: figures appended to " + csv);
        failures.forEach(failure -> err.println("  failed: " + failure));
        return failures.isEmpty() ? 0 : 2;
    }

    /** The pairs --only names (all by default), in order; an unknown number is a mistake. */
    private List<Pair> asked() {
        if (only == null) {
            return PAIRS;
        }
        if (only.isEmpty()) { // "--only ," is an empty list to picocli: a sitting of no pair
            throw new UserMistakeException("--only needs at least one pair, such as 1 or 1,8");
        }
        Set<Integer> numbers = new LinkedHashSet<>();
        for (String name : only) {
            String number = StudyResults.chapterNumber(name.strip());
            int n = number.matches("V\\d\\d") ? Integer.parseInt(number.substring(1)) : -1;
            if (n < 1 || n > PAIRS.size()) {
                throw new UserMistakeException("--only " + name + ": no such pair (1 to " + PAIRS.size() + ")");
            }
            numbers.add(n);
        }
        return PAIRS.stream().filter(pair -> numbers.contains(pair.number())).toList();
    }

    /** Leaves out, one line each, the pairs the binary or the CPU cannot run. */
    private List<Pair> runnable(List<Pair> asked, List<String> inBinary) {
        List<Pair> runnable = new ArrayList<>();
        for (Pair pair : asked) {
            if (!inBinary.contains(pair.goVariant())) {
                err.println("versus-go: skipped " + pair.label() + ": the Go benchmark has no " + pair.goVariant()
                        + (pair.needsAvx512() ? " (it needs Go 1.26 with GOEXPERIMENT=simd)" : ""));
            } else if (pair.needsAvx512() && !Machine.current().avx512()) {
                err.println("versus-go: skipped " + pair.label() + ": this CPU has no AVX-512, which " + pair.goVariant() + " needs");
            } else {
                runnable.add(pair);
            }
        }
        return runnable;
    }

    /** One Go call: its row goes to the CSV. Returns a failure line, or null. */
    private String runGo(Pair pair, GoHaystack haystack, int workerCount, String goDescription, Path csv)
            throws IOException, InterruptedException {
        GoBench.Call call = bench.run(haystack, pair.goVariant(), pair.runs(runs), workerCount, err);
        if (call.failed()) {
            return call.failure();
        }
        double[] seconds = call.results().stream().filter(result -> result.variant().equals(pair.goVariant()))
                .findFirst().orElseThrow().runsSeconds();
        Measurement.Result figures = new Measurement.Result(pair.goChapter(), workerCount, "warm", haystack.bytes(),
                OptionalLong.empty(), Haystack.needleOffset(haystack.bytes()), new double[0], seconds); // Go checks the offset itself
        List<Object> row = new ArrayList<>(ResultsCsv.row(figures));
        row.set(ResultsCsv.COLUMNS.indexOf("jdk"), goDescription);
        ResultsCsv.append(csv, List.of(row));
        return null;
    }

    /**
     * One Java call: the chapter, started as a user starts it ({@code ./jbang variants/….java}), writes
     * its row.
     */
    private String runJava(Pair pair, GoHaystack haystack, int workerCount, Path csv)
            throws IOException, InterruptedException {
        haystack.checkUnchanged(); // the same file, unchanged, for both sides
        ChildProcess chapter = ChildProcess.chapter(pair.javaChapter(), List.of(haystack.path().toString(),
                "--runs", Integer.toString(pair.runs(runs)), "--warmup", Integer.toString(warmup),
                "--workers", Integer.toString(workerCount), "--csv", csv.toString()));
        ChapterCall call = ChapterCall.run(chapter
                .timeLimit(ChildProcess.JBANG_START_UP, (warmup + pair.runs(runs) + 1L) * haystack.bytes()) // and one pass to warm the cache
                .relayErr(line -> {
                    if (!line.startsWith(JVM_NOTICE)) {
                        err.println("    java| " + line);
                    }
                }), csv, String.join(" ", chapter.command()), line -> err.println("versus-go: " + line));
        ChildProcess.Ended ended = call.ended();
        if (ended.timedOut()) {
            return ended.timeOutLine();
        }
        if (ended.status() != 0) {
            return "Java " + pair.javaChapter() + " failed (status " + ended.status() + "): "
                    + ended.lastError(line -> !line.isBlank() && !line.startsWith(JVM_NOTICE)).orElse("no message");
        }
        if (call.appended().isEmpty()) {
            return "Java " + pair.javaChapter() + " appended no row to " + csv;
        }
        Map<String, String> row = call.appended().getLast();
        long offset;
        try {
            offset = Long.parseLong(row.get("offset"));
        } catch (NumberFormatException notAFigure) {
            return "Java " + pair.javaChapter() + " appended a row without an offset and a median to " + csv;
        }
        if (offset != Haystack.needleOffset(haystack.bytes())) { // the chapter checks it too; a figure is never trusted blind
            return "Java " + pair.javaChapter() + " answered " + offset + ", not the needle's offset";
        }
        if (call.medianSeconds().isEmpty()) {
            return "Java " + pair.javaChapter() + " appended a row without a plausible median: median_s=" + row.get("median_s");
        }
        return null;
    }

    /** The last line of the CSV's rows so far (0 for a new file): the sitting's rows come after it. */
    private static long lastLine(Path csv) {
        return Files.exists(csv) ? StudyResults.read(csv).rows().stream().mapToLong(StudyResults.Row::line).max().orElse(0) : 0;
    }

    /**
     * The sitting's table, read back from the rows it appended: README's and the report's table
     * ({@link ReportTables#versusGoTable}), as text.
     */
    private void printTable(List<Pair> pairs, Path csv, long lastLineBefore, long bytes, int workerCount, String goDescription) {
        List<StudyResults.Row> sitting = StudyResults.read(csv).rows().stream().filter(row -> row.line() > lastLineBefore).toList();
        out.printf(Locale.ROOT, "%nJava beside Go: %s haystack, %d workers for the parallel pairs (1 for the others), %d rounds of %d runs;%n"
                + "MB/s from the median over rounds of each call's median run%n",
                Sizes.human(bytes), workerCount, rounds, runs);
        out.printf(Locale.ROOT, "Go: %s%n%n", goDescription);
        List<VersusGoPairs.GoPair> read = VersusGoPairs.pairs(sitting);
        out.print(ReportTables.versusGoTable(read).text());
        out.println("(" + VersusGoPairs.RULE + ")");
        Set<Integer> withFigure = read.stream().filter(pair -> !pair.rounds().isEmpty())
                .map(VersusGoPairs.GoPair::number).collect(Collectors.toSet());
        for (Pair pair : pairs) {
            if (!withFigure.contains(pair.number())) {
                out.printf(Locale.ROOT, "(%s: no figure, no round where both sides ran)%n", pair.label());
            }
            if (pair.runs(runs) < runs) {
                out.printf(Locale.ROOT, "(%s: %d runs per call, the most this pair makes)%n", pair.label(), pair.runs(runs));
            }
        }
    }

    private void checkOptions() {
        if (rounds < 1) {
            throw new UserMistakeException("--rounds must be at least 1, not " + rounds);
        }
        if (runs < 1) {
            throw new UserMistakeException("--runs must be at least 1, not " + runs);
        }
        if (warmup < 0) {
            throw new UserMistakeException("--warmup cannot be negative");
        }
        if (workers != null) {
            RunOptions.checkWorkers("--workers", List.of(workers));
        }
    }

}
