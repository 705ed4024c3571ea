//DEPS org.apache.commons:commons-csv:1.14.1
//DEPS com.fasterxml.jackson.core:jackson-databind:2.20.1
// The one reader of a study's results, for everything that reads them: the notebooks (through
// notebooks/Report.java), the report (report/StudyReport.java), the study's --resume, VersusGo,
// README's tables (report/ReadmeTables.java), the answer round (study/AnswerRound.java) and the
// tests. It has no package line, because JShell (which runs the notebooks) cannot take one, and
// needs no Tablesaw: the notebooks turn its rows into tables, the report into HTML.

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.JacksonException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * One machine's results folder ({@code results/MACHINE/}: the CSVs and {@code machine.json}), read
 * strictly, and the rules every reader of it shares:
 *
 * <ul>
 *   <li>a row is a {@link Row} only when every figure in it could be true; any other row is left out
 *       with one line naming its file and line ({@link #read}), or stops a reader that shows whole
 *       files ({@link #readEveryRow}); the answer round's rows are read the same way ({@link #readAnswers});
 *   <li>"this study's rows" ({@link Folder#select}): measured on the folder's machine, on its main file
 *       size (4 GiB when there is any, else the size most rows have), the newest of each chapter,
 *       worker count, cache, page cache and read size;
 *   <li>the walls ({@link Folder#walls}), the trial rule ({@link #trialReasons}), chapter numbers
 *       ({@link #chapterNumber}), the article's figures ({@link #article}) and the machine's folder
 *       name ({@link #machineName}, lib/harness/Machine's rule).
 * </ul>
 */
final class StudyResults {

    /** The results files a machine's folder may hold, without ".csv"; any of them may be missing. */
    static final List<String> TABLES = List.of("scoreboard", "pagecache", "scaling", "cold", "wall", "chunks", "versus-go", "native");
    /** The Go article's published figures, kept in the project whichever results are shown. */
    static final Path REFERENCE = Path.of("results", "reference", "go-blog-figures.csv");

    /** The study's haystack: when a folder holds rows of several sizes, these are this study's. */
    static final long MAIN_FILE_BYTES = 4L << 30;
    /** Below these a study is a trial: its figures are for trying the tools, not for comparing. */
    static final long FULL_FILE_BYTES = 1L << 30;
    static final int FULL_RUNS = 5;

    /** What an empty {@code page_cache} means: rows from before the option existed ran with the system's setting. */
    static final String PAGE_CACHE_AS_IS = "as-is";
    static final Set<String> PAGE_CACHES = Set.of(PAGE_CACHE_AS_IS, "small", "huge");
    static final Set<String> CACHES = Set.of("warm", "cold");

    /**
     * A chapter ("V06MmapParallel"), a Go variant of the article ("Go v6"), a wall probe
     * ("WallMemoryRead") or a fio job of yardsticks/FioBeside ("fio psync O_DIRECT 2MiB-pages").
     */
    static final Pattern CHAPTER_NAME = Pattern.compile("V\\d\\d\\w*|Go v\\d+|Wall\\w+|Native\\w+|fio [\\w -]+");

    /** The columns every results CSV has; a file without one of them is not a results CSV. */
    static final List<String> REQUIRED = List.of("date", "chapter", "workers", "cache", "file_bytes",
            "warmup_runs", "runs", "mean_s", "mbps", "run_s", "warmup_s", "cpu_model", "logical_cores", "vector_bits");
    /** The columns of figures; every other column is text. */
    static final Set<String> WHOLE_NUMBERS = Set.of("workers", "warmup_runs", "runs", "logical_cores", "vector_bits",
            "file_bytes", "chunk_bytes", "offset", "memory_bytes");
    /**
     * The bill from the kernel (lib/counters/KernelBill): each a median over the timed runs, per GiB searched;
     * empty where the system did not count it, absent from rows written before it existed.
     */
    static final List<String> BILL = List.of("read_calls", "returned_bytes", "device_bytes", "minor_faults", "major_faults",
            "voluntary_switches", "involuntary_switches");
    static final Set<String> DECIMALS = Stream.concat(Stream.of("mean_s", "median_s", "min_s", "max_s", "mbps", "pmd_mapped_pct"),
            BILL.stream()).collect(Collectors.toUnmodifiableSet());
    /** Columns that may be empty: chapters that do not read in chunks, and the columns newer studies add. */
    static final Set<String> MAY_BE_EMPTY = Stream.concat(Stream.of("chunk_bytes", "pmd_mapped_pct", "machine", "page_cache",
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
    record Row(Path file, long line, String date, String chapter, int workers, String cache, long fileBytes,
               Long chunkBytes, Long offset, int warmupRuns, int runs, double meanSeconds, Double medianSeconds,
               Double minSeconds, Double maxSeconds, double mbps, double[] runSeconds, double[] warmupSeconds,
               String cpuModel, int logicalCores, Long memoryBytes, String kernel, String jdk, int vectorBits,
               String machine, String pageCache, Double pmdMappedPercent, Map<String, Double> bill) {

        /** The bill's figure of {@code column} ({@link #BILL}) per GiB, or null where the row has none. */
        Double billPerGiB(String column) {
            return bill.get(column);
        }

        Identity identity() {
            return new Identity(cpuModel, logicalCores, vectorBits);
        }

        /** The chapter's number ("V06"), the key the article's figures and the Go rows are joined on. */
        String number() {
            return chapterNumber(chapter);
        }

        /** What a rerun replaces: the same chapter, workers, cache, page cache (and read size, in {@code chunks}). */
        List<Object> measures(String table) {
            return List.of(chapter, workers, cache, pageCache, table.equals("chunks") ? String.valueOf(chunkBytes) : "");
        }

        /** This row's key among the study's steps: see {@link #resumeKey}. */
        String resumeKey(String table) {
            return StudyResults.resumeKey(table, chapter, workers, cache, pageCache, fileBytes, chunkBytes);
        }
    }

    /** What tells two machines apart in a results row. */
    record Identity(String cpuModel, int logicalCores, int vectorBits) {
        @Override
        public String toString() {
            return cpuModel + ", " + logicalCores + " cores, " + vectorBits + "-bit vectors";
        }
    }

    /** The rows of one CSV that could be read, and one line for each row left out. */
    record Csv(Path file, List<Row> rows, List<String> problems) {
        static Csv none(Path file) {
            return new Csv(file, List.of(), List.of());
        }
    }

    /** A file that is not a results CSV (or machine.json) at all: its one line says why. */
    static final class NotResultsException extends IllegalArgumentException {
        NotResultsException(String message) {
            super(message);
        }
    }

    /**
     * Reads a results CSV. A row with the wrong number of fields, a word where a number belongs, a
     * figure that cannot be true (NaN, an infinity, a negative count or time, a share over 100 %),
     * seconds that do not match its count of runs, or a chapter that is not a chapter's name is left
     * out with a line naming the file and line. A byte-order mark is skipped. A file that is not a
     * results CSV at all (no header of one, not CSV) throws {@link NotResultsException}.
     */
    static Csv read(Path file) {
        return read(file, false);
    }

    /**
     * Reads a results CSV whose every row must read, for a tool that shows a whole file or nothing
     * (README's tables): the first row that does not read throws {@link NotResultsException}, its
     * one line naming the file and line and saying what is wrong, as {@link #read} says it.
     */
    static Csv readEveryRow(Path file) {
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

    /** One row of a CSV from its record, or an IllegalArgumentException saying what is wrong with it. */
    private interface RowReader<R> {
        R read(Path file, long line, CSVRecord record, List<String> header);
    }

    /**
     * Every row of a CSV of one kind that reads, in file order. {@code checkHeader} throws
     * {@link NotResultsException} for a header that is not of {@code kind}. A row that does not
     * read is said in {@code problems}, with its file and line, or, when {@code problems} is null,
     * throws NotResultsException with that line.
     */
    private static <R> List<R> eachRow(Path file, String kind, Consumer<List<String>> checkHeader,
                                       RowReader<R> reader, List<String> problems) {
        List<R> rows = new ArrayList<>();
        List<String> header = null;
        try (Reader in = withoutByteOrderMark(file); CSVParser parser = CSVFormat.DEFAULT.parse(in)) {
            for (CSVRecord record : parser) {
                if (header == null) {
                    header = record.toList().stream().map(String::strip).toList();
                    checkHeader.accept(header);
                    continue;
                }
                long line = parser.getCurrentLineNumber();
                try {
                    rows.add(reader.read(file, line, record, header));
                } catch (IllegalArgumentException badRow) {
                    if (problems == null) {
                        throw new NotResultsException(file + " line " + line + ": " + badRow.getMessage());
                    }
                    problems.add(file + " line " + line + ": left out, " + badRow.getMessage());
                }
            }
        } catch (IOException | UncheckedIOException | IllegalStateException e) {
            throw new NotResultsException(file + " cannot be read as CSV: " + firstLine(e.getMessage()));
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
    private static Row row(Path file, long line, CSVRecord record, List<String> header) {
        if (record.size() != header.size()) {
            throw new IllegalArgumentException(record.size() + " fields where the header has " + header.size());
        }
        Map<String, String> values = new HashMap<>();
        for (int i = 0; i < header.size(); i++) {
            String column = header.get(i), value = record.get(i).strip();
            if (value.isEmpty() && !MAY_BE_EMPTY.contains(column) && (REQUIRED.contains(column) || !isText(column))) {
                throw new IllegalArgumentException(column + " is empty");
            }
            values.put(column, value);
        }
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
            Double perGiB = optionalDecimal(values, column, Double.MAX_VALUE);
            if (perGiB != null) {
                bill.put(column, perGiB);
            }
        }
        return new Row(file, line, values.get("date"), chapter, (int) whole(values, "workers", 1, Integer.MAX_VALUE), cache,
                whole(values, "file_bytes", 1, Long.MAX_VALUE), optionalWhole(values, "chunk_bytes", 1),
                optionalWhole(values, "offset", -1), warmupRuns, runs, meanSeconds,
                optionalDecimal(values, "median_s", Double.MAX_VALUE), optionalDecimal(values, "min_s", Double.MAX_VALUE),
                optionalDecimal(values, "max_s", Double.MAX_VALUE), decimal(values, "mbps", Double.MAX_VALUE),
                secondsOf(values, "run_s", runs, "runs"), secondsOf(values, "warmup_s", warmupRuns, "warmup_runs"),
                values.get("cpu_model"), (int) whole(values, "logical_cores", 1, Integer.MAX_VALUE),
                optionalWhole(values, "memory_bytes", 0), values.getOrDefault("kernel", ""), values.getOrDefault("jdk", ""),
                (int) whole(values, "vector_bits", 1, Integer.MAX_VALUE), values.getOrDefault("machine", ""), pageCache, pmd,
                java.util.Collections.unmodifiableMap(bill));
    }

    private static boolean isText(String column) {
        return !WHOLE_NUMBERS.contains(column) && !DECIMALS.contains(column);
    }

    private static long whole(Map<String, String> values, String column, long least, long most) {
        String value = values.get(column);
        if (value.isEmpty()) {
            throw new IllegalArgumentException(column + " is empty");
        }
        long number;
        try {
            number = Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(column + " is " + quoted(value) + ", not a number");
        }
        if (number < least || number > most) {
            throw new IllegalArgumentException(column + " is " + value + ", which cannot be");
        }
        return number;
    }

    private static Long optionalWhole(Map<String, String> values, String column, long least) {
        String value = values.getOrDefault(column, "");
        return value.isEmpty() ? null : whole(values, column, least, Long.MAX_VALUE);
    }

    /**
     * A decimal as the project writes one ("0.2500", "1.5E-4"): Java's own parser also takes "NaN",
     * "Infinity", hexadecimal and a trailing "d" or "f", none of which a results file should hold.
     */
    private static final Pattern DECIMAL = Pattern.compile("[-+]?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d+)?");

    private static double decimal(Map<String, String> values, String column, double most) {
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

    private static Double optionalDecimal(Map<String, String> values, String column, double most) {
        String value = values.getOrDefault(column, "");
        return value.isEmpty() ? null : decimal(values, column, most);
    }

    private static double[] secondsOf(Map<String, String> values, String column, int expected, String countColumn) {
        return secondsOf(values, column, expected, countColumn, "\\s+");
    }

    private static double[] secondsOf(Map<String, String> values, String column, int expected, String countColumn, String separator) {
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
    static double[] seconds(String joined) {
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
    // The answer round: answer.csv

    /** The phases of a one-shot command, in the order they happen (study/AnswerRound.java splits its runs into them). */
    static final List<String> ANSWER_PHASES = List.of("launcher", "jvm_start", "checks", "preread", "first_search", "answer", "exit");
    /** answer.csv's columns, in the order study/AnswerRound.java writes them: the whole, each phase's median, then the runs. */
    static final List<String> ANSWER_COLUMNS = Stream.of(Stream.of("date", "chapter", "runs", "median_s", "mean_s", "min_s", "max_s"),
            ANSWER_PHASES.stream().map(phase -> phase + "_s"), Stream.of("prereads", "run_s")).flatMap(columns -> columns).toList();
    /** A chapter's one-shot ("V13PreadVector"), or the Go article's one-shot of the same idea ("Go v13"). */
    static final Pattern ANSWER_CHAPTER = Pattern.compile("V\\d\\d\\w*|Go v\\d+");

    /**
     * One row of the answer round: a one-shot command timed {@code runs} times from the shell to its
     * exit, in seconds. A chapter's row has the median of each phase ({@link #ANSWER_PHASES}) and how
     * many runs pre-read the file; a Go row has neither (its process is not broken down), so its
     * {@code phaseSeconds} is empty and {@code prereads} null.
     */
    record Answer(Path file, long line, String date, String chapter, int runs, double medianSeconds, double meanSeconds,
                  double minSeconds, double maxSeconds, Map<String, Double> phaseSeconds, Integer prereads, double[] runSeconds) {

        boolean isGo() {
            return chapter.startsWith("Go ");
        }
    }

    /** The rows of an answer.csv that could be read, and one line for each row left out. */
    record AnswerCsv(Path file, List<Answer> rows, List<String> problems) {

        /** The newest row of each chapter and Go variant (a rerun appends rows), in the order of the newest. */
        List<Answer> newestOfEach() {
            Map<String, Answer> newest = new LinkedHashMap<>();
            for (Answer row : rows) {
                newest.remove(row.chapter());
                newest.put(row.chapter(), row);
            }
            return List.copyOf(newest.values());
        }
    }

    /**
     * Reads the answer round's CSV as {@link #read} reads a results CSV: a row with the wrong number
     * of fields, a chapter that is no one-shot's name, a time that is not finite and non-negative,
     * a chapter's row without its phases, or run seconds that do not match its count of runs, is left
     * out with a line naming file and line. A file whose header is not answer.csv's throws
     * {@link NotResultsException}.
     */
    static AnswerCsv readAnswers(Path file) {
        List<String> problems = new ArrayList<>();
        List<Answer> rows = eachRow(file, "an answer-round CSV", header -> {
            if (!header.equals(ANSWER_COLUMNS)) {
                throw new NotResultsException(file + " is not an answer-round CSV: its header is not " + String.join(",", ANSWER_COLUMNS));
            }
        }, StudyResults::answer, problems);
        return new AnswerCsv(file, rows, problems);
    }

    private static Answer answer(Path file, long line, CSVRecord record, List<String> header) {
        if (record.size() != header.size()) {
            throw new IllegalArgumentException(record.size() + " fields where the header has " + header.size());
        }
        Map<String, String> values = new HashMap<>();
        for (int i = 0; i < header.size(); i++) {
            values.put(header.get(i), record.get(i).strip());
        }
        String chapter = values.get("chapter");
        if (!ANSWER_CHAPTER.matcher(chapter).matches()) {
            throw new IllegalArgumentException("chapter is " + quoted(chapter) + ", not a chapter's name or a Go variant's");
        }
        boolean go = chapter.startsWith("Go ");
        int runs = (int) whole(values, "runs", 1, Integer.MAX_VALUE);
        Map<String, Double> phases = new LinkedHashMap<>();
        for (String phase : ANSWER_PHASES) {
            Double seconds = go ? optionalDecimal(values, phase + "_s", Double.MAX_VALUE)
                    : Double.valueOf(decimal(values, phase + "_s", Double.MAX_VALUE)); // boxed, or a Go row's null would be unboxed
            if (seconds != null) {
                phases.put(phase, seconds);
            }
        }
        Long prereads = go ? optionalWhole(values, "prereads", 0) : Long.valueOf(whole(values, "prereads", 0, runs));
        return new Answer(file, line, values.get("date"), chapter, runs, decimal(values, "median_s", Double.MAX_VALUE),
                decimal(values, "mean_s", Double.MAX_VALUE), decimal(values, "min_s", Double.MAX_VALUE),
                decimal(values, "max_s", Double.MAX_VALUE), phases, prereads == null ? null : prereads.intValue(),
                secondsOf(values, "run_s", runs, "runs", ";"));
    }

    // ---------------------------------------------------------------------------------------------
    // machine.json

    /**
     * machine.json's field naming the chapters this CPU could not run, each with its reason
     * ("V12Vector512: … needs AVX-512"): written by the study, shown by the report.
     */
    static final String NOT_ON_THIS_CPU = "not_run_on_this_cpu";

    /**
     * A machine's description, {@code machine.json}: its fields as text, in the file's order (a
     * JSON null is a field not recorded). A field that is not a single value, or not the kind its
     * name says (a number, a boolean), is left out with a line naming file and line; a file that is
     * not a JSON object leaves the whole description out, with its line.
     */
    record Description(Map<String, String> fields, List<String> problems) {
        static final Set<String> WHOLE_NUMBER_FIELDS = Set.of("cpu_family", "cpu_model_number", "logical_cores",
                "memory_bytes", "vector_bits", "read_ahead_kb");
        static final Set<String> BOOLEAN_FIELDS = Set.of("avx2", "avx512", "trial");

        static Description none() {
            return new Description(Map.of(), List.of());
        }

        Optional<String> text(String field) {
            return Optional.ofNullable(fields.get(field));
        }

        Optional<Long> number(String field) {
            return text(field).map(Long::parseLong);
        }

        boolean flag(String field) {
            return text(field).map(Boolean::parseBoolean).orElse(false);
        }

        /** The machine the description names: CPU model, processors and vector width, when all three are there. */
        Optional<Identity> identity() {
            return text("cpu_model").flatMap(model -> number("logical_cores").flatMap(cores -> number("vector_bits")
                    .map(bits -> new Identity(model, cores.intValue(), bits.intValue()))));
        }
    }

    static Description readDescription(Path file) {
        if (!Files.isRegularFile(file)) {
            return Description.none();
        }
        Map<String, String> fields = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        try (Reader reader = withoutByteOrderMark(file); JsonParser json = new JsonFactory().createParser(reader)) {
            if (json.nextToken() != JsonToken.START_OBJECT) {
                return new Description(Map.of(), List.of(file + " line " + json.currentLocation().getLineNr()
                        + ": not a JSON object; the machine is described by its rows"));
            }
            while (json.nextToken() == JsonToken.FIELD_NAME) {
                String field = json.currentName();
                JsonToken value = json.nextToken();
                int line = json.currentLocation().getLineNr();
                String why = null;
                if (value.isStructStart()) {
                    json.skipChildren();
                    why = "is not a single value";
                } else if (value != JsonToken.VALUE_NULL && Description.WHOLE_NUMBER_FIELDS.contains(field)
                        && (value != JsonToken.VALUE_NUMBER_INT || json.getLongValue() < 0)) {
                    why = "is " + quoted(json.getText()) + ", not a count";
                } else if (value != JsonToken.VALUE_NULL && Description.BOOLEAN_FIELDS.contains(field) && !value.isBoolean()) {
                    why = "is " + quoted(json.getText()) + ", not true or false";
                }
                if (why != null) {
                    problems.add(file + " line " + line + ": left out " + field + ", which " + why);
                } else {
                    fields.put(field, value == JsonToken.VALUE_NULL ? null : json.getText());
                }
            }
        } catch (JacksonException e) {
            return new Description(Map.of(), List.of(file + " line " + (e.getLocation() == null ? "?" : e.getLocation().getLineNr())
                    + ": not JSON (" + firstLine(e.getOriginalMessage()) + "); the machine is described by its rows"));
        } catch (IOException e) {
            return new Description(Map.of(), List.of(file + ": cannot be read (" + e.getMessage() + ")"));
        }
        return new Description(fields, problems);
    }

    // ---------------------------------------------------------------------------------------------
    // A machine's folder, and this study's rows in it

    /**
     * Added to a machine's name for the folder its study measures into when a folder committed with
     * the project already has that name ({@link CommittedMachines}); the rows keep the machine's name.
     */
    static final String OWN_FOLDER_SUFFIX = "-local";

    /** The rows of a table that belong together, and one line for each row, or kind of row, left out. */
    record Selection(List<Row> rows, List<String> notes) {}

    /**
     * One machine's folder of results: its name (the folder's, or the description's), its
     * description and its CSVs, each read once.
     */
    static final class Folder {
        final String name;
        final Path dir;
        final Description description;
        private final Map<String, Csv> read = new HashMap<>();
        private Identity identity;
        private Long mainFileBytes;
        private List<Wall> walls;

        Folder(String name, Path dir, Description description) {
            this.name = name;
            this.dir = dir;
            this.description = description;
        }

        /**
         * The machine whose rows this folder holds: the folder's name, but for a folder a study made
         * because the machine's own name is a committed folder's ({@link CommittedMachines}): its rows
         * carry the machine's name, without the suffix.
         */
        String machine() {
            return name.endsWith(OWN_FOLDER_SUFFIX)
                    ? name.substring(0, name.length() - OWN_FOLDER_SUFFIX.length()) : name;
        }

        Path csv(String table) {
            return dir.resolve(table + ".csv");
        }

        boolean has(String table) {
            return Files.isRegularFile(csv(table));
        }

        /** The table's rows that read as results rows; none when the file is missing. Throws {@link NotResultsException}. */
        Csv read(String table) {
            return read.computeIfAbsent(table, t -> has(t) ? StudyResults.read(csv(t)) : Csv.none(csv(t)));
        }

        /** Every readable row of every table here; a table that is no results CSV counts as none. */
        private List<Row> allRows() {
            List<Row> all = new ArrayList<>();
            for (String table : TABLES) {
                try {
                    all.addAll(read(table).rows());
                } catch (NotResultsException notResults) {
                    // said by whoever reads that table
                }
            }
            return all;
        }

        /**
         * The machine the folder's figures were measured on: the description's CPU model, cores and
         * vector width, or, without them, the most common of them among the rows.
         */
        Identity identity() {
            if (identity == null) {
                identity = description.identity().orElseGet(() -> mostCommon(allRows().stream().map(Row::identity).toList(),
                        Comparator.comparing(Identity::toString)).orElse(new Identity("", 0, 0)));
            }
            return identity;
        }

        /** This study's file size: 4 GiB when the folder has rows of it, else the size most rows have (the larger on a tie). */
        long mainFileBytes() {
            if (mainFileBytes == null) {
                List<Long> sizes = allRows().stream().filter(this::measuredHere).map(Row::fileBytes).toList();
                mainFileBytes = sizes.contains(MAIN_FILE_BYTES) ? MAIN_FILE_BYTES
                        : mostCommon(sizes, Comparator.naturalOrder()).orElse(MAIN_FILE_BYTES);
            }
            return mainFileBytes;
        }

        /** Recorded for this folder's machine (or for none) and with its CPU, cores and vector width. */
        boolean measuredHere(Row row) {
            return (row.machine().isEmpty() || row.machine().equals(machine())) && row.identity().equals(identity());
        }

        /** The description's date, else the newest row's: which study is the most recent. */
        String date() {
            return description.text("date").orElseGet(() -> allRows().stream().map(Row::date).max(Comparator.naturalOrder()).orElse(""));
        }

        /**
         * This study's rows of {@code table}: measured on this machine ({@link #measuredHere}), on
         * its main file size, with {@code cache} ("warm" or "cold"; null keeps both), the newest row
         * of each chapter, worker count, cache and page cache (and read size, for {@code chunks}): a
         * rerun appends rows rather than replacing them. Every row left out is said: a bad one by its
         * file and line, the others in one line per reason. Throws {@link NotResultsException}.
         */
        Selection select(String table, String cache) {
            return choose(table, cache, true);
        }

        /** The same rows without keeping only the newest of each: every round of a sitting ({@code versus-go}). */
        Selection everyRound(String table) {
            return choose(table, null, false);
        }

        private Selection choose(String table, String cache, boolean newestOnly) {
            Csv csv = read(table);
            List<String> notes = new ArrayList<>(csv.problems());
            Map<String, List<String>> leftOut = new LinkedHashMap<>();
            Map<List<Object>, Row> kept = new LinkedHashMap<>();
            long mainBytes = mainFileBytes();
            for (Row row : csv.rows()) {
                String reason = null;
                if (!row.machine().isEmpty() && !row.machine().equals(machine())) {
                    reason = "measured on another machine (" + row.machine() + "), not " + machine();
                } else if (!row.identity().equals(identity())) {
                    reason = "measured on another machine (" + row.identity() + "), not " + name + "'s " + identity();
                } else if (row.fileBytes() != mainBytes && newestOnly) {
                    reason = "a " + binarySize(row.fileBytes()) + " file, where " + name + "'s study is the " + binarySize(mainBytes) + " one";
                } else if (cache != null && !cache.equals(row.cache())) {
                    reason = "with a " + row.cache() + " page cache, where this table holds " + cache;
                }
                if (reason != null) {
                    leftOut.computeIfAbsent(reason, r -> new ArrayList<>()).add(row.chapter());
                } else {
                    List<Object> key = newestOnly ? row.measures(table) : List.of(row.line());
                    kept.remove(key); // re-inserted, so that the rows keep the order of the newest
                    kept.put(key, row);
                }
            }
            leftOut.forEach((reason, chapters) -> notes.add("left out " + chapters.size() + " row" + (chapters.size() == 1 ? "" : "s")
                    + " of " + csv(table) + ": " + reason + " (" + String.join(", ", new LinkedHashSet<>(chapters)) + ")"));
            List<Row> rows = kept.values().stream().sorted(Comparator.comparingLong(Row::line)).toList();
            return new Selection(rows, notes);
        }

        /** Why this study's figures are a trial's ({@link #trialReasons}), from {@code rows}. */
        List<String> trialReasons(Collection<Row> rows) {
            return StudyResults.trialReasons(description.flag("trial"), mainFileBytes(),
                    rows.stream().mapToInt(row -> runsForTrialRule(row.runs(), row.runSeconds())).min().orElse(FULL_RUNS),
                    rows.stream().anyMatch(row -> row.warmupRuns() == 0));
        }

        /**
         * The memory-read walls of this study: for each probe in wall.csv ({@code WallMemoryRead}, and
         * {@code WallMemoryReadHuge} where it was measured), the best warm MB/s over the worker counts
         * measured, with the chapters of this study (any warm table) that went faster than it.
         */
        List<Wall> walls() {
            if (walls == null) {
                walls = new ArrayList<>();
                if (has("wall")) {
                    List<Row> probes;
                    try {
                        // every sitting's rows, not the newest: a wall is the best it reached in any sitting (study/WallSittings)
                        probes = choose("wall", "warm", false).rows().stream().filter(row -> row.fileBytes() == mainFileBytes()).toList();
                    } catch (NotResultsException notResults) {
                        return walls; // said by whoever reads wall.csv
                    }
                    List<Row> chapters = new ArrayList<>();
                    for (String table : List.of("scoreboard", "pagecache", "scaling", "chunks")) {
                        try {
                            chapters.addAll(select(table, "warm").rows());
                        } catch (NotResultsException notResults) {
                            // said by whoever draws that table
                        }
                    }
                    WALL_PROBES.forEach((probe, label) -> probes.stream().filter(row -> row.chapter().equals(probe))
                            .max(Comparator.comparingDouble(Row::mbps)).ifPresent(best -> walls.add(new Wall(probe, label, best.mbps(),
                                    best.workers(), (int) probes.stream().filter(row -> row.chapter().equals(probe)).count(),
                                    chapters.stream().filter(row -> row.mbps() > best.mbps()).map(Row::chapter).distinct().sorted().toList()))));
                }
            }
            return walls;
        }
    }

    private static <T> Optional<T> mostCommon(List<T> values, Comparator<T> tieBreak) {
        Map<T, Long> counts = values.stream().collect(Collectors.groupingBy(v -> v, LinkedHashMap::new, Collectors.counting()));
        return counts.entrySet().stream().max(Map.Entry.<T, Long>comparingByValue()
                .thenComparing(Map.Entry.comparingByKey(tieBreak))).map(Map.Entry::getKey);
    }

    /**
     * The machine folders under {@code root}: every folder holding a description or a results CSV
     * ({@code reference/}, the article's figures, is not a machine). A root that holds results CSVs
     * itself (a study written straight into {@code --results DIR}) is one machine, named by its
     * description, else as lib/harness/Machine would name the machine of its rows.
     */
    static List<Folder> folders(Path root) throws IOException {
        if (TABLES.stream().anyMatch(table -> Files.isRegularFile(root.resolve(table + ".csv")))) {
            Description description = readDescription(root.resolve("machine.json"));
            Folder unnamed = new Folder("", root, description);
            String name = description.text("name").orElseGet(() -> machineName(unnamed.identity()));
            return List.of(new Folder(name, root, description));
        }
        List<Folder> found = new ArrayList<>();
        if (Files.isDirectory(root)) {
            try (Stream<Path> entries = Files.list(root)) {
                for (Path dir : entries.sorted().toList()) {
                    boolean holdsResults = Files.isRegularFile(dir.resolve("machine.json"))
                            || TABLES.stream().anyMatch(table -> Files.isRegularFile(dir.resolve(table + ".csv")));
                    if (Files.isDirectory(dir) && !dir.getFileName().toString().equals("reference") && holdsResults) {
                        found.add(folder(dir));
                    }
                }
            }
        }
        return found;
    }

    /** One machine's folder, named after the folder. */
    static Folder folder(Path dir) {
        return new Folder(dir.getFileName().toString(), dir, readDescription(dir.resolve("machine.json")));
    }

    // ---------------------------------------------------------------------------------------------
    // The walls

    /** The probes behind the memory-read walls, as yardsticks/WallProbe.java names them in the chapter column, and their labels. */
    static final Map<String, String> WALL_PROBES = new LinkedHashMap<>(Map.of("WallMemoryRead", "memory-read wall"));

    static {
        WALL_PROBES.put("WallMemoryReadHuge", "memory-read wall, huge pages");
    }

    /**
     * A ceiling the chapters are measured against: the best MB/s of {@code probe} over
     * {@code workerCounts} worker counts, and the chapters that went faster than it. A wall that a
     * chapter beats was measured in other conditions than that chapter (a busier moment), so it
     * bounds nothing: no share of it is shown, and {@link #beatenNote} says why.
     */
    record Wall(String probe, String label, double mbps, int workers, int workerCounts, List<String> beatenBy) {
        /** Each chapter's MB/s as a percentage of this wall; empty when the chapter went faster than the wall. */
        OptionalDouble percentOf(double chapterMbps) {
            return chapterMbps > mbps ? OptionalDouble.empty() : OptionalDouble.of(chapterMbps / mbps * 100);
        }

        /** The one line said beside a share that is not shown. */
        static final String ABOVE = "faster than the wall";

        /** The line said beside the wall, or empty when no chapter beat it. */
        String beatenNote() {
            return beatenBy.isEmpty() ? "" : String.join(", ", beatenBy.stream().map(StudyResults::chapterNumber).toList())
                    + " ran faster than the " + label + ": it was measured in other conditions, so it bounds nothing here and no share of it is shown";
        }

        /** The wall's line on a chart: its MB/s, and who beat it. */
        String chartLabel() {
            return String.format(Locale.ROOT, "%s: %,.0f MB/s", label, mbps)
                    + (beatenBy.isEmpty() ? "" : " (beaten by " + String.join(", ", beatenBy.stream().map(StudyResults::chapterNumber).toList())
                    + ": measured in other conditions, no bound)");
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Java beside Go (versus-go.csv, written by yardsticks/VersusGo.java): the one reading of it that
    // README's table, every machine's report and VersusGo's own summary print

    /** A pair's mark: Java won every round, lost every round, won some and lost some, or no round could be told. */
    enum GoVerdict {
        AHEAD("ahead"), BEHIND("behind"), TIE("tie"), UNPAIRED("unpaired");

        final String word;

        GoVerdict(String word) {
            this.word = word;
        }
    }

    /**
     * One round of a pair: its Go call and its Java call, run back to back, so written on
     * consecutive lines of versus-go.csv (in either order: VersusGo swaps the sides every round).
     */
    record GoRound(Row go, Row java) {
        /** Go's median run over Java's: above 1, Java was the faster in this round. */
        double ratio() {
            return go.medianSeconds() / java.medianSeconds();
        }
    }

    /**
     * One pair of versus-go.csv: Go's {@code vN} and chapter N. Its figure is the median of its rounds'
     * ratios; it is {@link GoVerdict#AHEAD} when Java won every round (the lowest ratio above 1),
     * {@link GoVerdict#BEHIND} when it lost every round (the highest below 1), else a
     * {@link GoVerdict#TIE}: within the rounds' spread. {@code unpaired}: the rows that found no
     * partner on the next or previous line (a call that failed, a row left out); they count for nothing.
     */
    record GoPair(int number, String javaChapter, List<GoRound> rounds, List<Row> unpaired) {

        private double[] ratios() {
            return rounds.stream().mapToDouble(GoRound::ratio).toArray();
        }

        /** Java's speed over Go's, the median over rounds; NaN without a round. */
        double ratio() {
            return rounds.isEmpty() ? Double.NaN : medianOf(ratios());
        }

        double lowest() {
            return Arrays.stream(ratios()).min().orElse(Double.NaN);
        }

        double highest() {
            return Arrays.stream(ratios()).max().orElse(Double.NaN);
        }

        GoVerdict verdict() {
            if (rounds.isEmpty()) {
                return GoVerdict.UNPAIRED;
            }
            return lowest() > 1 ? GoVerdict.AHEAD : highest() < 1 ? GoVerdict.BEHIND : GoVerdict.TIE;
        }

        /** One side's MB/s, the median over the rounds of each call's median run; NaN without a round. */
        double goMbps() {
            return sideMbps(GoRound::go);
        }

        double javaMbps() {
            return sideMbps(GoRound::java);
        }

        private double sideMbps(java.util.function.Function<GoRound, Row> side) {
            return rounds.isEmpty() ? Double.NaN : medianOf(rounds.stream().map(side)
                    .mapToDouble(row -> row.fileBytes() / row.medianSeconds() / 1e6).toArray()); // decimal MB/s, as lib/Stats counts them
        }

        /** "1.09", or "–" without a round: how every reader prints the figure. */
        String ratioText() {
            return rounds.isEmpty() ? "–" : String.format(Locale.ROOT, "%.2f", ratio());
        }

        /**
         * "0.951–1.124": the lowest and highest round's ratio, to three places so that a "behind"
         * never reads 1.00; one figure for one round.
         */
        String rangeText() {
            if (rounds.isEmpty()) {
                return "–";
            }
            String low = String.format(Locale.ROOT, "%.3f", lowest()), high = String.format(Locale.ROOT, "%.3f", highest());
            return low.equals(high) ? low : low + "–" + high;
        }

        /** "3", "2 (1 unpaired row)" or "0 (2 unpaired rows)". */
        String roundsText() {
            return rounds.size() + (unpaired.isEmpty() ? ""
                    : " (" + unpaired.size() + " unpaired row" + (unpaired.size() == 1 ? "" : "s") + ")");
        }
    }

    /**
     * versus-go.csv's rows (in file order) as pairs, by pair number. A Go row ({@code Go vN}) and a
     * Java row of the same number on consecutive lines, each with a median run, of one file size, are
     * one round; any other row of the pair is unpaired rather than matched by guess with a row of
     * another round. Rows that name no numbered chapter are no pair's.
     */
    static List<GoPair> versusGo(List<Row> rows) {
        Map<Integer, List<GoRound>> rounds = new TreeMap<>();
        Map<Integer, List<Row>> unpaired = new TreeMap<>();
        Map<Integer, String> javaChapter = new TreeMap<>();
        Row waiting = null; // the previous row, while it has no partner
        for (Row row : rows.stream().sorted(Comparator.comparingLong(Row::line)).toList()) {
            int number = pairNumber(row);
            if (number < 0) {
                continue;
            }
            rounds.computeIfAbsent(number, n -> new ArrayList<>());
            unpaired.computeIfAbsent(number, n -> new ArrayList<>());
            if (!isGo(row)) {
                javaChapter.put(number, row.chapter());
            }
            if (waiting != null && onePair(waiting, row)) {
                rounds.get(number).add(isGo(waiting) ? new GoRound(waiting, row) : new GoRound(row, waiting));
                waiting = null;
                continue;
            }
            if (waiting != null) {
                unpaired.get(pairNumber(waiting)).add(waiting);
            }
            waiting = row;
        }
        if (waiting != null) {
            unpaired.get(pairNumber(waiting)).add(waiting);
        }
        return rounds.keySet().stream().map(number -> new GoPair(number, javaChapter.getOrDefault(number, "–"),
                List.copyOf(rounds.get(number)), List.copyOf(unpaired.get(number)))).toList();
    }

    private static boolean isGo(Row row) {
        return row.chapter().startsWith("Go ");
    }

    /** 6 for "Go v6" and "V06MmapParallel"; -1 for a row that names no numbered chapter. */
    private static int pairNumber(Row row) {
        String number = row.number();
        return number.matches("V\\d\\d") ? Integer.parseInt(number.substring(1)) : -1;
    }

    /** Two rows that make one round: consecutive lines, one side each, the same pair and size, a median each. */
    private static boolean onePair(Row first, Row second) {
        return second.line() == first.line() + 1 && isGo(first) != isGo(second) && pairNumber(first) == pairNumber(second)
                && first.fileBytes() == second.fileBytes() && hasMedian(first) && hasMedian(second);
    }

    /** lib/Stats's median, here because the notebooks load this file without lib/. */
    static double medianOf(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    private static boolean hasMedian(Row row) {
        return row.medianSeconds() != null && row.medianSeconds() > 0 && Double.isFinite(row.medianSeconds());
    }

    /** How the pairs are read, in one sentence every reader prints under its table. */
    static final String VERSUS_GO_RULE = "Java ÷ Go: per round, Go's median run over Java's (above 1: Java faster), "
            + "the median over rounds; ahead: Java won every round, behind: it lost every round, "
            + "tie: it won some and lost some; a round is a Go call and a Java call run back to back";

    // ---------------------------------------------------------------------------------------------
    // The cold chapters beside fio (fio.csv, written by yardsticks/FioBeside.java)

    /** yardsticks/FioBeside's table: the cold chapters' rows and fio's, interleaved over rounds. */
    static final String FIO_TABLE = "fio";
    /** Rows further apart than this belong to different sittings: within one, a row follows the last within one run. */
    static final java.time.Duration FIO_SITTING_GAP = java.time.Duration.ofMinutes(15);

    /**
     * A cold chapter as a fraction of fio's best in one sitting, on the same file with the same read
     * size and job count: the chapter's median MB/s over the sitting's rounds, against the best of
     * fio's O_DIRECT jobs that only read (engine, queue depth, buffer page size), each job taken by
     * its own median over the same rounds; and against the best of those that check every byte as
     * the chapters do ({@code checkingJob}, "" where the sitting has none: {@code checkingMbps} is then NaN).
     */
    record FioFraction(String chapter, int workers, long chunkBytes, double chapterMbps, int chapterRounds,
                       String fioJob, double fioMbps, int fioRounds, String checkingJob, double checkingMbps) {
        double fraction() {
            return chapterMbps / fioMbps;
        }

        OptionalDouble checkingFraction() {
            return checkingJob.isEmpty() ? OptionalDouble.empty() : OptionalDouble.of(chapterMbps / checkingMbps);
        }
    }

    /** The last word of a fio job's name that checks what it reads (yardsticks/FioBeside's CHECKING). */
    static final String FIO_CHECKING = "checking";

    private static boolean isFioDirectJob(String name, boolean checking) {
        return name.startsWith("fio ") && name.contains("O_DIRECT") && name.endsWith(" " + FIO_CHECKING) == checking;
    }

    /**
     * The fractions of fio.csv's newest sitting, with the sitting's first date, and the line that
     * says them; or none, and the one line that says why. {@code notes}: the rows left out, by file and line.
     */
    record FioComparison(List<FioFraction> fractions, String sittingDate, String line, List<String> notes) {

        Optional<FioFraction> of(String chapter) {
            return fractions.stream().filter(fraction -> fraction.chapter().equals(chapter)).findFirst();
        }
    }

    /**
     * The cold chapters as fractions of fio's best (see {@link FioFraction}) in the newest sitting
     * of {@code fio.csv}: this machine's cold rows of the study's file size, each sitting a run of
     * rows no further apart than {@link #FIO_SITTING_GAP}. Without the file, or without a chapter
     * and an O_DIRECT job of the same read size and job count in that sitting, no fractions and one
     * line that says so.
     */
    static FioComparison fioComparison(Folder folder) {
        Path csv = folder.csv(FIO_TABLE);
        if (!folder.has(FIO_TABLE)) {
            return new FioComparison(List.of(), "", "No fio.csv here, so no cold chapter is shown as a fraction of fio's "
                    + "(yardsticks/FioBeside.java measures fio beside them).", List.of());
        }
        Csv read;
        try {
            read = folder.read(FIO_TABLE);
        } catch (NotResultsException notResults) {
            return new FioComparison(List.of(), "", notResults.getMessage(), List.of());
        }
        List<Row> rows = read.rows().stream().filter(folder::measuredHere)
                .filter(row -> row.cache().equals("cold") && row.fileBytes() == folder.mainFileBytes()).toList();
        List<Row> sitting = new ArrayList<>();
        java.time.Instant last = null;
        for (Row row : rows) {
            java.time.Instant at;
            try {
                at = java.time.Instant.parse(row.date());
            } catch (java.time.format.DateTimeParseException undated) {
                continue; // a row without its time cannot be placed in a sitting
            }
            if (last == null || at.isBefore(last) || java.time.Duration.between(last, at).compareTo(FIO_SITTING_GAP) > 0) {
                sitting.clear();
            }
            sitting.add(row);
            last = at;
        }
        Map<List<Object>, Map<String, List<Double>>> byShape = new LinkedHashMap<>(); // (read size, jobs) -> name -> MB/s of each round
        for (Row row : sitting) {
            if (row.chunkBytes() != null) {
                byShape.computeIfAbsent(List.of(row.chunkBytes(), row.workers()), shape -> new LinkedHashMap<>())
                        .computeIfAbsent(row.chapter(), name -> new ArrayList<>()).add(row.mbps());
            }
        }
        List<FioFraction> fractions = new ArrayList<>();
        byShape.forEach((shape, mbpsByName) -> {
            Optional<Map.Entry<String, List<Double>>> checking = bestFioJob(mbpsByName, true);
            bestFioJob(mbpsByName, false).ifPresent(best -> mbpsByName.forEach((name, mbps) -> {
                if (!name.startsWith("fio ")) {
                    fractions.add(new FioFraction(name, (int) shape.get(1), (long) shape.get(0), median(mbps), mbps.size(),
                            best.getKey(), median(best.getValue()), best.getValue().size(),
                            checking.map(Map.Entry::getKey).orElse(""), checking.map(job -> median(job.getValue())).orElse(Double.NaN)));
                }
            }));
        });
        if (fractions.isEmpty()) {
            return new FioComparison(List.of(), "", csv + " has no sitting with a cold chapter and an O_DIRECT fio job of the same "
                    + "read size and job count, so no cold chapter is shown as a fraction of fio's.", read.problems());
        }
        String date = sitting.getFirst().date();
        String line = "Beside fio (" + csv.getFileName() + ", the sitting of " + date + "): " + fractions.stream()
                .map(f -> String.format(Locale.ROOT, "%s %.2f × fio's best (%s, %,.0f MB/s%s; %s reads, %d jobs, medians of %d rounds)",
                        f.chapter(), f.fraction(), f.fioJob().replaceFirst("^fio ", ""), f.fioMbps(),
                        f.checkingFraction().isPresent() ? String.format(Locale.ROOT, "), %.2f × its best checking every byte (%s, %,.0f MB/s",
                                f.checkingFraction().getAsDouble(), f.checkingJob().replaceFirst("^fio ", ""), f.checkingMbps()) : "",
                        binarySize(f.chunkBytes()), f.workers(), f.chapterRounds()))
                .collect(Collectors.joining("; ")) + ".";
        return new FioComparison(fractions, date, line, read.problems());
    }

    /** The fio O_DIRECT job with the best median, among those that check every byte or those that only read. */
    private static Optional<Map.Entry<String, List<Double>>> bestFioJob(Map<String, List<Double>> mbpsByName, boolean checking) {
        return mbpsByName.entrySet().stream().filter(job -> isFioDirectJob(job.getKey(), checking))
                .max(Comparator.comparingDouble(job -> median(job.getValue())));
    }

    private static double median(List<Double> values) {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    // ---------------------------------------------------------------------------------------------
    // Rules said once

    /**
     * Why a study's figures are a trial's; empty when they are a full study's: the study said so
     * (and nothing else does), a file under 1 GiB, fewer than {@value #FULL_RUNS} runs, no warm-up.
     */
    static List<String> trialReasons(boolean describedAsTrial, long fileBytes, int fewestRuns, boolean noWarmup) {
        List<String> reasons = new ArrayList<>();
        if (fileBytes < FULL_FILE_BYTES) {
            reasons.add("a " + binarySize(fileBytes) + " file, under " + binarySize(FULL_FILE_BYTES));
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

    /**
     * lib/harness/RunBudget.STANDARD's slow run, in seconds: a study keeps taking runs until one takes longer,
     * then stops at 3 or 1. (This file must stay free of lib/ for JShell; a test ties the two.)
     */
    static final double BUDGET_SLOW_RUN_SECONDS = 5;

    /**
     * The runs a row counts as for the trial rule: a row the time budget cut (fewer than
     * {@value #FULL_RUNS} runs, its slowest taking longer than the budget's slow run) was measured as
     * the study meant it to be, not as a trial.
     */
    static int runsForTrialRule(int runs, double[] runSeconds) {
        double slowest = Arrays.stream(runSeconds).max().orElse(0);
        return runs < FULL_RUNS && slowest > BUDGET_SLOW_RUN_SECONDS ? FULL_RUNS : runs;
    }

    private static final Pattern NUMBERED = Pattern.compile("^(?:Go )?[vV]?(\\d{1,2})(\\D.*)?$");

    /** "V06MmapParallel", "v6", "6" and "Go v6" all become "V06", the key chapters are joined on; any other name stays as it is. */
    static String chapterNumber(String chapter) {
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
    static String resumeKey(String table, String chapter, int workers, String cache, String pageCache, long fileBytes, Long chunkBytes) {
        return String.join("|", table, chapter, SWEPT_WORKERS.contains(table) ? Integer.toString(workers) : "",
                table.equals("pagecache") ? cache + "/" + pageCache : cache, Long.toString(fileBytes),
                table.equals("chunks") ? String.valueOf(chunkBytes) : "");
    }

    /** Powers of two read better as "4 GiB" than as 4294967296. */
    static String binarySize(long bytes) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        int unit = 0;
        double size = bytes;
        while (unit < units.length - 1 && size >= 1024) {
            size /= 1024;
            unit++;
        }
        return (size == Math.rint(size) ? String.valueOf((long) size) : String.format(Locale.ROOT, "%.1f", size)) + " " + units[unit];
    }

    // ---------------------------------------------------------------------------------------------
    // The article's figures

    /** One of the article's published figures: a chapter number's row of one table; absent figures are null. */
    record ArticleRow(String table, String variant, String number, String description, Double meanSeconds, Double mbps,
                      Double speedup, Double oneWorkerMbps, Double peakMbps, Double peakAt, Double coldMbps) {}

    /** The article's rows of {@code table} ({@code scoreboard}, {@code scaling} or {@code cold}); empty without the reference file. */
    static List<ArticleRow> article(String table) {
        return article(REFERENCE, table);
    }

    /**
     * The rows of {@code table} in {@code reference}, a file of the article's figures (README's
     * tables read the one beside the results they are given); empty without the file. A figure
     * that is not one (a word, NaN, a negative) throws {@link NotResultsException} naming file and line.
     */
    static List<ArticleRow> article(Path reference, String table) {
        List<ArticleRow> rows = new ArrayList<>();
        if (!Files.isRegularFile(reference)) {
            return rows;
        }
        try (Reader in = withoutByteOrderMark(reference);
             CSVParser parser = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).setCommentMarker('#').get().parse(in)) {
            for (CSVRecord record : parser) {
                if (record.isConsistent() && record.get("table").equals(table)) {
                    String where = reference + " line " + parser.getCurrentLineNumber();
                    rows.add(new ArticleRow(table, record.get("variant"), chapterNumber(record.get("variant")), record.get("description"),
                            figure(record, "mean_s", where), figure(record, "mb_per_s", where), figure(record, "speedup", where),
                            figure(record, "workers_1_mb_per_s", where), figure(record, "peak_mb_per_s", where),
                            figure(record, "peak_at", where), figure(record, "cold_mb_per_s", where)));
                }
            }
        } catch (NotResultsException badFigure) {
            throw badFigure;
        } catch (IOException | UncheckedIOException | IllegalStateException | IllegalArgumentException e) {
            throw new NotResultsException(reference + " cannot be read: " + firstLine(e.getMessage()));
        }
        return rows;
    }

    /** The article's rows of {@code table} by chapter number ("V06"). */
    static Map<String, ArticleRow> articleByNumber(String table) {
        Map<String, ArticleRow> byNumber = new LinkedHashMap<>();
        article(table).forEach(row -> byNumber.put(row.number(), row));
        return byNumber;
    }

    /** A figure of the article's, by the rule of a results row's; null where the article gives none. */
    private static Double figure(CSVRecord record, String column, String where) {
        String value = record.isMapped(column) ? record.get(column).strip() : "";
        try {
            return value.isEmpty() ? null : decimal(Map.of(column, value), column, Double.MAX_VALUE);
        } catch (IllegalArgumentException notAFigure) {
            throw new NotResultsException(where + ": " + notAFigure.getMessage());
        }
    }

    /** The article's machine, from the reference file's "# Machine:" line. */
    static String articleMachine() {
        if (!Files.isRegularFile(REFERENCE)) {
            return "not in this copy";
        }
        try (Stream<String> lines = Files.lines(REFERENCE)) {
            return lines.filter(line -> line.startsWith("# Machine:")).findFirst()
                    .map(line -> line.substring("# Machine:".length()).trim().replaceFirst("\\.$", "")).orElse("another machine");
        } catch (IOException | UncheckedIOException e) {
            return "another machine";
        }
    }

    // ---------------------------------------------------------------------------------------------
    // The machine's folder name: lib/harness/Machine's rule
    //
    // lib/harness/Machine is on the class path of every program that reads results: the tools and tests compile
    // it with the rest of lib/ (//SOURCES), and a notebook, which JShell runs and which cannot load a
    // source file with a package line, has it built by JBang as a dependency (//DEPS ../lib/harness/Machine.java).

    /** This machine's folder name, as the study names it. */
    static String currentMachineName() {
        return lib.harness.Machine.current().name();
    }

    /** The folder name lib/harness/Machine gives a machine known only by its rows: CPU model, processors, vector width. */
    static String machineName(Identity machine) {
        return new lib.harness.Machine(machine.cpuModel(), null, null, machine.logicalCores(), 0L, null, null,
                machine.vectorBits(), machine.vectorBits() >= 256, machine.vectorBits() >= 512).name();
    }

    // ---------------------------------------------------------------------------------------------
    // Text from a results folder on its way into a page

    /** Text as HTML: the one way any value from a CSV or machine.json reaches a page. */
    static String html(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;").replace("'", "&#39;");
    }

    /**
     * Script text that cannot end its {@code <script>} element early: {@code <}, {@code >},
     * {@code &}, U+2028 and U+2029 become Unicode escapes. Only for script whose strings hold these
     * characters (JSON, or code made of data): inside a string literal an escape is the same character.
     */
    static String insideScript(String script) {
        return script.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
                .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029");
    }

    private static String quoted(String value) {
        return "\"" + (value.length() > 40 ? value.substring(0, 40) + "…" : value) + "\"";
    }

    static String firstLine(String message) {
        return message == null ? "" : message.lines().findFirst().orElse("");
    }
}
