///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
//SOURCES ../LabWithChapters.java ../yardsticks/VersusGo.java
//COMPILE_OPTIONS --add-modules jdk.incubator.vector
//RUNTIME_OPTIONS --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED

import java.io.IOException;
import java.io.PrintStream;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import lab.results.*;
import lib.cli.Quote;
import lib.cli.UserMistakeException;
import lib.cli.OutputCheck;
import lib.harness.PageCache;
import lib.counters.Stats;
import lib.haystack.Haystack;
import lab.tools.ChildProcess;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;
import lab.tools.ToolCommand;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The answer round: what a user waits for when they type a chapter's one-shot command, from the
 * shell to the exit, JVM start and all, as the One Billion Row Challenge timed its entries.
 *
 * <p>Each run is a fresh {@code ./jbang variants/VNN….java FILE --runs 1 --warmup 0} on a cache
 * warmed just before. The chapter's own phases line on stderr ({@code lib/harness/Phases}) splits its time:
 * launcher (JBang, or the launch cache), JVM start to {@code main}, options and checks, pre-read,
 * the first search, the summary, and the exit (the rest, as seen from here). With
 * {@code --go-bench}, the article's Go binary runs its matching variant as a one-shot
 * ({@code -runs 1 -warm=false}) after each Java run, on the same verified 4 GiB haystack.
 * One row per chapter and one per Go variant go to the CSV: the median and trimmed mean of the
 * whole, and the median of each phase.
 *
 * <pre>
 *   ./jbang lab/study/AnswerRound.java haystack.bin --only V13 [--runs 5] [--go-bench PATH] [--csv results/MACHINE/answer.csv]
 * </pre>
 */
@Command(name = "AnswerRound", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        description = "Times each chapter's one-shot command from the shell to its exit, broken into phases.",
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:every run answered right", "2:an error (one line on stderr)"})
public class AnswerRound implements Callable<Integer> {

    /** The study's name for this round (its --skip word) and its CSV (answer.csv). */
    static final String TABLE = "answer";

    /** The CSV's columns, as its one reader (lab/results/StudyResults.java) reads them back. */
    static final List<String> COLUMNS = AnswerResults.ANSWER_COLUMNS;

    /** The phases in the order they happen, each the difference of two marks of the phases line. */
    static final List<String> PHASES = AnswerResults.ANSWER_PHASES;

    private static final Pattern PHASES_LINE = Pattern.compile("^phases: origin=launcher((?: \\w+_s=[\\d.]+)+)(?: preread=(yes|no))?.*$");
    private static final Pattern MARK = Pattern.compile("(\\w+)_s=([\\d.]+)");
    /** The Go binary's own haystack size, a constant of its source: it rewrites a file of any other size. */
    private static final long GO_HAYSTACK_BYTES = 4L << 30;

    @Parameters(index = "0", paramLabel = "FILE", description = "An existing haystack (warmed before every run).")
    Path file;

    @Option(names = "--only", paramLabel = "VNN[,VNN...]", split = ",", hideParamSyntax = true, required = true,
            description = "The chapters to time, e.g. V04,V13.")
    List<String> only;

    @Option(names = "--runs", paramLabel = "N", defaultValue = "5", description = "Fresh processes per chapter (default: ${DEFAULT-VALUE}).")
    int runs;

    @Option(names = "--go-bench", paramLabel = "PATH",
            description = "The Go article's benchmark binary: its one-shot of the matching variant runs after each Java run (FILE must be its 4 GiB haystack).")
    Path goBench;

    @Option(names = "--go-variant", paramLabel = "NAME",
            description = "The Go variant to run beside every chapter (default: the one that tells the same idea, as VersusGo pairs them), "
                    + "e.g. v11-pread-simd where the binary was built without v12 and v13.")
    String goVariant;

    @Option(names = "--csv", paramLabel = "PATH", description = "Append one row per chapter (and Go variant) to this CSV.")
    Path csv;

    private final PrintStream out;
    private final PrintStream err;

    AnswerRound(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    public static void main(String[] args) {
        System.exit(execute(args, System.out, System.err));
    }

    static int execute(String[] args, PrintStream out, PrintStream err) {
        return ToolCommand.execute("AnswerRound", new AnswerRound(out, err), args, out, err);
    }

    /** One fresh process: its time from start to exit, and the ends of its phases (seconds since the launcher started). */
    record Run(double seconds, Map<String, Double> marks, boolean preread) {

        /** Each phase's length; the exit is what the process took after its answer. */
        Map<String, Double> phases() {
            Map<String, Double> lengths = new LinkedHashMap<>();
            double before = 0;
            List<String> ends = List.of("jvm", "main", "checked", "preread", "first_search", "answer");
            for (int i = 0; i < ends.size(); i++) {
                double end = marks.getOrDefault(ends.get(i), before);
                lengths.put(PHASES.get(i), Math.max(0, end - before));
                before = Math.max(before, end);
            }
            lengths.put("exit", Math.max(0, seconds - before));
            return lengths;
        }
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        if (runs < 1) {
            throw new UserMistakeException("--runs must be at least 1, not " + runs);
        }
        if (!Files.isRegularFile(file)) {
            throw new UserMistakeException(Quote.name(file) + " is not an existing file: create the haystack first (any chapter does)");
        }
        ChildProcess.requireProjectRoot();
        List<String> chapters = new ArrayList<>();
        for (String wanted : only) {
            chapters.add(chapterFile(wanted));
        }
        if (csv != null) {
            OutputCheck.requireWritableFile("--csv", csv);
            checkHeader(csv);
        }
        GoBench bench = goBench == null ? null : new GoBench(goBench);
        GoHaystack goHaystack = bench == null ? null : GoHaystack.prepare(file, GO_HAYSTACK_BYTES, err);
        OptionalLong expected = Haystack.expectedAnswer(file);
        List<List<String>> rows = new ArrayList<>();
        for (String chapter : chapters) {
            String goVariant = bench == null ? null : this.goVariant != null ? this.goVariant : goVariantOf(chapter);
            List<Run> javaRuns = new ArrayList<>();
            List<Double> goSeconds = new ArrayList<>();
            for (int i = 0; i < runs; i++) {
                Run run = javaRun(chapter, expected);
                javaRuns.add(run);
                err.printf(Locale.ROOT, "answer: %s run %d: %.3f s (%s)%n", chapter, i + 1, run.seconds(), describe(run.phases()));
                if (goVariant != null) {
                    double seconds = goRun(bench, goHaystack, goVariant);
                    goSeconds.add(seconds);
                    err.printf(Locale.ROOT, "answer: Go %s run %d: %.3f s%n", goVariant, i + 1, seconds);
                }
            }
            rows.add(javaRow(chapter, javaRuns));
            if (goVariant != null) {
                rows.add(goRow("Go " + goVariant.replaceFirst("-.*", ""), goSeconds));
            }
        }
        rows.forEach(row -> out.println(String.join(" ", row.subList(1, COLUMNS.size() - 1).stream()
                .map(value -> value.isEmpty() ? "-" : value).toList())));
        if (csv != null) {
            append(csv, rows);
        }
        return 0;
    }

    /**
     * Whether the study times this chapter's one-shot: not cmp (no JVM to wait for), and not chapter
     * 2, whose one pass of byte-at-a-time reads is minutes long and already the scoreboard's figure.
     */
    static boolean timesOneShot(String chapter) {
        return chapter.matches("V\\d\\d\\w*") && !chapter.startsWith("V00") && !chapter.startsWith("V02");
    }

    /** The study's step: this round for one chapter, its row appended to {@code csv}. */
    static List<String> command(Path file, String chapter, int runs, Path csv) {
        return List.of("./jbang", "lab/study/AnswerRound.java", file.toString(), "--only", chapter.substring(0, 3),
                "--runs", Integer.toString(runs), "--csv", csv.toString());
    }

    /** variants/VNN….java for "VNN" (or "vN"), as variants/Contents.java lists it; a name that matches none is refused. */
    static String chapterFile(String wanted) {
        Matcher number = Pattern.compile("^[vV](\\d{1,2})$").matcher(wanted);
        if (!number.matches()) {
            throw new UserMistakeException("--only takes chapter numbers such as V04 or V13, not " + wanted);
        }
        String prefix = String.format(Locale.ROOT, "V%02d", Integer.parseInt(number.group(1)));
        List<String> names = Contents.traits().sequencedKeySet().stream().filter(name -> name.startsWith(prefix)).toList();
        if (names.size() != 1) {
            throw new UserMistakeException("--only " + wanted + " matches " + names.size() + " chapters in variants/");
        }
        return names.getFirst();
    }

    /** The Go variant that tells the same idea as {@code chapter}, or null when the article has none. */
    static String goVariantOf(String chapter) {
        return VersusGo.PAIRS.stream().filter(pair -> pair.javaChapter().equals(chapter))
                .map(VersusGo.Pair::goVariant).findFirst().orElse(null);
    }

    private Run javaRun(String chapter, OptionalLong expected) throws IOException, InterruptedException {
        PageCache.warmUnlessCached(file); // the round times a warm cache, as a user who just ran it would have
        long start = System.nanoTime();
        ChildProcess.Ended ended = ChildProcess.chapter(chapter, List.of(file.toString(), "--runs", "1", "--warmup", "0"))
                .timeLimit(ChildProcess.JBANG_START_UP, Files.size(file)).run(chapter + "'s one-shot", line -> {});
        double seconds = (System.nanoTime() - start) / 1e9;
        if (ended.timedOut()) {
            throw new IOException(ended.timeOutLine());
        }
        if (ended.status() != 0 && ended.status() != 1) {
            throw new IOException(chapter + " ended with status " + ended.status() + ": "
                    + ended.lastError(line -> !line.isBlank()).orElse("nothing on stderr"));
        }
        // The answer is the exit status: 0, a non-zero word found, which the chapter has checked is the
        // haystack's needle (lib/Measurement); 1, the file is all zeros. Nothing is read back from its
        // summary line, which is for people, and no --csv is given: the round times the command a user types.
        if (ended.status() == 1 && expected.isPresent()) {
            throw new IOException(chapter + " answered that the file is all zeros, not the needle's " + expected.getAsLong());
        }
        return parsePhases(seconds, ended.stderr()).orElseThrow(() -> new IOException(chapter
                + " printed no phases line started by ./jbang (is a jbang on PATH used instead of ./jbang?)"));
    }

    /**
     * The study's {@code --resume}: the chapters answer.csv already holds a row of, each as
     * {@link #resumeKey} gives it. A row that cannot be read stops the study with one line naming
     * its file and line, as a broken row of the other tables does.
     */
    static Set<String> rowsPresent(Path csv) {
        if (!Files.exists(csv) || isEmpty(csv)) {
            return Set.of(); // an empty file (as a full disk once left it) holds no row: the round appends its header and rows
        }
        AnswerResults.AnswerCsv answers;
        try {
            answers = AnswerResults.read(csv);
        } catch (StudyResults.NotResultsException notAnswers) {
            throw new UserMistakeException(notAnswers.getMessage());
        }
        if (!answers.problems().isEmpty()) {
            throw new UserMistakeException(answers.problems().getFirst() + "; mend or remove that line, then resume");
        }
        return answers.rows().stream().filter(row -> !row.isGo()).map(row -> resumeKey(row.chapter())).collect(Collectors.toSet());
    }

    private static boolean isEmpty(Path csv) {
        try {
            return Files.isRegularFile(csv) && Files.size(csv) == 0;
        } catch (IOException e) {
            return false; // the reader below names the problem
        }
    }

    /**
     * What identifies a chapter's row of this round: its chapter alone, as answer.csv records no
     * file size (the round times the study's own file) and one row a chapter.
     */
    static String resumeKey(String chapter) {
        return TABLE + "|" + chapter;
    }

    /** The run, from the chapter's phases line, if it printed one the launcher started. */
    static java.util.Optional<Run> parsePhases(double seconds, List<String> stderr) {
        for (String line : stderr) {
            Matcher phases = PHASES_LINE.matcher(line);
            if (phases.matches()) {
                Map<String, Double> marks = new LinkedHashMap<>();
                Matcher mark = MARK.matcher(phases.group(1));
                while (mark.find()) {
                    marks.put(mark.group(1), Double.parseDouble(mark.group(2)));
                }
                return java.util.Optional.of(new Run(seconds, marks, "yes".equals(phases.group(2))));
            }
        }
        return java.util.Optional.empty();
    }

    /** The Go one-shot: process start to exit, on the verified haystack, checked unchanged before and after. */
    private double goRun(GoBench bench, GoHaystack haystack, String variant) throws IOException, InterruptedException {
        PageCache.warmUnlessCached(file);
        haystack.checkUnchanged();
        long start = System.nanoTime();
        ChildProcess.Ended ended = bench.oneShot(haystack, variant);
        double seconds = (System.nanoTime() - start) / 1e9;
        haystack.checkUnchanged();
        if (ended.timedOut()) {
            throw new IOException(ended.timeOutLine());
        }
        if (ended.status() != 0) {
            throw new IOException("the Go benchmark's " + variant + " ended with status " + ended.status());
        }
        // A name the binary does not know is silently skipped: its table must have the variant's row.
        if (ended.stdout().stream().map(String::strip).noneMatch(line -> line.startsWith(variant + " "))) {
            throw new UserMistakeException("the Go benchmark " + bench.binary() + " has no variant " + variant
                    + " (it ran nothing); name one it has with --go-variant");
        }
        return seconds;
    }

    static List<String> javaRow(String chapter, List<Run> runs) {
        double[] seconds = runs.stream().mapToDouble(Run::seconds).toArray();
        List<String> row = new ArrayList<>(summary(chapter, seconds));
        for (String phase : PHASES) {
            row.add(fixed(Stats.median(runs.stream().mapToDouble(run -> run.phases().get(phase)).toArray())));
        }
        row.add(Long.toString(runs.stream().filter(Run::preread).count()));
        row.add(all(seconds));
        return row;
    }

    static List<String> goRow(String chapter, List<Double> runs) {
        double[] seconds = runs.stream().mapToDouble(Double::doubleValue).toArray();
        List<String> row = new ArrayList<>(summary(chapter, seconds));
        PHASES.forEach(phase -> row.add(""));
        row.add("");
        row.add(all(seconds));
        return row;
    }

    private static List<String> summary(String chapter, double[] seconds) {
        double[] sorted = seconds.clone();
        java.util.Arrays.sort(sorted);
        return List.of(LocalDate.now().toString(), chapter, Integer.toString(seconds.length), fixed(Stats.median(seconds)),
                fixed(Stats.trimmedMean(seconds)), fixed(sorted[0]), fixed(sorted[sorted.length - 1]));
    }

    private static String all(double[] seconds) {
        return java.util.Arrays.stream(seconds).mapToObj(AnswerRound::fixed).collect(Collectors.joining(";"));
    }

    private static String fixed(double seconds) {
        return String.format(Locale.ROOT, "%.4f", seconds);
    }

    private static String describe(Map<String, Double> phases) {
        return phases.entrySet().stream().map(phase -> String.format(Locale.ROOT, "%s %.3f", phase.getKey(), phase.getValue()))
                .collect(Collectors.joining(", "));
    }

    /**
     * Refuses, before anything is measured, an existing file that is not an answer-round CSV, as
     * its one reader finds it ({@link AnswerResults#read}). Rows it would leave out are the
     * notebook's to say; the rows appended here are whole either way.
     */
    static void checkHeader(Path csv) throws IOException {
        if (!Files.exists(csv) || Files.size(csv) == 0) {
            return;
        }
        try {
            AnswerResults.read(csv);
        } catch (StudyResults.NotResultsException notAnswers) {
            throw new UserMistakeException(Quote.name(csv) + " exists and is not an answer-round CSV; left it alone");
        }
    }

    /** Appends the rows, with the header when the file is new or empty, whole or not at all. */
    static void append(Path csv, List<List<String>> rows) throws IOException {
        checkHeader(csv);
        StringWriter text = new StringWriter();
        try (CSVPrinter printer = new CSVPrinter(text, CSVFormat.DEFAULT.builder().setRecordSeparator("\n").build())) {
            for (List<String> row : rows) {
                printer.printRecord(row);
            }
        }
        Files.createDirectories(csv.toAbsolutePath().getParent());
        lib.harness.ResultsCsv.appendWhole(csv, String.join(",", COLUMNS), header -> text.toString());
    }
}
