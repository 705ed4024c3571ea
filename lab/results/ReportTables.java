// The report's tables (lab/report/StudyReport.java): each from this study's rows, a Table written as HTML.
// No package line, as every file of lab/report/.

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import lib.cli.Sizes;
import lib.counters.Stats;

/** The tables of one machine's report page, each from the rows lab/results/StudyResults.java chose. */
final class ReportTables {

    private ReportTables() {}

    /** A row's chapter, with its page cache where the table holds rows of more than one (small or huge folios). */
    private static String chapterLabel(StudyResults.Row row, List<StudyResults.Row> table) {
        boolean several = table.stream().map(StudyResults.Row::pageCache).distinct().count() > 1;
        return row.chapter() + (several ? " (" + row.pageCache() + " page cache)" : "");
    }

    /** The memory-read wall (plain pages) or the 2 MiB-page one, when measured. */
    private static Optional<MemoryWall> wall(List<MemoryWall> walls, String probe) {
        return walls.stream().filter(wall -> wall.probe().equals(probe)).findFirst();
    }

    /** A chapter's share of a wall, or the line that says it beat the wall (a share over 100 % would mean nothing). */
    private static String share(double mbps, Optional<MemoryWall> wall) {
        if (wall.isEmpty()) {
            return "–";
        }
        OptionalDouble percent = wall.get().percentOf(mbps);
        return percent.isPresent() ? ReportHtml.percentage(percent.getAsDouble()) : MemoryWall.ABOVE;
    }

    static String scoreboardTable(List<StudyResults.Row> scoreboard, List<MemoryWall> walls) {
        if (scoreboard.isEmpty()) {
            return ReportHtml.missing("scoreboard.csv");
        }
        Optional<MemoryWall> wall = wall(walls, "WallMemoryRead");
        Optional<StudyResults.Row> one = scoreboard.stream().filter(row -> row.number().equals("V01")).findFirst();
        Optional<String> noBase = one.flatMap(row -> whyNotABase(row, scoreboard));
        Optional<Double> chapterOne = noBase.isPresent() ? Optional.empty() : one.map(StudyResults.Row::mbps);
        Map<String, ArticleFigures.ArticleRow> article = ArticleFigures.byNumber("scoreboard");
        List<List<Object>> cells = new ArrayList<>();
        double best = scoreboard.stream().mapToDouble(StudyResults.Row::mbps).max().orElse(0);
        for (StudyResults.Row row : scoreboard) {
            boolean fastest = row.mbps() == best;
            cells.add(List.of(row.number().replaceFirst("^V0?", ""), Table.code(chapterLabel(row, scoreboard)),
                    row.workers(), Table.strong(fastest, Table.seconds(row.meanSeconds())),
                    Table.seconds(row.medianSeconds()), Table.strong(fastest, Table.mbps(row.mbps())),
                    chapterOne.map(base -> String.format(Locale.ROOT, "%.1f", row.mbps() / base)).orElse("–"),
                    share(row.mbps(), wall),
                    Optional.ofNullable(article.get(row.number())).map(ArticleFigures.ArticleRow::mbps).map(Table::mbps).orElse("–"),
                    count(row, "reads", "read_calls_per_gib"), bytesPerGiB(row.billPerGiB("returned_bytes_per_gib")),
                    count(row, "faults", "minor_faults_per_gib", "major_faults_per_gib"),
                    count(row, "switches", "voluntary_switches_per_gib", "involuntary_switches_per_gib")));
        }
        String wallLine = wall.map(w -> "<p>Memory-read wall: " + Table.mbps(w.mbps()) + " MB/s (the best WallMemoryRead row of wall.csv).</p>\n"
                        + (w.beatenBy().isEmpty() ? "" : "<p class=\"beaten\">" + ReportHtml.escape(w.beatenNote()) + ".</p>\n"))
                .orElse("<p>No memory-read wall measured (wall.csv), so no % of wall.</p>\n");
        List<String> headings = new ArrayList<>(List.of("#", "chapter", "workers", "mean s", "median s", "MB/s", "× ch. 1", "% of wall",
                "Go MB/s", "reads per GiB", "copied per GiB", "faults per GiB", "switches per GiB"));
        if (noBase.isPresent()) { // the column out, and a line that says why
            int column = headings.indexOf("× ch. 1");
            headings.remove(column);
            cells = cells.stream().map(line -> {
                List<Object> kept = new ArrayList<>(line);
                kept.remove(column);
                return kept;
            }).toList();
        }
        Table table = new Table(headings);
        cells.forEach(table::row);
        return table.html() + noBase.map(why -> "<p>× ch. 1 is left out: " + ReportHtml.escape(why) + ".</p>\n").orElse("") + wallLine;
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
        if (chapterOne.runs() < fewestOthers && chapterOne.runs() < lib.counters.Stats.RUNS_TO_TRIM) {
            return Optional.of("chapter 1 has " + chapterOne.runs() + " timed runs where every other chapter has at least "
                    + fewestOthers + ", too few to be the base of every ratio");
        }
        return Optional.empty();
    }

    /**
     * The sum of the bill's {@code columns} of {@code row} per GiB, in words ("1,024 reads"), or "–"
     * where the row lacks any of them.
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
        return figure + " " + unit;
    }

    /** Bytes per GiB searched in binary units ("1.0 GiB", "0 B"), or "–" where not counted. */
    private static String bytesPerGiB(Double perGiB) {
        return perGiB == null ? "–" : PageText.binarySize(Math.round(perGiB));
    }

    /** One line per mapped chapter: MB/s and PMD-mapped share with small folios, then with 2 MiB ones, against the 2 MiB wall. */
    static String pageCacheTable(List<StudyResults.Row> pageCache, List<MemoryWall> walls) {
        Optional<MemoryWall> hugeWall = wall(walls, "WallMemoryReadHuge");
        Map<String, Map<String, StudyResults.Row>> byChapter = new TreeMap<>();
        pageCache.forEach(row -> byChapter.computeIfAbsent(row.chapter(), c -> new TreeMap<>()).put(row.pageCache(), row));
        Table table = new Table("chapter", "small MB/s", "PMD-mapped", "huge MB/s", "PMD-mapped", "huge, % of 2 MiB wall");
        byChapter.forEach((chapter, states) -> {
            List<Object> line = new ArrayList<>(List.of(Table.code(chapter)));
            for (String state : List.of("small", "huge")) {
                Optional<StudyResults.Row> row = Optional.ofNullable(states.get(state));
                line.add(row.map(r -> Table.mbps(r.mbps())).orElse("–"));
                line.add(row.map(StudyResults.Row::pmdMappedPercent).map(pct -> String.format(Locale.ROOT, "%.1f %%", pct)).orElse("–"));
            }
            line.add(Optional.ofNullable(states.get("huge")).map(r -> share(r.mbps(), hugeWall)).orElse("–"));
            table.row(line);
        });
        return table.html() + hugeWall.map(w -> "<p>Memory-read wall on 2 MiB pages: " + Table.mbps(w.mbps()) + " MB/s (the best WallMemoryReadHuge row of wall.csv).</p>\n")
                        .orElse("<p>No 2 MiB-page memory wall measured (wall.csv).</p>\n");
    }

    /** Rows are chapters, columns the values of {@code column} in numeric order, cells MB/s. */
    static String grid(List<StudyResults.Row> rows, java.util.function.ToLongFunction<StudyResults.Row> column,
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
        Table table = new Table(headings);
        byChapter.forEach((chapter, mbpsByValue) -> {
            double best = mbpsByValue.values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
            List<Object> line = new ArrayList<>(List.of(Table.code(chapter)));
            values.forEach(value -> line.add(Optional.ofNullable(mbpsByValue.get(value)).<Object>map(m -> Table.strong(m == best, Table.mbps(m))).orElse("–")));
            table.row(line);
        });
        return table.html() + "<p>MB/s.</p>\n";
    }

    static String coldTable(List<StudyResults.Row> scoreboard, List<StudyResults.Row> cold) {
        if (cold.isEmpty()) {
            return "<p>Not measured in this study.</p>\n";
        }
        Map<String, ArticleFigures.ArticleRow> article = ArticleFigures.byNumber("cold");
        Table table = new Table("chapter", "workers", "warm MB/s", "cold MB/s", "Go cold MB/s", "from the device per GiB", "major faults per GiB");
        for (StudyResults.Row row : cold) {
            Optional<StudyResults.Row> warm = scoreboard.stream().filter(w -> w.chapter().equals(row.chapter())).findFirst();
            table.row(Table.code(row.chapter()), row.workers(),
                    warm.map(w -> Table.mbps(w.mbps())).orElse("–"), Table.mbps(row.mbps()),
                    Optional.ofNullable(article.get(row.number())).map(ArticleFigures.ArticleRow::coldMbps).map(Table::mbps).orElse("–"),
                    bytesPerGiB(row.billPerGiB("device_bytes_per_gib")), count(row, "major", "major_faults_per_gib"));
        }
        return table.html();
    }

    /** Each cold chapter as a fraction of fio's best in fio.csv's newest sitting; or the one line that says why not. */
    static String fioTable(FioBesideResults.FioComparison fio) {
        if (fio.fractions().isEmpty()) {
            return "<p>" + ReportHtml.escape(fio.line()) + "</p>\n";
        }
        Table table = new Table("chapter", "workers", "read size", "cold MB/s", "fio's best job", "fio MB/s", "× fio",
                "fio's best checking job", "checking MB/s", "× fio checking", "rounds (chapter / fio)");
        for (FioBesideResults.FioFraction f : fio.fractions()) {
            table.row(Table.code(f.chapter()), f.workers(), Sizes.human(f.chunkBytes()),
                    Table.mbps(f.chapterMbps()), f.fioJob(), Table.mbps(f.fioMbps()), String.format(Locale.ROOT, "%.2f", f.fraction()),
                    f.checkingJob().isEmpty() ? "–" : f.checkingJob(), f.checkingJob().isEmpty() ? "–" : Table.mbps(f.checkingMbps()),
                    f.checkingFraction().stream().mapToObj(x -> String.format(Locale.ROOT, "%.2f", x)).findFirst().orElse("–"),
                    f.chapterRounds() + " / " + f.fioRounds());
        }
        return "<p>Beside fio, the same file read with the same read size and jobs, interleaved over rounds (fio.csv, the sitting of "
                + ReportHtml.escape(fio.sittingDate()) + "): each chapter's median MB/s over the rounds, against fio's best O_DIRECT job "
                + "(engine, queue depth, buffer page size), each job by its own median; and against its best job that also checks "
                + "every byte is zero as it lands (<code>--verify=pattern</code>), as a chapter scans every byte.</p>\n"
                + table.html();
    }

    static String warmupTable(List<StudyResults.Row> scoreboard) {
        Table table = new Table("chapter", "warm-up runs, s", "timed runs, s", "first run ÷ median");
        for (StudyResults.Row row : scoreboard) {
            double[] timed = row.runSeconds();
            if (timed.length == 0) {
                continue;
            }
            double median = Stats.median(timed);
            double[] warmup = row.warmupSeconds();
            double first = warmup.length > 0 ? warmup[0] : timed[0];
            table.row(Table.code(row.chapter()), secondsList(warmup), secondsList(timed), String.format(Locale.ROOT, "%.1f", first / median));
        }
        return table.isEmpty() ? "<p>No runs recorded.</p>\n" : table.html();
    }

    private static String secondsList(double[] seconds) {
        return Arrays.stream(seconds).mapToObj(s -> String.format(Locale.ROOT, "%.6f", s)).collect(Collectors.joining(" "));
    }

    /**
     * The Go pairs as every reader reads versus-go.csv ({@link VersusGoPairs#pairs}), one table for
     * the report and README: per pair, the median of its rounds' ratios, the lowest and highest round,
     * and the mark (ahead, behind, tie).
     */
    static Table versusGoTable(List<VersusGoPairs.GoPair> pairs) {
        Table table = new Table("pair", "Go MB/s", "Java MB/s", "Java ÷ Go", "rounds' range", "Java is", "rounds");
        for (VersusGoPairs.GoPair pair : pairs) {
            boolean paired = !pair.rounds().isEmpty();
            table.row(Table.join(pair.number() + " ", Table.code(pair.javaChapter())), paired ? Table.mbps(pair.goMbps()) : "–",
                    paired ? Table.mbps(pair.javaMbps()) : "–", pair.ratioText(), pair.rangeText(), pair.verdict().word, pair.roundsText());
        }
        return table;
    }

    static String machineTable(MachineDescription machine) {
        if (machine.fields().isEmpty()) {
            return "<p>No machine.json in this folder.</p>\n";
        }
        Table table = new Table("field", "value");
        machine.fields().forEach((key, value) -> table.row(Table.code(key), value == null ? "not recorded" : value));
        return table.html();
    }
}
