///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
//SOURCES ../lib/*.java
//COMPILE_OPTIONS --add-modules jdk.incubator.vector
//RUNTIME_OPTIONS --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import lib.FileChangedException;
import lib.Measurement;
import lib.NeedleSearch;
import lib.PageCache;
import lib.ProjectVersion;
import lib.ResultsCsv;
import lib.RunOptions;
import lib.UserMistakeException;
import lib.WrongAnswerException;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The whole study in one command: every chapter, in order, each in a JVM of its own, on one haystack.
 *
 * <ol>
 *   <li>the scoreboard (warm page cache, one worker per processor) into {@code scoreboard.csv}, opened
 *       by "chapter zero": {@code cmp FILE /dev/zero}, the yardstick a shell user would reach for;
 *   <li>the worker sweep of the parallel chapters into {@code scaling.csv}, one JVM per worker count;
 *   <li>the cold-cache round, the file evicted before every run, into {@code cold.csv}.
 * </ol>
 *
 * Each chapter runs as {@code ./jbang variants/VNN….java FILE --csv …}, so no chapter's JIT, heap or
 * mappings leak into the next one's figures. Each row is appended once its runs are done, so an
 * interrupted study keeps what it finished, and {@code --resume} skips those rows next time.
 *
 * <pre>
 * How to run (from the project's root):   ./jbang tools/Study.java
 * A quick try:   ./jbang tools/Study.java /tmp/small.bin --size 64m --runs 1 --warmup 0 --results /tmp/study
 * </pre>
 */
@Command(name = "Study", mixinStandardHelpOptions = true, versionProvider = ProjectVersion.class,
        customSynopsis = {"./jbang tools/Study.java [FILE] [--runs N] [--warmup N] [--size SIZE]",
                "    [--only VNN[,VNN...]] [--sweep N[,N...]] [--skip-scaling] [--skip-cold]",
                "    [--flamegraphs] [--results DIR] [--resume] [--dry-run] [--help] [--version]"},
        sortOptions = false, usageHelpAutoWidth = true,
        description = "Runs every chapter on one haystack and appends the figures to the results CSVs.",
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:every step ran", "2:a step failed (the others still ran) or an error (one line on stderr)"})
public class Study implements Callable<Integer> {

    /** The chapters with a worker count worth sweeping. */
    static final Set<String> PARALLEL = Set.of("V06", "V07", "V09", "V10", "V11", "V13");
    /** The chapters timed with a cold page cache: one of each way of reading the file, and those written for it. */
    static final Set<String> COLD = Set.of("V01", "V03", "V06", "V07", "V11", "V13", "V14", "V15");
    /** Chapter zero is not Java: GNU cmp reports the first byte where FILE differs from endless zeros. */
    static final String CMP_CHAPTER = "V00Cmp";

    static final String SCOREBOARD = "scoreboard", SCALING = "scaling", COLD_TABLE = "cold";
    /** Not a CSV: the round that records one async-profiler flame graph per chapter. */
    static final String FLAMEGRAPHS = "flamegraphs";
    static final Pattern CMP_DIFFERS = Pattern.compile("differ: (?:byte|char) (\\d+)");

    @Mixin
    RunOptions runOptions;

    @Option(names = "--only", paramLabel = "VNN[,VNN...]", split = ",", hideParamSyntax = true,
            description = "Only these chapters, e.g. V00,V04,V13 (V00 is cmp).")
    List<String> only;

    @Option(names = "--sweep", paramLabel = "N[,N...]", split = ",", hideParamSyntax = true, defaultValue = "1,2,4,6,8,12,24,48,96",
            description = "Worker counts of the scaling round (default: ${DEFAULT-VALUE}).")
    List<Integer> sweep;

    @Option(names = "--skip-scaling", description = "Leave out the worker sweep.")
    boolean skipScaling;

    @Option(names = "--skip-cold", description = "Leave out the cold-cache round.")
    boolean skipCold;

    @Option(names = "--flamegraphs", description = "Add a last round: each chapter once more with --profile, "
            + "its flame graph in DIR/flamegraphs (figures of this round are not recorded: the profiler costs a little).")
    boolean flamegraphs;

    @Option(names = "--results", paramLabel = "DIR", defaultValue = "results",
            description = "Where the CSVs go (default: ${DEFAULT-VALUE}); created if missing.")
    Path results;

    @Option(names = "--resume", description = "Skip rows the CSVs already hold for this chapter, worker count, cache and file size.")
    boolean resume;

    @Option(names = "--dry-run", description = "Print the steps and the commands, run nothing.")
    boolean dryRun;

    /**
     * One row to produce: a chapter, warm or cold, into one CSV, at a worker count of the sweep, or
     * at {@link #CHAPTER_DEFAULT} (one per processor, or 1 for a single-threaded chapter: the chapter knows).
     */
    record Step(String table, String chapter, int workers, boolean cold) {
        static final int CHAPTER_DEFAULT = 0;

        String cache() {
            return cold ? "cold" : "warm";
        }

        /** What identifies its row in the CSVs: the worker count only where the table sweeps it. */
        String key(long fileBytes) {
            return rowKey(table, chapter, table.equals(SCALING) ? Integer.toString(workers) : "", cache(), fileBytes);
        }

        @Override
        public String toString() {
            String workerCount = workers == CHAPTER_DEFAULT ? "" : "workers=" + workers;
            return String.format(Locale.ROOT, "%-11s %-28s %-11s %s", table, chapter, workerCount, cache());
        }
    }

    static String rowKey(String table, String chapter, String workers, String cache, long fileBytes) {
        return String.join("|", table, chapter, workers, cache, Long.toString(fileBytes));
    }

    /** FILE, from {@link #runOptions}. */
    private Path file;
    private volatile Process running;

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
        if (!Files.isExecutable(Path.of("jbang")) || !Files.isDirectory(Path.of("variants"))) {
            throw new UserMistakeException("run the study from the project's root directory (where ./jbang and variants/ are)");
        }
        List<String> chapters = chapters();
        List<Step> steps = plan(chapters);
        if (steps.isEmpty()) {
            throw new UserMistakeException("nothing to run: --only " + String.join(",", only) + " leaves no step");
        }
        if (dryRun) {
            steps.forEach(step -> System.out.println(step + "   " + String.join(" ", command(step))));
            return 0;
        }
        Files.createDirectories(results);
        for (String table : List.of(SCOREBOARD, SCALING, COLD_TABLE)) {
            ResultsCsv.checkWritable(csv(table)); // a foreign file is refused before an hour is spent
        }
        runOptions.findOrCreateFile(System.err);
        long fileBytes = Files.size(file);
        Set<String> done = resume ? rowsPresent() : Set.of();

        Runtime.getRuntime().addShutdownHook(new Thread(this::stopRunningChapter)); // Ctrl-C or kill
        Instant start = Instant.now();
        List<String> failed = new ArrayList<>();
        int skipped = 0;
        for (int i = 0; i < steps.size(); i++) {
            Step step = steps.get(i);
            String progress = String.format(Locale.ROOT, "[%d/%d %s]", i + 1, steps.size(), elapsed(start));
            if (done.contains(step.key(fileBytes)) || graphPresent(step)) {
                System.err.println(progress + " " + step + "  already done, skipped");
                skipped++;
                continue;
            }
            System.err.println(progress + " " + step);
            boolean ok = step.chapter().equals(CMP_CHAPTER) ? runCmp(step) : runChapter(step);
            if (!ok) {
                failed.add(step.toString().replaceAll("\\s+", " "));
            }
        }
        System.err.printf(Locale.ROOT, "study: %d steps in %s: %d ran, %d skipped, %d failed; figures in %s%n",
                steps.size(), elapsed(start), steps.size() - skipped - failed.size(), skipped, failed.size(), results);
        failed.forEach(step -> System.err.println("  failed: " + step));
        return failed.isEmpty() ? 0 : 2;
    }

    /** Every chapter script in variants/, in order, chapter zero first. */
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
            if (chapters.stream().noneMatch(chapter -> number(chapter).equals(number))) {
                throw new UserMistakeException("--only " + name + ": no such chapter (V00 to V" + number(chapters.getLast()).substring(1) + ")");
            }
            wanted.add(number);
        }
        return chapters.stream().filter(chapter -> wanted.contains(number(chapter))).toList();
    }

    /** The scoreboard first, then the sweep, then the cold round: the most wanted figures come first. */
    private List<Step> plan(List<String> chapters) {
        List<Step> steps = new ArrayList<>();
        for (String chapter : chapters) {
            steps.add(new Step(SCOREBOARD, chapter, chapter.equals(CMP_CHAPTER) ? 1 : Step.CHAPTER_DEFAULT, false));
        }
        if (!skipScaling) {
            for (String chapter : chapters) {
                if (PARALLEL.contains(number(chapter))) {
                    sweep.forEach(workers -> steps.add(new Step(SCALING, chapter, workers, false)));
                }
            }
        }
        if (!skipCold) {
            for (String chapter : chapters) {
                if (COLD.contains(number(chapter))) {
                    steps.add(new Step(COLD_TABLE, chapter, Step.CHAPTER_DEFAULT, true));
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
        return steps;
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
        List<String> command = new ArrayList<>(List.of("./jbang", "variants/" + step.chapter() + ".java", file.toString(),
                "--runs", Integer.toString(runOptions.runs()), "--warmup", Integer.toString(runOptions.warmup())));
        if (step.workers() != Step.CHAPTER_DEFAULT) {
            command.addAll(List.of("--workers", Integer.toString(step.workers())));
        }
        if (step.table().equals(FLAMEGRAPHS)) {
            command.addAll(List.of("--profile", "--flamegraphs", results.resolve(FLAMEGRAPHS).toString()));
        } else {
            command.addAll(List.of("--csv", csv(step.table()).toString()));
        }
        if (step.cold()) {
            command.add("--cold");
        }
        return command;
    }

    /** With --resume, a chapter whose flame graph is already there is not profiled again. */
    private boolean graphPresent(Step step) {
        return resume && step.table().equals(FLAMEGRAPHS)
                && Files.exists(results.resolve(FLAMEGRAPHS).resolve(step.chapter() + ".html"));
    }

    /** One chapter in its own JVM: its runs go to stderr as they happen, its summary line to stdout. */
    private boolean runChapter(Step step) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command(step)).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        running = process;
        try (BufferedReader out = process.inputReader(StandardCharsets.UTF_8)) {
            out.lines().forEach(System.out::println);
        }
        int status = process.waitFor();
        running = null;
        if (status == 0 || status == 1) { // 1: the file is all zeros, which is a result too
            return true;
        }
        System.err.println("study: " + step.chapter() + " ended with status " + status + " (its message is above); going on");
        return false;
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

    /** Rows already in the CSVs, as {@link Step#key} makes them. */
    private Set<String> rowsPresent() throws IOException {
        Set<String> present = new HashSet<>();
        for (String table : List.of(SCOREBOARD, SCALING, COLD_TABLE)) {
            Path csv = csv(table);
            if (!Files.exists(csv)) {
                continue;
            }
            try (Reader in = Files.newBufferedReader(csv)) {
                for (CSVRecord row : CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get().parse(in)) {
                    present.add(rowKey(table, row.get("chapter"), table.equals(SCALING) ? row.get("workers") : "",
                            row.get("cache"), Long.parseLong(row.get("file_bytes"))));
                }
            }
        }
        return present;
    }

    private Path csv(String table) {
        return results.resolve(table + ".csv");
    }

    private void stopRunningChapter() {
        Process process = running;
        if (process != null && process.isAlive()) {
            process.descendants().forEach(ProcessHandle::destroy);
            process.destroy();
        }
    }

    private static String elapsed(Instant start) {
        Duration d = Duration.between(start, Instant.now());
        return String.format(Locale.ROOT, "%d:%02d:%02d", d.toHours(), d.toMinutesPart(), d.toSecondsPart());
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
