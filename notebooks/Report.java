// The code the notebooks share: loading the results CSVs and writing charts that work offline.
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import tech.tablesaw.api.ColumnType;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.Row;
import tech.tablesaw.api.Table;
import tech.tablesaw.io.csv.CsvReadOptions;
import tech.tablesaw.plotly.components.Figure;

/**
 * Loads {@code results/*.csv} as Tablesaw tables and writes each chart twice: an HTML page with
 * plotly.js inlined (it opens without a network), and a PNG drawn from that page by headless Chromium.
 */
final class Report {

    /** The CSVs and charts; {@code -Dresults=DIR} points a notebook at a trial study's instead. */
    static final Path RESULTS = Path.of(System.getProperty("results", "results"));
    static final Path CHARTS = RESULTS.resolve("charts");
    /** The Go article's published figures, kept in the project whichever results are shown. */
    static final Path REFERENCE = Path.of("results", "reference", "go-blog-figures.csv");

    /** plotly.js comes from this WebJar (declared with //DEPS in every notebook), never from a CDN. */
    static final String PLOTLY_RESOURCE = "/META-INF/resources/webjars/plotly.js-dist/3.0.1/plotly.js";

    static final int CHART_WIDTH_PX = 1000, CHART_HEIGHT_PX = 600;
    static final int CHROMIUM_SECONDS = 120;

    private static String plotlyScript;

    private Report() {}

    /**
     * One results CSV ({@code scoreboard}, {@code scaling} or {@code cold}), keeping only the newest
     * row of each chapter, worker count and cache: a rerun appends rows rather than replacing them.
     */
    static Table results(String name) {
        return newestOfEach(load(name), "chapter", "workers", "cache");
    }

    /**
     * A chunk sweep ({@code chunks}: one row per chapter, worker count and read size), keeping the
     * newest row of each chapter, worker count, cache and chunk size.
     */
    static Table resultsPerChunk(String name) {
        Table rows = load(name);
        if (!rows.columnNames().contains("chunk_bytes")) {
            quit(RESULTS.resolve(name + ".csv") + " has no column chunk_bytes: not a results CSV of this project");
        }
        return newestOfEach(rows, "chapter", "workers", "cache", "chunk_bytes");
    }

    /**
     * The lists of seconds ({@code run_s}, {@code warmup_s}) are read as text: a list of one run is
     * a single number, which Tablesaw would otherwise take for a column of numbers.
     */
    private static final Set<String> SECONDS_LISTS = Set.of("run_s", "warmup_s");

    /** Every row of results/NAME.csv; stops the notebook if it is missing or not a results CSV. */
    private static Table load(String name) {
        Path file = RESULTS.resolve(name + ".csv");
        if (!Files.isRegularFile(file)) {
            quit("no " + file + " here: run the study first (./jbang tools/Study.java), from the project's root directory");
        }
        Table rows = Table.read().csv(CsvReadOptions.builder(file.toFile()).tableName(name)
                .columnTypesPartial(column -> SECONDS_LISTS.contains(column) ? Optional.of(ColumnType.STRING) : Optional.empty())
                .build());
        for (String column : List.of("chapter", "workers", "cache", "mean_s", "mbps")) {
            if (!rows.columnNames().contains(column)) {
                quit(file + " has no column " + column + ": not a results CSV of this project");
            }
        }
        return rows;
    }

    /** A horizontal line across an MB/s chart, labelled: a ceiling the chapters are measured against. */
    record Wall(String label, double mbps) {}

    /** The probe behind the memory-read wall, as tools/WallProbe.java names it in the chapter column. */
    static final String MEMORY_WALL_PROBE = "WallMemoryRead";

    /**
     * The memory-read wall: the best {@code WallMemoryRead} MB/s in results/wall.csv over the worker
     * counts measured. No chapter reads the file faster than the CPU reads memory, so every MB/s
     * chart draws it. Empty, and said on stdout, when it has not been measured.
     */
    static Optional<Wall> memoryWall() {
        Path file = RESULTS.resolve("wall.csv");
        if (!Files.isRegularFile(file)) {
            System.out.println("(no " + file + ", so no memory-read wall on the charts; "
                    + "./jbang tools/WallProbe.java haystack.bin --workers 1,2 --csv " + file + " measures it)");
            return Optional.empty();
        }
        Table probes = results("wall");
        Table memory = probes.where(probes.stringColumn("chapter").isEqualTo(MEMORY_WALL_PROBE)
                .and(probes.stringColumn("cache").isEqualTo("warm")));
        if (memory.isEmpty()) {
            System.out.println("(" + file + " has no warm " + MEMORY_WALL_PROBE + " row, so no memory-read wall on the charts)");
            return Optional.empty();
        }
        Table fastestFirst = memory.sortDescendingOn("mbps");
        double mbps = fastestFirst.numberColumn("mbps").getDouble(0);
        System.out.printf(Locale.ROOT, "memory-read wall: %,.0f MB/s (%s with %d workers, the best of %d worker counts in %s)%n",
                mbps, MEMORY_WALL_PROBE, fastestFirst.intColumn("workers").get(0), memory.rowCount(), file);
        return Optional.of(new Wall(String.format(Locale.ROOT, "memory-read wall (this machine): %,.0f MB/s", mbps), mbps));
    }

    /** Each row's MB/s as a percentage of {@code wall}, to one decimal. */
    static DoubleColumn percentOf(Wall wall, Table rows) {
        return DoubleColumn.create("pct_of_memory_wall", rows.numberColumn("mbps").asDoubleColumn()
                .map(mbps -> Math.round(mbps / wall.mbps() * 1000) / 10.0).asDoubleArray());
    }

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

    /** "V06MmapParallel" and "v6" both become "V06", the key the two sides are joined on. */
    static String chapterNumber(String chapter) {
        String digits = chapter.replaceAll("^[vV](\\d+).*$", "$1");
        return digits.equals(chapter) ? chapter : String.format("V%02d", Integer.parseInt(digits));
    }

    /**
     * Each row's speedup over {@code baseline} (a chapter number such as "V01"): the baseline's mean
     * seconds divided by the row's, to one decimal. Empty when the baseline was not measured.
     */
    static DoubleColumn speedup(Table rows, String baseline) {
        Table base = rows.where(rows.stringColumn("chapter").map(Report::chapterNumber).isEqualTo(baseline));
        double baselineSeconds = base.isEmpty() ? Double.NaN : base.numberColumn("mean_s").getDouble(0);
        if (base.isEmpty()) {
            System.out.println("(no " + baseline + " row, so no speedup over it)");
        }
        return DoubleColumn.create("speedup", rows.numberColumn("mean_s").asDoubleColumn()
                .map(seconds -> Double.isNaN(baselineSeconds) ? Double.NaN : Math.round(baselineSeconds / seconds * 10) / 10.0).asDoubleArray());
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

    /** Writes results/charts/NAME.html and NAME.png; returns the page. */
    static Path chart(String name, Figure figure) {
        return chart(name, figure, Optional.empty());
    }

    /** The same, with {@code wall} (when there is one) drawn across the chart as a labelled line. */
    static Path chart(String name, Figure figure, Optional<Wall> wall) {
        try {
            Files.createDirectories(CHARTS);
            Path page = CHARTS.resolve(name + ".html");
            Path png = CHARTS.resolve(name + ".png");
            refuseForeign(page, png);
            Files.writeString(page, page(name, figure, wall.stream().toList()));
            if (screenshot(page, png)) {
                System.out.println("chart: " + page + " and " + png);
            } else {
                System.out.println("chart: " + page + " (no PNG: Chromium is missing or failed; tools/setup-chromium installs it)");
            }
            return page;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The first line of every page written here: what marks a file as one this class may replace. */
    static final String PAGE_MARK = "<!DOCTYPE html><!-- a chart written by notebooks/Report.java -->";

    /** A chart is only ever replaced by a newer one: a file of the same name that is not ours stops the notebook. */
    private static void refuseForeign(Path page, Path png) throws IOException {
        boolean pageIsOurs = Files.isRegularFile(page) && firstLine(page).equals(PAGE_MARK);
        if (Files.exists(page) && !pageIsOurs) {
            quit(page + " exists and was not written by a notebook; left it alone (move it away to draw this chart)");
        }
        if (Files.exists(png) && !pageIsOurs) {
            quit(png + " exists without the chart page it was drawn from; left it alone (move it away to draw this chart)");
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

    /** The walls as the page's script reads them: {@code [{y: 12345.0, label: "…"}]}. */
    private static String wallsAsJavascript(List<Wall> walls) {
        List<String> objects = new ArrayList<>();
        for (Wall wall : walls) {
            // The label is this class's own text; escaping keeps the script whole whatever it says.
            String label = wall.label().replace("\\", "\\\\").replace("\"", "\\\"").replace("<", "\\u003c");
            objects.add(String.format(Locale.ROOT, "{y: %s, label: \"%s\"}", wall.mbps(), label));
        }
        return "[" + String.join(", ", objects) + "]";
    }

    /**
     * Tablesaw's layout has no shapes, so a wall is added as the plot is made: a dashed line from
     * edge to edge (x in "paper" units, 0 to 1, whatever the axis) at the wall's MB/s, labelled
     * above its right end. plotly.js widens the y axis to take the line in.
     */
    static final String WALL_LINES = """
            (function () {
              var newPlot = Plotly.newPlot;
              Plotly.newPlot = function (target, data, layout, config) {
                layout = layout || {};
                var colour = '#b22222';
                chartWalls.forEach(function (wall) {
                  layout.shapes = (layout.shapes || []).concat([{
                    type: 'line', xref: 'paper', x0: 0, x1: 1, yref: 'y', y0: wall.y, y1: wall.y,
                    line: { color: colour, width: 2, dash: 'dash' }
                  }]);
                  layout.annotations = (layout.annotations || []).concat([{
                    xref: 'paper', x: 1, xanchor: 'right', yref: 'y', y: wall.y, yanchor: 'bottom',
                    text: wall.label, showarrow: false, font: { color: colour }
                  }]);
                });
                return newPlot.call(Plotly, target, data, layout, config);
              };
            })();
            """;

    /**
     * tablesaw-jsplot writes titles as plain strings, which plotly.js 3 no longer draws: they are
     * rewritten as {text: …} before the plot is made. A page opened as {@code page.html?png} (the
     * screenshot) leaves out the toolbar that would otherwise sit on top of the picture.
     */
    static final String TITLES_AND_TOOLBAR = """
            (function () {
              function wrapTitle(owner) {
                if (owner && typeof owner.title === 'string') owner.title = { text: owner.title };
              }
              var newPlot = Plotly.newPlot;
              Plotly.newPlot = function (target, data, layout, config) {
                layout = layout || {};
                wrapTitle(layout);
                Object.keys(layout).forEach(function (key) {
                  if (/^[xyz]axis[0-9]*$/.test(key)) wrapTitle(layout[key]);
                });
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

    /** Draws {@code page} into {@code png} with headless Chromium; false when there is no Chromium or it failed. */
    static boolean screenshot(Path page, Path png) throws IOException {
        String chromium = chromium();
        if (chromium == null) {
            return false;
        }
        Path profile = Files.createTempDirectory("chart-chromium-");
        try {
            List<String> command = new ArrayList<>(chromiumCommand(chromium, profile));
            command.add("--screenshot=" + png.toAbsolutePath());
            command.add("--window-size=" + CHART_WIDTH_PX + "," + CHART_HEIGHT_PX);
            command.add(page.toAbsolutePath().toUri() + "?png");
            return runChromium(command) && Files.isRegularFile(png);
        } finally {
            deleteTree(profile);
        }
    }

    /** The Chromium on PATH, or null. */
    static String chromium() {
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
            for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }

    /** Data missing or wrong: one line, and the notebook stops. */
    static void quit(String message) {
        System.err.println(message);
        System.exit(2);
    }
}
