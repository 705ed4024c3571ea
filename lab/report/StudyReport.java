///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
//SOURCES ../Lab.java BookVerdicts.java ClaimEvaluator.java BookClaims.java ClaimGroups.java ReadmeResults.java CostModel.java
//COMPILE_OPTIONS --add-modules jdk.incubator.vector
//RUNTIME_OPTIONS --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import lab.results.*;
import lib.cli.Sizes;
import lab.tools.AtomicWrite;

/**
 * One machine's report on one page: {@code results/MACHINE/index.html}, written from the CSVs, the
 * charts, the flame graphs and {@code machine.json} in that folder. Every table is built here from
 * the CSVs; the charts are the notebooks' PNGs, embedded by relative path, so the page opens
 * offline, from a clone or a copy of the folder.
 *
 * <p>The rows are the notebooks' (lab/results/StudyResults.java reads and chooses them for both): one
 * study, on this machine, its newest row of each chapter, worker count, cache and read size. Rows
 * left out, and rows that cannot be read (named by file and line), are listed at the end of the
 * page. Every value from a CSV or machine.json reaches the page through {@link PageText#html}.
 *
 * <pre>
 * How to run (from the project's root):   ./jbang lab/report/StudyReport.java results/amd-epyc-2c-avx512
 * </pre>
 * The study ({@code ./jbang study}) writes the report itself as its last step.
 */
public final class StudyReport {

    private final Path folder;
    private final ResultsFolder results;
    /** What was left out, and why: shown at the end of the page. */
    private final List<String> leftOut = new ArrayList<>();
    private final List<String> chartsShown = new ArrayList<>();
    /** A folder committed with the project: its page links only files a clone has ({@link #isCommitted}). */
    private final boolean committed;

    private StudyReport(Path folder) {
        this.folder = folder;
        this.results = ResultsFolder.folder(folder);
        this.committed = isCommitted(folder);
    }

    public static void main(String[] args) {
        System.exit(execute(args, System.out, System.err));
    }

    /** The command line as a method, for tests: returns the exit status. */
    static int execute(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
            out.println("Usage: ./jbang lab/report/StudyReport.java results/MACHINE");
            out.println("Writes results/MACHINE/index.html, the report of one machine's study, from the CSVs, machine.json and charts there");
            out.println("(replacing only a page this report wrote). Exit status: 0 written; 2 an error (one line on stderr).");
            return 0;
        }
        if (args.length != 1 || args[0].startsWith("-")) {
            err.println("usage: ./jbang lab/report/StudyReport.java results/MACHINE   (writes results/MACHINE/index.html; --help says more)");
            return 2;
        }
        try {
            out.println("report: " + write(Path.of(args[0])));
            return 0;
        } catch (IOException | UncheckedIOException | IllegalArgumentException e) {
            err.println("StudyReport: " + (e instanceof IOException io ? lib.cli.IoMessage.of(io) : e.getMessage()));
            return 2;
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
        // AtomicWrite writes where a link points: a link here could send the page over a file outside the folder.
        if (Files.isSymbolicLink(index)) {
            throw new IllegalArgumentException(index + " is a symbolic link; the report never writes through one: left it alone");
        }
        if (Files.exists(index, java.nio.file.LinkOption.NOFOLLOW_LINKS) && !Files.isRegularFile(index, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            throw new IllegalArgumentException(index + " is not a regular file; left it alone");
        }
        if (Files.exists(index) && MARKS.stream().noneMatch(Files.readString(index, StandardCharsets.UTF_8)::startsWith)) {
            throw new IllegalArgumentException(index + " exists and was not written by this report; left it alone");
        }
        String page = new StudyReport(folder).page();
        try {
            AtomicWrite.write(index, page);
        } catch (IOException e) {
            throw lib.cli.IoMessage.naming(index, e); // a full disk's message names no file
        }
        return index;
    }

    /** The page's first line: what marks an index.html as this report's, the only one it replaces. */
    static final String MARK = "<!DOCTYPE html><!-- the study's report, written by lab/report/StudyReport.java -->";

    /** The marks this report has written, from each of its places in the project: a page it wrote before it moved is still its own. */
    static final List<String> MARKS = List.of(MARK, MARK.replace("lab/report/", "report/"), MARK.replace("lab/report/", "tools/"));

    /** This study's rows of {@code table} with {@code cache} (null: both); a table that is no results CSV is left out whole, and said. */
    private List<StudyResults.Row> rows(String table, String cache) {
        return rows(() -> results.select(table, cache));
    }

    /** The rows a selection chose, its notes kept for the page's end; a table that is no results CSV is left out whole, and said. */
    private List<StudyResults.Row> rows(Supplier<ResultsFolder.Selection> select) {
        try {
            ResultsFolder.Selection selection = select.get();
            leftOut.addAll(selection.notes());
            return selection.rows();
        } catch (StudyResults.NotResultsException notResults) {
            leftOut.add(notResults.getMessage());
            return List.of();
        }
    }

    private String page() throws IOException {
        MachineDescription machine = results.description;
        leftOut.addAll(machine.problems());
        if (!Files.isRegularFile(folder.resolve("machine.json"))) {
            leftOut.add("the machine's description: no machine.json in " + folder);
        }
        List<StudyResults.Row> scoreboard = rows("scoreboard", "warm"), scaling = rows("scaling", "warm"), cold = rows("cold", "cold"),
                chunks = rows("chunks", "warm"), pageCache = rows("pagecache", "warm"), wallRows = rows("wall", "warm");
        List<StudyResults.Row> versusGo = rows(() -> results.everyRound("versus-go"));
        List<MemoryWall> walls = results.walls();

        String machineName = machine.text("name").orElse(folder.getFileName().toString());
        StringBuilder html = new StringBuilder(MARK).append("\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<title>").append(ReportHtml.escape(machineName)).append(": needle in a haystack</title>\n<style>").append(ReportHtml.STYLE).append("</style>\n</head>\n<body>\n");
        html.append("<h1>Needle in a haystack, on <code>").append(ReportHtml.escape(machineName)).append("</code></h1>\n");
        html.append("<p>").append(ReportHtml.escape(summary(machine, scoreboard))).append("</p>\n");
        List<String> trial = results.trialReasons(Stream.of(scoreboard, scaling, cold, wallRows, chunks).flatMap(List::stream).toList());
        if (!trial.isEmpty()) {
            html.append("<p class=\"trial\"><strong>Trial</strong>: ").append(ReportHtml.escape(String.join(", ", trial)))
                    .append(". These figures are for trying the tools, not for comparing machines.</p>\n");
        }
        html.append(ReportHtml.CONTENTS_PLACE);
        if (committed) {
            html.append("<p class=\"how\">Each chart here is a picture. Its interactive page (zoom, values on hover) is not kept "
                    + "with the project, as each carries all of plotly.js: <code>./jbang study --report-only --machine ")
                    .append(ReportHtml.escape(folder.toAbsolutePath().normalize().getFileName().toString()))
                    .append("</code> draws them into <code>charts/</code>, from this folder's CSVs.</p>\n");
        }

        ReportHtml.section(html, "scoreboard", "The scoreboard", "Every chapter with a warm page cache, one worker per processor; "
                + "× ch. 1 is the speed-up over chapter 1 (MB/s over its MB/s), % of wall the share of the memory-read wall, "
                + "Go the article's figure on its own machine (" + ArticleFigures.machine() + "). "
                + "Then the bill from the kernel, per GiB searched, the median of the timed runs: read calls, bytes those "
                + "reads copied out, page faults (minor and major) and context switches (voluntary and involuntary); "
                + "– where the row has no bill (older studies, or a system that does not count it).");
        html.append(ReportTables.scoreboardHtml(scoreboard, walls));
        machine.text(MachineDescription.NOT_ON_THIS_CPU).ifPresent(chapters ->
                html.append("<p>Not run on this CPU, which lacks what they need: ").append(ReportHtml.escape(chapters)).append(".</p>\n"));
        charts(html, png -> png.startsWith("scoreboard"));

        bookSection(html);

        if (!pageCache.isEmpty()) {
            ReportHtml.section(html, "pagecache", "The page cache in small and in 2 MiB folios", "The mapped chapters again, with the "
                    + "cache refilled before their runs with small (4 KiB folios asked for; a cache already whole in folios under 2 MiB is kept) and "
                    + "with huge (2 MiB folios) (pagecache.csv); "
                    + "PMD-mapped is the share of each mapping the kernel mapped 2 MiB at a time, as the run recorded it.");
            html.append(ReportTables.pageCacheHtml(pageCache, walls));
        }

        ReportHtml.section(html, "article", "Against the article", versusGo.isEmpty()
                ? "The article's Go figures come from another machine: compare the shapes, not the numbers."
                : "The article's own Go code, run on this machine beside the Java chapters (versus-go.csv): "
                        + "each side's median over the sitting's rounds.");
        charts(html, png -> png.startsWith("vs-article"));

        if (!versusGo.isEmpty()) {
            ReportHtml.section(html, "go", "Go on this machine", "The article's Go benchmark and the matching Java chapters, alternately, "
                    + "on the same haystack (versus-go.csv): each side's MB/s is the median over rounds of each call's median run.");
            html.append(ReportTables.versusGoTable(VersusGoPairs.pairs(versusGo)).html()).append("<p>").append(ReportHtml.escape(VersusGoPairs.RULE)).append(".</p>\n");
            charts(html, png -> png.startsWith("versus-go"));
        }

        ReportHtml.section(html, "scaling", "Scaling: MB/s against workers", "The parallel chapters at every worker count of the sweep; the best of each row in bold.");
        html.append(ReportTables.grid(scaling, StudyResults.Row::workers, Long::toString, "workers"));
        charts(html, png -> png.startsWith("scaling"));

        ReportHtml.section(html, "cold", "Warm against cold", "The file evicted from the page cache before every run, against the warm scoreboard; "
                + "the article's cold figures beside them.");
        FioBesideResults.FioComparison fio = FioBesideResults.comparison(results);
        leftOut.addAll(fio.notes());
        html.append(ReportTables.coldHtml(scoreboard, cold)).append(ReportTables.fioTable(fio));
        charts(html, png -> png.startsWith("warm-vs-cold") || png.startsWith("cold"));

        ReportHtml.section(html, "walls", "The walls", "What no chapter can beat: WallMemoryRead reads a copy of the file in memory with "
                + "the 256-bit kernel (the ceiling for the mapped chapters), WallMemoryReadWidest with the CPU's widest vectors "
                + "(the ceiling for chapters 12 to 17, which scan with them), WallPageCacheCopy copies the cached file with "
                + "positional reads and scans nothing (the ceiling for the reading chapters).");
        html.append(ReportTables.grid(wallRows, StudyResults.Row::workers, Long::toString, "workers"));
        walls.stream().filter(wall -> !wall.beatenBy().isEmpty())
                .forEach(wall -> html.append("<p class=\"beaten\">").append(ReportHtml.escape(wall.beatenNote())).append(".</p>\n"));
        charts(html, png -> png.startsWith("wall"));

        if (pngs().stream().anyMatch(png -> png.startsWith("model"))) {
            ReportHtml.section(html, "model", "Why each chapter takes its time", "Each chapter's time predicted from its bill at this "
                    + "machine's unit costs (costs.csv) and walls, against the time measured: on the diagonal, the model's bound is why "
                    + "(lab/report/CostModel.java, docs/cost-model.md).");
            charts(html, png -> png.startsWith("model"));
        }

        ReportHtml.section(html, "chunks", "The read size", "Chapters 3 and 13 at every read size (bytes per read).");
        html.append(ReportTables.grid(chunks, row -> row.chunkBytes() == null ? 0 : row.chunkBytes(), Sizes::human, "read size"));
        charts(html, png -> png.startsWith("chunks"));

        ReportHtml.section(html, "warmup", "JIT warm-up", "Every run of the scoreboard in order, the untimed warm-up runs first.");
        html.append(ReportTables.warmupTable(scoreboard));
        charts(html, png -> png.startsWith("warmup"));

        ReportHtml.section(html, "flamegraphs", "Flame graphs", "One per chapter (async-profiler, sampling the timed runs), to open in a browser.");
        html.append(flameGraphs());

        List<String> others = pngs().stream().filter(png -> !chartsShown.contains(png)).toList();
        if (!others.isEmpty()) {
            ReportHtml.section(html, "other", "Other charts", "");
            charts(html, others::contains);
        }

        ReportHtml.section(html, "machine", "The machine", "From machine.json, written by the study.");
        html.append(ReportTables.machineTable(machine));

        ReportHtml.section(html, "files", "The data", "Everything on this page comes from these files; results/README.md documents every column.");
        html.append("<ul>\n");
        for (String file : List.of("scoreboard.csv", "pagecache.csv", "scaling.csv", "cold.csv", "fio.csv", "wall.csv", "chunks.csv", "versus-go.csv", "costs.csv", "model.csv", "machine.json")) {
            if (Files.exists(folder.resolve(file))) {
                html.append("<li><a href=\"").append(file).append("\">").append(file).append("</a></li>\n");
            }
        }
        html.append("</ul>\n");
        if (!leftOut.isEmpty()) {
            html.append("<p>Left out of this page:</p>\n<ul class=\"left-out\">\n");
            new java.util.LinkedHashSet<>(leftOut).forEach(line -> html.append("<li>").append(ReportHtml.escape(line)).append("</li>\n"));
            html.append("</ul>\n");
        }
        html.append("<p class=\"how\">Your own machine's report: <code>./jbang study</code> from the project's root "
                + "writes <code>results/&lt;your machine&gt;/index.html</code>.</p>\n</body>\n</html>\n");
        return ReportHtml.withContents(html.toString());
    }

    /**
     * "The book on this machine": every lesson of the book that carries claims, judged on this
     * folder by the book's own check (lab/report/BookVerdicts.java), as {@code CheckBook --judge} prints
     * it. The book's pages are read from the current folder, the project's root, where the study
     * runs; elsewhere the section says so.
     */
    private void bookSection(StringBuilder html) {
        ReportHtml.section(html, "book", "The book on this machine", "Every lesson of the book (README.md, docs/) that carries "
                + "claims, judged on this folder's figures by the book's own check, with the figures each rests on. A claim written for "
                + "another machine is tried here too, and marked as that machine's: where this machine differs, and by how much. "
                + "The same from the command line: ./jbang lessons " + folder + ".");
        BookVerdicts.Judgement judgement;
        try {
            judgement = BookVerdicts.ofTheBook(folder);
        } catch (lib.cli.UserMistakeException | IOException | UncheckedIOException e) {
            html.append("<p>The book's lessons could not be judged here: ").append(ReportHtml.escape(e.getMessage()))
                    .append(" (the report reads the book's pages from the project's root, where the study runs).</p>\n");
            return;
        }
        leftOut.addAll(judgement.leftOut());
        html.append("<p class=\"tally\"><strong>").append(ReportHtml.escape(judgement.tally())).append("</strong></p>\n<ul class=\"book\">\n");
        for (BookVerdicts.Lesson lesson : judgement.lessons()) {
            html.append("<li class=\"").append(lesson.verdict().name().toLowerCase(Locale.ROOT).replace('_', '-')).append("\">")
                    .append(ReportHtml.escape(judgement.lessonLine(lesson))).append("\n<ul>");
            judgement.claimLines(lesson).forEach(claim -> html.append("<li>").append(ReportHtml.escape(claim)).append("</li>"));
            html.append("</ul></li>\n");
        }
        html.append("</ul>\n");
    }

    private String summary(MachineDescription machine, List<StudyResults.Row> scoreboard) {
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

    private static String text(MachineDescription machine, String key) {
        return machine.text(key).orElse("?");
    }

    // ---- tables

    private String flameGraphs() throws IOException {
        Path dir = folder.resolve("flamegraphs");
        if (!Files.isDirectory(dir)) {
            return "<p>None in this study: <code>./jbang study --flamegraphs</code> records them.</p>\n";
        }
        try (Stream<Path> files = Files.list(dir)) {
            List<String> names = files.map(path -> path.getFileName().toString()).filter(name -> name.endsWith(".html")).sorted().toList();
            return names.stream().map(name -> "<a href=\"flamegraphs/" + ReportHtml.url(name) + "\">" + ReportHtml.escape(name.replaceFirst("\\.html$", "")) + "</a>")
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
            html.append("<p class=\"nochart\">No chart: the notebooks draw them (headless Chromium makes the PNGs; lab/setup/setup-chromium installs it).</p>\n");
            return;
        }
        html.append("<div class=\"charts\">\n");
        for (String png : chosen) {
            chartsShown.add(png);
            String page = png.replaceFirst("\\.png$", ".html");
            html.append("<figure><img src=\"charts/").append(ReportHtml.url(png)).append("\" alt=\"").append(ReportHtml.escape(png)).append("\">");
            html.append("<figcaption>").append(ReportHtml.escape(png));
            if (!committed && Files.exists(folder.resolve("charts").resolve(page))) {
                html.append(" · <a href=\"charts/").append(ReportHtml.url(page)).append("\">interactive</a>");
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
}