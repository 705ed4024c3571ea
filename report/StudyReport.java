///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
//SOURCES ../lib/**/*.java
//SOURCES StudyResults.java
//SOURCES CommittedMachines.java
//COMPILE_OPTIONS --add-modules jdk.incubator.vector
//RUNTIME_OPTIONS --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED

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
import lib.cli.Sizes;
import lib.harness.Stats;

/**
 * One machine's report on one page: {@code results/MACHINE/index.html}, written from the CSVs, the
 * charts, the flame graphs and {@code machine.json} in that folder. Every table is built here from
 * the CSVs; the charts are the notebooks' PNGs, embedded by relative path, so the page opens
 * offline, from a clone or a copy of the folder.
 *
 * <p>The rows are the notebooks' (report/StudyResults.java reads and chooses them for both): one
 * study, on this machine, its newest row of each chapter, worker count, cache and read size. Rows
 * left out, and rows that cannot be read (named by file and line), are listed at the end of the
 * page. Every value from a CSV or machine.json reaches the page through {@link StudyResults#html}.
 *
 * <pre>
 * How to run (from the project's root):   ./jbang report/StudyReport.java results/amd-epyc-2c-avx512
 * </pre>
 * The study ({@code ./jbang study/Study.java}) writes the report itself as its last step.
 */
public final class StudyReport {

    private final Path folder;
    private final StudyResults.Folder results;
    /** What was left out, and why: shown at the end of the page. */
    private final List<String> leftOut = new ArrayList<>();
    private final List<String> chartsShown = new ArrayList<>();
    /** A folder committed with the project: its page links only files a clone has ({@link #isCommitted}). */
    private final boolean committed;

    private StudyReport(Path folder) {
        this.folder = folder;
        this.results = StudyResults.folder(folder);
        this.committed = isCommitted(folder);
    }

    public static void main(String[] args) {
        if (args.length != 1 || args[0].startsWith("-")) {
            System.err.println("usage: ./jbang report/StudyReport.java results/MACHINE   (writes results/MACHINE/index.html)");
            System.exit(2);
        }
        try {
            System.out.println("report: " + write(Path.of(args[0])));
        } catch (IOException | UncheckedIOException | IllegalArgumentException e) {
            System.err.println("StudyReport: " + e.getMessage());
            System.exit(2);
        }
    }

    /**
     * Writes {@code folder/index.html} and returns it: through a partial file, removed when the
     * page could not be written whole, so that a page is either there or not announced at all.
     */
    public static Path write(Path folder) throws IOException {
        if (!Files.isDirectory(folder)) {
            throw new IllegalArgumentException(folder + " is not a directory: give a machine's results folder, results/MACHINE");
        }
        Path index = folder.resolve("index.html");
        if (Files.exists(index) && !isThisReports(Files.readString(index, StandardCharsets.UTF_8))) {
            throw new IllegalArgumentException(index + " exists and was not written by this report; left it alone");
        }
        String page = new StudyReport(folder).page();
        Path partial = folder.resolve(".index.html.partial");
        try {
            Files.writeString(partial, page, StandardCharsets.UTF_8);
            Files.move(partial, index, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(partial);
        }
        return index;
    }

    /** The page's first line: what marks an index.html as this report's, the only one it replaces. */
    static final String MARK = "<!DOCTYPE html><!-- the study's report, written by report/StudyReport.java -->";

    /** The first line of a page written while this file was report/StudyReport.java: still this report's own. */
    private static final String MARK_FROM_TOOLS = "<!DOCTYPE html><!-- the study's report, written by report/StudyReport.java -->";

    private static boolean isThisReports(String page) {
        return page.startsWith(MARK) || page.startsWith(MARK_FROM_TOOLS);
    }

    /** This study's rows of {@code table} with {@code cache} (null: both); a table that is no results CSV is left out whole, and said. */
    private List<StudyResults.Row> rows(String table, String cache) {
        try {
            StudyResults.Selection selection = results.select(table, cache);
            leftOut.addAll(selection.notes());
            return selection.rows();
        } catch (StudyResults.NotResultsException notResults) {
            leftOut.add(notResults.getMessage());
            return List.of();
        }
    }

    private String page() throws IOException {
        StudyResults.Description machine = results.description;
        leftOut.addAll(machine.problems());
        if (!Files.isRegularFile(folder.resolve("machine.json"))) {
            leftOut.add("the machine's description: no machine.json in " + folder);
        }
        List<StudyResults.Row> scoreboard = rows("scoreboard", "warm"), scaling = rows("scaling", "warm"), cold = rows("cold", "cold"),
                chunks = rows("chunks", "warm"), pageCache = rows("pagecache", "warm"), wallRows = rows("wall", "warm");
        List<StudyResults.Row> versusGo;
        try {
            StudyResults.Selection rounds = results.everyRound("versus-go");
            leftOut.addAll(rounds.notes());
            versusGo = rounds.rows();
        } catch (StudyResults.NotResultsException notResults) {
            leftOut.add(notResults.getMessage());
            versusGo = List.of();
        }
        List<StudyResults.Wall> walls = results.walls();

        String machineName = machine.text("name").orElse(folder.getFileName().toString());
        StringBuilder html = new StringBuilder(MARK).append("\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<title>").append(escape(machineName)).append(": needle in a haystack</title>\n<style>").append(STYLE).append("</style>\n</head>\n<body>\n");
        html.append("<h1>Needle in a haystack, on <code>").append(escape(machineName)).append("</code></h1>\n");
        html.append("<p>").append(escape(summary(machine, scoreboard))).append("</p>\n");
        List<String> trial = results.trialReasons(Stream.of(scoreboard, scaling, cold, wallRows, chunks).flatMap(List::stream).toList());
        if (!trial.isEmpty()) {
            html.append("<p class=\"trial\"><strong>Trial</strong>: ").append(escape(String.join(", ", trial)))
                    .append(". These figures are for trying the tools, not for comparing machines.</p>\n");
        }
        html.append(contents());
        if (committed) {
            html.append("<p class=\"how\">Each chart here is a picture. Its interactive page (zoom, values on hover) is not kept "
                    + "with the project, as each carries all of plotly.js: <code>./jbang study/Study.java --report-only --machine ")
                    .append(escape(folder.toAbsolutePath().normalize().getFileName().toString()))
                    .append("</code> draws them into <code>charts/</code>, from this folder's CSVs.</p>\n");
        }

        section(html, "scoreboard", "The scoreboard", "Every chapter with a warm page cache, one worker per processor; "
                + "× ch. 1 is the speed-up over chapter 1 (MB/s over its MB/s), % of wall the share of the memory-read wall, "
                + "Go the article's figure on its own machine (" + StudyResults.articleMachine() + "). "
                + "Then the bill from the kernel, per GiB searched, the median of the timed runs: read calls, bytes those "
                + "reads copied out, page faults (minor and major) and context switches (voluntary and involuntary); "
                + "– where the row has no bill (older studies, or a system that does not count it).");
        html.append(scoreboardTable(scoreboard, walls));
        machine.text(StudyResults.NOT_ON_THIS_CPU).ifPresent(chapters ->
                html.append("<p>Not run on this CPU, which lacks what they need: ").append(escape(chapters)).append(".</p>\n"));
        charts(html, png -> png.startsWith("scoreboard"));

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
                    + "on the same haystack (versus-go.csv): each side's MB/s is the median over rounds of each call's median run.");
            html.append(versusGoTable(versusGo));
            charts(html, png -> png.startsWith("versus-go"));
        }

        section(html, "scaling", "Scaling: MB/s against workers", "The parallel chapters at every worker count of the sweep; the best of each row in bold.");
        html.append(grid(scaling, StudyResults.Row::workers, Long::toString, "workers"));
        charts(html, png -> png.startsWith("scaling"));

        section(html, "cold", "Warm against cold", "The file evicted from the page cache before every run, against the warm scoreboard; "
                + "the article's cold figures beside them.");
        html.append(coldTable(scoreboard, cold)).append(fioTable(StudyResults.fioComparison(results)));
        charts(html, png -> png.startsWith("warm-vs-cold") || png.startsWith("cold"));

        section(html, "walls", "The walls", "What no chapter can beat: WallMemoryRead reads a copy of the file in memory with "
                + "the 256-bit kernel (the ceiling for the mapped chapters), WallPageCacheCopy copies the cached file with "
                + "positional reads and scans nothing (the ceiling for the reading chapters).");
        html.append(grid(wallRows, StudyResults.Row::workers, Long::toString, "workers"));
        walls.stream().filter(wall -> !wall.beatenBy().isEmpty())
                .forEach(wall -> html.append("<p class=\"beaten\">").append(escape(wall.beatenNote())).append(".</p>\n"));
        charts(html, png -> png.startsWith("wall"));

        section(html, "chunks", "The read size", "Chapters 3 and 13 at every read size (bytes per read).");
        html.append(grid(chunks, row -> row.chunkBytes() == null ? 0 : row.chunkBytes(), Sizes::human, "read size"));
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
        for (String file : List.of("scoreboard.csv", "pagecache.csv", "scaling.csv", "cold.csv", "fio.csv", "wall.csv", "chunks.csv", "versus-go.csv", "machine.json")) {
            if (Files.exists(folder.resolve(file))) {
                html.append("<li><a href=\"").append(file).append("\">").append(file).append("</a></li>\n");
            }
        }
        html.append("</ul>\n");
        if (!leftOut.isEmpty()) {
            html.append("<p>Left out of this page:</p>\n<ul class=\"left-out\">\n");
            new java.util.LinkedHashSet<>(leftOut).forEach(line -> html.append("<li>").append(escape(line)).append("</li>\n"));
            html.append("</ul>\n");
        }
        html.append("<p class=\"how\">Your own machine's report: <code>./jbang study/Study.java</code> from the project's root "
                + "writes <code>results/&lt;your machine&gt;/index.html</code>.</p>\n</body>\n</html>\n");
        return html.toString();
    }

    /** A row's chapter, with its page cache where the table holds rows of more than one (small or huge folios). */
    private static String chapterLabel(StudyResults.Row row, List<StudyResults.Row> table) {
        boolean several = table.stream().map(StudyResults.Row::pageCache).distinct().count() > 1;
        return row.chapter() + (several ? " (" + row.pageCache() + " page cache)" : "");
    }

    private String summary(StudyResults.Description machine, List<StudyResults.Row> scoreboard) {
        String cpu = text(machine, "cpu_model") + ", " + text(machine, "logical_cores") + " processors, "
                + (machine.flag("avx512") ? "AVX-512" : machine.flag("avx2") ? "AVX2" : "no AVX2")
                + ", " + machine.number("memory_bytes").map(Sizes::human).orElse("?")
                + " of memory, " + text(machine, "kernel") + ", " + text(machine, "jdk");
        if (scoreboard.isEmpty()) {
            return cpu + ". No scoreboard yet.";
        }
        StudyResults.Row first = scoreboard.getFirst();
        String dates = scoreboard.stream().map(row -> row.date().replaceFirst("T.*", "")).distinct().sorted().collect(Collectors.joining(" to "));
        return cpu + ". Measured on " + dates + " on a " + Sizes.human(results.mainFileBytes()) + " haystack, " + first.runs()
                + " timed runs after " + first.warmupRuns() + " warm-up"
                + (first.runs() >= StudyResults.FULL_RUNS ? " (the fastest and slowest dropped)" : "") + ".";
    }

    private static String text(StudyResults.Description machine, String key) {
        return machine.text(key).orElse("?");
    }

    // ---- tables

    /** The memory-read wall (plain pages) or the 2 MiB-page one, when measured. */
    private static Optional<StudyResults.Wall> wall(List<StudyResults.Wall> walls, String probe) {
        return walls.stream().filter(wall -> wall.probe().equals(probe)).findFirst();
    }

    /** A chapter's share of a wall, or the line that says it beat the wall (a share over 100 % would mean nothing). */
    private static String share(double mbps, Optional<StudyResults.Wall> wall) {
        return wall.map(w -> w.percentOf(mbps).stream().mapToObj(StudyReport::percentage).findFirst()
                .orElse("<span class=\"beaten\">" + escape(StudyResults.Wall.ABOVE) + "</span>")).orElse("–");
    }

    private String scoreboardTable(List<StudyResults.Row> scoreboard, List<StudyResults.Wall> walls) {
        if (scoreboard.isEmpty()) {
            return missing("scoreboard.csv");
        }
        Optional<StudyResults.Wall> wall = wall(walls, "WallMemoryRead");
        Optional<StudyResults.Row> one = scoreboard.stream().filter(row -> row.number().equals("V01")).findFirst();
        Optional<String> noBase = one.flatMap(row -> whyNotABase(row, scoreboard));
        Optional<Double> chapterOne = noBase.isPresent() ? Optional.empty() : one.map(StudyResults.Row::mbps);
        Map<String, StudyResults.ArticleRow> article = StudyResults.articleByNumber("scoreboard");
        List<List<String>> cells = new ArrayList<>();
        double best = scoreboard.stream().mapToDouble(StudyResults.Row::mbps).max().orElse(0);
        for (StudyResults.Row row : scoreboard) {
            boolean fastest = row.mbps() == best;
            cells.add(List.of(escape(row.number().replaceFirst("^V0?", "")), "<code>" + escape(chapterLabel(row, scoreboard)) + "</code>",
                    Integer.toString(row.workers()), bold(fastest, seconds(row.meanSeconds())),
                    row.medianSeconds() == null ? "–" : seconds(row.medianSeconds()), bold(fastest, mbps(row.mbps())),
                    chapterOne.map(base -> String.format(Locale.ROOT, "%.1f", row.mbps() / base)).orElse("–"),
                    share(row.mbps(), wall),
                    Optional.ofNullable(article.get(row.number())).map(StudyResults.ArticleRow::mbps).map(StudyReport::mbps).orElse("–"),
                    count(row, "reads", "read_calls"), bytesPerGiB(row.billPerGiB("returned_bytes")),
                    count(row, "faults", "minor_faults", "major_faults"),
                    count(row, "switches", "voluntary_switches", "involuntary_switches")));
        }
        String wallLine = wall.map(w -> "<p>Memory-read wall: " + mbps(w.mbps()) + " MB/s (the best WallMemoryRead row of wall.csv).</p>\n"
                        + (w.beatenBy().isEmpty() ? "" : "<p class=\"beaten\">" + escape(w.beatenNote()) + ".</p>\n"))
                .orElse("<p>No memory-read wall measured (wall.csv), so no % of wall.</p>\n");
        List<String> headings = new ArrayList<>(List.of("#", "chapter", "workers", "mean s", "median s", "MB/s", "× ch. 1", "% of wall",
                "Go MB/s", "reads per GiB", "copied per GiB", "faults per GiB", "switches per GiB"));
        if (noBase.isPresent()) { // the column out, and a line that says why
            int column = headings.indexOf("× ch. 1");
            headings.remove(column);
            cells = cells.stream().map(line -> {
                List<String> kept = new ArrayList<>(line);
                kept.remove(column);
                return (List<String>) kept;
            }).toList();
        }
        return table(headings, cells) + noBase.map(why -> "<p>× ch. 1 is left out: " + escape(why) + ".</p>\n").orElse("") + wallLine;
    }

    /**
     * Why chapter 1's row cannot be the base of every "× ch. 1" ratio, or empty when it can: one timed
     * run (a budget or --quick can leave one slow run, with no warm-up), or fewer runs than every
     * other chapter had, and too few to trim.
     */
    static Optional<String> whyNotABase(StudyResults.Row chapterOne, List<StudyResults.Row> scoreboard) {
        int fewestOthers = scoreboard.stream().filter(row -> row != chapterOne).mapToInt(StudyResults.Row::runs).min().orElse(chapterOne.runs());
        if (chapterOne.runs() < 2) {
            return Optional.of("chapter 1 has " + chapterOne.runs() + " timed run" + (chapterOne.runs() == 1 ? "" : "s")
                    + (chapterOne.warmupRuns() == 0 ? " and no warm-up" : "") + " in this study, too few to be the base of every ratio");
        }
        if (chapterOne.runs() < fewestOthers && chapterOne.runs() < lib.harness.Stats.RUNS_TO_TRIM) {
            return Optional.of("chapter 1 has " + chapterOne.runs() + " timed runs where every other chapter has at least "
                    + fewestOthers + ", too few to be the base of every ratio");
        }
        return Optional.empty();
    }

    /**
     * The sum of the bill's {@code columns} of {@code row} per GiB, in words ("1,024 reads"), or "–"
     * where the row lacks any of them. The figures were read as numbers (StudyResults), and the text
     * is escaped all the same, as every value from a CSV is.
     */
    private static String count(StudyResults.Row row, String unit, String... columns) {
        double sum = 0;
        for (String column : columns) {
            Double perGiB = row.billPerGiB(column);
            if (perGiB == null) {
                return "–";
            }
            sum += perGiB;
        }
        String figure = sum >= 100 ? String.format(Locale.ROOT, "%,.0f", sum) : String.format(Locale.ROOT, "%.1f", sum).replaceFirst("\\.0$", "");
        return escape(figure + " " + unit);
    }

    /** Bytes per GiB searched in binary units ("1.0 GiB", "0 B"), or "–" where not counted. */
    private static String bytesPerGiB(Double perGiB) {
        return perGiB == null ? "–" : escape(StudyResults.binarySize(Math.round(perGiB)));
    }

    /** One line per mapped chapter: MB/s and PMD-mapped share with small folios, then with 2 MiB ones, against the 2 MiB wall. */
    private String pageCacheTable(List<StudyResults.Row> pageCache, List<StudyResults.Wall> walls) {
        Optional<StudyResults.Wall> hugeWall = wall(walls, "WallMemoryReadHuge");
        Map<String, Map<String, StudyResults.Row>> byChapter = new TreeMap<>();
        pageCache.forEach(row -> byChapter.computeIfAbsent(row.chapter(), c -> new TreeMap<>()).put(row.pageCache(), row));
        List<List<String>> cells = new ArrayList<>();
        byChapter.forEach((chapter, states) -> {
            List<String> line = new ArrayList<>(List.of("<code>" + escape(chapter) + "</code>"));
            for (String state : List.of("small", "huge")) {
                Optional<StudyResults.Row> row = Optional.ofNullable(states.get(state));
                line.add(row.map(r -> mbps(r.mbps())).orElse("–"));
                line.add(row.map(StudyResults.Row::pmdMappedPercent).map(pct -> String.format(Locale.ROOT, "%.1f %%", pct)).orElse("–"));
            }
            line.add(Optional.ofNullable(states.get("huge")).map(r -> share(r.mbps(), hugeWall)).orElse("–"));
            cells.add(line);
        });
        return table(List.of("chapter", "small MB/s", "PMD-mapped", "huge MB/s", "PMD-mapped", "huge, % of 2 MiB wall"), cells)
                + hugeWall.map(w -> "<p>Memory-read wall on 2 MiB pages: " + mbps(w.mbps()) + " MB/s (the best WallMemoryReadHuge row of wall.csv).</p>\n")
                        .orElse("<p>No 2 MiB-page memory wall measured (wall.csv).</p>\n");
    }

    /** Rows are chapters, columns the values of {@code column} in numeric order, cells MB/s. */
    private String grid(List<StudyResults.Row> rows, java.util.function.ToLongFunction<StudyResults.Row> column,
                        java.util.function.LongFunction<String> heading, String what) {
        if (rows.isEmpty()) {
            return "<p>Not measured in this study.</p>\n";
        }
        TreeSet<Long> values = rows.stream().map(column::applyAsLong).collect(Collectors.toCollection(TreeSet::new));
        Map<String, Map<Long, Double>> byChapter = new LinkedHashMap<>();
        for (StudyResults.Row row : rows) {
            byChapter.computeIfAbsent(chapterLabel(row, rows) + (row.cache().equals("warm") ? "" : " (" + row.cache() + ")"), c -> new TreeMap<>())
                    .put(column.applyAsLong(row), row.mbps());
        }
        List<String> headings = new ArrayList<>(List.of("chapter \\ " + what));
        values.forEach(value -> headings.add(heading.apply(value)));
        List<List<String>> cells = new ArrayList<>();
        byChapter.forEach((chapter, mbpsByValue) -> {
            double best = mbpsByValue.values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
            List<String> line = new ArrayList<>(List.of("<code>" + escape(chapter) + "</code>"));
            values.forEach(value -> line.add(Optional.ofNullable(mbpsByValue.get(value)).map(m -> bold(m == best, mbps(m))).orElse("–")));
            cells.add(line);
        });
        return table(headings, cells) + "<p>MB/s.</p>\n";
    }

    private String coldTable(List<StudyResults.Row> scoreboard, List<StudyResults.Row> cold) {
        if (cold.isEmpty()) {
            return "<p>Not measured in this study.</p>\n";
        }
        Map<String, StudyResults.ArticleRow> article = StudyResults.articleByNumber("cold");
        List<List<String>> cells = new ArrayList<>();
        for (StudyResults.Row row : cold) {
            Optional<StudyResults.Row> warm = scoreboard.stream().filter(w -> w.chapter().equals(row.chapter())).findFirst();
            cells.add(List.of("<code>" + escape(row.chapter()) + "</code>", Integer.toString(row.workers()),
                    warm.map(w -> mbps(w.mbps())).orElse("–"), mbps(row.mbps()),
                    Optional.ofNullable(article.get(row.number())).map(StudyResults.ArticleRow::coldMbps).map(StudyReport::mbps).orElse("–"),
                    bytesPerGiB(row.billPerGiB("device_bytes")), count(row, "major", "major_faults")));
        }
        return table(List.of("chapter", "workers", "warm MB/s", "cold MB/s", "Go cold MB/s", "from the device per GiB",
                "major faults per GiB"), cells);
    }

    /** Each cold chapter as a fraction of fio's best in fio.csv's newest sitting; or the one line that says why not. */
    private String fioTable(StudyResults.FioComparison fio) {
        leftOut.addAll(fio.notes());
        if (fio.fractions().isEmpty()) {
            return "<p>" + escape(fio.line()) + "</p>\n";
        }
        List<List<String>> cells = new ArrayList<>();
        for (StudyResults.FioFraction f : fio.fractions()) {
            cells.add(List.of("<code>" + escape(f.chapter()) + "</code>", Integer.toString(f.workers()), escape(Sizes.human(f.chunkBytes())),
                    mbps(f.chapterMbps()), escape(f.fioJob()), mbps(f.fioMbps()), String.format(Locale.ROOT, "%.2f", f.fraction()),
                    f.checkingJob().isEmpty() ? "–" : escape(f.checkingJob()), f.checkingJob().isEmpty() ? "–" : mbps(f.checkingMbps()),
                    f.checkingFraction().stream().mapToObj(x -> String.format(Locale.ROOT, "%.2f", x)).findFirst().orElse("–"),
                    f.chapterRounds() + " / " + f.fioRounds()));
        }
        return "<p>Beside fio, the same file read with the same read size and jobs, interleaved over rounds (fio.csv, the sitting of "
                + escape(fio.sittingDate()) + "): each chapter's median MB/s over the rounds, against fio's best O_DIRECT job "
                + "(engine, queue depth, buffer page size), each job by its own median; and against its best job that also checks "
                + "every byte is zero as it lands (<code>--verify=pattern</code>), as a chapter scans every byte.</p>\n"
                + table(List.of("chapter", "workers", "read size", "cold MB/s", "fio's best job", "fio MB/s", "× fio",
                        "fio's best checking job", "checking MB/s", "× fio checking", "rounds (chapter / fio)"), cells);
    }

    private String warmupTable(List<StudyResults.Row> scoreboard) {
        List<List<String>> cells = new ArrayList<>();
        for (StudyResults.Row row : scoreboard) {
            double[] timed = row.runSeconds();
            if (timed.length == 0) {
                continue;
            }
            double median = Stats.median(timed);
            double[] warmup = row.warmupSeconds();
            double first = warmup.length > 0 ? warmup[0] : timed[0];
            cells.add(List.of("<code>" + escape(row.chapter()) + "</code>", secondsList(warmup), secondsList(timed),
                    String.format(Locale.ROOT, "%.1f", first / median)));
        }
        return cells.isEmpty() ? "<p>No runs recorded.</p>\n"
                : table(List.of("chapter", "warm-up runs, s", "timed runs, s", "first run ÷ median"), cells);
    }

    private static String secondsList(double[] seconds) {
        return Arrays.stream(seconds).mapToObj(s -> String.format(Locale.ROOT, "%.6f", s)).collect(Collectors.joining(" "));
    }

    /** The pairs as every reader reads versus-go.csv ({@link StudyResults#versusGo}): README's table gives the same figures. */
    private String versusGoTable(List<StudyResults.Row> rows) {
        List<List<String>> cells = new ArrayList<>();
        for (StudyResults.GoPair pair : StudyResults.versusGo(rows)) {
            boolean paired = !pair.rounds().isEmpty();
            cells.add(List.of(Integer.toString(pair.number()), "<code>" + escape(pair.javaChapter()) + "</code>",
                    paired ? mbps(pair.goMbps()) : "–", paired ? mbps(pair.javaMbps()) : "–",
                    pair.ratioText(), pair.rangeText(), pair.verdict().word, escape(pair.roundsText())));
        }
        return table(List.of("pair", "Java", "Go MB/s", "Java MB/s", "Java ÷ Go", "rounds' range", "Java is", "rounds"), cells)
                + "<p>" + escape(StudyResults.VERSUS_GO_RULE) + ".</p>\n";
    }

    private String machineTable(StudyResults.Description machine) {
        if (machine.fields().isEmpty()) {
            return "<p>No machine.json in this folder.</p>\n";
        }
        List<List<String>> cells = new ArrayList<>();
        machine.fields().forEach((key, value) -> cells.add(List.of("<code>" + escape(key) + "</code>",
                value == null ? "<em>not recorded</em>" : escape(value))));
        return table(List.of("field", "value"), cells);
    }

    private String flameGraphs() throws IOException {
        Path dir = folder.resolve("flamegraphs");
        if (!Files.isDirectory(dir)) {
            return "<p>None in this study: <code>./jbang study/Study.java --flamegraphs</code> records them.</p>\n";
        }
        try (Stream<Path> files = Files.list(dir)) {
            List<String> names = files.map(path -> path.getFileName().toString()).filter(name -> name.endsWith(".html")).sorted().toList();
            return names.stream().map(name -> "<a href=\"flamegraphs/" + url(name) + "\">" + escape(name.replaceFirst("\\.html$", "")) + "</a>")
                    .collect(Collectors.joining(" · ", "<p class=\"links\">", "</p>\n"));
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
            html.append("<p class=\"nochart\">No chart: the notebooks draw them (headless Chromium makes the PNGs; setup/setup-chromium installs it).</p>\n");
            return;
        }
        html.append("<div class=\"charts\">\n");
        for (String png : chosen) {
            chartsShown.add(png);
            String page = png.replaceFirst("\\.png$", ".html");
            html.append("<figure><img src=\"charts/").append(url(png)).append("\" alt=\"").append(escape(png)).append("\">");
            html.append("<figcaption>").append(escape(png));
            if (!committed && Files.exists(folder.resolve("charts").resolve(page))) {
                html.append(" · <a href=\"charts/").append(url(page)).append("\">interactive</a>");
            }
            html.append("</figcaption></figure>\n");
        }
        html.append("</div>\n");
    }

    /**
     * Whether this folder is one committed with the project (results/committed-machines.txt). Its
     * report is read in a clone, which has the PNGs but not the interactive pages beside them (each
     * carries all of plotly.js, about 11 MB, so git ignores them): it links none, and says once how
     * to draw them. A study's own folder links the pages it drew.
     */
    private static boolean isCommitted(Path folder) {
        Path root = folder.toAbsolutePath().normalize().getParent();
        return root != null && CommittedMachines.of(root).orElse(java.util.Set.of()).contains(folder.toAbsolutePath().normalize().getFileName().toString());
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

    private static String seconds(double seconds) {
        return String.format(Locale.ROOT, "%.3f", seconds);
    }

    private static String percentage(double percent) {
        return String.format(Locale.ROOT, percent < 1 ? "%.1f" : "%.0f", percent);
    }

    /** Every value from a CSV or machine.json goes through this one function on its way into the page. */
    static String escape(String text) {
        return StudyResults.html(text);
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
            figcaption { font-size: 0.8rem; color: #666; } nav { margin: 1rem 0; } .nochart { color: #777; } .beaten { color: #8a4b00; }
            """;
}
