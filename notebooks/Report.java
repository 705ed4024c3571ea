// The code the notebooks share: finding one machine's results, reading its CSVs strictly, choosing
// the rows that may be drawn together, and writing charts that work offline.
//
// JBang hands a notebook's //SOURCES to JShell as snippets run before the notebook itself, so this
// file has no package line (JShell cannot take one) and its class is simply there, as `Report`.

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import tech.tablesaw.columns.Column;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.LongColumn;
import tech.tablesaw.api.Row;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;
import tech.tablesaw.io.csv.CsvReadOptions;
import tech.tablesaw.plotly.components.Figure;

/**
 * Loads one machine's results ({@code results/<machine>/*.csv}) as Tablesaw tables and writes each
 * chart twice: an HTML page with plotly.js inlined (it opens without a network), and a PNG drawn
 * from that page by headless Chromium, both into that machine's {@code charts/}.
 *
 * <p>A chart draws one machine, one file size and one cache state per series: rows of another
 * machine, file size or cache are left out with a line saying so, and so is a row that does not
 * read as a results row (a short row, a word where a number belongs), named by file and line.
 */
final class Report {

    /** The results root: one folder per machine. {@code -Dresults=DIR} points the notebooks elsewhere. */
    static final Path ROOT = Path.of(System.getProperty("results", "results"));
    /** The Go article's published figures, kept in the project whichever results are shown. */
    static final Path REFERENCE = Path.of("results", "reference", "go-blog-figures.csv");
    /** The results files a machine's folder may hold, without ".csv"; any of them may be missing. */
    static final List<String> TABLES = List.of("scoreboard", "pagecache", "scaling", "cold", "wall", "chunks", "versus-go");

    /** The study's haystack: when a folder holds rows of several sizes, these are the ones drawn. */
    static final long MAIN_FILE_BYTES = 4L << 30;
    /** Below these a study is a trial, and its charts say so. */
    static final long FULL_FILE_BYTES = 1L << 30;
    static final int FULL_RUNS = 5;

    /** plotly.js comes from this WebJar (declared with //DEPS in every notebook), never from a CDN. */
    static final String PLOTLY_RESOURCE = "/META-INF/resources/webjars/plotly.js-dist/3.0.1/plotly.js";

    static final int CHART_WIDTH_PX = 1000, CHART_HEIGHT_PX = 600;
    static final int CHROMIUM_SECONDS = 120;

    private static String plotlyScript;
    private static MachineResults chosen;

    private Report() {}

    // ---------------------------------------------------------------------------------------------
    // Machines

    /**
     * One machine's folder of results: its name (the folder's, or the description's), its
     * description ({@code machine.json}, empty when there is none) and its CSVs, each read once.
     */
    static final class MachineResults {
        final String name;
        final Path dir;
        final JsonNode description;
        private final Map<String, Parsed> parsed = new HashMap<>();
        private final Set<String> reported = new LinkedHashSet<>();
        private Identity identity;
        private Long mainFileBytes;

        MachineResults(String name, Path dir, JsonNode description) {
            this.name = name;
            this.dir = dir;
            this.description = description;
        }

        Path csv(String table) {
            return dir.resolve(table + ".csv");
        }

        boolean has(String table) {
            return Files.isRegularFile(csv(table));
        }

        Path charts() {
            return dir.resolve("charts");
        }

        /** The table's rows that read as results rows; the others are reported once, by file and line. */
        Parsed parsed(String table) {
            return parsed.computeIfAbsent(table, t -> has(t) ? parse(csv(t), t) : Parsed.none(t));
        }

        /** Every row of every table here, checked. */
        List<Table> allRows() {
            List<Table> all = new ArrayList<>();
            for (String table : TABLES) {
                if (has(table)) {
                    all.add(parsed(table).rows());
                }
            }
            return all;
        }

        /**
         * The machine the folder's figures were measured on: the description's CPU model, cores and
         * vector width, or, without a description, the most common of them among the rows.
         */
        Identity identity() {
            if (identity == null) {
                if (description.hasNonNull("cpu_model") && description.hasNonNull("logical_cores")
                        && description.hasNonNull("vector_bits")) {
                    identity = new Identity(description.get("cpu_model").asText(),
                            description.get("logical_cores").asInt(), description.get("vector_bits").asInt());
                } else {
                    Map<Identity, Integer> counts = new HashMap<>();
                    for (Table rows : allRows()) {
                        for (Row row : rows) {
                            counts.merge(Identity.of(row), 1, Integer::sum);
                        }
                    }
                    identity = counts.entrySet().stream().max(Map.Entry.comparingByValue())
                            .map(Map.Entry::getKey).orElse(new Identity("", 0, 0));
                }
            }
            return identity;
        }

        /** The file size drawn: 4 GiB when the folder has rows of it, else the size most rows have. */
        long mainFileBytes() {
            if (mainFileBytes == null) {
                Map<Long, Integer> counts = new HashMap<>();
                for (Table rows : allRows()) {
                    for (Row row : rows) {
                        if (Identity.of(row).equals(identity())) {
                            counts.merge(row.getLong("file_bytes"), 1, Integer::sum);
                        }
                    }
                }
                mainFileBytes = counts.containsKey(MAIN_FILE_BYTES) ? MAIN_FILE_BYTES
                        : counts.entrySet().stream().max(Map.Entry.<Long, Integer>comparingByValue()
                                        .thenComparing(Map.Entry.comparingByKey()))
                                .map(Map.Entry::getKey).orElse(MAIN_FILE_BYTES);
            }
            return mainFileBytes;
        }

        /** The description's date, else the newest row's: which study is the most recent. */
        String date() {
            if (description.hasNonNull("date")) {
                return description.get("date").asText();
            }
            String newest = "";
            for (Table rows : allRows()) {
                for (String date : rows.stringColumn("date")) {
                    newest = date.compareTo(newest) > 0 ? date : newest;
                }
            }
            return newest;
        }

        /** True when the description marks the study as a trial. */
        boolean describedAsTrial() {
            return description.path("trial").asBoolean(false);
        }

        /** Prints each problem once per notebook run, however many charts read the same table. */
        void report(List<String> lines) {
            for (String line : lines) {
                if (reported.add(line)) {
                    System.out.println(line);
                }
            }
        }
    }

    /** What tells two machines apart in a results row. */
    record Identity(String cpuModel, int logicalCores, int vectorBits) {
        static Identity of(Row row) {
            return new Identity(row.getString("cpu_model"), row.getInt("logical_cores"), row.getInt("vector_bits"));
        }

        @Override
        public String toString() {
            return cpuModel + ", " + logicalCores + " cores, " + vectorBits + "-bit vectors";
        }
    }

    /**
     * The machine folders under {@code root}: every folder holding a description or a results CSV
     * ({@code reference/}, the article's figures, is not a machine). A root that holds results CSVs
     * itself (a study written straight into {@code --results DIR}) is one machine.
     */
    static List<MachineResults> machines(Path root) {
        if (TABLES.stream().anyMatch(table -> Files.isRegularFile(root.resolve(table + ".csv")))) {
            return List.of(machineAt(root, null));
        }
        List<MachineResults> found = new ArrayList<>();
        if (Files.isDirectory(root)) {
            try (var entries = Files.list(root)) {
                for (Path dir : entries.sorted().toList()) {
                    boolean holdsResults = Files.isRegularFile(dir.resolve("machine.json"))
                            || TABLES.stream().anyMatch(table -> Files.isRegularFile(dir.resolve(table + ".csv")));
                    if (Files.isDirectory(dir) && !dir.getFileName().toString().equals("reference") && holdsResults) {
                        found.add(machineAt(dir, dir.getFileName().toString()));
                    }
                }
            } catch (IOException e) {
                quit("cannot list " + root + ": " + e.getMessage());
            }
        }
        return found;
    }

    private static MachineResults machineAt(Path dir, String folderName) {
        JsonNode description = new ObjectMapper().createObjectNode();
        Path json = dir.resolve("machine.json");
        if (Files.isRegularFile(json)) {
            try {
                description = new ObjectMapper().readTree(json.toFile());
            } catch (IOException e) {
                System.out.println(json + " is not JSON (" + firstLineOf(e.getMessage()) + "); the machine is described by its rows");
            }
        }
        String name = folderName;
        if (name == null) {
            // results written straight into a folder: name the machine as its folder would be named
            name = description.hasNonNull("name") ? description.get("name").asText() : null;
            MachineResults unnamed = new MachineResults("", dir, description);
            if (name == null) {
                name = folderName(unnamed.identity());
            }
        }
        return new MachineResults(name, dir, description);
    }

    /**
     * The machine the notebooks draw: {@code -Dmachine=NAME}; else the one this runs on, when it
     * has results; else the most recently dated study. Said on stdout, with the others there are.
     */
    static MachineResults machine() {
        if (chosen == null) {
            chosen = choose(ROOT, System.getProperty("machine"));
        }
        return chosen;
    }

    static MachineResults choose(Path root, String requested) {
        List<MachineResults> all = machines(root);
        if (all.isEmpty()) {
            quit("no results in " + root + ": run the study first (./jbang tools/Study.java), from the project's root directory");
        }
        String names = all.stream().map(m -> m.name).collect(Collectors.joining(", "));
        if (requested != null && !requested.isBlank()) {
            return all.stream().filter(m -> m.name.equals(requested)).findFirst().orElseGet(() -> {
                quit("no results for machine " + requested + " in " + root + " (there are: " + names + ")");
                return null;
            });
        }
        if (all.size() == 1) {
            return all.getFirst();
        }
        String here = currentMachineName();
        Optional<MachineResults> local = all.stream().filter(m -> m.name.equals(here)).findFirst();
        MachineResults pick = local.orElseGet(() -> all.stream().max(Comparator.comparing(MachineResults::date)).orElseThrow());
        System.out.println("machine: " + pick.name + (local.isPresent() ? " (this one)" : " (the most recent study; this machine, "
                + here + ", has none)") + "; -Dmachine=NAME draws another of: " + names);
        return pick;
    }

    /**
     * This machine's folder name, as the study names it: {@code lib/Machine.java} prints it. Where
     * it cannot be asked (no JDK source launcher, no such file), a name made the same way from
     * /proc/cpuinfo; it only decides which folder is drawn by default.
     */
    static String currentMachineName() {
        Path source = Path.of("lib", "Machine.java");
        try {
            if (Files.isRegularFile(source) && Files.readString(source).contains("void main(")) {
                Path java = Path.of(System.getProperty("java.home"), "bin", "java");
                Process process = new ProcessBuilder(java.toString(), "--add-modules", "jdk.incubator.vector",
                        "--enable-native-access=ALL-UNNAMED", source.toString())
                        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
                String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
                if (process.waitFor(60, TimeUnit.SECONDS) && process.exitValue() == 0 && !out.isEmpty()) {
                    return out.lines().reduce((first, last) -> last).orElseThrow().strip();
                }
            }
        } catch (IOException | InterruptedException e) {
            // fall through to the name made from /proc/cpuinfo
        }
        String model = "", flags = "";
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (model.isEmpty() && line.startsWith("model name")) {
                    model = line.substring(line.indexOf(':') + 1).strip();
                } else if (flags.isEmpty() && line.startsWith("flags")) {
                    flags = " " + line.substring(line.indexOf(':') + 1).strip() + " ";
                }
            }
        } catch (IOException | RuntimeException e) {
            model = System.getProperty("os.arch");
        }
        int bits = flags.contains(" avx512f ") ? 512 : flags.contains(" avx2 ") ? 256 : 128;
        return folderName(new Identity(model, Runtime.getRuntime().availableProcessors(), bits));
    }

    /** "AMD EPYC", 2 cores, 512 bits: {@code amd-epyc-2c-avx512}. */
    static String folderName(Identity machine) {
        String model = machine.cpuModel().toLowerCase(Locale.ROOT)
                .replaceAll("\\((r|tm)\\)|\\bcpu\\b|\\bprocessor\\b|@.*$", " ")
                .replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");
        String vectors = switch (machine.vectorBits()) {
            case 512 -> "avx512";
            case 256 -> "avx2";
            default -> machine.vectorBits() + "bit";
        };
        return (model.isEmpty() ? "unknown" : model) + "-" + machine.logicalCores() + "c-" + vectors;
    }

    // ---------------------------------------------------------------------------------------------
    // Reading a results CSV, strictly

    /** The columns every results CSV has; a file without one of them is not a results CSV. */
    static final List<String> REQUIRED = List.of("date", "chapter", "workers", "cache", "file_bytes",
            "warmup_runs", "runs", "mean_s", "mbps", "run_s", "warmup_s", "cpu_model", "logical_cores", "vector_bits");
    private static final Set<String> INTS = Set.of("workers", "warmup_runs", "runs", "logical_cores", "vector_bits");
    private static final Set<String> LONGS = Set.of("file_bytes", "chunk_bytes", "offset", "memory_bytes");
    private static final Set<String> DOUBLES = Set.of("mean_s", "median_s", "min_s", "max_s", "mbps", "pmd_mapped_pct");
    /** Columns that may be empty: chapters that do not read in chunks, and the columns newer studies add. */
    private static final Set<String> MAY_BE_EMPTY = Set.of("chunk_bytes", "pmd_mapped_pct", "machine", "page_cache",
            "warmup_s", "median_s", "min_s", "max_s", "offset", "memory_bytes", "kernel", "jdk");
    /** What an empty {@code page_cache} means: rows from before the option existed ran with the system's setting. */
    static final String PAGE_CACHE_AS_IS = "as-is";

    /** One CSV's rows that read as results rows, and one line for each that did not. */
    record Parsed(Table rows, List<String> problems) {
        static Parsed none(String table) {
            return new Parsed(emptyTable(table, REQUIRED), List.of());
        }
    }

    /**
     * Reads {@code file} into a table whose columns have the types a reader would guess (MB/s and
     * seconds as doubles, counts as ints, bytes as longs; the lists of seconds as text). A row that
     * has the wrong number of fields, a word where a number belongs, or seconds that do not match
     * its count of runs is left out, with a line naming the file and line. A file that is not a
     * results CSV at all stops the notebook.
     */
    static Parsed parse(Path file, String tableName) {
        List<String> problems = new ArrayList<>();
        Table table = null;
        List<String> header = null;
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8);
             CSVParser parser = CSVFormat.DEFAULT.parse(reader)) {
            for (CSVRecord record : parser) {
                if (header == null) {
                    header = record.toList().stream().map(String::strip).toList();
                    for (String column : REQUIRED) {
                        if (!header.contains(column)) {
                            quit(file + " has no column " + column + ": not a results CSV of this project");
                        }
                    }
                    table = emptyTable(tableName, header);
                    continue;
                }
                long line = parser.getCurrentLineNumber();
                String problem = problemWith(record, header);
                if (problem != null) {
                    problems.add(file + " line " + line + ": left out, " + problem);
                    continue;
                }
                for (int i = 0; i < header.size(); i++) {
                    append(table.column(i), record.get(i).strip());
                }
            }
        } catch (IOException | UncheckedIOException | IllegalStateException e) {
            quit(file + " cannot be read as CSV: " + firstLineOf(e.getMessage()));
        }
        if (table == null) {
            quit(file + " is empty: not a results CSV of this project");
        }
        if (!table.columnNames().contains("page_cache")) {
            table.addColumns(StringColumn.create("page_cache", table.rowCount()));
        }
        StringColumn pageCache = table.stringColumn("page_cache");
        for (int i = 0; i < pageCache.size(); i++) {
            if (pageCache.isMissing(i) || pageCache.get(i).isEmpty()) {
                pageCache.set(i, PAGE_CACHE_AS_IS);
            }
        }
        return new Parsed(table, problems);
    }

    /** Why this row cannot be drawn, or null when it can. */
    private static String problemWith(CSVRecord record, List<String> header) {
        if (record.size() != header.size()) {
            return record.size() + " fields where the header has " + header.size();
        }
        for (int i = 0; i < header.size(); i++) {
            String column = header.get(i), value = record.get(i).strip();
            if (value.isEmpty()) {
                if (!MAY_BE_EMPTY.contains(column) && !isTextColumn(column)) {
                    return column + " is empty";
                }
                if (column.equals("chapter") || column.equals("cache")) {
                    return column + " is empty";
                }
                continue;
            }
            try {
                if (INTS.contains(column)) {
                    Integer.parseInt(value);
                } else if (LONGS.contains(column)) {
                    Long.parseLong(value);
                } else if (DOUBLES.contains(column)) {
                    double number = Double.parseDouble(value);
                    if (!Double.isFinite(number) || number < 0) {
                        return column + " is " + quoted(value) + ", not a figure";
                    }
                }
            } catch (NumberFormatException e) {
                return column + " is " + quoted(value) + ", not a number";
            }
        }
        if (Double.parseDouble(record.get(header.indexOf("mean_s"))) <= 0) {
            return "mean_s is " + record.get(header.indexOf("mean_s")).strip() + ", not a time";
        }
        for (String[] list : new String[][] {{"run_s", "runs"}, {"warmup_s", "warmup_runs"}}) {
            String joined = record.get(header.indexOf(list[0])).strip();
            int expected = Integer.parseInt(record.get(header.indexOf(list[1])).strip());
            double[] seconds;
            try {
                seconds = seconds(joined);
            } catch (NumberFormatException e) {
                return list[0] + " is " + quoted(joined) + ", not a list of seconds";
            }
            if (seconds.length != expected) {
                return list[0] + " holds " + seconds.length + " times where " + list[1] + " says " + expected;
            }
        }
        return null;
    }

    /** Each run's seconds, from the space-separated list a results row keeps them in. */
    static double[] seconds(String joined) {
        if (joined == null || joined.isBlank()) {
            return new double[0];
        }
        double[] seconds = java.util.Arrays.stream(joined.strip().split("\\s+")).mapToDouble(Double::parseDouble).toArray();
        for (double s : seconds) {
            if (!Double.isFinite(s) || s < 0) {
                throw new NumberFormatException(s + " is not a time");
            }
        }
        return seconds;
    }

    private static boolean isTextColumn(String column) {
        return !INTS.contains(column) && !LONGS.contains(column) && !DOUBLES.contains(column);
    }

    private static Table emptyTable(String name, List<String> columns) {
        Table table = Table.create(name);
        for (String column : columns) {
            table.addColumns(INTS.contains(column) ? IntColumn.create(column)
                    : LONGS.contains(column) ? LongColumn.create(column)
                    : DOUBLES.contains(column) ? DoubleColumn.create(column)
                    : StringColumn.create(column));
        }
        return table;
    }

    private static void append(Column<?> column, String value) {
        if (value.isEmpty()) {
            column.appendMissing();
        } else if (column instanceof IntColumn ints) {
            ints.append(Integer.parseInt(value));
        } else if (column instanceof LongColumn longs) {
            longs.append(Long.parseLong(value));
        } else if (column instanceof DoubleColumn doubles) {
            doubles.append(Double.parseDouble(value));
        } else {
            ((StringColumn) column).append(value);
        }
    }

    private static String quoted(String value) {
        return "\"" + (value.length() > 40 ? value.substring(0, 40) + "…" : value) + "\"";
    }

    private static String firstLineOf(String message) {
        return message == null ? "" : message.lines().findFirst().orElse("");
    }

    // ---------------------------------------------------------------------------------------------
    // Choosing the rows that are drawn together

    /** The rows a chart may draw, and a line for each kind of row left out. */
    record Selected(Table rows, List<String> notes) {}

    /**
     * The rows of {@code table} for {@code machine}, measured on it (CPU, cores, vector width and
     * the {@code machine} column agree with the folder's), on its main file size and with
     * {@code cache} ("warm" or "cold"; null keeps both), keeping the newest row of each chapter,
     * worker count, cache and page-cache setting (and read size, for {@code chunks}): a rerun
     * appends rows rather than replacing them. Every row left out for another reason is counted in
     * one line per reason.
     */
    static Selected select(MachineResults machine, String table, String cache) {
        Parsed parsed = machine.parsed(table);
        List<String> notes = new ArrayList<>(parsed.problems());
        Table rows = parsed.rows();
        Map<String, List<String>> leftOut = new LinkedHashMap<>();
        List<Integer> kept = new ArrayList<>();
        Identity identity = machine.identity();
        long mainBytes = machine.mainFileBytes();
        boolean hasMachineColumn = rows.columnNames().contains("machine");
        for (Row row : rows) {
            String recordedFor = hasMachineColumn ? row.getString("machine") : "";
            String reason = null;
            if (!recordedFor.isEmpty() && !recordedFor.equals(machine.name)) {
                reason = "measured on another machine (" + recordedFor + "), not " + machine.name;
            } else if (!Identity.of(row).equals(identity)) {
                reason = "measured on another machine (" + Identity.of(row) + "), not " + machine.name + "'s " + identity;
            } else if (row.getLong("file_bytes") != mainBytes) {
                reason = "a " + binarySize(row.getLong("file_bytes")) + " file, where " + machine.name
                        + "'s charts draw the " + binarySize(mainBytes) + " one";
            } else if (cache != null && !cache.equals(row.getString("cache"))) {
                reason = "with a " + row.getString("cache") + " page cache, where this chart draws " + cache;
            }
            if (reason == null) {
                kept.add(row.getRowNumber());
            } else {
                leftOut.computeIfAbsent(reason, r -> new ArrayList<>()).add(row.getString("chapter"));
            }
        }
        leftOut.forEach((reason, chapters) -> notes.add("left out " + chapters.size() + " row" + (chapters.size() == 1 ? "" : "s")
                + " of " + machine.csv(table) + ": " + reason + " (" + String.join(", ", new LinkedHashSet<>(chapters)) + ")"));
        Table same = rows.rows(kept.stream().mapToInt(Integer::intValue).toArray());
        List<String> key = new ArrayList<>(List.of("chapter", "workers", "cache", "page_cache"));
        if (table.equals("chunks")) {
            key.add("chunk_bytes");
        }
        Table newest = newestOfEach(same, key.toArray(new String[0]));
        newest.setName(table);
        return new Selected(newest, notes);
    }

    /**
     * The chosen machine's rows of {@code table} with a {@code cache} page cache, ready to draw
     * (see {@link #select}); what was left out is said on stdout. Stops the notebook when the
     * machine has no such CSV, or nothing is left to draw.
     */
    static Table results(String table, String cache) {
        MachineResults machine = machine();
        if (!machine.has(table)) {
            quit("no " + machine.csv(table) + " here: run the study first (./jbang tools/Study.java), from the project's root directory");
        }
        Selected selected = select(machine, table, cache);
        machine.report(selected.notes());
        if (selected.rows().isEmpty()) {
            quit(machine.csv(table) + " has no " + (cache == null ? "" : cache + " ") + "row to draw for " + machine.name);
        }
        return selected.rows();
    }

    /** The warm rows of {@code table}: the scoreboard, the worker sweep, the chunk sweep. */
    static Table results(String table) {
        return results(table, "warm");
    }

    /** The rows of {@code table}, keeping for each key only the one that comes last in the file. */
    static Table newestOfEach(Table table, String... keyColumns) {
        Map<List<String>, Integer> newest = new LinkedHashMap<>();
        for (Row row : table) {
            List<String> key = new ArrayList<>();
            for (String column : keyColumns) {
                key.add(String.valueOf(row.getObject(column))); // a missing value is a key of its own
            }
            newest.remove(key); // re-inserted below, so the map keeps the order of the newest rows
            newest.put(key, row.getRowNumber());
        }
        return table.rows(newest.values().stream().mapToInt(Integer::intValue).sorted().toArray());
    }

    /** The page-cache settings among {@code rows}, in a stable order: the system's own first. */
    static List<String> pageCaches(Table rows) {
        return rows.stringColumn("page_cache").unique().asList().stream()
                .sorted(Comparator.comparing((String s) -> !s.equals(PAGE_CACHE_AS_IS)).thenComparing(Function.identity()))
                .toList();
    }

    // ---------------------------------------------------------------------------------------------
    // What every chart says about itself

    /**
     * The chart's title with a second line naming what it shows: the machine, the file size and
     * the runs behind each figure, and "trial" when the study was one (described so, fewer than
     * {@value #FULL_RUNS} runs, no warm-up, or a file under 1 GiB).
     */
    static String title(String what, Table rows) {
        return what + "<br><sup>" + caption(machine(), rows) + "</sup>";
    }

    static String caption(MachineResults machine, Table rows) {
        List<String> parts = new ArrayList<>();
        parts.add(machine.name);
        parts.add(binarySize(machine.mainFileBytes()) + " file");
        if (!rows.isEmpty()) {
            parts.add(range(rows.intColumn("runs")) + " runs, " + range(rows.intColumn("warmup_runs")) + " warm-up");
        }
        List<String> trial = trialReasons(machine, rows);
        if (!trial.isEmpty()) {
            parts.add("TRIAL (" + String.join(", ", trial) + ")");
        }
        return String.join(" · ", parts);
    }

    /** Why these figures are a trial's; empty when they are a full study's. */
    static List<String> trialReasons(MachineResults machine, Table rows) {
        List<String> reasons = new ArrayList<>();
        if (machine.describedAsTrial()) {
            reasons.add("a trial study");
        }
        if (!rows.isEmpty() && rows.intColumn("runs").min() < FULL_RUNS) {
            reasons.add("fewer than " + FULL_RUNS + " runs");
        }
        if (!rows.isEmpty() && rows.intColumn("warmup_runs").min() == 0) {
            reasons.add("no warm-up");
        }
        if (machine.mainFileBytes() < FULL_FILE_BYTES) {
            reasons.add("a file under " + binarySize(FULL_FILE_BYTES));
        }
        return reasons;
    }

    private static String range(IntColumn counts) {
        int low = (int) counts.min(), high = (int) counts.max();
        return low == high ? Integer.toString(low) : low + "–" + high;
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

    /**
     * A chapter's short name for an axis: its number and what it does, e.g. "V09 mmap ∥ SIMD"
     * (∥: in parallel). A chapter not listed here (a newer one) is named from its class name.
     */
    static String shortName(String chapter) {
        String known = SHORT_NAMES.get(chapter);
        if (known != null) {
            return known;
        }
        if (chapter.matches("V\\d\\d[A-Z].*")) {
            return chapter.substring(0, 3) + " " + chapter.substring(3).replaceAll("([a-z0-9])([A-Z])", "$1 $2").toLowerCase(Locale.ROOT);
        }
        return chapter;
    }

    private static final Map<String, String> SHORT_NAMES = Map.ofEntries(
            Map.entry("V00Cmp", "V00 cmp"),
            Map.entry("V01ReadAll", "V01 read all, bytes"),
            Map.entry("V02BufferedByte", "V02 buffered bytes"),
            Map.entry("V03ChunkedLong", "V03 chunks, longs"),
            Map.entry("V04Mmap", "V04 mmap"),
            Map.entry("V05MmapMadvise", "V05 mmap + madvise"),
            Map.entry("V06MmapParallel", "V06 mmap ∥"),
            Map.entry("V07PreadParallel", "V07 pread ∥"),
            Map.entry("V08Vector256", "V08 mmap SIMD-256"),
            Map.entry("V09MmapParallelVector", "V09 mmap ∥ SIMD"),
            Map.entry("V10MmapPopulate", "V10 mmap populate ∥ SIMD"),
            Map.entry("V11PreadParallelVector256", "V11 pread ∥ SIMD-256"),
            Map.entry("V12Vector512", "V12 mmap SIMD-512"),
            Map.entry("V13PreadVector", "V13 pread ∥ widest SIMD"),
            Map.entry("V14DirectIo", "V14 O_DIRECT"),
            Map.entry("V15IoUring", "V15 io_uring"),
            Map.entry("V16MmapHugePages", "V16 mmap huge pages ∥ SIMD"));

    /** The short names of a table's chapter column, as a column of its own. */
    static StringColumn shortNames(Table rows) {
        return rows.stringColumn("chapter").map(Report::shortName).setName("name");
    }

    /** Twenty colours that tell each other apart, so that every chapter can keep its own. */
    static final List<String> COLOURS = List.of(
            "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
            "#bcbd22", "#17becf", "#000000", "#f032e6", "#808000", "#469990", "#000075", "#800000",
            "#ffd700", "#00ff7f", "#ff6347", "#4169e1");

    static String colour(int index) {
        return COLOURS.get(Math.floorMod(index, COLOURS.size()));
    }

    /** A printed reminder of what the notebook left loaded, for {@code ./jbang --interactive}. */
    static void loaded(Object... namesAndTables) {
        List<String> parts = new ArrayList<>();
        for (int i = 0; i + 1 < namesAndTables.length; i += 2) {
            Table table = (Table) namesAndTables[i + 1];
            parts.add(namesAndTables[i] + " (" + table.rowCount() + "×" + table.columnCount() + ")");
        }
        System.out.println("tables: " + String.join(", ", parts) + " of " + machine().name
                + "; e.g. " + namesAndTables[0] + ".structure(), " + namesAndTables[0] + ".print()");
    }

    // ---------------------------------------------------------------------------------------------
    // Walls

    /** A line across an MB/s chart, labelled: a ceiling the chapters are measured against. */
    record Wall(String label, double mbps) {}

    /** The probes behind the memory-read walls, as tools/WallProbe.java names them in the chapter column. */
    static final String MEMORY_WALL_PROBE = "WallMemoryRead";
    static final List<Map.Entry<String, String>> WALL_PROBES = List.of(
            Map.entry(MEMORY_WALL_PROBE, "memory-read wall"),
            Map.entry("WallMemoryReadHuge", "memory-read wall, huge pages"));

    /**
     * The chosen machine's memory-read walls: for each probe in wall.csv ({@code WallMemoryRead},
     * and {@code WallMemoryReadHuge} where it was measured), the best warm MB/s over the worker
     * counts measured. No chapter reads the file faster than the CPU reads memory, so the MB/s
     * charts draw them. Empty, and said on stdout, when none has been measured.
     */
    static List<Wall> walls() {
        return walls(machine(), true);
    }

    static List<Wall> walls(MachineResults machine, boolean say) {
        if (!machine.has("wall")) {
            if (say) {
                System.out.println("(no " + machine.csv("wall") + ", so no memory-read wall on the charts; "
                        + "./jbang tools/WallProbe.java haystack.bin --workers 1,2 --csv " + machine.csv("wall") + " measures it)");
            }
            return List.of();
        }
        Selected selected = select(machine, "wall", "warm");
        if (say) {
            machine.report(selected.notes());
        }
        Table probes = selected.rows();
        List<Wall> walls = new ArrayList<>();
        WALL_PROBES.forEach(entry -> {
            String probe = entry.getKey(), label = entry.getValue();
            Table rows = probes.where(probes.stringColumn("chapter").isEqualTo(probe));
            if (!rows.isEmpty()) {
                Table fastestFirst = rows.sortDescendingOn("mbps");
                double mbps = fastestFirst.doubleColumn("mbps").getDouble(0);
                if (say) {
                    System.out.printf(Locale.ROOT, "%s: %,.0f MB/s (%s with %d workers, the best of %d worker counts in %s)%n",
                            label, mbps, probe, fastestFirst.intColumn("workers").get(0), rows.rowCount(), machine.csv("wall"));
                }
                walls.add(new Wall(String.format(Locale.ROOT, "%s: %,.0f MB/s", label, mbps), mbps));
            }
        });
        if (walls.isEmpty() && say) {
            System.out.println("(" + machine.csv("wall") + " has no warm " + MEMORY_WALL_PROBE + " row, so no memory-read wall on the charts)");
        }
        return walls;
    }

    /** The memory-read wall (plain pages) alone: what the chapters' shares are taken of. */
    static Optional<Wall> memoryWall() {
        return walls().stream().findFirst();
    }

    /** Each row's MB/s as a percentage of {@code wall}, to one decimal. */
    static DoubleColumn percentOf(Wall wall, Table rows) {
        return DoubleColumn.create("pct_of_memory_wall", rows.numberColumn("mbps").asDoubleColumn()
                .map(mbps -> Math.round(mbps / wall.mbps() * 1000) / 10.0).asDoubleArray());
    }

    // ---------------------------------------------------------------------------------------------
    // The article, and speedups

    /** The Go article's published figures, one table of them ({@code scoreboard}, {@code scaling} or {@code cold}). */
    static Table article(String table) {
        if (!Files.isRegularFile(REFERENCE)) {
            quit("no " + REFERENCE + " here: run the notebooks from the project's root directory");
        }
        Table all = Table.read().csv(CsvReadOptions.builder(REFERENCE.toFile()).commentPrefix('#').tableName("article").build());
        Table rows = all.where(all.stringColumn("table").isEqualTo(table));
        // The article names its chapters v1 … v13; this project V01 … V13.
        rows.addColumns(rows.stringColumn("variant").map(Report::chapterNumber).setName("number"));
        return rows;
    }

    /** "V06MmapParallel", "v6" and "Go v6" all become "V06", the key the sides are joined on. */
    static String chapterNumber(String chapter) {
        String digits = chapter.replaceAll("^(?:Go )?[vV](\\d+).*$", "$1");
        return digits.equals(chapter) ? chapter : String.format("V%02d", Integer.parseInt(digits));
    }

    /**
     * Each row's speedup over {@code baseline} (a chapter number such as "V01"): the baseline's mean
     * seconds divided by the row's, to one decimal, within the same page-cache setting. Missing
     * when the baseline was not measured.
     */
    static DoubleColumn speedup(Table rows, String baseline) {
        boolean byPageCache = rows.columnNames().contains("page_cache");
        Map<String, Double> baselineSeconds = new HashMap<>();
        for (Row row : rows) {
            if (chapterNumber(row.getString("chapter")).equals(baseline)) {
                baselineSeconds.putIfAbsent(byPageCache ? row.getString("page_cache") : "", row.getNumber("mean_s"));
            }
        }
        if (baselineSeconds.isEmpty()) {
            System.out.println("(no " + baseline + " row, so no speedup over it)");
        }
        DoubleColumn speedup = DoubleColumn.create("speedup");
        for (Row row : rows) {
            Double base = baselineSeconds.get(byPageCache ? row.getString("page_cache") : "");
            speedup.append(base == null ? Double.NaN : Math.round(base / row.getNumber("mean_s") * 10) / 10.0);
        }
        return speedup;
    }

    // ---------------------------------------------------------------------------------------------
    // Charts

    /** Writes CHARTS/NAME.html and NAME.png into the chosen machine's charts folder; returns the page. */
    static Path chart(String name, Figure figure) {
        return chart(name, figure, List.of());
    }

    /** The same, with each of {@code walls} drawn across the chart as a labelled line. */
    static Path chart(String name, Figure figure, List<Wall> walls) {
        return chart(machine().charts(), name, figure, walls);
    }

    static Path chart(Path charts, String name, Figure figure, List<Wall> walls) {
        try {
            Files.createDirectories(charts);
            Path page = charts.resolve(name + ".html");
            Path png = charts.resolve(name + ".png");
            refuseForeign(page, png);
            Files.writeString(page, page(name, figure, walls));
            String chromium = chromium();
            if (chromium == null) {
                System.out.println("chart: " + page + " (PNG skipped: no Chromium here; tools/setup-chromium installs it)");
            } else if (screenshot(chromium, page, png)) {
                System.out.println("chart: " + page + " and " + png);
            } else {
                System.out.println("chart: " + page + " (PNG skipped: Chromium failed to draw it)");
            }
            return page;
        } catch (IOException e) {
            quit("cannot write the chart " + name + " into " + charts + ": " + e.getMessage());
            return null;
        }
    }

    /** The first line of every page written here: what marks a file as one this class may replace. */
    static final String PAGE_MARK = "<!DOCTYPE html><!-- a chart written by notebooks/Report.java -->";

    /**
     * A file is only ever replaced by a chart when this class (or its earlier self) made it. For the
     * page that is its first line. For the PNG it is one of: its page is ours (they are drawn
     * together); it carries the mark this class writes into every PNG ({@link ChartImage#MARK});
     * or it is a PNG that git tracks unchanged (a committed chart: git holds exactly those bytes, so
     * redrawing loses nothing, and a fresh clone has the PNGs without their ignored pages).
     * Anything else of the same name stops the notebook.
     */
    private static void refuseForeign(Path page, Path png) throws IOException {
        String problem = whyNotReplace(page, png);
        if (problem != null) {
            quit(problem);
        }
    }

    /** Why the chart's page or PNG may not be replaced, or null when both may. */
    static String whyNotReplace(Path page, Path png) throws IOException {
        boolean pageIsOurs = Files.isRegularFile(page) && firstLine(page).equals(PAGE_MARK);
        if (Files.exists(page) && !pageIsOurs) {
            return page + " exists and was not written by a notebook; left it alone (move it away to draw this chart)";
        }
        if (Files.exists(png) && !pageIsOurs && !ChartImage.isMarked(png) && !committedUnchanged(png)) {
            return png + " exists and was not drawn by a notebook; left it alone (move it away to draw this chart)";
        }
        return null;
    }

    /** True when {@code file} is a PNG tracked by git with no change since the last commit. */
    static boolean committedUnchanged(Path file) {
        if (!ChartImage.isPng(file)) {
            return false;
        }
        try {
            Path dir = file.toAbsolutePath().getParent();
            String name = file.getFileName().toString();
            return git(dir, "ls-files", "--error-unmatch", "--", name) && git(dir, "diff", "--quiet", "HEAD", "--", name);
        } catch (IOException e) {
            return false; // no git: only marked PNGs and pages are known to be ours
        }
    }

    private static boolean git(Path dir, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of("git", "-C", dir.toString()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            return process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0;
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static String firstLine(Path file) throws IOException {
        try (var lines = Files.lines(file, StandardCharsets.UTF_8)) {
            return lines.findFirst().orElse("");
        } catch (UncheckedIOException notText) {
            return "";
        }
    }

    /**
     * A page that needs nothing from the network: plotly.js inlined, then the figure. A script
     * error is written onto the page's root element, where tools/check-charts looks for it.
     */
    static String page(String title, Figure figure, List<Wall> walls) {
        return PAGE_MARK + """

                <html>
                <head>
                <meta charset="utf-8">
                <title>%s</title>
                <script>
                window.addEventListener('error', function (event) {
                  document.documentElement.setAttribute('data-script-error', String(event.message));
                });
                </script>
                <script>%s</script>
                <script>%s</script>
                <script>var chartWalls = %s;
                %s</script>
                </head>
                <body>
                %s
                %s
                </body>
                </html>
                """.formatted(title, plotly(), TITLES_AND_TOOLBAR, wallsAsJavascript(walls), WALL_LINES,
                        figure.divString("chart"), figure.asJavascript("chart"));
    }

    /** The walls as the page's script reads them: {@code [{mbps: 12345.0, label: "…"}]}. */
    private static String wallsAsJavascript(List<Wall> walls) {
        List<String> objects = new ArrayList<>();
        for (Wall wall : walls) {
            // The label is this class's own text; escaping keeps the script whole whatever it says.
            String label = wall.label().replace("\\", "\\\\").replace("\"", "\\\"").replace("<", "\\u003c");
            objects.add(String.format(Locale.ROOT, "{mbps: %s, label: \"%s\"}", wall.mbps(), label));
        }
        return "[" + String.join(", ", objects) + "]";
    }

    /**
     * Tablesaw's layout has no shapes, so a wall is added as the plot is made: a dashed line from
     * edge to edge at the wall's MB/s, labelled at its end. On a chart of horizontal bars the MB/s
     * axis is x, so the line stands upright. plotly.js widens the axis to take the line in.
     */
    static final String WALL_LINES = """
            (function () {
              var newPlot = Plotly.newPlot;
              Plotly.newPlot = function (target, data, layout, config) {
                layout = layout || {};
                var colours = ['#b22222', '#6a3d9a'];
                var upright = (data || []).some(function (trace) { return trace.orientation === 'h'; });
                chartWalls.forEach(function (wall, i) {
                  var colour = colours[i % colours.length];
                  var line = { color: colour, width: 2, dash: i === 0 ? 'dash' : 'dot' };
                  if (upright) {
                    layout.shapes = (layout.shapes || []).concat([{ type: 'line', xref: 'x', x0: wall.mbps, x1: wall.mbps,
                      yref: 'paper', y0: 0, y1: 1, line: line }]);
                    layout.annotations = (layout.annotations || []).concat([{ xref: 'x', x: wall.mbps, xanchor: 'right',
                      yref: 'paper', y: i === 0 ? 1 : 0, yanchor: i === 0 ? 'top' : 'bottom',
                      text: wall.label + ' ', showarrow: false, font: { color: colour }, bgcolor: 'rgba(255,255,255,0.8)' }]);
                  } else {
                    layout.shapes = (layout.shapes || []).concat([{ type: 'line', xref: 'paper', x0: 0, x1: 1,
                      yref: 'y', y0: wall.mbps, y1: wall.mbps, line: line }]);
                    layout.annotations = (layout.annotations || []).concat([{ xref: 'paper', x: i === 0 ? 1 : 0,
                      xanchor: i === 0 ? 'right' : 'left', yref: 'y', y: wall.mbps, yanchor: 'bottom',
                      text: wall.label, showarrow: false, font: { color: colour } }]);
                  }
                });
                return newPlot.call(Plotly, target, data, layout, config);
              };
            })();
            """;

    /**
     * tablesaw-jsplot writes titles as plain strings, which plotly.js 3 no longer draws: they are
     * rewritten as {text: …} before the plot is made, with the line break and small type that
     * {@link #title} writes given back to plotly.js (Tablesaw escapes them). Axes make room for
     * their labels and titles (automargin), so long chapter names are never cut, and a linear y
     * axis starts at zero. A page opened as {@code page.html?png} (the screenshot) leaves out the
     * toolbar that would otherwise sit on top of the picture.
     */
    static final String TITLES_AND_TOOLBAR = """
            (function () {
              function wrapTitle(owner) {
                if (owner && typeof owner.title === 'string') owner.title = { text: owner.title };
                // Tablesaw escapes the title's markup; plotly.js draws these few tags itself
                if (owner && owner.title && typeof owner.title.text === 'string') {
                  owner.title.text = owner.title.text.replace(/&lt;(\\/?)(br|sup|sub|b|i)&gt;/g, '<$1$2>');
                }
              }
              var newPlot = Plotly.newPlot;
              Plotly.newPlot = function (target, data, layout, config) {
                layout = layout || {};
                wrapTitle(layout);
                Object.keys(layout).forEach(function (key) {
                  if (/^[xyz]axis[0-9]*$/.test(key)) {
                    wrapTitle(layout[key]);
                    layout[key].automargin = true;
                  }
                });
                if (!layout.xaxis) layout.xaxis = { automargin: true };
                if (!layout.yaxis) layout.yaxis = { automargin: true };
                // Horizontal bars are chapters, named "V00 …" onwards: in that order, whichever trace has which
                if ((data || []).some(function (trace) { return trace.orientation === 'h'; })) {
                  layout.yaxis.categoryorder = 'category ascending';
                }
                // Every linear value axis here is MB/s or a share of it, honest only from zero
                // (Tablesaw does not pass rangemode on); log axes and category axes are left as they are.
                if (!layout.yaxis.type && layout.yaxis.autorange !== 'reversed') layout.yaxis.rangemode = 'tozero';
                config = Object.assign({ responsive: true }, config || {});
                if (/[?&]png(&|$)/.test(window.location.search)) config.displayModeBar = false;
                return newPlot.call(Plotly, target, data, layout, config);
              };
            })();
            """;

    private static synchronized String plotly() {
        if (plotlyScript == null) {
            try (InputStream in = Report.class.getResourceAsStream(PLOTLY_RESOURCE)) {
                if (in == null) {
                    quit("plotly.js is not on the class path: the notebook needs //DEPS org.webjars.npm:plotly.js-dist:3.0.1");
                }
                // "</script" inside the library would end the inline script early
                plotlyScript = new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("</script", "<\\/script");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return plotlyScript;
    }

    /**
     * Draws {@code page} into {@code png} with headless Chromium, through a temporary file so that a
     * failed drawing never leaves half a PNG, and marks it as a chart of this class. When the result
     * shows a blank block (drawn before the plot was painted, which a busy machine can cause), it is
     * drawn once more. False when Chromium failed.
     */
    static boolean screenshot(String chromium, Path page, Path png) throws IOException {
        Path profile = Files.createTempDirectory("chart-chromium-");
        Path drawing = png.resolveSibling("." + png.getFileName() + ".drawing.png");
        try {
            for (int attempt = 1; attempt <= 2; attempt++) {
                Files.deleteIfExists(drawing);
                List<String> command = new ArrayList<>(chromiumCommand(chromium, profile));
                command.add("--screenshot=" + drawing.toAbsolutePath());
                command.add("--window-size=" + CHART_WIDTH_PX + "," + CHART_HEIGHT_PX);
                command.add(page.toAbsolutePath().toUri() + "?png");
                if (!runChromium(command) || !Files.isRegularFile(drawing)) {
                    return false;
                }
                if (ChartImage.problem(drawing, null) == null || attempt == 2) {
                    ChartImage.mark(drawing);
                    Files.move(drawing, png, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                    return true;
                }
            }
            return false;
        } finally {
            Files.deleteIfExists(drawing);
            deleteTree(profile);
        }
    }

    /** The Chromium on PATH, or null; {@code -Dchromium=PATH} names one, {@code -Dchromium=none} draws pages only. */
    static String chromium() {
        String chosen = System.getProperty("chromium");
        if (chosen != null && !chosen.isBlank()) {
            return chosen.equals("none") ? null : chosen;
        }
        for (String name : List.of("chromium", "chromium-browser", "google-chrome")) {
            for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
                if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, name))) {
                    return Path.of(dir, name).toString();
                }
            }
        }
        return null;
    }

    /** Headless, quiet and offline; a fresh profile each time, so runs never share state. */
    static List<String> chromiumCommand(String chromium, Path profile) {
        return List.of(chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--hide-scrollbars", "--virtual-time-budget=10000", "--user-data-dir=" + profile);
    }

    private static boolean runChromium(List<String> command) throws IOException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            if (!process.waitFor(CHROMIUM_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return false;
            }
            return process.exitValue() == 0;
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Removes the temporary Chromium profile this class created. */
    private static void deleteTree(Path dir) throws IOException {
        try (var paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }

    /**
     * Data missing or wrong: one line, and the notebook stops. Tests set {@code report.quit=throw}
     * to get the line as an exception instead of losing their JVM.
     */
    static void quit(String message) {
        if ("throw".equals(System.getProperty("report.quit"))) {
            throw new IllegalStateException(message);
        }
        System.err.println(message);
        System.exit(2);
    }
}
