///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
//SOURCES ../Lab.java NativeYardstick.java
//COMPILE_OPTIONS --add-modules jdk.incubator.vector
//RUNTIME_OPTIONS --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import lab.results.*;
import lab.tools.ChapterCall;
import lab.tools.ChildProcess;
import lab.tools.HeldLines;
import lab.tools.ResultsOutput;
import lab.tools.ToolCommand;
import lib.cli.SizeConverter;
import lib.cli.Sizes;
import lib.cli.UserMistakeException;
import lib.haystack.Haystack;
import lib.harness.Measurement;
import lib.harness.ProjectVersion;
import lib.harness.RunOptions;
import lib.counters.KernelBill;
import lib.counters.Stats;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * A reading chapter beside the same search in plain C, in one sitting: {@code native-yardstick.c}'s
 * {@code pread} mode makes the chapter's calls (each worker its shard, a buffer of its own, the read
 * size of {@code --chunk}) and scans each buffer with 32-byte vectors, as the chapter does. For each
 * read size, each round runs both sides back to back on the warm file, C first in odd rounds and the
 * chapter first in even ones, so that neither side always runs second.
 *
 * <p>Every row goes to {@code versus-c.csv} in the results schema: the chapter's written by the
 * chapter itself ({@code --csv}), C's as {@code NativePread} with the compiler in the {@code jdk}
 * column; both carry the read size in {@code chunk_bytes}. The table at the end gives, per read size,
 * the median over rounds of C's median run over the chapter's (above 1: Java faster).
 *
 * <pre>
 * How to run:   ./jbang versus-c haystack.bin                         (chapter 13 at 1 MiB, 256 KiB, 64 KiB)
 *               ./jbang versus-c haystack.bin --chapter V07PreadParallel --chunk 1m --rounds 5
 * What you should see: a line per call, then a table of Java ÷ C per read size.
 * </pre>
 */
@Command(name = "VersusC", mixinStandardHelpOptions = true, versionProvider = ProjectVersion.class,
        sortOptions = false, usageHelpAutoWidth = true,
        description = "Runs a reading chapter and the same search in C (lab/yardsticks/native-yardstick.c) alternately on FILE, warm, "
                + "into results/MACHINE/versus-c.csv.",
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:every call ran", "2:a call failed, no C compiler, or an error (one line on stderr)"})
public class VersusC implements Callable<Integer> {

    static final String CSV_NAME = "versus-c.csv";
    /** The C side's name in the chapter column: NativeYardstick's pread mode. */
    static final String C_SIDE = "NativePread";
    /** The chapters whose workers read their shard with pread into a buffer of their own, as C's pread mode does. */
    static final List<String> PREAD_CHAPTERS_CHOICE = List.of("V07PreadParallel", "V11PreadParallelVector256", "V13PreadVector");

    @Mixin
    RunOptions.HaystackFile haystack;

    @Option(names = "--chapter", paramLabel = "NAME", defaultValue = "V13PreadVector",
            description = "The chapter beside C: V07PreadParallel, V11PreadParallelVector256 or V13PreadVector (default: ${DEFAULT-VALUE}).")
    String chapter;

    @Option(names = "--chunk", paramLabel = "SIZE[,SIZE...]", split = ",", hideParamSyntax = true, converter = SizeConverter.class,
            defaultValue = "1m,256k,64k", description = "Bytes per read on both sides, each a pair of its own (default: ${DEFAULT-VALUE}).")
    List<Long> readSizes;

    @Option(names = "--rounds", paramLabel = "N", defaultValue = "3",
            description = "Rounds: every read size once per round, the two sides' order swapped each round (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--runs", paramLabel = "N", defaultValue = "5", description = "Timed runs per call, on both sides (default: ${DEFAULT-VALUE}).")
    int runs;

    @Option(names = "--warmup", paramLabel = "N", defaultValue = "1", description = "Untimed runs first, on both sides (default: ${DEFAULT-VALUE}).")
    int warmup;

    @Option(names = "--workers", paramLabel = "N[,N...]", split = ",", hideParamSyntax = true,
            description = "Workers on both sides, each count a pair of its own (default: the number of processors).")
    List<Integer> workers;

    @Option(names = "--results", paramLabel = "DIR", defaultValue = "results",
            description = "The results root (default: ${DEFAULT-VALUE}): rows go to DIR/MACHINE/" + CSV_NAME + ".")
    Path results;

    private final PrintStream out;
    private final PrintStream err;

    VersusC(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    public static void main(String[] args) {
        System.exit(ToolCommand.execute("VersusC", new VersusC(System.out, System.err), args, System.out, System.err));
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        checkOptions();
        ChildProcess.requireProjectRoot();
        if (NativeYardstick.compiler().isEmpty()) {
            throw new UserMistakeException("no C compiler (cc) on PATH to build " + NativeYardstick.SOURCE + " (apt-get install gcc)");
        }
        List<Integer> workerCounts = workers != null ? workers : List.of(Runtime.getRuntime().availableProcessors());
        HeldLines whereRowsGo = new HeldLines();
        Path csv = CommittedMachines.ownFolder(results, "versus-c", whereRowsGo.stream()).resolve(CSV_NAME);
        ResultsOutput.check(csv, haystack.file());
        Path file = haystack.findOrCreateFile(err);
        Haystack.requireNotEmpty(file, "versus-c");
        ResultsOutput.create(csv, file);
        whereRowsGo.sayTo(err);
        NativeYardstick c = new NativeYardstick("versus-c");
        Map<List<Long>, List<Round>> roundsByPair = new LinkedHashMap<>(); // per {workers, read size}: each round's two calls
        int failures = 0;
        for (int round = 1; round <= rounds; round++) {
            for (int workerCount : workerCounts) {
                for (long readBytes : readSizes) {
                    err.printf(Locale.ROOT, "versus-c: round %d of %d, %d workers, %s reads%n", round, rounds, workerCount, Sizes.human(readBytes));
                    Call cCall = Call.FAILED, javaCall = Call.FAILED;
                    for (boolean cTurn : round % 2 == 1 ? List.of(true, false) : List.of(false, true)) {
                        Call call = cTurn // FAILED: the call failed, and said so in one line
                                ? c.measure(C_SIDE, file, workerCount, runs, warmup, OptionalLong.of(readBytes), csv, err::println)
                                        .map(Call::of).orElse(Call.FAILED)
                                : runChapter(file, workerCount, readBytes, csv);
                        if (call == Call.FAILED) {
                            failures++;
                        } else if (cTurn) {
                            cCall = call;
                        } else {
                            javaCall = call;
                        }
                    }
                    if (cCall != Call.FAILED && javaCall != Call.FAILED) {
                        roundsByPair.computeIfAbsent(List.of((long) workerCount, readBytes), pair -> new ArrayList<>()).add(new Round(cCall, javaCall));
                    }
                }
            }
        }
        table(roundsByPair, Files.size(file)).forEach(out::println);
        err.println("versus-c: rows appended to " + csv);
        return failures == 0 ? 0 : 2;
    }

    /**
     * One call's median run, and its CPU time per GiB, in user space and in the kernel (the bill's medians; NaN where
     * its row has none).
     */
    record Call(double seconds, double userMicrosPerGiB, double systemMicrosPerGiB) {
        static final Call FAILED = new Call(Double.NaN, Double.NaN, Double.NaN);

        static Call of(Measurement.Result result) {
            return new Call(result.medianSeconds(), cpu(result, KernelBill.Item.USER_TIME), cpu(result, KernelBill.Item.SYSTEM_TIME));
        }

        private static double cpu(Measurement.Result result, KernelBill.Item item) {
            return result.bill().map(bill -> bill.get(item).orElse(Double.NaN)).orElse(Double.NaN);
        }
    }

    /** One round of a worker count and read size: C's call and the chapter's. */
    record Round(Call c, Call java) {}

    /** The chapter's call, started as a user starts it; returns its median run and CPU times, or FAILED after one line on failure. */
    private Call runChapter(Path file, int workerCount, long readBytes, Path csv) throws IOException, InterruptedException {
        ChildProcess child = ChildProcess.chapter(chapter, List.of(file.toString(), "--runs", Integer.toString(runs),
                "--warmup", Integer.toString(warmup), "--workers", Integer.toString(workerCount),
                "--chunk", Long.toString(readBytes), "--csv", csv.toString()))
                .timeLimit(ChildProcess.JBANG_START_UP, (warmup + runs + 1L) * Files.size(file)).relayOut(out::println).relayErr(err::println);
        ChapterCall call = ChapterCall.run(child, csv, chapter, err::println);
        if (!call.ran()) {
            err.println("versus-c: " + call.failure());
        } else if (call.appended().isEmpty() || !chapter.equals(call.appended().getLast().get("chapter"))) {
            err.println("versus-c: " + chapter + " appended no row to " + csv);
        } else if (call.medianSeconds().isEmpty()) {
            err.println("versus-c: " + chapter + "'s row in " + csv + " has no plausible median_s");
        } else {
            return new Call(call.medianSeconds().getAsDouble(), call.lastFigure("user_us_per_gib"), call.lastFigure("system_us_per_gib"));
        }
        return Call.FAILED;
    }

    /**
     * Per worker count and read size: each side's MB/s from its median over rounds, and Java ÷ C, the
     * median over rounds of C's median run over the chapter's in the same round, with the rounds' range;
     * then each side's CPU time per GiB in user space and in the kernel, the median over rounds ("–" where not counted).
     */
    static List<String> table(Map<List<Long>, List<Round>> roundsByPair, long fileBytes) {
        List<String> lines = new ArrayList<>();
        lines.add(String.format(Locale.ROOT, "%nJava beside C: %s, warm, the same workers on both sides", Sizes.human(fileBytes)));
        lines.add(String.format(Locale.ROOT, "%7s %-10s %9s %10s %8s %14s %7s %9s %9s %9s %9s", "workers", "read size", "C MB/s", "Java MB/s", "Java ÷ C",
                "rounds' range", "rounds", "C user", "C kernel", "J user", "J kernel"));
        roundsByPair.forEach((workersAndSize, pairs) -> {
            double[] ratios = pairs.stream().mapToDouble(pair -> pair.c().seconds() / pair.java().seconds()).sorted().toArray();
            double cMedian = median(pairs, round -> round.c().seconds()), javaMedian = median(pairs, round -> round.java().seconds());
            lines.add(String.format(Locale.ROOT, "%7d %-10s %,9.0f %,10.0f %8.2f %6.3f–%.3f %7d %9s %9s %9s %9s", workersAndSize.get(0), Sizes.human(workersAndSize.get(1)),
                    fileBytes / cMedian / 1e6, fileBytes / javaMedian / 1e6, Stats.median(ratios), ratios[0], ratios[ratios.length - 1], ratios.length,
                    millis(median(pairs, round -> round.c().userMicrosPerGiB())), millis(median(pairs, round -> round.c().systemMicrosPerGiB())),
                    millis(median(pairs, round -> round.java().userMicrosPerGiB())), millis(median(pairs, round -> round.java().systemMicrosPerGiB()))));
        });
        lines.add("(Java ÷ C: the median over rounds of C's median run over Java's; above 1, Java faster. User and kernel:"
                + " CPU time in ms per GiB, every thread's, from getrusage)");
        return lines;
    }

    /** The median of one figure over the rounds that have it; NaN where none has. */
    private static double median(List<Round> rounds, java.util.function.ToDoubleFunction<Round> figure) {
        double[] values = rounds.stream().mapToDouble(figure).filter(value -> !Double.isNaN(value)).toArray();
        return values.length == 0 ? Double.NaN : Stats.median(values);
    }

    private static String millis(double micros) {
        return Double.isNaN(micros) ? "–" : String.format(Locale.ROOT, "%.1f", micros / 1000);
    }

    private void checkOptions() {
        haystack.check();
        if (!PREAD_CHAPTERS_CHOICE.contains(chapter)) {
            throw new UserMistakeException("--chapter " + chapter + ": not a chapter that reads with pread into a buffer per worker ("
                    + String.join(", ", PREAD_CHAPTERS_CHOICE) + ")");
        }
        if (rounds < 1 || runs < 1 || warmup < 0) {
            throw new UserMistakeException("--rounds and --runs must be at least 1, --warmup at least 0");
        }
        if (workers != null) {
            RunOptions.checkWorkers("--workers", workers);
        }
        if (readSizes.isEmpty()) { // "--chunk ," is an empty list to picocli: rounds of nothing, and an empty table
            throw new UserMistakeException("--chunk needs at least one read size, such as 1m or 1m,256k,64k");
        }
        for (long readBytes : readSizes) {
            if (readBytes < 4096 || readBytes % 4096 != 0 || readBytes > 1L << 30) {
                throw new UserMistakeException("--chunk " + readBytes + ": a read size must be a multiple of 4 KiB, at most 1 GiB");
            }
        }
    }
}
