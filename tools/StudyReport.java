///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
//SOURCES ../lib/*.java
//DEPS com.google.code.gson:gson:2.13.2
//COMPILE_OPTIONS --add-modules jdk.incubator.vector
//RUNTIME_OPTIONS --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import lib.Sizes;
import lib.Stats;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;

/**
 * One machine's report on one page: {@code results/MACHINE/index.html}, written from the CSVs, the
 * charts, the flame graphs and {@code machine.json} in that folder. Every table is built here from
 * the CSVs; the charts are the notebooks' PNGs, embedded by relative path, so the page opens
 * offline, from a clone or a copy of the folder.
 *
 * <p>Only one study is shown: the rows of the newest row's file size, the newest row of each chapter,
 * worker count, cache and read size. Rows of another file size, and rows that cannot be read, are
 * left out, and the page says which.
 *
 * <pre>
 * How to run (from the project's root):   ./jbang tools/StudyReport.java results/amd-epyc-2c-avx512
 * </pre>
 * The study ({@code ./jbang tools/Study.java}) writes the report itself as its last step.
 */
public final class StudyReport {

    /** The article's published figures, shared by every machine. */
    static final Path REFERENCE = Path.of("results", "reference", "go-blog-figures.csv");
    /** Below these, a study's figures are a trial's: not for comparing. */
    static final long FULL_STUDY_BYTES = 1L << 30;
    static final int FULL_STUDY_RUNS = 5;

    private final Path folder;
    /** What was left out, and why: shown at the end of the page. */
    private final List<String> leftOut = new ArrayList<>();
    private final List<String> chartsShown = new ArrayList<>();
    private long fileBytes = -1;

    private StudyReport(Path folder) {
        this.folder = folder;
    }

    public static void main(String[] args) {
        if (args.length != 1 || args[0].startsWith("-")) {
            System.err.println("usage: ./jbang tools/StudyReport.java results/MACHINE   (writes results/MACHINE/index.html)");
            System.exit(2);
        }
        try {
            System.out.println("report: " + write(Path.of(args[0])));
        } catch (IOException | UncheckedIOException | IllegalArgumentException e) {
            System.err.println("StudyReport: " + e.getMessage());
            System.exit(2);
        }
    }

    /** Writes {@code folder/index.html} and returns it. */
    public static Path write(Path folder) throws IOException {
        if (!Files.isDirectory(folder)) {
            throw new IllegalArgumentException(folder + " is not a directory: give a machine's results folder, results/MACHINE");
        }
        Path index = folder.resolve("index.html");
        if (Files.exists(index) && !Files.readString(index, StandardCharsets.UTF_8).startsWith(MARK)) {
            throw new IllegalArgumentException(index + " exists and was not written by this report; left it alone");
        }
        String page = new StudyReport(folder).page();
        Path partial = folder.resolve(".index.html.partial");
        Files.writeString(partial, page, StandardCharsets.UTF_8);
        Files.move(partial, index, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        return index;
    }

    /** The page's first line: what marks an index.html as this report's, the only one it replaces. */
    static final String MARK = "<!DOCTYPE html><!-- the study's report, written by tools/StudyReport.java -->";

    /** One CSV row by column name, and where it came from. */
    record Row(Map<String, String> values, String where) {
        String get(String column) {
            return values.getOrDefault(column, "");
        }

        double number(String column) {
            return Double.parseDouble(get(column));
        }
    }

    private String page() throws IOException {
        Map<String, Optional<JsonElement>> machine = machine();
        List<Row> scoreboard = rows("scoreboard"), scaling = rows("scaling"), cold = rows("cold"),
                walls = rows("wall"), chunks = rows("chunks"), versusGo = rows("versus-go");
        fileBytes = Stream.of(scoreboard, scaling, cold, walls, chunks).flatMap(List::stream)
                .reduce((newest, row) -> row.get("date").compareTo(newest.get("date")) >= 0 ? row : newest).map(row -> Long.parseLong(row.get("file_bytes"))).orElse(-1L);
        scoreboard = ofThisStudy("scoreboard", scoreboard);
        scaling = ofThisStudy("scaling", scaling);
        cold = ofThisStudy("cold", cold);
        walls = ofThisStudy("wall", walls);
        chunks = ofThisStudy("chunks", chunks);

        String machineName = machine.getOrDefault("name", Optional.empty()).map(JsonElement::getAsString).orElse(folder.getFileName().toString());
        StringBuilder html = new StringBuilder(MARK).append("\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<title>").append(escape(machineName)).append(": needle in a haystack</title>\n<style>").append(STYLE).append("</style>\n</head>\n<body>\n");
        html.append("<h1>Needle in a haystack, on <code>").append(escape(machineName)).append("</code></h1>\n");
        html.append("<p>").append(escape(summary(machine, scoreboard))).append("</p>\n");
        Optional<String> trial = trial(machine, Stream.of(scoreboard, scaling, cold, walls, chunks).flatMap(List::stream).toList());
        trial.ifPresent(why -> html.append("<p class=\"trial\"><strong>Trial</strong>: ").append(escape(why))
                .append(". These figures are for trying the tools, not for comparing machines.</p>\n"));
        html.append(contents());

        section(html, "scoreboard", "The scoreboard", "Every chapter with a warm page cache, one worker per processor; "
                + "× ch. 1 is the speed-up over chapter 1, % of wall the share of the memory-read wall, "
                + "Go the article's figure on its own machine (" + articleMachine() + ").");
        html.append(scoreboardTable(scoreboard, walls));
        charts(html, png -> png.startsWith("scoreboard"));

        List<Row> pageCache = ofThisStudy("pagecache", rows("pagecache"));
        if (!pageCache.isEmpty()) {
            section(html, "pagecache", "The page cache in small and in 2 MiB folios", "The mapped chapters again, with the "
                    + "cache refilled in 4 KiB folios (small) and in 2 MiB folios (huge) before their runs (pagecache.csv); "
                    + "PMD-mapped is the share of each mapping the kernel mapped 2 MiB at a time, as the run recorded it.");
            html.append(pageCacheTable(pageCache, walls));
        }

        section(html, "article", "Against the article", versusGo.isEmpty()
                ? "The article's Go figures come from another machine: compare the shapes, not the numbers."
                : "The article's own Go code, run on this machine beside the Java chapters (versus-go.csv): "
                        + "each side's median over the sitting's rounds.");
        charts(html, png -> png.startsWith("vs-article"));

        if (!versusGo.isEmpty()) {
            section(html, "go", "Go on this machine", "The article's Go benchmark and the matching Java chapters, alternately, "
                    + "on the same haystack (versus-go.csv): the median MB/s of each side's rows.");
            html.append(versusGoTable(versusGo));
            charts(html, png -> png.startsWith("versus-go"));
        }

        section(html, "scaling", "Scaling: MB/s against workers", "The parallel chapters at every worker count of the sweep; the best of each row in bold.");
        html.append(grid(scaling, "workers", value -> value, "workers"));
        charts(html, png -> png.startsWith("scaling"));

        section(html, "cold", "Warm against cold", "The file evicted from the page cache before every run, against the warm scoreboard; "
                + "the article's cold figures beside them.");
        html.append(coldTable(scoreboard, cold));
        charts(html, png -> png.startsWith("warm-vs-cold") || png.startsWith("cold"));

        section(html, "walls", "The walls", "What no chapter can beat: WallMemoryRead reads a copy of the file in memory with "
                + "the 256-bit kernel (the ceiling for the mapped chapters), WallPageCacheCopy copies the cached file with "
                + "positional reads and scans nothing (the ceiling for the reading chapters).");
        html.append(grid(walls, "workers", value -> value, "workers"));
        charts(html, png -> png.startsWith("wall"));

        section(html, "chunks", "The read size", "Chapters 3 and 13 at every read size (bytes per read).");
        html.append(grid(chunks, "chunk_bytes", value -> Sizes.human(Long.parseLong(value)), "read size"));
        charts(html, png -> png.startsWith("chunks"));

        section(html, "warmup", "JIT warm-up", "Every run of the scoreboard in order, the untimed warm-up runs first.");
        html.append(warmupTable(scoreboard));
        charts(html, png -> png.startsWith("warmup"));

        section(html, "flamegraphs", "Flame graphs", "One per chapter (async-profiler, sampling the timed runs), to open in a browser.");
        html.append(flameGraphs());

        List<String> others = pngs().stream().filter(png -> !chartsShown.contains(png)).toList();
        if (!others.isEmpty()) {
            section(html, "other", "Other charts", "");
            charts(html, others::contains);
        }

        section(html, "machine", "The machine", "From machine.json, written by the study.");
        html.append(machineTable(machine));

        section(html, "files", "The data", "Everything on this page comes from these files; results/README.md documents every column.");
        html.append("<ul>\n");
        for (String file : List.of("scoreboard.csv", "pagecache.csv", "scaling.csv", "cold.csv", "wall.csv", "chunks.csv", "versus-go.csv", "machine.json")) {
            if (Files.exists(folder.resolve(file))) {
                html.append("<li><a href=\"").append(file).append("\">").append(file).append("</a></li>\n");
            }
        }
        html.append("</ul>\n");
        if (!leftOut.isEmpty()) {
            html.append("<p>Left out of this page:</p>\n<ul>\n");
            leftOut.forEach(line -> html.append("<li>").append(escape(line)).append("</li>\n"));
            html.append("</ul>\n");
        }
        html.append("<p class=\"how\">Your own machine's report: <code>./jbang tools/Study.java</code> from the project's root "
                + "writes <code>results/&lt;your machine&gt;/index.html</code>.</p>\n</body>\n</html>\n");
        return html.toString();
    }

    // ---- reading

    private Map<String, Optional<JsonElement>> machine() throws IOException {
        Path file = folder.resolve("machine.json");
        Map<String, Optional<JsonElement>> fields = new LinkedHashMap<>();
        if (!Files.isRegularFile(file)) {
            leftOut.add("the machine's description: no machine.json in " + folder);
            return fields;
        }
        try (Reader in = Files.newBufferedReader(file)) {
            JsonObject object = JsonParser.parseReader(in).getAsJsonObject();
            object.entrySet().forEach(field -> fields.put(field.getKey(),
                    field.getValue().isJsonNull() ? Optional.empty() : Optional.of(field.getValue())));
        } catch (RuntimeException e) {
            leftOut.add("the machine's description: " + file + " is not a JSON object (" + e.getMessage() + ")");
        }
        return fields;
    }

    private static final List<String> NUMBERS = List.of("workers", "file_bytes", "mean_s", "mbps", "runs", "warmup_runs");

    /**
     * The rows of NAME.csv, in the file's order; a row that is short or whose figures are not numbers
     * is left out, and named (file and line).
     */
    private List<Row> rows(String name) throws IOException {
        Path file = folder.resolve(name + ".csv");
        List<Row> rows = new ArrayList<>();
        if (!Files.isRegularFile(file)) {
            return rows;
        }
        try (Reader in = Files.newBufferedReader(file)) {
            for (CSVRecord record : CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get().parse(in)) {
                String where = file.getFileName() + " line " + (record.getRecordNumber() + 1);
                if (!record.isConsistent()) {
                    leftOut.add(where + ": " + record.size() + " values for " + record.getParser().getHeaderNames().size() + " columns");
                    continue;
                }
                Row row = new Row(record.toMap(), where);
                try {
                    NUMBERS.stream().filter(row.values()::containsKey).forEach(row::number);
                    rows.add(row);
                } catch (NumberFormatException e) {
                    leftOut.add(where + ": a figure that is not a number");
                }
            }
        } catch (RuntimeException e) {
            leftOut.add(file.getFileName() + ": cannot be read as CSV (" + e.getMessage() + ")");
        }
        return rows;
    }

    /** The rows of the study's file size, the newest of each chapter, workers, cache and read size. */
    private List<Row> ofThisStudy(String name, List<Row> rows) {
        long others = rows.stream().filter(row -> Long.parseLong(row.get("file_bytes")) != fileBytes).count();
        if (others > 0) {
            leftOut.add(name + ".csv: " + others + " rows of another file size than this study's " + Sizes.human(fileBytes));
        }
        Map<List<String>, Row> newest = new LinkedHashMap<>();
        for (Row row : rows) {
            if (Long.parseLong(row.get("file_bytes")) == fileBytes) {
                List<String> key = List.of(row.get("chapter"), row.get("workers"), row.get("cache"),
                        name.equals("chunks") ? row.get("chunk_bytes") : "", row.get("page_cache"));
                newest.remove(key);
                newest.put(key, row);
            }
        }
        return new ArrayList<>(newest.values());
    }

    /** A row's chapter, with its page cache where the table holds rows of more than one (small or huge folios). */
    private static String chapterLabel(Row row, List<Row> table) {
        boolean several = table.stream().map(other -> other.get("page_cache")).distinct().count() > 1;
        return row.get("chapter") + (several && !row.get("page_cache").isEmpty() ? " (" + row.get("page_cache") + " page cache)" : "");
    }

    /** Why these figures are a trial's, if they are: the study said so, or its rows show it. */
    private Optional<String> trial(Map<String, Optional<JsonElement>> machine, List<Row> rows) {
        List<String> why = new ArrayList<>();
        if (fileBytes >= 0 && fileBytes < FULL_STUDY_BYTES) {
            why.add("a " + Sizes.human(fileBytes) + " file");
        }
        int fewestRuns = rows.stream().mapToInt(row -> (int) row.number("runs")).min().orElse(FULL_STUDY_RUNS);
        if (fewestRuns < FULL_STUDY_RUNS) {
            why.add(fewestRuns + (fewestRuns == 1 ? " timed run" : " timed runs"));
        }
        if (rows.stream().anyMatch(row -> row.number("warmup_runs") == 0)) {
            why.add("no warm-up run");
        }
        boolean marked = machine.getOrDefault("trial", Optional.empty()).map(JsonElement::getAsBoolean).orElse(false);
        if (why.isEmpty() && marked) {
            why.add("machine.json marks this study as a trial");
        }
        return why.isEmpty() ? Optional.empty() : Optional.of(String.join(", ", why));
    }

    private String summary(Map<String, Optional<JsonElement>> machine, List<Row> scoreboard) {
        String cpu = text(machine, "cpu_model") + ", " + text(machine, "logical_cores") + " processors, "
                + (text(machine, "avx512").equals("true") ? "AVX-512" : text(machine, "avx2").equals("true") ? "AVX2" : "no AVX2")
                + ", " + machine.getOrDefault("memory_bytes", Optional.empty()).map(m -> Sizes.human(m.getAsLong())).orElse("?")
                + " of memory, " + text(machine, "kernel") + ", " + text(machine, "jdk");
        if (scoreboard.isEmpty()) {
            return cpu + ". No scoreboard yet.";
        }
        Row first = scoreboard.getFirst();
        String dates = scoreboard.stream().map(row -> row.get("date").replaceFirst("T.*", "")).distinct().sorted().collect(Collectors.joining(" to "));
        return cpu + ". Measured on " + dates + " on a " + Sizes.human(fileBytes) + " haystack, " + first.get("runs")
                + " timed runs after " + first.get("warmup_runs") + " warm-up"
                + (first.number("runs") >= FULL_STUDY_RUNS ? " (the fastest and slowest dropped)" : "") + ".";
    }

    private static String text(Map<String, Optional<JsonElement>> machine, String key) {
        return machine.getOrDefault(key, Optional.empty()).map(JsonElement::getAsString).orElse("?");
    }

    // ---- tables

    private String scoreboardTable(List<Row> scoreboard, List<Row> walls) throws IOException {
        if (scoreboard.isEmpty()) {
            return missing("scoreboard.csv");
        }
        Optional<Double> wall = walls.stream().filter(row -> row.get("chapter").equals("WallMemoryRead") && row.get("cache").equals("warm"))
                .map(row -> row.number("mbps")).max(Double::compare);
        Optional<Double> chapterOne = scoreboard.stream().filter(row -> number(row.get("chapter")).equals("V01"))
                .map(row -> row.number("mean_s")).findFirst();
        Map<String, Row> article = article("scoreboard");
        List<List<String>> cells = new ArrayList<>();
        double best = scoreboard.stream().mapToDouble(row -> row.number("mbps")).max().orElse(0);
        for (Row row : scoreboard) {
            String number = number(row.get("chapter"));
            boolean fastest = row.number("mbps") == best;
            cells.add(List.of(number.replaceFirst("^V0?", ""), "<code>" + escape(chapterLabel(row, scoreboard)) + "</code>", row.get("workers"),
                    bold(fastest, seconds(row.get("mean_s"))), seconds(row.get("median_s")), bold(fastest, mbps(row.number("mbps"))),
                    chapterOne.map(one -> String.format(Locale.ROOT, "%.1f", one / row.number("mean_s"))).orElse("–"),
                    wall.map(w -> percent(row.number("mbps") / w)).orElse("–"),
                    Optional.ofNullable(article.get(number)).map(go -> mbps(go.number("mb_per_s"))).orElse("–")));
        }
        String wallLine = wall.map(w -> "<p>Memory-read wall: " + mbps(w) + " MB/s (the best WallMemoryRead row of wall.csv).</p>\n")
                .orElse("<p>No memory-read wall measured (wall.csv), so no % of wall.</p>\n");
        return table(List.of("#", "chapter", "workers", "mean s", "median s", "MB/s", "× ch. 1", "% of wall", "Go MB/s"), cells) + wallLine;
    }

    /** One line per mapped chapter: MB/s and PMD-mapped share with small folios, then with 2 MiB ones, against the 2 MiB wall. */
    private String pageCacheTable(List<Row> pageCache, List<Row> walls) {
        Optional<Double> hugeWall = walls.stream().filter(row -> row.get("chapter").equals("WallMemoryReadHuge") && row.get("cache").equals("warm"))
                .map(row -> row.number("mbps")).max(Double::compare);
        Map<String, Map<String, Row>> byChapter = new TreeMap<>();
        pageCache.forEach(row -> byChapter.computeIfAbsent(row.get("chapter"), c -> new TreeMap<>()).put(row.get("page_cache"), row));
        List<List<String>> cells = new ArrayList<>();
        byChapter.forEach((chapter, states) -> {
            List<String> line = new ArrayList<>(List.of("<code>" + escape(chapter) + "</code>"));
            for (String state : List.of("small", "huge")) {
                Optional<Row> row = Optional.ofNullable(states.get(state));
                line.add(row.map(r -> mbps(r.number("mbps"))).orElse("–"));
                line.add(row.map(r -> r.get("pmd_mapped_pct") + " %").orElse("–"));
            }
            line.add(Optional.ofNullable(states.get("huge")).flatMap(r -> hugeWall.map(w -> percent(r.number("mbps") / w))).orElse("–"));
            cells.add(line);
        });
        return table(List.of("chapter", "small MB/s", "PMD-mapped", "huge MB/s", "PMD-mapped", "huge, % of 2 MiB wall"), cells)
                + hugeWall.map(w -> "<p>Memory-read wall on 2 MiB pages: " + mbps(w) + " MB/s (the best WallMemoryReadHuge row of wall.csv).</p>\n")
                        .orElse("<p>No 2 MiB-page memory wall measured (wall.csv).</p>\n");
    }

    /** Rows are chapters, columns the values of {@code column} in numeric order, cells MB/s. */
    private String grid(List<Row> rows, String column, java.util.function.Function<String, String> heading, String what) {
        if (rows.isEmpty()) {
            return "<p>Not measured in this study.</p>\n";
        }
        TreeSet<Long> values = rows.stream().map(row -> Long.parseLong(row.get(column))).collect(Collectors.toCollection(TreeSet::new));
        Map<String, Map<Long, Double>> byChapter = new LinkedHashMap<>();
        for (Row row : rows) {
            byChapter.computeIfAbsent(chapterLabel(row, rows) + (row.get("cache").equals("warm") ? "" : " (" + row.get("cache") + ")"), c -> new TreeMap<>())
                    .put(Long.parseLong(row.get(column)), row.number("mbps"));
        }
        List<String> headings = new ArrayList<>(List.of("chapter \\ " + what));
        values.forEach(value -> headings.add(heading.apply(Long.toString(value))));
        List<List<String>> cells = new ArrayList<>();
        byChapter.forEach((chapter, mbpsByValue) -> {
            double best = mbpsByValue.values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
            List<String> line = new ArrayList<>(List.of("<code>" + escape(chapter) + "</code>"));
            values.forEach(value -> line.add(Optional.ofNullable(mbpsByValue.get(value)).map(m -> bold(m == best, mbps(m))).orElse("–")));
            cells.add(line);
        });
        return table(headings, cells) + "<p>MB/s.</p>\n";
    }

    private String coldTable(List<Row> scoreboard, List<Row> cold) throws IOException {
        if (cold.isEmpty()) {
            return "<p>Not measured in this study.</p>\n";
        }
        Map<String, Row> article = article("cold");
        List<List<String>> cells = new ArrayList<>();
        for (Row row : cold) {
            String number = number(row.get("chapter"));
            Optional<Row> warm = scoreboard.stream().filter(w -> w.get("chapter").equals(row.get("chapter"))).findFirst();
            cells.add(List.of("<code>" + escape(row.get("chapter")) + "</code>", row.get("workers"),
                    warm.map(w -> mbps(w.number("mbps"))).orElse("–"), mbps(row.number("mbps")),
                    Optional.ofNullable(article.get(number)).map(go -> mbps(go.number("cold_mb_per_s"))).orElse("–")));
        }
        return table(List.of("chapter", "workers", "warm MB/s", "cold MB/s", "Go cold MB/s"), cells);
    }

    private String warmupTable(List<Row> scoreboard) {
        List<List<String>> cells = new ArrayList<>();
        for (Row row : scoreboard) {
            double[] timed = seconds(row, "run_s");
            if (timed.length == 0) {
                continue;
            }
            double median = Stats.median(timed);
            double[] warmup = seconds(row, "warmup_s");
            double first = warmup.length > 0 ? warmup[0] : timed[0];
            cells.add(List.of("<code>" + escape(row.get("chapter")) + "</code>", escape(row.get("warmup_s")), escape(row.get("run_s")),
                    String.format(Locale.ROOT, "%.1f", first / median)));
        }
        return cells.isEmpty() ? "<p>No runs recorded.</p>\n"
                : table(List.of("chapter", "warm-up runs, s", "timed runs, s", "first run ÷ median"), cells);
    }

    private static double[] seconds(Row row, String column) {
        try {
            return Arrays.stream(row.get(column).trim().split("\\s+")).filter(s -> !s.isEmpty()).mapToDouble(Double::parseDouble).toArray();
        } catch (NumberFormatException e) {
            return new double[0];
        }
    }

    /** Go's rows are chapters "Go vN", Java's the chapters' own names: paired by number, median MB/s each. */
    private String versusGoTable(List<Row> rows) {
        Map<String, List<Double>> go = new TreeMap<>(), java = new TreeMap<>();
        Map<String, String> javaName = new TreeMap<>();
        for (Row row : rows) {
            String chapter = row.get("chapter");
            if (chapter.startsWith("Go ")) {
                go.computeIfAbsent(number(chapter.substring(3).trim().split("[\\s-]")[0]), k -> new ArrayList<>()).add(row.number("mbps"));
            } else {
                java.computeIfAbsent(number(chapter), k -> new ArrayList<>()).add(row.number("mbps"));
                javaName.put(number(chapter), chapter);
            }
        }
        List<List<String>> cells = new ArrayList<>();
        for (String number : go.keySet()) {
            double goMbps = Stats.median(go.get(number).stream().mapToDouble(Double::doubleValue).toArray());
            Optional<Double> javaMbps = Optional.ofNullable(java.get(number)).map(list -> Stats.median(list.stream().mapToDouble(Double::doubleValue).toArray()));
            cells.add(List.of(number, "<code>" + escape(javaName.getOrDefault(number, "–")) + "</code>", mbps(goMbps),
                    javaMbps.map(StudyReport::mbps).orElse("–"),
                    javaMbps.map(j -> String.format(Locale.ROOT, "%.2f", j / goMbps)).orElse("–")));
        }
        return table(List.of("chapter", "Java", "Go MB/s", "Java MB/s", "Java ÷ Go"), cells);
    }

    private String machineTable(Map<String, Optional<JsonElement>> machine) {
        if (machine.isEmpty()) {
            return "<p>No machine.json in this folder.</p>\n";
        }
        List<List<String>> cells = new ArrayList<>();
        machine.forEach((key, value) -> cells.add(List.of("<code>" + escape(key) + "</code>",
                value.map(v -> escape(v.getAsString())).orElse("<em>not recorded</em>"))));
        return table(List.of("field", "value"), cells);
    }

    private String flameGraphs() throws IOException {
        Path dir = folder.resolve("flamegraphs");
        if (!Files.isDirectory(dir)) {
            return "<p>None in this study: <code>./jbang tools/Study.java --flamegraphs</code> records them.</p>\n";
        }
        try (Stream<Path> files = Files.list(dir)) {
            List<String> names = files.map(path -> path.getFileName().toString()).filter(name -> name.endsWith(".html")).sorted().toList();
            return names.stream().map(name -> "<a href=\"flamegraphs/" + url(name) + "\">" + escape(name.replaceFirst("\\.html$", "")) + "</a>")
                    .collect(Collectors.joining(" · ", "<p class=\"links\">", "</p>\n"));
        }
    }

    /** The article's rows of one table, by chapter number ("V06"); empty without the reference file. */
    private Map<String, Row> article(String table) throws IOException {
        Map<String, Row> rows = new LinkedHashMap<>();
        if (!Files.isRegularFile(REFERENCE)) {
            return rows;
        }
        try (Reader in = Files.newBufferedReader(REFERENCE)) {
            for (CSVRecord record : CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).setCommentMarker('#').get().parse(in)) {
                if (record.isConsistent() && record.get("table").equals(table)) {
                    rows.put(number(record.get("variant")), new Row(record.toMap(), "reference"));
                }
            }
        }
        return rows;
    }

    private String articleMachine() throws IOException {
        if (!Files.isRegularFile(REFERENCE)) {
            return "not in this copy";
        }
        try (Stream<String> lines = Files.lines(REFERENCE)) {
            return lines.filter(line -> line.startsWith("# Machine:")).findFirst()
                    .map(line -> line.substring("# Machine:".length()).trim().replaceFirst("\\.$", "")).orElse("another machine");
        }
    }

    // ---- charts

    private List<String> pngs() throws IOException {
        Path dir = folder.resolve("charts");
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(path -> path.getFileName().toString()).filter(name -> name.endsWith(".png")).sorted(CHART_ORDER).toList();
        }
    }

    /** "scaling-all" before the per-chapter charts, then by name. */
    private static final Comparator<String> CHART_ORDER = Comparator.<String, Boolean>comparing(name -> !name.contains("-all"))
            .thenComparing(Comparator.naturalOrder());

    private void charts(StringBuilder html, Predicate<String> wanted) throws IOException {
        List<String> chosen = pngs().stream().filter(wanted).filter(png -> !chartsShown.contains(png)).toList();
        if (chosen.isEmpty()) {
            html.append("<p class=\"nochart\">No chart: the notebooks draw them (headless Chromium makes the PNGs; tools/setup-chromium installs it).</p>\n");
            return;
        }
        html.append("<div class=\"charts\">\n");
        for (String png : chosen) {
            chartsShown.add(png);
            String page = png.replaceFirst("\\.png$", ".html");
            html.append("<figure><img src=\"charts/").append(url(png)).append("\" alt=\"").append(escape(png)).append("\">");
            html.append("<figcaption>").append(escape(png));
            if (Files.exists(folder.resolve("charts").resolve(page))) {
                html.append(" · <a href=\"charts/").append(url(page)).append("\">interactive</a>");
            }
            html.append("</figcaption></figure>\n");
        }
        html.append("</div>\n");
    }

    // ---- HTML

    private static String contents() {
        return "<nav>" + SECTIONS_IN_ORDER.stream().map(s -> "<a href=\"#" + s[0] + "\">" + s[1] + "</a>").collect(Collectors.joining(" · ")) + "</nav>\n";
    }

    private static final List<String[]> SECTIONS_IN_ORDER = List.of(
            new String[] {"scoreboard", "scoreboard"}, new String[] {"pagecache", "page cache"}, new String[] {"article", "article"}, new String[] {"scaling", "scaling"},
            new String[] {"cold", "warm/cold"}, new String[] {"walls", "walls"}, new String[] {"chunks", "read size"},
            new String[] {"warmup", "warm-up"}, new String[] {"flamegraphs", "flame graphs"}, new String[] {"machine", "machine"},
            new String[] {"files", "data"});

    private static void section(StringBuilder html, String id, String title, String text) {
        html.append("<h2 id=\"").append(id).append("\">").append(escape(title)).append("</h2>\n");
        if (!text.isEmpty()) {
            html.append("<p>").append(escape(text)).append("</p>\n");
        }
    }

    private static String table(List<String> headings, List<List<String>> cells) {
        StringBuilder html = new StringBuilder("<table>\n<tr>");
        headings.forEach(heading -> html.append("<th>").append(escape(heading)).append("</th>"));
        html.append("</tr>\n");
        for (List<String> line : cells) {
            html.append("<tr>");
            line.forEach(cell -> html.append("<td>").append(cell).append("</td>"));
            html.append("</tr>\n");
        }
        return html.append("</table>\n").toString();
    }

    private static String missing(String file) {
        return "<p>No " + escape(file) + " in this folder.</p>\n";
    }

    private static String bold(boolean bold, String text) {
        return bold ? "<strong>" + text + "</strong>" : text;
    }

    private static String mbps(double mbps) {
        return String.format(Locale.ROOT, "%,.0f", mbps);
    }

    private static String seconds(String seconds) {
        return String.format(Locale.ROOT, "%.3f", Double.parseDouble(seconds));
    }

    private static String percent(double share) {
        double percent = share * 100;
        return String.format(Locale.ROOT, percent < 1 ? "%.1f" : "%.0f", percent);
    }

    /** "V06MmapParallel", "v6" and "V06" all become "V06". */
    static String number(String chapter) {
        java.util.regex.Matcher digits = java.util.regex.Pattern.compile("^[vV](\\d{1,2})(\\D.*)?$").matcher(chapter);
        return digits.matches() ? String.format(Locale.ROOT, "V%02d", Integer.parseInt(digits.group(1))) : chapter;
    }

    static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    private static String url(String fileName) {
        return java.net.URLEncoder.encode(fileName, StandardCharsets.UTF_8).replace("+", "%20");
    }

    static final String STYLE = """
            body { font-family: system-ui, sans-serif; max-width: 72rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
            h1 { font-size: 1.6rem; } h2 { margin-top: 2.5rem; border-bottom: 1px solid #ddd; }
            table { border-collapse: collapse; margin: 0.5rem 0; font-size: 0.92rem; }
            th, td { border: 1px solid #ddd; padding: 0.25rem 0.6rem; text-align: right; }
            th { background: #f4f4f4; } td:first-child, td:nth-child(2) { text-align: left; }
            .trial { background: #fff3cd; border: 1px solid #e0c060; padding: 0.6rem; }
            .charts figure { margin: 1rem 0; } .charts img { max-width: 100%; border: 1px solid #eee; }
            figcaption { font-size: 0.8rem; color: #666; } nav { margin: 1rem 0; } .nochart { color: #777; }
            """;
}
