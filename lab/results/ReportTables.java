// The study's tables, each built once from a machine's rows as a Table: README's and the docs' blocks write
// it as Markdown (lab/report/ReadmeBlocks.java), the report page as HTML (lab/report/StudyReport.java), a
// tool as text.

package lab.results;

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
import java.util.function.Function;
import java.util.stream.Collectors;
import lib.cli.Sizes;
import lib.counters.Stats;

/**
 * One method a table, from the rows its caller chose (the report's through ResultsFolder, README's
 * through ReadmeResults), for an {@link Audience}: the book's blocks show fewer columns than the report.
 */
public final class ReportTables {

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
        return wall.map(w -> w.percentOf(mbps).stream().mapToObj(ReportHtml::percentage).findFirst().orElse(MemoryWall.ABOVE)).orElse("–");
    }

    /** Who reads a table: the book shows the figures its lessons rest on, the report every figure the study has. */
    public enum Audience { BOOK, REPORT }

    /** One column of a table built from rows: its head, its cell for each row, and whether this audience's table shows it. */
    private record Column<T>(boolean shown, Object heading, Function<T, Object> cell) {}

    @SafeVarargs
    private static <T> Table table(List<T> rows, Column<T>... columns) {
        List<Column<T>> shown = Arrays.stream(columns).filter(Column::shown).toList();
        Table table = new Table(shown.stream().map(Column::heading).toList());
        rows.forEach(row -> table.row(shown.stream().map(column -> column.cell().apply(row)).toList()));
        return table;
    }

    /**
     * The scoreboard, one row a chapter: its time, MB/s, speed-up over chapter 1 and the article's
     * figure ({@code article}); for the book the share PMD-mapped where any row has one; for the report
     * the median, the share of {@code wall}, the kernel's bill, the fastest row in bold, and no
     * × ch. 1 where chapter 1 cannot be a base ({@link #whyNotABase}). The book shows a ratio below
     * chapter 1's to two places, where one would round a slow chapter away.
     */
    public static Table scoreboard(List<StudyResults.Row> rows, Audience audience, Function<StudyResults.Row, Optional<ArticleFigures.ArticleRow>> article, Optional<MemoryWall> wall) {
        boolean report = audience == Audience.REPORT;
        Optional<StudyResults.Row> one = rows.stream().filter(row -> row.number().equals("V01")).findFirst();
        double base = one.map(StudyResults.Row::mbps).orElse(Double.NaN), best = rows.stream().mapToDouble(StudyResults.Row::mbps).max().orElse(0);
        return table(rows, new Column<>(true, "#", row -> row.number().replaceFirst("^V0?", "")),
                new Column<>(true, "chapter", row -> Table.code(chapterLabel(row, rows))), new Column<>(true, "workers", StudyResults.Row::workers),
                new Column<>(true, "s", row -> Table.strong(report && row.mbps() == best, Table.seconds(row.typicalSeconds()))),
                new Column<>(report, "median s", row -> Table.seconds(row.medianSeconds())),
                new Column<>(true, "MB/s", row -> Table.strong(report && row.mbps() == best, Table.mbps(row.mbps()))),
                new Column<>(!report || one.flatMap(row -> whyNotABase(row, rows)).isEmpty(), "× ch. 1", row -> Double.isNaN(base) ? "–"
                        : String.format(Locale.ROOT, !report && row.mbps() < base ? "%.2f" : "%.1f", row.mbps() / base)),
                new Column<>(!report && rows.stream().anyMatch(row -> row.pmdMappedPercent() != null), "PMD-mapped", row -> percent(row.pmdMappedPercent())),
                new Column<>(report, "% of wall", row -> share(row.mbps(), wall)),
                new Column<>(true, report ? "Go MB/s" : "the article (Go), MB/s", row -> article.apply(row).map(ArticleFigures.ArticleRow::mbps).map(Table::mbps).orElse("–")),
                new Column<>(report, "reads per GiB", row -> count(row, "reads", "read_calls_per_gib")),
                new Column<>(report, "copied per GiB", row -> bytesPerGiB(row.billPerGiB("returned_bytes_per_gib"))),
                new Column<>(report, "faults per GiB", row -> count(row, "faults", "minor_faults_per_gib", "major_faults_per_gib")),
                new Column<>(report, "switches per GiB", row -> count(row, "switches", "voluntary_switches_per_gib", "involuntary_switches_per_gib")));
    }

    /** The report's scoreboard: the table, why × ch. 1 is left out if it is, and the memory-read wall. */
    public static String scoreboardHtml(List<StudyResults.Row> scoreboard, List<MemoryWall> walls) {
        if (scoreboard.isEmpty()) {
            return "<p>No scoreboard.csv in this folder.</p>\n";
        }
        Optional<MemoryWall> wall = wall(walls, "WallMemoryRead");
        Map<String, ArticleFigures.ArticleRow> article = ArticleFigures.byNumber("scoreboard");
        Optional<String> noBase = scoreboard.stream().filter(row -> row.number().equals("V01")).findFirst().flatMap(row -> whyNotABase(row, scoreboard));
        String wallLine = wall.map(w -> "<p>Memory-read wall: " + Table.mbps(w.mbps()) + " MB/s (the best WallMemoryRead row of wall.csv).</p>\n"
                        + (w.beatenBy().isEmpty() ? "" : "<p class=\"beaten\">" + ReportHtml.escape(w.beatenNote()) + ".</p>\n"))
                .orElse("<p>No memory-read wall measured (wall.csv), so no % of wall.</p>\n");
        return scoreboard(scoreboard, Audience.REPORT, row -> Optional.ofNullable(article.get(row.number())), wall).html()
                + noBase.map(why -> "<p>× ch. 1 is left out: " + ReportHtml.escape(why) + ".</p>\n").orElse("") + wallLine;
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

    /** What a refill's head says of its folios, under each page-cache table. */
    public static final String KIB_A_FAULT = "KiB a fault: a GiB over the rows' minor faults per GiB, 64 in 4 KiB folios "
            + "(with the kernel's fault-around), 2,048 in 2 MiB ones";

    /** The key of a chapter's row with the page cache as the study found it, beside its refills. */
    private static final String AS_FOUND = "as found";

    /** A chapter of the page-cache round, with its newest row of each page cache. */
    private record Refills(String chapter, Map<String, StudyResults.Row> rows) {}

    /**
     * The mapped chapters refilled with {@code --page-cache small} and {@code huge}, each refill's
     * column headed by what its rows held ({@link #refilled}); for the book also the chapter as found
     * ({@code asFound}) and each state's minor faults per GiB, for the report the huge one's share of
     * the 2 MiB-page wall.
     */
    public static Table pageCache(List<StudyResults.Row> asFound, List<StudyResults.Row> rounds, Audience audience, Optional<MemoryWall> hugeWall) {
        boolean book = audience == Audience.BOOK;
        Map<String, Map<String, StudyResults.Row>> byChapter = new TreeMap<>(); // each chapter's newest row of each page cache
        rounds.forEach(row -> byChapter.computeIfAbsent(row.chapter(), chapter -> new TreeMap<>()).put(row.pageCache(), row));
        asFound.stream().filter(row -> byChapter.containsKey(row.chapter())).forEach(row -> byChapter.get(row.chapter()).put(AS_FOUND, row));
        List<Refills> chapters = byChapter.entrySet().stream().map(chapter -> new Refills(chapter.getKey(), chapter.getValue())).toList();
        Function<StudyResults.Row, Object> mbps = row -> Table.mbps(row.mbps()), faults = row -> Table.mbps(row.billPerGiB("minor_faults_per_gib")),
                pmd = row -> percent(row.pmdMappedPercent());
        return table(chapters, new Column<>(true, "chapter", chapter -> Table.code(chapter.chapter())), of(book, "as found, MB/s", AS_FOUND, mbps),
                of(book, "faults per GiB", AS_FOUND, faults), of(book, "PMD-mapped", AS_FOUND, pmd),
                refilled("small", chapters), of(book, "faults per GiB", "small", faults), of(!book, "PMD-mapped", "small", pmd),
                refilled("huge", chapters), of(book, "faults per GiB", "huge", faults), of(true, "PMD-mapped", "huge", pmd),
                of(!book, "huge, % of 2 MiB wall", "huge", row -> share(row.mbps(), hugeWall)));
    }

    /** The report's page-cache table, and the 2 MiB-page wall it is set against. */
    public static String pageCacheHtml(List<StudyResults.Row> pageCache, List<MemoryWall> walls) {
        Optional<MemoryWall> hugeWall = wall(walls, "WallMemoryReadHuge");
        return pageCache(List.of(), pageCache, Audience.REPORT, hugeWall).html() + "<p>" + ReportHtml.escape(KIB_A_FAULT) + ".</p>\n"
                + hugeWall.map(w -> "<p>Memory-read wall on 2 MiB pages: " + Table.mbps(w.mbps()) + " MB/s (the best WallMemoryReadHuge row of wall.csv).</p>\n")
                        .orElse("<p>No 2 MiB-page memory wall measured (wall.csv).</p>\n");
    }

    /** A column of each chapter's row of {@code pageCache}, "–" where it has none. */
    private static Column<Refills> of(boolean shown, Object heading, String pageCache, Function<StudyResults.Row, Object> cell) {
        return new Column<>(shown, heading, chapter -> Optional.ofNullable(chapter.rows().get(pageCache)).map(cell).orElse("–"));
    }

    /**
     * A refill's MB/s, headed by what its rows held rather than by what was asked for: the KiB each
     * minor fault mapped ({@link #kibPerFault}), one figure where every row agrees within a quarter;
     * where they do not (a cache left in folios of several sizes), each cell says its own.
     */
    private static Column<Refills> refilled(String state, List<Refills> chapters) {
        List<StudyResults.Row> rows = chapters.stream().map(chapter -> chapter.rows().get(state)).filter(java.util.Objects::nonNull).toList();
        double[] kib = rows.stream().map(ReportTables::kibPerFault).flatMapToDouble(OptionalDouble::stream).sorted().toArray();
        boolean agree = kib.length > 0 && kib.length == rows.size() && kib[kib.length - 1] <= 1.25 * kib[0];
        return of(true, Table.join("refilled ", Table.code(state), agree ? " (about " + kibText(Stats.median(kib)) + ")"
                : kib.length == 0 ? " (no fault count)" : " (KiB a fault in each cell)", ", MB/s"), state, row -> Table.mbps(row.mbps())
                + (agree ? "" : kibPerFault(row).stream().mapToObj(each -> " (" + kibText(each) + ")").findFirst().orElse("")));
    }

    /**
     * The KiB one minor fault mapped in {@code row}: a GiB over its minor faults per GiB; where it
     * counted none, 2,048 if the kernel PMD-mapped it whole (one fault a 2 MiB folio), else unknown.
     */
    static OptionalDouble kibPerFault(StudyResults.Row row) {
        Double faults = row.billPerGiB("minor_faults_per_gib"), pmd = row.pmdMappedPercent();
        return faults != null && faults > 0 ? OptionalDouble.of((1 << 20) / faults)
                : pmd != null && pmd >= 99.95 ? OptionalDouble.of(2048) : OptionalDouble.empty();
    }

    private static String kibText(double kib) {
        return String.format(Locale.ROOT, "%,.0f KiB a fault", kib);
    }

    /** A share, or "–" where the row has none (a chapter that does not map the file). */
    public static String percent(Double value) {
        return value == null ? "–" : String.format(Locale.ROOT, "%.1f %%", value);
    }

    /** Rows are chapters, columns the values of {@code column} in numeric order, cells MB/s. */
    public static String grid(List<StudyResults.Row> rows, java.util.function.ToLongFunction<StudyResults.Row> column,
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

    /**
     * The cold round beside the same chapters warm (the first row of each in {@code warm}) and the
     * article's cold figures ({@code article}); for the report also the workers and the bill of the
     * device: bytes read from it and major faults, per GiB.
     */
    public static Table cold(List<StudyResults.Row> cold, List<StudyResults.Row> warm, Audience audience,
                      Function<StudyResults.Row, Optional<ArticleFigures.ArticleRow>> article) {
        boolean report = audience == Audience.REPORT;
        return table(cold, new Column<>(true, "chapter", row -> Table.code(row.chapter())), new Column<>(report, "workers", StudyResults.Row::workers),
                new Column<>(true, "warm MB/s", row -> warm.stream().filter(w -> w.chapter().equals(row.chapter())).findFirst().map(w -> Table.mbps(w.mbps())).orElse("–")),
                new Column<>(true, "cold MB/s", row -> Table.mbps(row.mbps())),
                new Column<>(true, report ? "Go cold MB/s" : "Go cold MB/s (the article)", row -> article.apply(row).map(ArticleFigures.ArticleRow::coldMbps).map(Table::mbps).orElse("–")),
                new Column<>(report, "from the device per GiB", row -> bytesPerGiB(row.billPerGiB("device_bytes_per_gib"))),
                new Column<>(report, "major faults per GiB", row -> count(row, "major", "major_faults_per_gib")));
    }

    public static String coldHtml(List<StudyResults.Row> scoreboard, List<StudyResults.Row> cold) {
        if (cold.isEmpty()) {
            return "<p>Not measured in this study.</p>\n";
        }
        Map<String, ArticleFigures.ArticleRow> article = ArticleFigures.byNumber("cold");
        return cold(cold, scoreboard, Audience.REPORT, row -> Optional.ofNullable(article.get(row.number()))).html();
    }

    /** Each cold chapter as a fraction of fio's best in fio.csv's newest sitting; or the one line that says why not. */
    public static String fioTable(FioBesideResults.FioComparison fio) {
        if (fio.fractions().isEmpty()) {
            return "<p>" + ReportHtml.escape(fio.line()) + "</p>\n";
        }
        Table table = new Table("chapter", "workers", "read size", "cold MB/s", "fio's best job", "fio MB/s", "× fio", "× fio, held out",
                "fio's best checking job", "checking MB/s", "× fio checking", "× fio checking, held out", "rounds (chapter / fio)");
        for (FioBesideResults.FioFraction f : fio.fractions()) {
            table.row(Table.code(f.chapter()), f.workers(), Sizes.human(f.chunkBytes()),
                    Table.mbps(f.chapterMbps()), f.fioJob(), Table.mbps(f.fioMbps()), fraction(OptionalDouble.of(f.fraction())), fraction(f.heldOut()),
                    f.checkingJob().isEmpty() ? "–" : f.checkingJob(), f.checkingJob().isEmpty() ? "–" : Table.mbps(f.checkingMbps()),
                    fraction(f.checkingFraction()), fraction(f.checkingHeldOut()), f.chapterRounds() + " / " + f.fioRounds());
        }
        return "<p>Beside fio, the same file read with the same read size and jobs, interleaved over rounds (fio.csv, the sitting of "
                + ReportHtml.escape(fio.sittingDate()) + "): each chapter's median MB/s over the rounds, against fio's best O_DIRECT job "
                + "(engine, queue depth, buffer page size), each job by its own median; and against its best job that also checks "
                + "every byte is zero as it lands (<code>--verify=pattern</code>), as a chapter scans every byte. The fastest of some "
                + "twenty noisy jobs is partly the luckiest, so <em>held out</em> judges fio's best in a round it was not chosen in: "
                + "for each round, the job with the best median over the other rounds; the median of the chapter's ratios to it.</p>\n"
                + table.html();
    }

    private static String fraction(OptionalDouble fraction) {
        return fraction.stream().mapToObj(x -> String.format(Locale.ROOT, "%.2f", x)).findFirst().orElse("–");
    }

    public static String warmupTable(List<StudyResults.Row> scoreboard) {
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
    public static Table versusGoTable(List<VersusGoPairs.GoPair> pairs) {
        Table table = new Table("pair", "Go MB/s", "Java MB/s", "Java ÷ Go", "rounds' range", "Java is", "rounds");
        for (VersusGoPairs.GoPair pair : pairs) {
            boolean paired = !pair.rounds().isEmpty();
            table.row(Table.join(pair.number() + " ", Table.code(pair.javaChapter())), paired ? Table.mbps(pair.goMbps()) : "–",
                    paired ? Table.mbps(pair.javaMbps()) : "–", pair.ratioText(), pair.rangeText(), pair.verdict().word, pair.roundsText());
        }
        return table;
    }

    public static String machineTable(MachineDescription machine) {
        if (machine.fields().isEmpty()) {
            return "<p>No machine.json in this folder.</p>\n";
        }
        Table table = new Table("field", "value");
        machine.fields().forEach((key, value) -> table.row(Table.code(key), value == null ? "not recorded" : value));
        return table.html();
    }
}
