// The code the notebooks share: turning one machine's results, as lab/results/StudyResults.java reads
// and selects them, into Tablesaw tables, and writing charts that work offline. A notebook imports it
// (`import notebooks.*;`), compiled once onto its class path by notebooks/ForNotebooks.java.

package notebooks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import lab.results.*;
import lab.tools.AtomicWrite;
import lab.tools.Chromium;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.Row;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;
import tech.tablesaw.plotly.components.Figure;

/**
 * One machine's results ({@code results/<machine>/*.csv}) as Tablesaw tables, and each chart
 * written twice: an HTML page with plotly.js inlined (it opens without a network), and a PNG drawn
 * from that page by headless Chromium, both into that machine's {@code charts/}.
 *
 * <p>Which rows a chart draws is lab/results/StudyResults.java's rule, the report's too: one machine, one
 * study (its file size), one cache state per series. What it left out is said on stdout, one line
 * per bad row (file and line) or per kind of row.
 *
 * <p>A notebook ends with {@link #loaded}. Run as a notebook, a JShell error before that line (a
 * snippet that threw or did not compile) makes it end with status 2, not 0: JShell itself goes on
 * after an error and exits 0.
 */
public final class Notebook {

    /** The results root: one folder per machine. {@code -Dresults=DIR} points the notebooks elsewhere. */
    public static final Path ROOT = Path.of(System.getProperty("results", "results"));

    private static MachineResults chosen;
    /** Set by the notebook's last line ({@link #loaded}), unless a chart failed on the way; or by {@link #quit}, which said why. */
    private static volatile boolean notebookFinished, chartFailed, quitWithALine;

    static {
        // Called from a JShell snippet (class REPL.$JShell$N), a notebook that never reached its last line
        // ends with status 2 (halting in a shutdown hook is what sets the status of an exit). Where quit
        // throws (tests, lab/report/Notebooks.java), the caller says what stopped instead.
        if (!quitThrows() && StackWalker.getInstance().walk(frames -> frames.anyMatch(f -> f.getClassName().startsWith("REPL.")))) {
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

    private Notebook() {}

    // ---------------------------------------------------------------------------------------------
    // Machines

    /** The machine folders under {@code root} (see {@link ResultsFolder#folders}). */
    public static List<MachineResults> machines(Path root) {
        try {
            List<MachineResults> machines = ResultsFolder.folders(root).stream().map(MachineResults::new).toList();
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
    public static MachineResults machine() {
        if (chosen == null) {
            chosen = choose(ROOT, System.getProperty("machine"));
        }
        return chosen;
    }

    public static MachineResults choose(Path root, String requested) {
        List<MachineResults> all = machines(root);
        if (all.isEmpty()) {
            quit("no results in " + root + ": run the study first (./jbang study), from the project's root directory");
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
        MachineResults pick = local.orElseGet(() -> all.stream().max(Comparator.comparing((MachineResults m) -> m.folder.date())).orElseThrow());
        System.out.println("machine: " + pick.name + (local.isPresent() ? " (this one)" : " (the most recent study; this machine, "
                + here + ", has none)") + "; -Dmachine=NAME draws another of: " + names);
        return pick;
    }

    // ---------------------------------------------------------------------------------------------
    // The rows drawn together, as tables

    /** The rows a chart may draw, and a line for each kind of row left out. */
    public record Selected(Table rows, List<String> notes) {}

    /** This study's rows of {@code table} with a {@code cache} page cache (null keeps both): {@link ResultsFolder#select}. */
    public static Selected select(MachineResults machine, String table, String cache) {
        try {
            ResultsFolder.Selection selection = machine.folder.select(table, cache);
            return new Selected(ResultsTable.table(table, selection.rows()), selection.notes());
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
    public static Table results(String table, String cache) {
        MachineResults machine = machine();
        if (!machine.has(table)) {
            quit("no " + machine.csv(table) + " here: run the study first (./jbang study), from the project's root directory");
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
    public static Table results(String table) {
        return results(table, "warm");
    }

    /** Every round of a sitting ({@code versus-go}): this machine's rows, none dropped as older. */
    public static Table everyRound(String table) {
        MachineResults machine = machine();
        try {
            ResultsFolder.Selection selection = machine.folder.everyRound(table);
            machine.report(selection.notes());
            if (selection.rows().isEmpty()) {
                quit("nothing to draw: " + machine.csv(table) + " has no row of " + machine.name);
            }
            return ResultsTable.table(table, selection.rows());
        } catch (StudyResults.NotResultsException notResults) {
            quit(notResults.getMessage());
            return null;
        }
    }

    /** The page-cache settings among {@code rows}, in a stable order: the system's own first. */
    public static List<String> pageCaches(Table rows) {
        return rows.stringColumn("page_cache").unique().asList().stream()
                .sorted(Comparator.comparing((String s) -> !s.equals(StudyResults.PAGE_CACHE_AS_IS)).thenComparing(Function.identity()))
                .toList();
    }

    // ---------------------------------------------------------------------------------------------
    // What every chart says about itself

    /**
     * The chart's title with a second line naming what it shows: the machine, the file size and
     * the runs behind each figure, and "trial" when the study was one ({@link StudyResults#trialReasons}).
     */
    public static String title(String what, Table rows) {
        return what + "<br><sup>" + caption(machine(), rows) + "</sup>";
    }

    public static String caption(MachineResults machine, Table rows) {
        List<String> parts = new ArrayList<>();
        parts.add(machine.name);
        parts.add(PageText.binarySize(machine.folder.mainFileBytes()) + " file");
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
    public static List<String> trialReasons(MachineResults machine, Table rows) {
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
    public static String shortName(String chapter) {
        if (!chapter.matches("V\\d\\d[A-Z]\\w*")) {
            return chapter;
        }
        return chapter.substring(0, 3) + " " + chapter.substring(3).replaceAll("([a-z0-9])([A-Z])", "$1 $2")
                .replaceAll("([a-z])([0-9])", "$1 $2").toLowerCase(Locale.ROOT);
    }

    /** The short names of a table's chapter column, as a column of its own. */
    public static StringColumn shortNames(Table rows) {
        return rows.stringColumn("chapter").map(Notebook::shortName).setName("name");
    }

    /** A printed reminder of what the notebook left loaded, for {@code ./jbang --interactive}. */
    public static void loaded(Object... namesAndTables) {
        List<String> parts = new ArrayList<>();
        for (int i = 0; i + 1 < namesAndTables.length; i += 2) {
            Table table = (Table) namesAndTables[i + 1];
            parts.add(namesAndTables[i] + " (" + table.rowCount() + "×" + table.columnCount() + ")");
        }
        System.out.println("tables: " + String.join(", ", parts) + " of " + machine().name
                + "; e.g. " + namesAndTables[0] + ".structure(), " + namesAndTables[0] + ".print()");
        notebookFinished = !chartFailed;
    }

    /** The same, for a notebook that draws no machine's results but its own measurements (chapters.jsh). */
    public static void loadedHere(String whatIsLoaded) {
        System.out.println(whatIsLoaded);
        notebookFinished = !chartFailed;
    }

    /**
     * A notebook's first line. JBang hands a notebook its arguments as {@code args}; it takes none, only -D properties:
     * --help or -h prints its {@link #usage}, status 0; anything else is one line, status 2; both before anything is read.
     */
    public static void arguments(String[] args, String notebook, String... charts) {
        arguments(args, notebook, true, charts);
    }

    /** The same for a notebook that draws its own measurements into this machine's folder (chapters.jsh): no -Dmachine. */
    public static void argumentsDrawingHere(String[] args, String notebook, String... charts) {
        arguments(args, notebook, false, charts);
    }

    private static void arguments(String[] args, String notebook, boolean choosesMachine, String... charts) {
        if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
            System.out.print(usage(notebook, choosesMachine, charts));
            System.out.flush();
            if (quitThrows()) {
                throw new Quit(notebook + " printed its usage and drew nothing");
            }
            notebookFinished = true; // done as asked: status 0, not an unfinished notebook's 2
            System.exit(0);
        } else if (args.length > 0) {
            quit(notebook + " takes no arguments: " + List.of(args).stream().map(lib.cli.Quote::name).collect(Collectors.joining(" ")) + " (only -D options, before it: see --help)");
        }
    }

    /** What --help prints: the command, the notebook's own words (its header's first paragraph), what it writes where. */
    public static String usage(String notebook, boolean choosesMachine, String... charts) {
        Path source = Path.of("notebooks", notebook + ".jsh");
        String description;
        try (var lines = Files.lines(source)) {
            description = lines.dropWhile(line -> !line.isEmpty()).skip(1).takeWhile(line -> line.startsWith("//"))
                    .map(line -> line.replaceFirst("^// ?", "")).collect(Collectors.joining("\n"));
        } catch (IOException unreadable) {
            description = "(what it draws is said at the top of " + source + ", read from the project's root)";
        }
        String machine = choosesMachine ? "-Dmachine=NAME, else this machine when it has results, else the most recent study" : "this machine";
        return "Usage: ./jbang [-Dresults=DIR]" + (choosesMachine ? " [-Dmachine=NAME] " : " ") + source + "\n\n" + description + "\n\nIt writes "
                + List.of(charts).stream().map(chart -> chart + ".html and .png").collect(Collectors.joining(", ")) + " into results/MACHINE/charts/.\n"
                + "MACHINE: " + machine + ".\n-Dresults=DIR: the results root, in place of results/.\nIt takes no arguments; -h or --help prints this.\n";
    }

    /** Whether the notebook reached its last line with every chart drawn ({@link #loaded}). */
    public static boolean finished() {
        return notebookFinished;
    }

    /**
     * A fresh start for the next notebook of one JShell (lab/report/Notebooks.java): the machine is
     * chosen anew, and said anew, and nothing is yet drawn. Only plotly.js, read once, is kept.
     */
    public static void startNotebook() {
        chosen = null;
        notebookFinished = chartFailed = quitWithALine = false;
    }

    // ---------------------------------------------------------------------------------------------
    // Walls

    /**
     * The chosen machine's memory-read walls ({@link ResultsFolder#walls}): no chapter reads
     * the file faster than the CPU reads memory, so the MB/s charts draw them, each labelled with the
     * chapters that beat it where any did. Said on stdout; empty when none has been measured.
     */
    public static List<MemoryWall> walls() {
        return walls(machine(), true);
    }

    public static List<MemoryWall> walls(MachineResults machine, boolean say) {
        List<MemoryWall> walls = machine.folder.walls(); // empty without a wall.csv
        if (!say) {
            return walls;
        }
        if (!machine.has("wall")) {
            System.out.println("(no " + machine.csv("wall") + ", so no memory-read wall on the charts; "
                    + "./jbang wall haystack.bin --workers 1,2 --csv " + machine.csv("wall") + " measures it)");
            return walls;
        }
        machine.report(select(machine, "wall", "warm").notes());
        for (MemoryWall wall : walls) {
            System.out.printf(Locale.ROOT, "%s: %,.0f MB/s (%s with %d workers, the best of %d rows, every sitting and worker count, in %s)%n",
                    wall.label(), wall.mbps(), wall.probe(), wall.workers(), wall.workerCounts(), machine.csv("wall"));
            if (!wall.beatenBy().isEmpty()) {
                machine.report(List.of(wall.beatenNote()));
            }
        }
        if (walls.isEmpty()) {
            System.out.println("(" + machine.csv("wall") + " has no warm memory-read row, so no memory-read wall on the charts)");
        }
        return walls;
    }

    /**
     * Each row's MB/s as a percentage of {@code wall}, to one decimal; missing where the row went
     * faster than the wall, which the wall's own line then says ({@link MemoryWall#beatenNote}).
     */
    public static DoubleColumn percentOf(MemoryWall wall, Table rows) {
        DoubleColumn shares = DoubleColumn.create("pct_of_memory_wall");
        for (double mbps : rows.numberColumn("mbps").asDoubleArray()) {
            wall.percentOf(mbps).ifPresentOrElse(percent -> shares.append(Math.round(percent * 10) / 10.0), shares::appendMissing);
        }
        return shares;
    }

    // ---------------------------------------------------------------------------------------------
    // The article, and speedups

    /** The Go article's published figures, one table of them ({@code scoreboard}, {@code scaling} or {@code cold}), by chapter number. */
    public static Table article(String table) {
        if (!Files.isRegularFile(ArticleFigures.REFERENCE)) {
            quit("no " + ArticleFigures.REFERENCE + " here: run the notebooks from the project's root directory");
        }
        StringColumn variant = StringColumn.create("variant"), number = StringColumn.create("number"),
                description = StringColumn.create("description");
        DoubleColumn meanSeconds = DoubleColumn.create("mean_s"), mbps = DoubleColumn.create("mb_per_s"), speedup = DoubleColumn.create("speedup"),
                oneWorkerMbps = DoubleColumn.create("workers_1_mb_per_s"), peakMbps = DoubleColumn.create("peak_mb_per_s"),
                peakAt = DoubleColumn.create("peak_at"), coldMbps = DoubleColumn.create("cold_mb_per_s");
        try {
            for (ArticleFigures.ArticleRow row : ArticleFigures.of(table)) {
                variant.append(row.variant()); number.append(row.number()); description.append(row.description());
                meanSeconds.append(row.meanSeconds()); mbps.append(row.mbps()); speedup.append(row.speedup()); oneWorkerMbps.append(row.oneWorkerMbps());
                peakMbps.append(row.peakMbps()); peakAt.append(row.peakAt()); coldMbps.append(row.coldMbps());
            }
        } catch (StudyResults.NotResultsException notReadable) {
            quit(notReadable.getMessage());
        }
        return Table.create("article", variant, description, meanSeconds, mbps, speedup, oneWorkerMbps, peakMbps, peakAt, coldMbps, number);
    }

    /**
     * Each row's speedup over {@code baseline} (a chapter number such as "V01"): the baseline's mean
     * seconds divided by the row's, to one decimal, within the same page-cache setting. Missing
     * when the baseline was not measured.
     */
    public static DoubleColumn speedup(Table rows, String baseline) {
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
    public static Path chart(String name, Figure figure) {
        return chart(name, figure, List.of());
    }

    /** The same, with each of {@code walls} drawn across the chart as a labelled line. */
    public static Path chart(String name, Figure figure, List<MemoryWall> walls) {
        return chart(name, figure, walls, ChartPage.Extras.NONE);
    }

    /** The same, with what Tablesaw's figure cannot say itself ({@link ChartPage.Extras}). */
    public static Path chart(String name, Figure figure, List<MemoryWall> walls, ChartPage.Extras extras) {
        return chart(machine().folder.dir.resolve("charts"), name, figure, walls, extras);
    }

    public static Path chart(Path charts, String name, Figure figure, List<MemoryWall> walls, ChartPage.Extras extras) {
        boolean written = false;
        try {
            Files.createDirectories(charts);
            Path page = charts.resolve(name + ".html");
            Path png = charts.resolve(name + ".png");
            String foreign = ChartFiles.whyNotReplace(page, png); // a file of the chart's name that a notebook did not write
            if (foreign != null) {
                quit(foreign);
            }
            AtomicWrite.write(page, ChartPage.page(name, figure, walls, extras)); // whole or not at all: a full disk cuts no page
            Optional<Path> chromium = Chromium.find();
            String notDrawn = chromium.isEmpty() ? "no Chromium here; lab/setup/setup-chromium installs it"
                    : ChromiumScreenshot.screenshot(chromium.get(), page, png, extras.heightPx());
            System.out.println("chart: " + page + (notDrawn == null ? " and " + png : " (PNG skipped: " + notDrawn + ")"));
            written = true;
            return page;
        } catch (IOException e) {
            quit("cannot write the chart " + name + " into " + charts + ": " + e.getMessage());
            return null;
        } finally {
            chartFailed |= !written; // an exception on the way: the notebook must not end as if it drew
        }
    }

    /**
     * Data missing or wrong: one line, and the notebook stops. Tests and lab/report/Notebooks.java set
     * {@code report.quit=throw} to get the line as a {@link Quit} instead of losing their JVM.
     */
    public static void quit(String message) {
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
    public static final class Quit extends IllegalStateException {
        public Quit(String message) {
            super(message);
        }
    }
}
