//DEPS org.apache.commons:commons-csv:1.10.0
// The one reader of a study's results CSVs, for everything that reads them: the notebooks (through
// notebooks/Notebook.java), the report (lab/report/StudyReport.java), the study's --resume, VersusGo,
// README's tables (lab/report/ReadmeTables.java), the answer round (lab/study/AnswerRound.java) and the
// tests. It needs no Tablesaw: the notebooks turn its rows into tables, the report into HTML.
//
// The rest of a results folder has a file each, read by these rules: ResultsFolder (a machine's
// folder, and which rows are this study's), MachineDescription (machine.json), AnswerResults
// (answer.csv), MemoryWall (wall.csv), VersusGoPairs (versus-go.csv), FioBesideResults (fio.csv),
// ModelResults (model.csv), lab/report/UnitPrices (costs.csv), ArticleFigures (the Go article's figures) and PageText (text
// on its way into a page). Each CSV among them is parsed here, by eachRow.

package lab.results;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import lib.cli.IoMessage;
import lib.counters.Stats;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * A results CSV read strictly, and the rules every reader of one shares:
 *
 * <ul>
 *   <li>a row is a {@link Row} only when every figure in it could be true; any other row is left out
 *       with one line naming its file and line ({@link #read}), or stops a reader that shows whole
 *       files ({@link #readEveryRow}); the answer round's rows are read the same way (AnswerResults);
 *   <li>the trial rule ({@link #trialReasons}), chapter numbers ({@link #chapterNumber}), the key a
 *       row is resumed by ({@link #resumeKey}) and the machine's folder name ({@link #machineName},
 *       lib/harness/Machine's rule).
 * </ul>
 */
public final class StudyResults {

    /** The results files a machine's folder may hold, without ".csv"; any of them may be missing. */
    static final List<String> TABLES = List.of("scoreboard", "pagecache", "scaling", "cold", "wall", "chunks", "versus-go", "native");

    /** The study's haystack: when a folder holds rows of several sizes, these are this study's. */
    static final long MAIN_FILE_BYTES = 4L << 30;
    /** Below these a study is a trial: its figures are for trying the tools, not for comparing. */
    static final long FULL_FILE_BYTES = 1L << 30;
    public static final int FULL_RUNS = 5;

    /** What an empty {@code page_cache} means: rows from before the option existed ran with the system's setting. */
    public static final String PAGE_CACHE_AS_IS = "as-is";
    public static final Set<String> PAGE_CACHES = Set.of(PAGE_CACHE_AS_IS, "small", "huge");
    public static final Set<String> CACHES = Set.of("warm", "cold");

    /**
     * A chapter ("V06MmapParallel"), a Go variant of the article ("Go v6"), a wall probe
     * ("WallMemoryRead"), a fio job of lab/yardsticks/FioBeside ("fio psync O_DIRECT 2MiB-pages") or a
     * setting of lab/experiments/ColdTuning ("V15IoUring qd4", "V14DirectIo with read-ahead").
     */
    public static final Pattern CHAPTER_NAME = Pattern.compile("V\\d\\d\\w*(?: qd\\d{1,4}| with read-ahead)?|Go v\\d+|Wall\\w+|Native\\w+|fio [\\w -]+");

    /** The columns every results CSV has; a file without one of them is not a results CSV. */
    public static final List<String> REQUIRED = List.of("date", "chapter", "workers", "cache", "file_bytes",
            "warmup_runs", "runs", "mean_s", "mbps", "run_s", "warmup_s", "cpu_model", "logical_cores", "vector_bits");
    /** The columns of figures; every other column is text. */
    public static final Set<String> WHOLE_NUMBERS = Set.of("workers", "warmup_runs", "runs", "logical_cores", "vector_bits",
            "file_bytes", "chunk_bytes", "offset", "memory_bytes");
    /**
     * The bill from the kernel (lib/counters/KernelBill): each a median over the timed runs, per GiB searched,
     * as its name says; empty where the system did not count it, absent from rows written before it existed.
     */
    public static final List<String> BILL = lib.counters.KernelBill.keys();
    public static final Set<String> DECIMALS = Stream.concat(Stream.of("mean_s", "median_s", "min_s", "max_s", "mbps", "pmd_mapped_pct"),
            BILL.stream()).collect(Collectors.toUnmodifiableSet());
    /** Columns that may be empty: chapters that do not read in chunks, and the columns newer studies add. */
    public static final Set<String> MAY_BE_EMPTY = Stream.concat(Stream.of("chunk_bytes", "pmd_mapped_pct", "machine", "page_cache",
            "warmup_s", "run_s", "median_s", "min_s", "max_s", "offset", "memory_bytes", "kernel", "jdk", "date", "cpu_model"),
            BILL.stream()).collect(Collectors.toUnmodifiableSet());

    private StudyResults() {}

    // ---------------------------------------------------------------------------------------------
    // One row, and one file of them

    /**
     * One results row, typed. Optional figures (older columns, or chapters that do not read in
     * chunks or map the file) are null. {@code bill}: the bill's figures per GiB by column name
     * ({@link #BILL}), only those the row has. {@code file} and {@code line} say where it came from.
     */
    public record Row(Path file, long line, String date, String chapter, int workers, String cache, long fileBytes,
               Long chunkBytes, Long offset, int warmupRuns, int runs, double meanSeconds, Double medianSeconds,
               Double minSeconds, Double maxSeconds, double mbps, double[] runSeconds, double[] warmupSeconds,
               String cpuModel, int logicalCores, Long memoryBytes, String kernel, String jdk, int vectorBits,
               String machine, String pageCache, Double pmdMappedPercent, Map<String, Double> bill) {

        /** The time the book quotes, the one its MB/s come from: the trimmed mean of 5 runs or more, else the median (from a row without its runs' times, the mean where that is the same figure); NaN where it has neither. */
        public double typicalSeconds() {
            if (runSeconds.length > 0) {
                return Stats.typicalSeconds(runSeconds);
            }
            return runs >= Stats.RUNS_TO_TRIM || runs <= 2 ? meanSeconds : medianSeconds == null ? Double.NaN : medianSeconds;
        }

        /** The bill's figure of {@code column} ({@link #BILL}) per GiB, or null where the row has none. */
        public Double billPerGiB(String column) {
            return bill.get(column);
        }

        Identity identity() {
            return new Identity(cpuModel, logicalCores, vectorBits);
        }

        /** The chapter's number ("V06"), the key the article's figures and the Go rows are joined on. */
        public String number() {
            return chapterNumber(chapter);
        }

        /** What a rerun replaces: the same chapter, workers, cache, page cache (and read size, in {@code chunks}). */
        List<Object> measures(String table) {
            return List.of(chapter, workers, cache, pageCache, table.equals("chunks") ? String.valueOf(chunkBytes) : "");
        }

        /** This row's key among the study's steps: see {@link #resumeKey}. */
        public String resumeKey(String table) {
            return StudyResults.resumeKey(table, chapter, workers, cache, pageCache, fileBytes, chunkBytes);
        }
    }

    /** What tells two machines apart in a results row. */
    public record Identity(String cpuModel, int logicalCores, int vectorBits) {
        @Override
        public String toString() {
            return cpuModel + ", " + logicalCores + " cores, " + vectorBits + "-bit vectors";
        }
    }

    /** The rows of one CSV that could be read, and one line for each row left out. */
    public record Csv(Path file, List<Row> rows, List<String> problems) {
        static Csv none(Path file) {
            return new Csv(file, List.of(), List.of());
        }
    }

    /** A file that is not a results CSV (or machine.json) at all: its one line says why. */
    public static final class NotResultsException extends IllegalArgumentException {
        public NotResultsException(String message) {
            super(message);
        }
    }

    /**
     * Reads a results CSV. A row with the wrong number of fields, a word where a number belongs, a
     * figure that cannot be true (NaN, an infinity, a negative count or time, a share over 100 %, any
     * of its times faster than 10 TB/s or longer than a week, a run, mean or median outside its own
     * min_s–max_s, a count of the bill past a thousand for each byte searched),
     * seconds that do not match its count of runs, or a chapter that is not a chapter's name is left
     * out with a line naming the file and line. A byte-order mark is skipped. A file that is not a
     * results CSV at all (no header of one, not CSV) throws {@link NotResultsException}.
     */
    public static Csv read(Path file) {
        return read(file, false);
    }

    /**
     * Reads a results CSV whose every row must read, for a tool that shows a whole file or nothing
     * (README's tables): the first row that does not read throws {@link NotResultsException}, its
     * one line naming the file and line and saying what is wrong, as {@link #read} says it.
     */
    public static Csv readEveryRow(Path file) {
        return read(file, true);
    }

    private static Csv read(Path file, boolean everyRow) {
        List<String> problems = new ArrayList<>();
        List<Row> rows = eachRow(file, "a results CSV of this project", header -> {
            for (String column : REQUIRED) {
                if (!header.contains(column)) {
                    throw new NotResultsException(file + " has no column " + column + ": not a results CSV of this project");
                }
            }
        }, StudyResults::row, everyRow ? null : problems);
        return new Csv(file, rows, problems);
    }

    /**
     * One row of a CSV from its fields, each by its column's name and stripped of spaces, in the
     * header's order; or an IllegalArgumentException saying what is wrong with it.
     */
    public interface RowReader<R> {
        R read(Path file, long line, Map<String, String> values);
    }

    /**
     * Every row of a CSV of one kind that reads, in file order: the one CSV reader of the project's
     * files. {@code checkHeader} throws {@link NotResultsException} for a header that is not of
     * {@code kind}. A row whose count of fields is not the header's, or that {@code reader} refuses,
     * is said in {@code problems}, with its file and line, or, when {@code problems} is null, throws
     * NotResultsException with that line. A byte-order mark is skipped, and so is a line that starts
     * with {@code #}, a comment (the article's figures carry their machine in one).
     */
    public static <R> List<R> eachRow(Path file, String kind, Consumer<List<String>> checkHeader,
                                       RowReader<R> reader, List<String> problems) {
        List<R> rows = new ArrayList<>();
        List<String> header = null;
        try (Reader in = withoutByteOrderMark(file); CSVParser parser = CSVFormat.DEFAULT.builder().setCommentMarker('#').build().parse(in)) {
            for (CSVRecord record : parser) {
                if (header == null) {
                    header = record.toList().stream().map(String::strip).toList();
                    checkHeader.accept(header);
                    continue;
                }
                long line = parser.getCurrentLineNumber();
                try {
                    if (record.size() != header.size()) {
                        throw new IllegalArgumentException(record.size() + " fields where the header has " + header.size());
                    }
                    Map<String, String> values = new LinkedHashMap<>();
                    for (int i = 0; i < header.size(); i++) {
                        values.put(header.get(i), record.get(i).strip());
                    }
                    rows.add(reader.read(file, line, values));
                } catch (IllegalArgumentException badRow) {
                    if (problems == null) {
                        throw new NotResultsException(file + " line " + line + ": " + badRow.getMessage());
                    }
                    problems.add(file + " line " + line + ": left out, " + badRow.getMessage());
                }
            }
        } catch (IOException e) {
            throw new NotResultsException(file + " cannot be read: " + firstLine(IoMessage.reason(e)));
        } catch (UncheckedIOException | IllegalStateException e) {
            throw new NotResultsException(file + " cannot be read as CSV: " + firstLine(e.getCause() instanceof IOException io ? IoMessage.reason(io) : e.getMessage()));
        }
        if (header == null) {
            throw new NotResultsException(file + " is empty: not " + kind);
        }
        return rows;
    }

    /** A reader of {@code file} as UTF-8 that skips the byte-order mark some editors write first. */
    static Reader withoutByteOrderMark(Path file) throws IOException {
        BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8);
        reader.mark(1);
        if (reader.read() != '\uFEFF') {
            reader.reset();
        }
        return reader;
    }

    /** The row, or an IllegalArgumentException saying what is wrong with it. */
    private static Row row(Path file, long line, Map<String, String> values) {
        values.forEach((column, value) -> {
            if (value.isEmpty() && !MAY_BE_EMPTY.contains(column) && (REQUIRED.contains(column) || !isText(column))) {
                throw new IllegalArgumentException(column + " is empty");
            }
        });
        String chapter = values.get("chapter");
        if (!CHAPTER_NAME.matcher(chapter).matches()) {
            throw new IllegalArgumentException("chapter is " + quoted(chapter) + ", not a chapter's name");
        }
        String cache = values.get("cache");
        if (!CACHES.contains(cache)) {
            throw new IllegalArgumentException("cache is " + quoted(cache) + ", not warm or cold");
        }
        String pageCache = values.getOrDefault("page_cache", "");
        pageCache = pageCache.isEmpty() ? PAGE_CACHE_AS_IS : pageCache;
        if (!PAGE_CACHES.contains(pageCache)) {
            throw new IllegalArgumentException("page_cache is " + quoted(pageCache) + ", not " + String.join(", ", PAGE_CACHES));
        }
        int runs = (int) whole(values, "runs", 1, Integer.MAX_VALUE), warmupRuns = (int) whole(values, "warmup_runs", 0, Integer.MAX_VALUE);
        double meanSeconds = decimal(values, "mean_s", Double.MAX_VALUE);
        if (meanSeconds <= 0) {
            throw new IllegalArgumentException("mean_s is " + values.get("mean_s") + ", not a time");
        }
        Double pmd = optionalDecimal(values, "pmd_mapped_pct", 100);
        Map<String, Double> bill = new LinkedHashMap<>();
        for (String column : BILL) {
            Double perGiB = optionalDecimal(values, column, RowTimes.MOST_PER_GIB);
            if (perGiB != null) {
                bill.put(column, perGiB);
            }
        }
        Long chunkBytes = optionalWhole(values, "chunk_bytes", Long.BYTES);
        if (chunkBytes != null && (chunkBytes > MOST_CHUNK_BYTES || chunkBytes % Long.BYTES != 0)) {
            throw new IllegalArgumentException("chunk_bytes is " + chunkBytes + ", which no chapter reads in (a multiple of 8, at most 1 GiB)");
        }
        long fileBytes = whole(values, "file_bytes", 1, Long.MAX_VALUE);
        Double medianSeconds = optionalDecimal(values, "median_s", Double.MAX_VALUE), minSeconds = optionalDecimal(values, "min_s", Double.MAX_VALUE),
                maxSeconds = optionalDecimal(values, "max_s", Double.MAX_VALUE);
        double[] runSeconds = secondsOf(values, "run_s", runs, "runs", "\\s+");
        double[] warmupSeconds = secondsOf(values, "warmup_s", warmupRuns, "warmup_runs", "\\s+");
        RowTimes.check(fileBytes, meanSeconds, medianSeconds, minSeconds, maxSeconds, runSeconds, warmupSeconds);
        return new Row(file, line, values.get("date"), chapter, (int) whole(values, "workers", 1, MOST_WORKERS), cache,
                fileBytes, chunkBytes, optionalWhole(values, "offset", -1), warmupRuns, runs, meanSeconds,
                medianSeconds, minSeconds, maxSeconds, decimal(values, "mbps", RowTimes.MOST_MEGABYTES_PER_SECOND), runSeconds, warmupSeconds,
                values.get("cpu_model"), (int) whole(values, "logical_cores", 1, Integer.MAX_VALUE),
                optionalWhole(values, "memory_bytes", 0), values.getOrDefault("kernel", ""), values.getOrDefault("jdk", ""),
                (int) whole(values, "vector_bits", 1, Integer.MAX_VALUE), values.getOrDefault("machine", ""), pageCache, pmd,
                java.util.Collections.unmodifiableMap(bill));
    }

    private static boolean isText(String column) {
        return !WHOLE_NUMBERS.contains(column) && !DECIMALS.contains(column);
    }

    /** The most workers a chapter takes and the largest read it makes. */
    public static final int MOST_WORKERS = lib.harness.RunOptions.MAX_WORKERS;
    static final long MOST_CHUNK_BYTES = lib.chapter.ChunkedSearch.MAX_CHUNK_BYTES;

    static long whole(Map<String, String> values, String column, long least, long most) {
        String value = values.get(column);
        if (value.isEmpty()) {
            throw new IllegalArgumentException(column + " is empty");
        }
        long number;
        try {
            number = Long.parseLong(value.matches("-?[0-9]+") ? value : ""); // ASCII: parseLong reads any script's digits
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(column + " is " + quoted(value) + ", not a number");
        }
        if (number < least || number > most) {
            throw new IllegalArgumentException(column + " is " + value + ", which cannot be");
        }
        return number;
    }

    static Long optionalWhole(Map<String, String> values, String column, long least) {
        String value = values.getOrDefault(column, "");
        return value.isEmpty() ? null : whole(values, column, least, Long.MAX_VALUE);
    }

    /**
     * A decimal as the project writes one ("0.2500", "1.5E-4"): Java's own parser also takes "NaN",
     * "Infinity", hexadecimal and a trailing "d" or "f", none of which a results file should hold.
     */
    private static final Pattern DECIMAL = Pattern.compile("[-+]?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d+)?");

    public static double decimal(Map<String, String> values, String column, double most) {
        String value = values.get(column);
        if (value.isEmpty()) {
            throw new IllegalArgumentException(column + " is empty");
        }
        if (!DECIMAL.matcher(value).matches()) {
            throw new IllegalArgumentException(column + " is " + quoted(value) + ", not a number");
        }
        double number = Double.parseDouble(value);
        if (!Double.isFinite(number) || number < 0 || number > most) {
            throw new IllegalArgumentException(column + " is " + quoted(value) + ", not a figure");
        }
        return number;
    }

    static Double optionalDecimal(Map<String, String> values, String column, double most) {
        String value = values.getOrDefault(column, "");
        return value.isEmpty() ? null : decimal(values, column, most);
    }

    static double[] secondsOf(Map<String, String> values, String column, int expected, String countColumn, String separator) {
        String joined = values.getOrDefault(column, "");
        double[] seconds;
        try {
            seconds = seconds(joined, separator);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(column + " is " + quoted(joined) + ", not a list of seconds");
        }
        if (seconds.length != expected) {
            throw new IllegalArgumentException(column + " holds " + seconds.length + " times where " + countColumn + " says " + expected);
        }
        return seconds;
    }

    /** Each run's seconds, from the space-separated list a results row keeps them in. */
    public static double[] seconds(String joined) {
        return seconds(joined, "\\s+");
    }

    private static double[] seconds(String joined, String separator) {
        if (joined == null || joined.isBlank()) {
            return new double[0];
        }
        double[] seconds = Arrays.stream(joined.strip().split(separator)).mapToDouble(Double::parseDouble).toArray();
        for (double s : seconds) {
            if (!Double.isFinite(s) || s < 0) {
                throw new NumberFormatException(s + " is not a time");
            }
        }
        return seconds;
    }

    // ---------------------------------------------------------------------------------------------
    // Rules said once

    /**
     * Why a study's figures are a trial's; empty when they are a full study's: the study said so
     * (and nothing else does), a file under 1 GiB, fewer than {@value #FULL_RUNS} runs, no warm-up.
     */
    public static List<String> trialReasons(boolean describedAsTrial, long fileBytes, int fewestRuns, boolean noWarmup) {
        List<String> reasons = new ArrayList<>();
        if (fileBytes < FULL_FILE_BYTES) {
            reasons.add("a " + PageText.binarySize(fileBytes) + " file, under " + PageText.binarySize(FULL_FILE_BYTES));
        }
        if (fewestRuns < FULL_RUNS) {
            reasons.add("fewer than " + FULL_RUNS + " runs");
        }
        if (noWarmup) {
            reasons.add("no warm-up");
        }
        if (reasons.isEmpty() && describedAsTrial) {
            reasons.add("machine.json marks the study as a trial");
        }
        return reasons;
    }

    /** The time budget's slow run, in seconds: a study keeps taking runs until one takes longer, then stops at 3 or 1. */
    static final double BUDGET_SLOW_RUN_SECONDS = lib.harness.RunBudget.STANDARD.slowRunSeconds();

    /**
     * The runs a row counts as for the trial rule: a row the time budget cut (fewer than
     * {@value #FULL_RUNS} runs, its slowest taking longer than the budget's slow run) was measured as
     * the study meant it to be, not as a trial.
     */
    public static int runsForTrialRule(int runs, double[] runSeconds) {
        double slowest = Arrays.stream(runSeconds).max().orElse(0);
        return runs < FULL_RUNS && slowest > BUDGET_SLOW_RUN_SECONDS ? FULL_RUNS : runs;
    }

    private static final Pattern NUMBERED = Pattern.compile("^(?:Go )?[vV]?(\\d{1,2})(\\D.*)?$");

    /** "V06MmapParallel", "v6", "6" and "Go v6" all become "V06", the key chapters are joined on; any other name stays as it is. */
    public static String chapterNumber(String chapter) {
        Matcher digits = NUMBERED.matcher(chapter);
        return digits.matches() ? String.format(Locale.ROOT, "V%02d", Integer.parseInt(digits.group(1))) : chapter;
    }

    /** The tables whose rows differ by worker count; the others run each chapter at its own. */
    static final Set<String> SWEPT_WORKERS = Set.of("scaling", "wall", "native");

    /**
     * What a row measured, as the study's {@code --resume} compares it with its steps: the worker
     * count only where the table sweeps it, the page cache only in {@code pagecache}, the read size
     * only in {@code chunks}.
     */
    public static String resumeKey(String table, String chapter, int workers, String cache, String pageCache, long fileBytes, Long chunkBytes) {
        return String.join("|", table, chapter, SWEPT_WORKERS.contains(table) ? Integer.toString(workers) : "",
                table.equals("pagecache") ? cache + "/" + pageCache : cache, Long.toString(fileBytes),
                table.equals("chunks") ? String.valueOf(chunkBytes) : "");
    }


    // ---------------------------------------------------------------------------------------------
    // The machine's folder name: lib/harness/Machine's rule
    //
    // lib/ is on the class path of every program that reads results: the lab's commands and the tests
    // compile it (lab/Lab.java), and a notebook has it from notebooks/ForNotebooks.java.

    /** This machine's folder name, as the study names it. */
    public static String currentMachineName() {
        return lib.harness.Machine.current().name();
    }

    /** The folder name lib/harness/Machine gives a machine known only by its rows: CPU model, processors, vector width. */
    public static String machineName(Identity machine) {
        return new lib.harness.Machine(machine.cpuModel(), null, null, machine.logicalCores(), 0L, null, null,
                machine.vectorBits(), machine.vectorBits() >= 256, machine.vectorBits() >= 512).name();
    }

    // ---------------------------------------------------------------------------------------------
    // Text in a line

    public static String quoted(String value) {
        return "\"" + (value.length() > 40 ? value.substring(0, 40) + "…" : value) + "\"";
    }

    static String firstLine(String message) {
        return message == null ? "" : message.lines().findFirst().orElse("");
    }
}
