// The code the notebooks share: turning one machine's results, as report/StudyResults.java reads
// and selects them, into Tablesaw tables, and writing charts that work offline.
//
// JBang hands a notebook's //SOURCES to JShell as snippets run before the notebook itself, so this
// file has no package line (JShell cannot take one) and its class is simply there, as `Report`.

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.LongColumn;
import tech.tablesaw.api.Row;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;
import tech.tablesaw.plotly.components.Figure;
import tech.tablesaw.plotly.components.Line;
import tech.tablesaw.plotly.components.Marker;
import tech.tablesaw.plotly.components.Symbol;

/**
 * One machine's results ({@code results/<machine>/*.csv}) as Tablesaw tables, and each chart
 * written twice: an HTML page with plotly.js inlined (it opens without a network), and a PNG drawn
 * from that page by headless Chromium, both into that machine's {@code charts/}.
 *
 * <p>Which rows a chart draws is report/StudyResults.java's rule, the report's too: one machine, one
 * study (its file size), one cache state per series. What it left out is said on stdout, one line
 * per bad row (file and line) or per kind of row.
 *
 * <p>A notebook ends with {@link #loaded}. Run as a notebook, a JShell error before that line (a
 * snippet that threw or did not compile) makes it end with status 2, not 0: JShell itself goes on
 * after an error and exits 0.
 */
final class Report {

    /** The results root: one folder per machine. {@code -Dresults=DIR} points the notebooks elsewhere. */
    static final Path ROOT = Path.of(System.getProperty("results", "results"));

    /** plotly.js comes from this WebJar (declared with //DEPS in every notebook), never from a CDN. */
    static final String PLOTLY_RESOURCE = "/META-INF/resources/webjars/plotly.js-dist/3.0.1/plotly.js";

    static final int CHART_WIDTH_PX = 1000, CHART_HEIGHT_PX = 600;
    static final int CHROMIUM_SECONDS = 120;

    private static String plotlyScript;
    private static MachineResults chosen;
    /** Set by the notebook's last line ({@link #loaded}), unless a chart failed on the way; or by {@link #quit}, which said why. */
    private static volatile boolean notebookFinished, chartFailed, quitWithALine;

    static {
        // JShell's own class loader runs the notebooks: there, a notebook that never reached its last
        // line ends with status 2 (halting in a shutdown hook is what sets the status of an exit).
        // Where quit throws (tests, report/Notebooks.java), the caller says what stopped instead.
        if (Report.class.getClassLoader().getClass().getName().contains("jshell") && !quitThrows()) {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                if (!notebookFinished) {
                    if (!quitWithALine) {
                        System.err.println("the notebook stopped before its last line: a step failed (see above)");
                    }
                    Runtime.getRuntime().halt(2);
                }
            }));
        }
    }

    private Report() {}

    // ---------------------------------------------------------------------------------------------
    // Machines

    /** One machine's folder of results (see {@link StudyResults.Folder}), with what was said about it. */
    static final class MachineResults {
        final String name;
        final StudyResults.Folder folder;
        private final Set<String> reported = new LinkedHashSet<>();

        MachineResults(StudyResults.Folder folder) {
            this.name = folder.name;
            this.folder = folder;
        }

        Path csv(String table) {
            return folder.csv(table);
        }

        boolean has(String table) {
            return folder.has(table);
        }

        Path charts() {
            return folder.dir.resolve("charts");
        }

        String date() {
            return folder.date();
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

    /** The machine folders under {@code root} (see {@link StudyResults#folders}). */
    static List<MachineResults> machines(Path root) {
        try {
            List<MachineResults> machines = StudyResults.folders(root).stream().map(MachineResults::new).toList();
            machines.forEach(machine -> machine.report(machine.folder.description.problems()));
            return machines;
        } catch (IOException e) {
            quit("cannot list " + root + ": " + e.getMessage());
            return List.of();
        }
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
            quit("no results in " + root + ": run the study first (./jbang study/Study.java), from the project's root directory");
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
        String here = StudyResults.currentMachineName();
        Optional<MachineResults> local = all.stream().filter(m -> m.name.equals(here)).findFirst();
        MachineResults pick = local.orElseGet(() -> all.stream().max(Comparator.comparing(MachineResults::date)).orElseThrow());
        System.out.println("machine: " + pick.name + (local.isPresent() ? " (this one)" : " (the most recent study; this machine, "
                + here + ", has none)") + "; -Dmachine=NAME draws another of: " + names);
        return pick;
    }

    // ---------------------------------------------------------------------------------------------
    // The rows drawn together, as tables

    /** What an empty {@code page_cache} means (see {@link StudyResults#PAGE_CACHE_AS_IS}). */
    static final String PAGE_CACHE_AS_IS = StudyResults.PAGE_CACHE_AS_IS;

    /** The rows a chart may draw, and a line for each kind of row left out. */
    record Selected(Table rows, List<String> notes) {}

    /** This study's rows of {@code table} with a {@code cache} page cache (null keeps both): {@link StudyResults.Folder#select}. */
    static Selected select(MachineResults machine, String table, String cache) {
        try {
            StudyResults.Selection selection = machine.folder.select(table, cache);
            return new Selected(table(table, selection.rows()), selection.notes());
        } catch (StudyResults.NotResultsException notResults) {
            quit(notResults.getMessage());
            return null;
        }
    }

    /**
     * The chosen machine's rows of {@code table} with a {@code cache} page cache, ready to draw
     * (see {@link #select}); what was left out is said on stdout. Stops the notebook with one line
     * when the machine has no such CSV, or nothing is left to draw.
     */
    static Table results(String table, String cache) {
        MachineResults machine = machine();
        if (!machine.has(table)) {
            quit("no " + machine.csv(table) + " here: run the study first (./jbang study/Study.java), from the project's root directory");
        }
        Selected selected = select(machine, table, cache);
        machine.report(selected.notes());
        if (selected.rows().isEmpty()) {
            quit("nothing to draw: " + machine.csv(table) + " has no " + (cache == null ? "" : cache + " ")
                    + "row of " + machine.name + "'s study");
        }
        return selected.rows();
    }

    /** The warm rows of {@code table}: the scoreboard, the worker sweep, the chunk sweep. */
    static Table results(String table) {
        return results(table, "warm");
    }

    /** Every round of a sitting ({@code versus-go}): this machine's rows, none dropped as older. */
    static Table everyRound(String table) {
        MachineResults machine = machine();
        try {
            StudyResults.Selection selection = machine.folder.everyRound(table);
            machine.report(selection.notes());
            if (selection.rows().isEmpty()) {
                quit("nothing to draw: " + machine.csv(table) + " has no row of " + machine.name);
            }
            return table(table, selection.rows());
        } catch (StudyResults.NotResultsException notResults) {
            quit(notResults.getMessage());
            return null;
        }
    }

    /**
     * Rows as a table whose columns have the types a reader would guess; the lists of seconds stay
     * text. The bill's columns ({@link StudyResults#BILL}, per GiB) come last, missing in rows
     * written before it was counted.
     */
    static Table table(String name, List<StudyResults.Row> rows) {
        StringColumn date = StringColumn.create("date"), chapter = StringColumn.create("chapter"), cache = StringColumn.create("cache"),
                runSeconds = StringColumn.create("run_s"), warmupSeconds = StringColumn.create("warmup_s"),
                cpuModel = StringColumn.create("cpu_model"), kernel = StringColumn.create("kernel"), jdk = StringColumn.create("jdk"),
                machine = StringColumn.create("machine"), pageCache = StringColumn.create("page_cache");
        IntColumn workers = IntColumn.create("workers"), warmupRuns = IntColumn.create("warmup_runs"), runs = IntColumn.create("runs"),
                logicalCores = IntColumn.create("logical_cores"), vectorBits = IntColumn.create("vector_bits");
        LongColumn fileBytes = LongColumn.create("file_bytes"), chunkBytes = LongColumn.create("chunk_bytes"),
                offset = LongColumn.create("offset"), memoryBytes = LongColumn.create("memory_bytes");
        DoubleColumn meanSeconds = DoubleColumn.create("mean_s"), medianSeconds = DoubleColumn.create("median_s"),
                minSeconds = DoubleColumn.create("min_s"), maxSeconds = DoubleColumn.create("max_s"), mbps = DoubleColumn.create("mbps"),
                pmd = DoubleColumn.create("pmd_mapped_pct");
        for (StudyResults.Row row : rows) {
            date.append(row.date()); chapter.append(row.chapter()); workers.append(row.workers()); cache.append(row.cache());
            fileBytes.append(row.fileBytes()); append(chunkBytes, row.chunkBytes()); append(offset, row.offset());
            warmupRuns.append(row.warmupRuns()); runs.append(row.runs()); meanSeconds.append(row.meanSeconds());
            append(medianSeconds, row.medianSeconds()); append(minSeconds, row.minSeconds()); append(maxSeconds, row.maxSeconds());
            mbps.append(row.mbps()); runSeconds.append(joined(row.runSeconds())); warmupSeconds.append(joined(row.warmupSeconds()));
            cpuModel.append(row.cpuModel()); logicalCores.append(row.logicalCores()); append(memoryBytes, row.memoryBytes());
            kernel.append(row.kernel()); jdk.append(row.jdk()); vectorBits.append(row.vectorBits()); machine.append(row.machine());
            pageCache.append(row.pageCache()); append(pmd, row.pmdMappedPercent());
        }
        Table table = Table.create(name, date, chapter, workers, cache, fileBytes, chunkBytes, offset, warmupRuns, runs, meanSeconds,
                medianSeconds, minSeconds, maxSeconds, mbps, runSeconds, warmupSeconds, cpuModel, logicalCores, memoryBytes,
                kernel, jdk, vectorBits, machine, pageCache, pmd);
        for (String item : StudyResults.BILL) {
            DoubleColumn perGiB = DoubleColumn.create(item);
            rows.forEach(row -> append(perGiB, row.billPerGiB(item)));
            table.addColumns(perGiB);
        }
        return table;
    }

    private static void append(LongColumn column, Long value) {
        if (value == null) {
            column.appendMissing();
        } else {
            column.append(value);
        }
    }

    private static void append(DoubleColumn column, Double value) {
        if (value == null) {
            column.appendMissing();
        } else {
            column.append(value);
        }
    }

    private static String joined(double[] seconds) {
        return java.util.Arrays.stream(seconds).mapToObj(Double::toString).collect(Collectors.joining(" "));
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
     * the runs behind each figure, and "trial" when the study was one ({@link StudyResults#trialReasons}).
     */
    static String title(String what, Table rows) {
        return what + "<br><sup>" + caption(machine(), rows) + "</sup>";
    }

    static String caption(MachineResults machine, Table rows) {
        List<String> parts = new ArrayList<>();
        parts.add(machine.name);
        parts.add(StudyResults.binarySize(machine.folder.mainFileBytes()) + " file");
        if (!rows.isEmpty()) {
            parts.add(range(rows.intColumn("runs")) + " runs, " + range(rows.intColumn("warmup_runs")) + " warm-up");
        }
        List<String> trial = trialReasons(machine, rows);
        if (!trial.isEmpty()) {
            parts.add("TRIAL (" + String.join(", ", trial) + ")");
        }
        return String.join(" · ", parts);
    }

    /** Why these figures are a trial's (see {@link StudyResults#trialReasons}); empty when they are a full study's. */
    static List<String> trialReasons(MachineResults machine, Table rows) {
        int fewestRuns = StudyResults.FULL_RUNS;
        for (int i = 0; i < rows.rowCount(); i++) {
            double[] runSeconds = rows.containsColumn("run_s") ? StudyResults.seconds(rows.stringColumn("run_s").get(i)) : new double[0];
            fewestRuns = Math.min(fewestRuns, StudyResults.runsForTrialRule(rows.intColumn("runs").getInt(i), runSeconds));
        }
        boolean noWarmup = !rows.isEmpty() && rows.intColumn("warmup_runs").min() == 0;
        return StudyResults.trialReasons(machine.folder.description.flag("trial"), machine.folder.mainFileBytes(), fewestRuns, noWarmup);
    }

    private static String range(IntColumn counts) {
        int low = (int) counts.min(), high = (int) counts.max();
        return low == high ? Integer.toString(low) : low + "–" + high;
    }

    /**
     * A chapter's short name for an axis: its class name, spaced, e.g. "V09 mmap parallel vector" for
     * V09MmapParallelVector, "V08 vector 256" for V08Vector256. The class name is declared once, in
     * the chapter, so no list here can miss a chapter. Anything else (a Go variant, a wall) keeps its name.
     */
    static String shortName(String chapter) {
        if (!chapter.matches("V\\d\\d[A-Z]\\w*")) {
            return chapter;
        }
        return chapter.substring(0, 3) + " " + chapter.substring(3).replaceAll("([a-z0-9])([A-Z])", "$1 $2")
                .replaceAll("([a-z])([0-9])", "$1 $2").toLowerCase(Locale.ROOT);
    }

    /** The short names of a table's chapter column, as a column of its own. */
    static StringColumn shortNames(Table rows) {
        return rows.stringColumn("chapter").map(Report::shortName).setName("name");
    }

    /**
     * Ten colours no reader confuses (plotly's own first ten), and past ten, a line of another dash
     * and a marker of another shape in the same colours: series i and i + 10 share a colour, never
     * a look. Twenty shades would include near-twins (two pinks, two dark blues) that a legend
     * cannot tell apart.
     */
    static final List<String> COLOURS = List.of(
            "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
            "#bcbd22", "#17becf");
    private static final List<Line.Dash> DASHES = List.of(Line.Dash.SOLID, Line.Dash.DASH, Line.Dash.DOT);
    private static final List<Symbol> SYMBOLS = List.of(Symbol.CIRCLE, Symbol.SQUARE, Symbol.DIAMOND);

    static String colour(int index) {
        return COLOURS.get(Math.floorMod(index, COLOURS.size()));
    }

    /** Series {@code index}'s line: its colour, solid for the first ten, dashed for the next ten, then dotted. */
    static Line line(int index) {
        return Line.builder().color(colour(index)).dash(DASHES.get(Math.floorMod(index, COLOURS.size() * DASHES.size()) / COLOURS.size())).build();
    }

    /** Series {@code index}'s marker: its colour, a circle for the first ten, a square for the next ten, then a diamond. */
    static Marker marker(int index) {
        return Marker.builder().color(colour(index))
                .symbol(SYMBOLS.get(Math.floorMod(index, COLOURS.size() * SYMBOLS.size()) / COLOURS.size())).build();
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
        notebookFinished = !chartFailed;
    }

    /** Whether the notebook reached its last line with every chart drawn ({@link #loaded}). */
    static boolean finished() {
        return notebookFinished;
    }

    /**
     * A fresh start for the next notebook of one JShell (report/Notebooks.java): the machine is
     * chosen anew, and said anew, and nothing is yet drawn. Only plotly.js, read once, is kept.
     */
    static void startNotebook() {
        chosen = null;
        notebookFinished = chartFailed = quitWithALine = false;
    }


    // ---------------------------------------------------------------------------------------------
    // Walls

    /**
     * The chosen machine's memory-read walls ({@link StudyResults.Folder#walls}): no chapter reads
     * the file faster than the CPU reads memory, so the MB/s charts draw them, each labelled with the
     * chapters that beat it where any did. Said on stdout; empty when none has been measured.
     */
    static List<StudyResults.Wall> walls() {
        return walls(machine(), true);
    }

    static List<StudyResults.Wall> walls(MachineResults machine, boolean say) {
        if (!machine.has("wall")) {
            if (say) {
                System.out.println("(no " + machine.csv("wall") + ", so no memory-read wall on the charts; "
                        + "./jbang yardsticks/WallProbe.java haystack.bin --workers 1,2 --csv " + machine.csv("wall") + " measures it)");
            }
            return List.of();
        }
        if (say) {
            machine.report(select(machine, "wall", "warm").notes());
        }
        List<StudyResults.Wall> walls = machine.folder.walls();
        if (say) {
            for (StudyResults.Wall wall : walls) {
                System.out.printf(Locale.ROOT, "%s: %,.0f MB/s (%s with %d workers, the best of %d rows, every sitting and worker count, in %s)%n",
                        wall.label(), wall.mbps(), wall.probe(), wall.workers(), wall.workerCounts(), machine.csv("wall"));
                if (!wall.beatenBy().isEmpty()) {
                    machine.report(List.of(wall.beatenNote()));
                }
            }
            if (walls.isEmpty()) {
                System.out.println("(" + machine.csv("wall") + " has no warm memory-read row, so no memory-read wall on the charts)");
            }
        }
        return walls;
    }

    /**
     * Each row's MB/s as a percentage of {@code wall}, to one decimal; missing where the row went
     * faster than the wall, which the wall's own line then says ({@link StudyResults.Wall#beatenNote}).
     */
    static DoubleColumn percentOf(StudyResults.Wall wall, Table rows) {
        DoubleColumn shares = DoubleColumn.create("pct_of_memory_wall");
        for (double mbps : rows.numberColumn("mbps").asDoubleArray()) {
            wall.percentOf(mbps).ifPresentOrElse(percent -> shares.append(Math.round(percent * 10) / 10.0), shares::appendMissing);
        }
        return shares;
    }

    // ---------------------------------------------------------------------------------------------
    // The article, and speedups

    /** The Go article's published figures, one table of them ({@code scoreboard}, {@code scaling} or {@code cold}), by chapter number. */
    static Table article(String table) {
        if (!Files.isRegularFile(StudyResults.REFERENCE)) {
            quit("no " + StudyResults.REFERENCE + " here: run the notebooks from the project's root directory");
        }
        StringColumn variant = StringColumn.create("variant"), number = StringColumn.create("number"),
                description = StringColumn.create("description");
        Map<String, DoubleColumn> figures = new java.util.LinkedHashMap<>();
        for (String column : List.of("mean_s", "mb_per_s", "speedup", "workers_1_mb_per_s", "peak_mb_per_s", "peak_at", "cold_mb_per_s")) {
            figures.put(column, DoubleColumn.create(column));
        }
        try {
            for (StudyResults.ArticleRow row : StudyResults.article(table)) {
                variant.append(row.variant()); number.append(row.number()); description.append(row.description());
                append(figures.get("mean_s"), row.meanSeconds()); append(figures.get("mb_per_s"), row.mbps());
                append(figures.get("speedup"), row.speedup()); append(figures.get("workers_1_mb_per_s"), row.oneWorkerMbps());
                append(figures.get("peak_mb_per_s"), row.peakMbps()); append(figures.get("peak_at"), row.peakAt());
                append(figures.get("cold_mb_per_s"), row.coldMbps());
            }
        } catch (StudyResults.NotResultsException notReadable) {
            quit(notReadable.getMessage());
        }
        Table rows = Table.create("article", variant, description);
        figures.values().forEach(rows::addColumns);
        rows.addColumns(number);
        return rows;
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
            if (StudyResults.chapterNumber(row.getString("chapter")).equals(baseline)) {
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
    static Path chart(String name, Figure figure, List<StudyResults.Wall> walls) {
        return chart(machine().charts(), name, figure, walls, Extras.NONE);
    }

    /** The same, with what Tablesaw's figure cannot say itself ({@link Extras}). */
    static Path chart(String name, Figure figure, List<StudyResults.Wall> walls, Extras extras) {
        return chart(machine().charts(), name, figure, walls, extras);
    }

    /**
     * What the page's script adds to a figure, since Tablesaw's layout has no annotations and its
     * bars no text: {@code valuesBesideBars} prints each horizontal bar's value at its end (and, on
     * a log axis, leaves room for it); {@code notes} are lines under the title that explain the
     * chart's signs (text, escaped, never markup); {@code heightPx} is the picture's height, the
     * figure's own (a chart of many bars is taller, so that each bar's figure has room).
     */
    record Extras(boolean valuesBesideBars, List<String> notes, int heightPx) {
        static final Extras NONE = new Extras(false, List.of());

        Extras(boolean valuesBesideBars, List<String> notes) {
            this(valuesBesideBars, notes, CHART_HEIGHT_PX);
        }

        static Extras notes(String... lines) {
            return new Extras(false, List.of(lines));
        }
    }

    static Path chart(Path charts, String name, Figure figure, List<StudyResults.Wall> walls) {
        return chart(charts, name, figure, walls, Extras.NONE);
    }

    static Path chart(Path charts, String name, Figure figure, List<StudyResults.Wall> walls, Extras extras) {
        boolean written = false;
        try {
            Files.createDirectories(charts);
            Path page = charts.resolve(name + ".html");
            Path png = charts.resolve(name + ".png");
            refuseForeign(page, png);
            Files.writeString(page, page(name, figure, walls, extras));
            String chromium = chromium();
            if (chromium == null) {
                System.out.println("chart: " + page + " (PNG skipped: no Chromium here; setup/setup-chromium installs it)");
            } else if (screenshot(chromium, page, png, extras.heightPx())) {
                System.out.println("chart: " + page + " and " + png);
            } else {
                System.out.println("chart: " + page + " (PNG skipped: Chromium failed to draw it)");
            }
            written = true;
            return page;
        } catch (IOException e) {
            quit("cannot write the chart " + name + " into " + charts + ": " + e.getMessage());
            return null;
        } finally {
            chartFailed |= !written; // an exception on the way: the notebook must not end as if it drew
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
     * error is written onto the page's root element, where report/check-charts looks for it. The
     * figure's script holds text from the CSVs (chapter names, in strings that tablesaw-jsplot
     * quotes as JSON does, which lets "</script>" through): it is escaped so that no text can end
     * its element ({@link StudyResults#insideScript}).
     */
    static String page(String title, Figure figure, List<StudyResults.Wall> walls) {
        return page(title, figure, walls, Extras.NONE);
    }

    static String page(String title, Figure figure, List<StudyResults.Wall> walls, Extras extras) {
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
                <script>var chartExtras = %s;
                %s</script>
                </head>
                <body>
                %s
                <script>%s</script>
                </body>
                </html>
                """.formatted(StudyResults.html(title), plotly(), TITLES_AND_TOOLBAR, wallsAsJavascript(walls), WALL_LINES,
                        extrasAsJavascript(extras), EXTRAS, figure.divString("chart"), figureScript(figure));
    }

    /** The figure's plotting script, without the script element tablesaw-jsplot wraps it in, made safe inside one. */
    static String figureScript(Figure figure) {
        String script = figure.asJavascript("chart").strip();
        if (!script.startsWith("<script>") || !script.endsWith("</script>")) {
            throw new IllegalStateException("tablesaw-jsplot no longer writes a figure as one <script> element");
        }
        return StudyResults.insideScript(script.substring("<script>".length(), script.length() - "</script>".length()));
    }

    /** The walls as the page's script reads them: {@code [{mbps: 12345.0, label: "…"}]}. */
    private static String wallsAsJavascript(List<StudyResults.Wall> walls) {
        List<String> objects = new ArrayList<>();
        for (StudyResults.Wall wall : walls) {
            objects.add(String.format(Locale.ROOT, "{mbps: %s, label: %s}", wall.mbps(), javascriptString(wall.chartLabel())));
        }
        return StudyResults.insideScript("[" + String.join(", ", objects) + "]");
    }

    /** The extras as the page's script reads them: {@code {valuesBesideBars: true, notes: ["…"]}}. */
    private static String extrasAsJavascript(Extras extras) {
        String notes = extras.notes().stream().map(Report::javascriptString).collect(Collectors.joining(", "));
        return StudyResults.insideScript("{valuesBesideBars: " + extras.valuesBesideBars() + ", notes: [" + notes + "]}");
    }

    /**
     * {@code text} as a JavaScript string literal: backslash, quote and every control character
     * escaped, and {@code < > &} written as escapes, so that no text can end the string or the
     * script element it stands in (the whole script also goes through {@link StudyResults#insideScript}).
     */
    static String javascriptString(String text) {
        StringBuilder literal = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            if (c == '"' || c == '\\') {
                literal.append('\\').append(c);
            } else if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == 0x2028 || c == 0x2029) {
                literal.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
            } else {
                literal.append(c);
            }
        }
        return literal.append('"').toString();
    }

    /**
     * Tablesaw's layout has no shapes, so a wall is added as the plot is made: a dashed line from
     * edge to edge at the wall's MB/s, labelled at its end (on a line chart, the highest wall above
     * its line and any other below, so that close walls' labels never meet). On a chart of horizontal
     * bars the MB/s axis is x, so the line stands upright, and its label, which would lie across
     * bars, goes in the legend below the plot. plotly.js widens the axis to take the line in.
     */
    static final String WALL_LINES = """
            (function () {
              var newPlot = Plotly.newPlot;
              Plotly.newPlot = function (target, data, layout, config) {
                layout = layout || {};
                var colours = ['#b22222', '#6a3d9a'];
                var upright = (data || []).some(function (trace) { return trace.orientation === 'h'; });
                var highest = chartWalls.reduce(function (best, wall, j) { return wall.mbps > chartWalls[best].mbps ? j : best; }, 0);
                chartWalls.forEach(function (wall, i) {
                  var colour = colours[i % colours.length];
                  var line = { color: colour, width: 2, dash: i === 0 ? 'dash' : 'dot' };
                  if (upright) {
                    // Among bars a label has no free place: it goes in the legend, beside a sample of its line.
                    layout.shapes = (layout.shapes || []).concat([{ type: 'line', xref: 'x', x0: wall.mbps, x1: wall.mbps,
                      yref: 'paper', y0: 0, y1: 1, line: line }]);
                    data = (data || []).concat([{ type: 'scatter', mode: 'lines', x: [null], y: [null], name: wall.label,
                      line: line, hoverinfo: 'skip', showlegend: true }]);
                    layout.showlegend = true;
                  } else {
                    layout.shapes = (layout.shapes || []).concat([{ type: 'line', xref: 'paper', x0: 0, x1: 1,
                      yref: 'y', y0: wall.mbps, y1: wall.mbps, line: line }]);
                    // The highest wall is labelled above its line, any other below its own: walls a few
                    // hundred MB/s apart would otherwise have their labels written over each other.
                    layout.annotations = (layout.annotations || []).concat([{ xref: 'paper', x: 1, xanchor: 'right',
                      yref: 'y', y: wall.mbps, yanchor: i === highest ? 'bottom' : 'top',
                      text: wall.label, showarrow: false, font: { color: colour }, bgcolor: 'rgba(255,255,255,0.8)' }]);
                  }
                });
                return newPlot.call(Plotly, target, data, layout, config);
              };
            })();
            """;

    /**
     * The {@link Extras}: values printed at the ends of horizontal bars, and notes as more lines of
     * the title's small type. Bars on a log axis get a range from a little under the slowest bar to past the fastest
     * bar's printed value (and every wall), a gridline at each power of ten and light ones between,
     * so that no bar is a sliver and no value is cut. A legend that holds walls lies below the plot,
     * across its width, where it covers nothing. Points of several series on a category axis stand
     * side by side, as grouped bars do, not on top of each other.
     */
    static final String EXTRAS = """
            (function () {
              function text(note) {
                return note.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
              }
              var newPlot = Plotly.newPlot;
              Plotly.newPlot = function (target, data, layout, config) {
                layout = layout || {};
                data = data || [];
                var bars = data.filter(function (trace) { return trace.type === 'bar' && trace.orientation === 'h'; });
                if (chartExtras.valuesBesideBars && bars.length > 0) {
                  var values = chartWalls.map(function (wall) { return wall.mbps; });
                  bars.forEach(function (trace) {
                    trace.text = trace.x.map(function (v) { return v >= 100 ? Math.round(v).toLocaleString('en-US') : String(Number(v.toPrecision(2))); });
                    trace.textposition = 'outside';
                    trace.constraintext = 'none';
                    trace.textfont = { size: 10 };
                    trace.cliponaxis = false;
                    values = values.concat(trace.x);
                  });
                  var positive = values.filter(function (v) { return v > 0; });
                  if (layout.xaxis && layout.xaxis.type === 'log' && positive.length > 0) {
                    layout.xaxis.range = [Math.log10(Math.min.apply(null, positive)) - 0.3, Math.log10(Math.max.apply(null, positive)) + 0.25];
                    layout.xaxis.autorange = false;
                    layout.xaxis.dtick = 1;
                    layout.xaxis.tickformat = ',d';
                    layout.xaxis.minor = { dtick: 'D1', showgrid: true, gridcolor: '#f0f0f0' };
                  }
                }
                if (chartExtras.notes.length > 0) {
                  var title = typeof layout.title === 'string' ? layout.title : (layout.title && layout.title.text) || '';
                  layout.title = { text: title + chartExtras.notes.map(function (note) { return '<br><sup>' + text(note) + '</sup>'; }).join('') };
                  layout.margin = Object.assign({}, layout.margin);
                  layout.margin.t = (layout.margin.t || 100) + 18 * chartExtras.notes.length;
                }
                if (bars.length > 0 && chartWalls.length > 0) {
                  layout.legend = Object.assign(layout.legend || {}, { orientation: 'h', x: 0, xanchor: 'left', y: -0.15, yanchor: 'top' });
                }
                var points = data.filter(function (trace) { return trace.type === 'scatter' && trace.mode === 'markers'
                  && trace.y && typeof trace.y[0] === 'string'; });
                if (points.length > 1 && points.length === data.length) {
                  layout.scattermode = 'group';
                  points.forEach(function (trace) { trace.orientation = 'h'; });
                }
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
        return screenshot(chromium, page, png, CHART_HEIGHT_PX);
    }

    static boolean screenshot(String chromium, Path page, Path png, int heightPx) throws IOException {
        Path profile = Files.createTempDirectory("chart-chromium-");
        Path drawing = png.resolveSibling("." + png.getFileName() + ".drawing.png");
        try {
            for (int attempt = 1; attempt <= 2; attempt++) {
                Files.deleteIfExists(drawing);
                List<String> command = new ArrayList<>(chromiumCommand(chromium, profile));
                command.add("--screenshot=" + drawing.toAbsolutePath());
                command.add("--window-size=" + CHART_WIDTH_PX + "," + heightPx);
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
     * Data missing or wrong: one line, and the notebook stops. Tests and report/Notebooks.java set
     * {@code report.quit=throw} to get the line as a {@link Quit} instead of losing their JVM.
     */
    static void quit(String message) {
        if (quitThrows()) {
            throw new Quit(message);
        }
        System.err.println(message);
        quitWithALine = true;
        System.exit(2);
    }

    private static boolean quitThrows() {
        return "throw".equals(System.getProperty("report.quit"));
    }

    /** {@link #quit}'s line, thrown where {@code report.quit=throw}. */
    static final class Quit extends IllegalStateException {
        Quit(String message) {
            super(message);
        }
    }
}
