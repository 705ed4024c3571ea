///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
//SOURCES ../lib/*.java
//SOURCES StudyResults.java
//COMPILE_OPTIONS --add-modules jdk.incubator.vector
//RUNTIME_OPTIONS --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED

import java.io.IOException;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import lib.Quote;
import lib.Stats;
import lib.UserMistakeException;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * Keeps the tables of README.md and results/README.md equal to what the committed CSVs give.
 *
 * <p>A table in those files sits between two markers, and everything between them is this tool's:
 *
 * <pre>
 * &lt;!-- generated:scoreboard machine=amd-epyc-f26m2-2c-avx512 --&gt;
 * | # | chapter | … |
 * &lt;!-- /generated --&gt;
 * </pre>
 *
 * <pre>
 * How to run:   ./jbang tools/ReadmeTables.java            # rewrite every block from results/
 *               ./jbang tools/ReadmeTables.java --check    # exit 1, naming each block that differs
 *               ./jbang tools/ReadmeTables.java --results DIR FILE...
 * </pre>
 *
 * <p>Each kind of block is one entry of {@link #KINDS}: a name and a method from the results to
 * Markdown. A table for a new CSV is one entry and one short method built on {@link Results#rows}
 * and {@link Table}, for instance a sweep of file sizes:
 *
 * <pre>
 * KINDS.put("sizes", ReadmeTables::sizes);
 *
 * static String sizes(Results results, Block block) {
 *     Table table = new Table("chapter", "file", "MB/s");
 *     for (Row row : results.rowsOfEverySize(block.parameter("machine"), "sizes.csv")) {
 *         table.row(chapterLink(row.chapter()), Sizes.human(row.fileBytes()), mbps(row.mbps()));
 *     }
 *     return table.markdown() + "\n" + source(block, "sizes.csv") + ".\n";
 * }
 * </pre>
 *
 * Exit status: 0 every block is as the CSVs give it (or was rewritten so),
 * 1 with {@code --check} a block differs, 2 a usage error, an unknown block or a CSV that does not
 * read (one line).
 */
public final class ReadmeTables {

    static final Path RESULTS = Path.of("results");
    static final List<Path> DOCUMENTS = List.of(Path.of("README.md"), RESULTS.resolve("README.md"));

    static final Pattern OPENING = Pattern.compile("<!-- generated:([a-z-]+)((?: [a-z]+=[A-Za-z0-9._-]+)*) -->");
    static final String CLOSING = "<!-- /generated -->";
    static final long FOUR_GIB = 4L << 30;

    /** One kind of generated block: its Markdown, from the results and the block's parameters. */
    interface Kind {
        String markdown(Results results, Block block);
    }

    /** Every kind of block, by the name its marker gives. */
    static final Map<String, Kind> KINDS = new LinkedHashMap<>();
    static {
        KINDS.put("machines", ReadmeTables::machines);
        KINDS.put("scoreboard", ReadmeTables::scoreboard);
        KINDS.put("figure", ReadmeTables::figure);
        KINDS.put("pagecache", ReadmeTables::pageCache);
        KINDS.put("walls", ReadmeTables::walls);
        KINDS.put("scaling", ReadmeTables::scaling);
        KINDS.put("cold", ReadmeTables::cold);
        KINDS.put("chunks", ReadmeTables::chunks);
        KINDS.put("versus-go", ReadmeTables::versusGo);
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        boolean check = false;
        Path results = RESULTS;
        List<Path> documents = new ArrayList<>();
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--check" -> check = true;
                    case "--results" -> {
                        if (++i == args.length) {
                            throw new UserMistakeException("--results needs a folder");
                        }
                        results = Path.of(args[i]);
                    }
                    case "--help", "-h" -> {
                        out.println("Usage: ./jbang tools/ReadmeTables.java [--check] [--results DIR] [FILE...]");
                        out.println("Rewrites the generated tables of FILE (default: README.md and results/README.md) from DIR's CSVs;");
                        out.println("with --check, rewrites nothing and exits 1 naming each block that differs.");
                        return 0;
                    }
                    default -> {
                        if (args[i].startsWith("-")) {
                            throw new UserMistakeException("unknown option " + Quote.name(args[i]) + " (--help lists them)");
                        }
                        documents.add(Path.of(args[i]));
                    }
                }
            }
            if (!Files.isDirectory(results)) {
                throw new UserMistakeException("no results folder " + Quote.name(results) + " (run from the project's root, or give --results DIR)");
            }
            int differing = 0;
            for (Path document : documents.isEmpty() ? DOCUMENTS : documents) {
                if (!Files.isRegularFile(document)) {
                    throw new UserMistakeException(Quote.name(document) + " is not a file");
                }
                String text = Files.readString(document);
                Results source = new Results(results, document.toAbsolutePath().getParent());
                List<String> differences = differences(document.toString(), text, source);
                differing += differences.size();
                if (check) {
                    differences.forEach(err::println);
                } else if (!differences.isEmpty()) {
                    replace(document, regenerate(document.toString(), text, source));
                    out.println(document + ": " + differences.size() + " block(s) rewritten from " + results);
                }
            }
            if (check && differing > 0) {
                err.println(differing + " generated block(s) differ from the CSVs: ./jbang tools/ReadmeTables.java rewrites them");
                return 1;
            }
            if (check) {
                out.println("every generated block is what the CSVs in " + results + " give");
            }
            return 0;
        } catch (UserMistakeException e) {
            err.println(e.getMessage());
            return 2;
        } catch (IOException e) {
            err.println("cannot read or write: " + e.getMessage());
            return 2;
        }
    }

    /** A generated block: where it is, what its marker asks for, and what it holds now. */
    record Block(String document, int line, String kind, Map<String, String> parameters, int contentStart, int contentEnd, String content) {

        String name() {
            return "generated:" + kind + parameters.entrySet().stream().map(p -> " " + p.getKey() + "=" + p.getValue()).collect(Collectors.joining());
        }

        String parameter(String key) {
            String value = parameters.get(key);
            if (value == null) {
                throw new UserMistakeException(document + ":" + line + ": block " + name() + " needs " + key + "=…");
            }
            return value;
        }
    }

    static List<Block> blocks(String document, String text) {
        List<Block> blocks = new ArrayList<>();
        Matcher opening = OPENING.matcher(text);
        int from = 0;
        while (opening.find(from)) {
            int line = lineOf(text, opening.start());
            if (!KINDS.containsKey(opening.group(1))) {
                throw new UserMistakeException(document + ":" + line + ": no kind of generated block is called "
                        + Quote.name(opening.group(1)) + " (known: " + String.join(", ", KINDS.keySet()) + ")");
            }
            Map<String, String> parameters = new TreeMap<>();
            for (String pair : opening.group(2).strip().split(" ")) {
                if (!pair.isEmpty()) {
                    parameters.put(pair.substring(0, pair.indexOf('=')), pair.substring(pair.indexOf('=') + 1));
                }
            }
            String kind = opening.group(1);
            int contentStart = opening.end() + 1;
            int closing = text.indexOf(CLOSING, opening.end());
            int nextOpening = text.indexOf("<!-- generated:", opening.end());
            if (contentStart > text.length() || text.charAt(opening.end()) != '\n' || closing < 0
                    || (nextOpening >= 0 && closing > nextOpening)) {
                throw new UserMistakeException(document + ":" + line + ": a generated block opens on a line of its own and ends with "
                        + CLOSING + " before the next one opens");
            }
            blocks.add(new Block(document, line, kind, parameters, contentStart, closing, text.substring(contentStart, closing)));
            from = closing + CLOSING.length();
        }
        return blocks;
    }

    /** One line per block of {@code text} whose content is not what the results give. */
    static List<String> differences(String document, String text, Results results) {
        List<String> differences = new ArrayList<>();
        for (Block block : blocks(document, text)) {
            if (!block.content().equals(generate(results, block))) {
                differences.add(document + ":" + block.line() + ": block " + block.name() + " differs from what the CSVs in "
                        + results.root() + " give");
            }
        }
        return differences;
    }

    static String regenerate(String document, String text, Results results) {
        StringBuilder rewritten = new StringBuilder();
        int done = 0;
        for (Block block : blocks(document, text)) {
            rewritten.append(text, done, block.contentStart()).append(generate(results, block));
            done = block.contentEnd();
        }
        return rewritten.append(text.substring(done)).toString();
    }

    static String generate(Results results, Block block) {
        try {
            String markdown = KINDS.get(block.kind()).markdown(results, block);
            return markdown.endsWith("\n") ? markdown : markdown + "\n";
        } catch (UserMistakeException e) {
            throw new UserMistakeException(block.document() + ":" + block.line() + ": block " + block.name() + ": " + e.getMessage());
        }
    }

    /** Writes beside the document and moves over it, so an interrupted run leaves the old file whole. */
    private static void replace(Path document, String text) throws IOException {
        Path temporary = Files.createTempFile(document.toAbsolutePath().getParent(), "." + document.getFileName(), ".partial");
        try {
            Files.writeString(temporary, text);
            try {
                Files.move(temporary, document, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, document, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(temporary);
        }
    }

    private static int lineOf(String text, int index) {
        return (int) text.substring(0, index).chars().filter(c -> c == '\n').count() + 1;
    }

    // ---------------------------------------------------------------------------------------------
    // The kinds of block. Each reads rows through Results and lays them out with Table.

    /** Every machine with a machine.json, with a link to its report. */
    static String machines(Results results, Block block) {
        Table table = new Table("machine (its report)", "CPU", "cores", "vectors", "memory", "kernel", "JDK", "file system", "THP", "study");
        for (String machine : results.machines()) {
            StudyResults.Description json = results.machineJson(machine);
            table.row(results.link(machine + "/index.html", "`" + machine + "`"), text(json, "cpu_model") + family(json),
                    text(json, "logical_cores"), text(json, "vector_bits") + "-bit",
                    json.number("memory_bytes").map(bytes -> String.format(Locale.ROOT, "%.0f GiB", bytes / (double) (1L << 30)))
                            .orElse("not recorded"),
                    text(json, "kernel"), text(json, "jdk"), text(json, "filesystem"), text(json, "thp_enabled"),
                    text(json, "date").length() >= 10 ? text(json, "date").substring(0, 10) : text(json, "date"));
        }
        return table.markdown();
    }

    /** Every chapter, warm, as the study found the page cache, beside the article's figure. */
    static String scoreboard(Results results, Block block) {
        List<Row> rows = results.rows(block.parameter("machine"), "scoreboard.csv").stream()
                .filter(row -> row.cache().equals("warm") && row.asFound()).toList();
        rows = newestOfEach(rows, Row::chapter);
        double chapterOne = rows.stream().filter(row -> row.number() == 1).mapToDouble(Row::mbps).findFirst().orElse(Double.NaN);
        boolean mapped = rows.stream().anyMatch(row -> row.pmdMappedPct().isPresent());
        Table table = mapped ? new Table("#", "chapter", "workers", "s", "MB/s", "× ch. 1", "PMD-mapped", "the article (Go), MB/s")
                : new Table("#", "chapter", "workers", "s", "MB/s", "× ch. 1", "the article (Go), MB/s");
        for (Row row : rows) {
            List<String> cells = new ArrayList<>(List.of(String.valueOf(row.number()), chapterLink(row.chapter()),
                    String.valueOf(row.workers()), seconds(row.meanS()), mbps(row.mbps()),
                    Double.isNaN(chapterOne) ? "–" : String.format(Locale.ROOT, row.mbps() < chapterOne ? "%.2f" : "%.1f", row.mbps() / chapterOne)));
            if (mapped) {
                cells.add(percent(row.pmdMappedPct()));
            }
            cells.add(results.article("scoreboard", row.number()).map(article -> mbps(article.mbps())).orElse("–"));
            table.row(cells.toArray(String[]::new));
        }
        return table.markdown() + "\n" + source(block, "scoreboard.csv") + "; s is the trimmed mean of the timed runs, "
                + "MB/s the file's bytes over it; the article's figures are from its own machine.\n";
    }

    /** One chapter's figures, for its section: warm, in 2 MiB folios where measured, cold where measured, and the article's. */
    static String figure(Results results, Block block) {
        String machine = block.parameter("machine");
        String chapter = block.parameter("chapter");
        List<String> parts = new ArrayList<>();
        newestOfEach(results.rows(machine, "scoreboard.csv").stream()
                .filter(row -> row.chapter().equals(chapter) && row.cache().equals("warm") && row.asFound()).toList(), Row::chapter)
                .forEach(row -> parts.add(seconds(row.meanS()) + " s, " + mbps(row.mbps()) + " MB/s" + workers(row)
                        + row.pmdMappedPct().stream().mapToObj(pct -> ", " + percent(pct) + " PMD-mapped").collect(Collectors.joining())
                        + " (`scoreboard.csv`)"));
        if (results.has(machine, "pagecache.csv")) {
            results.rows(machine, "pagecache.csv").stream()
                    .filter(row -> row.chapter().equals(chapter) && row.pageCache().equals("huge")).reduce((a, b) -> b)
                    .ifPresent(row -> parts.add("with the page cache in 2 MiB folios " + seconds(row.meanS()) + " s, " + mbps(row.mbps())
                            + " MB/s, " + percent(row.pmdMappedPct()) + " PMD-mapped (`pagecache.csv`)"));
        }
        if (results.has(machine, "cold.csv")) {
            results.rows(machine, "cold.csv").stream().filter(row -> row.chapter().equals(chapter)).reduce((a, b) -> b)
                    .ifPresent(row -> parts.add("cold " + seconds(row.meanS()) + " s, " + mbps(row.mbps()) + " MB/s (`cold.csv`)"));
        }
        if (parts.isEmpty()) {
            throw new UserMistakeException("no row of " + chapter + " in " + machine + "'s scoreboard, page-cache or cold round");
        }
        String article = results.article("scoreboard", Row.numberOf(chapter))
                .map(row -> " The article (Go, on its machine): " + seconds(row.meanS()) + " s, " + mbps(row.mbps()) + " MB/s.")
                .orElse("");
        return "Measured: " + String.join("; ", parts) + "." + article + "\n";
    }

    /** The mapped chapters with the cache as found, in 4 KiB folios and in 2 MiB folios. */
    static String pageCache(Results results, Block block) {
        String machine = block.parameter("machine");
        List<Row> asFound = results.rows(machine, "scoreboard.csv").stream().filter(row -> row.cache().equals("warm") && row.asFound()).toList();
        List<Row> rounds = results.rows(machine, "pagecache.csv");
        Table table = new Table("chapter", "as found, MB/s", "PMD-mapped", "4 KiB folios (`small`)", "2 MiB folios (`huge`)", "PMD-mapped");
        for (String chapter : rounds.stream().map(Row::chapter).collect(Collectors.toCollection(TreeSet::new))) {
            Optional<Row> found = asFound.stream().filter(row -> row.chapter().equals(chapter)).reduce((a, b) -> b);
            Optional<Row> small = rounds.stream().filter(row -> row.chapter().equals(chapter) && row.pageCache().equals("small")).reduce((a, b) -> b);
            Optional<Row> huge = rounds.stream().filter(row -> row.chapter().equals(chapter) && row.pageCache().equals("huge")).reduce((a, b) -> b);
            table.row(chapterLink(chapter), found.map(row -> mbps(row.mbps())).orElse("–"),
                    found.map(row -> percent(row.pmdMappedPct())).orElse("–"), small.map(row -> mbps(row.mbps())).orElse("–"),
                    huge.map(row -> mbps(row.mbps())).orElse("–"), huge.map(row -> percent(row.pmdMappedPct())).orElse("–"));
        }
        return table.markdown() + "\n" + source(block, "scoreboard.csv` and `pagecache.csv") + ", MB/s from each row's trimmed mean.\n";
    }

    /** The walls round: each probe at each worker count it ran. */
    static String walls(Results results, Block block) {
        List<Row> rows = results.rows(block.parameter("machine"), "wall.csv");
        TreeSet<Integer> workerCounts = rows.stream().map(Row::workers).collect(Collectors.toCollection(TreeSet::new));
        List<String> header = new ArrayList<>(List.of("wall"));
        workerCounts.forEach(count -> header.add(count + (count == 1 ? " thread" : " threads") + ", MB/s"));
        Table table = new Table(header.toArray(String[]::new));
        for (String wall : rows.stream().map(Row::chapter).distinct().toList()) {
            List<String> cells = new ArrayList<>(List.of("`" + wall + "`"));
            for (int count : workerCounts) {
                cells.add(rows.stream().filter(row -> row.chapter().equals(wall) && row.workers() == count).reduce((a, b) -> b)
                        .map(row -> mbps(row.mbps())).orElse("–"));
            }
            table.row(cells.toArray(String[]::new));
        }
        return table.markdown() + "\n" + source(block, "wall.csv") + ".\n";
    }

    /** The worker sweep: one worker, the best and where, beside the article's. */
    static String scaling(Results results, Block block) {
        List<Row> rows = results.rows(block.parameter("machine"), "scaling.csv");
        Table table = new Table("chapter", "1 worker", "best", "at", "Go: 1 worker", "Go: best", "at");
        for (String chapter : rows.stream().map(Row::chapter).collect(Collectors.toCollection(TreeSet::new))) {
            List<Row> sweep = newestOfEach(rows.stream().filter(row -> row.chapter().equals(chapter)).toList(), Row::workers);
            Optional<Row> one = sweep.stream().filter(row -> row.workers() == 1).findFirst();
            Row best = sweep.stream().max(Comparator.comparingDouble(Row::mbps)).orElseThrow();
            Optional<ArticleRow> article = results.article("scaling", Row.numberOf(chapter));
            table.row(chapterLink(chapter), one.map(row -> mbps(row.mbps())).orElse("–"), mbps(best.mbps()), String.valueOf(best.workers()),
                    article.map(row -> mbps(row.workersOneMbps())).orElse("–"), article.map(row -> mbps(row.peakMbps())).orElse("–"),
                    article.map(row -> String.valueOf(row.peakAt())).orElse("–"));
        }
        return table.markdown() + "\n" + source(block, "scaling.csv") + "; the Go columns are the article's, on its 12-thread machine.\n";
    }

    /** The cold round beside the same chapters warm, and the article's cold figures. */
    static String cold(Results results, Block block) {
        String machine = block.parameter("machine");
        List<Row> warm = results.rows(machine, "scoreboard.csv").stream().filter(row -> row.cache().equals("warm") && row.asFound()).toList();
        Table table = new Table("chapter", "warm MB/s", "cold MB/s", "Go cold MB/s (the article)");
        for (Row row : newestOfEach(results.rows(machine, "cold.csv"), Row::chapter)) {
            table.row(chapterLink(row.chapter()),
                    warm.stream().filter(w -> w.chapter().equals(row.chapter())).reduce((a, b) -> b).map(w -> mbps(w.mbps())).orElse("–"),
                    mbps(row.mbps()), results.article("cold", row.number()).map(article -> mbps(article.coldMbps())).orElse("–"));
        }
        return table.markdown() + "\n" + source(block, "cold.csv` and `scoreboard.csv") + ".\n";
    }

    /** The read-size round: MB/s of each chapter at each read size. */
    static String chunks(Results results, Block block) {
        List<Row> rows = results.rows(block.parameter("machine"), "chunks.csv");
        TreeSet<Long> sizes = rows.stream().map(row -> row.chunkBytes().orElseThrow(() -> new UserMistakeException(
                row.where() + ": a row of the read-size round without chunk_bytes"))).collect(Collectors.toCollection(TreeSet::new));
        List<String> header = new ArrayList<>(List.of("chapter"));
        sizes.forEach(size -> header.add(size >= 1 << 20 ? (size >> 20) + " MiB" : (size >> 10) + " KiB"));
        Table table = new Table(header.toArray(String[]::new));
        for (String chapter : rows.stream().map(Row::chapter).collect(Collectors.toCollection(TreeSet::new))) {
            List<String> cells = new ArrayList<>(List.of(chapterLink(chapter)));
            for (long size : sizes) {
                cells.add(rows.stream().filter(row -> row.chapter().equals(chapter) && row.chunkBytes().orElse(0L) == size)
                        .reduce((a, b) -> b).map(row -> mbps(row.mbps())).orElse("–"));
            }
            table.row(cells.toArray(String[]::new));
        }
        return table.markdown() + "\n" + source(block, "chunks.csv") + ", MB/s.\n";
    }

    /**
     * The article's Go benchmark and the chapters, alternately on one machine. As {@code tools/VersusGo.java}
     * prints it: a side's figure is the median over rounds of each call's median run; the spread is
     * (slowest round − fastest round) / that median.
     */
    static String versusGo(Results results, Block block) {
        List<Row> rows = results.rows(block.parameter("machine"), "versus-go.csv");
        Table table = new Table("pair", "Go MB/s", "Java MB/s", "Java/Go", "rounds", "rounds' spread (Go, Java)");
        for (int pair : rows.stream().map(Row::number).collect(Collectors.toCollection(TreeSet::new))) {
            List<Row> go = rows.stream().filter(row -> row.number() == pair && row.chapter().startsWith("Go ")).toList();
            List<Row> java = rows.stream().filter(row -> row.number() == pair && !row.chapter().startsWith("Go ")).toList();
            if (go.isEmpty() || java.isEmpty()) {
                continue; // a side that did not run: no pair
            }
            double goMbps = Stats.megabytesPerSecond(go.getFirst().fileBytes(), medianOfMedians(go));
            double javaMbps = Stats.megabytesPerSecond(java.getFirst().fileBytes(), medianOfMedians(java));
            table.row(pair + " " + chapterLink(java.getFirst().chapter()), mbps(goMbps), mbps(javaMbps),
                    String.format(Locale.ROOT, "%.2f", javaMbps / goMbps), go.size() + ", " + java.size(),
                    String.format(Locale.ROOT, "%.0f %%, %.0f %%", 100 * spread(go), 100 * spread(java)));
        }
        return table.markdown() + "\n" + source(block, "versus-go.csv") + "; each side's MB/s from the median over rounds of each call's median run.\n";
    }

    private static double medianOfMedians(List<Row> rounds) {
        return Stats.median(rounds.stream().mapToDouble(Row::medianS).toArray());
    }

    private static double spread(List<Row> rounds) {
        double[] medians = rounds.stream().mapToDouble(Row::medianS).toArray();
        return (Arrays.stream(medians).max().orElseThrow() - Arrays.stream(medians).min().orElseThrow()) / Stats.median(medians);
    }

    private static <K> List<Row> newestOfEach(List<Row> rows, Function<Row, K> key) {
        Map<K, Row> newest = new LinkedHashMap<>();
        rows.forEach(row -> newest.put(key.apply(row), row)); // rows are appended in time order: the last wins
        return List.copyOf(newest.values());
    }

    private static String source(Block block, String csv) {
        return "`results/" + block.parameter("machine") + "/" + csv + "`";
    }

    private static String chapterLink(String chapter) {
        return "`" + chapter + "`";
    }

    private static String workers(Row row) {
        return row.workers() > 1 ? " with " + row.workers() + " workers" : "";
    }

    static String mbps(double value) {
        return String.format(Locale.ROOT, "%,d", Math.round(value));
    }

    static String seconds(double value) {
        return String.format(Locale.ROOT, "%.3f", value);
    }

    static String percent(OptionalDouble value) {
        return value.isPresent() ? percent(value.getAsDouble()) : "–";
    }

    static String percent(double value) {
        return String.format(Locale.ROOT, "%.1f %%", value);
    }

    private static String family(StudyResults.Description json) {
        return json.text("cpu_family").isPresent()
                ? " (family " + text(json, "cpu_family") + ", model " + text(json, "cpu_model_number") + ")" : "";
    }

    /** A machine.json field as Markdown text: it may come from anyone, so nothing in it may act as markup. */
    static String text(StudyResults.Description json, String field) {
        return json.text(field).map(Table::escape).orElse("not recorded");
    }

    // ---------------------------------------------------------------------------------------------

    /** A Markdown table whose cells are given ready: escape untrusted text with {@link #escape}. */
    static final class Table {
        private final String[] header;
        private final List<String[]> rows = new ArrayList<>();

        Table(String... header) {
            this.header = header;
        }

        void row(String... cells) {
            if (cells.length != header.length) {
                throw new IllegalArgumentException(cells.length + " cells for " + header.length + " columns");
            }
            rows.add(cells);
        }

        String markdown() {
            StringBuilder markdown = new StringBuilder("| ").append(String.join(" | ", header)).append(" |\n|");
            for (int i = 0; i < header.length; i++) {
                int column = i;
                boolean figures = !rows.isEmpty() && rows.stream().allMatch(cells -> cells[column].matches("[-–0-9.,% ]*"));
                markdown.append(figures ? "--:|" : "---|");
            }
            markdown.append('\n');
            rows.forEach(cells -> markdown.append("| ").append(String.join(" | ", cells)).append(" |\n"));
            return markdown.toString();
        }

        static String escape(String text) {
            StringBuilder escaped = new StringBuilder();
            for (char c : text.toCharArray()) {
                switch (c) {
                    case '|', '\\', '`', '*', '_', '[', ']', '#', '!' -> escaped.append('\\').append(c);
                    case '<' -> escaped.append("&lt;");
                    case '>' -> escaped.append("&gt;");
                    case '&' -> escaped.append("&amp;");
                    default -> escaped.append(Character.isISOControl(c) ? ' ' : c);
                }
            }
            return escaped.toString();
        }
    }

    /** A row of a results CSV, as this tool uses it. */
    record Row(String where, String chapter, int workers, String cache, long fileBytes, Optional<Long> chunkBytes, double meanS,
               double medianS, double mbps, String pageCache, OptionalDouble pmdMappedPct) {

        /** The chapter's number: 13 for {@code V13PreadVector}, 11 for {@code Go v11}; -1 for a wall. */
        int number() {
            return numberOf(chapter);
        }

        static final Pattern NUMBER = Pattern.compile("^(?:V|Go v)(\\d+)");

        static int numberOf(String chapter) {
            Matcher number = NUMBER.matcher(chapter);
            return number.find() ? Integer.parseInt(number.group(1)) : -1;
        }


        /** Warm runs from the cache as the study found it, not refilled by {@code --page-cache}. */
        boolean asFound() {
            return pageCache.isEmpty() || pageCache.equals("as-is");
        }
    }

    /** A row of the article's published figures ({@code results/reference/go-blog-figures.csv}). */
    record ArticleRow(double meanS, double mbps, double workersOneMbps, double peakMbps, int peakAt, double coldMbps) {}

    /**
     * The results this tool reads: every CSV row parsed strictly (a row that does not read stops the
     * tool with one line naming its file and line), machine.json, and the article's figures. The one
     * place this tool reads results, so that the project's shared results model can replace it.
     */
    static final class Results {
        private final Path root;
        private final Path documentFolder;
        private final Map<Path, List<Row>> read = new LinkedHashMap<>();

        Results(Path root, Path documentFolder) {
            this.root = root;
            this.documentFolder = documentFolder;
        }

        Path root() {
            return root;
        }

        /** Every folder of the results root that holds a machine.json, by name. */
        List<String> machines() {
            try (Stream<Path> folders = Files.list(root)) {
                return folders.filter(folder -> Files.isRegularFile(folder.resolve("machine.json")))
                        .map(folder -> folder.getFileName().toString()).sorted().toList();
            } catch (IOException e) {
                throw new UserMistakeException("cannot list " + Quote.name(root) + ": " + e.getMessage());
            }
        }

        /** A machine's description, read as every reader of results reads it ({@link StudyResults#readDescription}). */
        StudyResults.Description machineJson(String machine) {
            Path file = folder(machine).resolve("machine.json");
            StudyResults.Description description = StudyResults.readDescription(file);
            if (description.fields().isEmpty() && !description.problems().isEmpty()) {
                throw new UserMistakeException(description.problems().getFirst());
            }
            return description;
        }

        /** A relative Markdown link from the document to a file under the results root. */
        String link(String underRoot, String label) {
            String path = documentFolder.relativize(root.toAbsolutePath().normalize()).resolve(underRoot).toString().replace('\\', '/');
            return "[" + label + "](" + path + ")";
        }

        boolean has(String machine, String csv) {
            return Files.isRegularFile(folder(machine).resolve(csv));
        }

        /** The rows of one machine's CSV, in file order, of whatever file sizes: for a sweep of sizes. */
        List<Row> rowsOfEverySize(String machine, String csv) {
            return read.computeIfAbsent(folder(machine).resolve(csv), Results::parse);
        }

        /** The rows of one machine's CSV, in file order; they must all be of one file size. */
        List<Row> rows(String machine, String csv) {
            Path file = folder(machine).resolve(csv);
            List<Row> rows = rowsOfEverySize(machine, csv);
            if (rows.stream().map(Row::fileBytes).distinct().count() > 1) {
                throw new UserMistakeException(Quote.name(file) + " mixes file sizes (a trial appended to a study?): "
                        + "a README table shows one study");
            }
            return rows;
        }

        private Path folder(String machine) {
            if (!machine.matches("[A-Za-z0-9][A-Za-z0-9._-]*")) {
                throw new UserMistakeException("machine " + Quote.name(machine) + " is not a folder name");
            }
            Path folder = root.resolve(machine);
            if (!Files.isDirectory(folder)) {
                throw new UserMistakeException("no results folder " + Quote.name(folder));
            }
            return folder;
        }

        private static List<Row> parse(Path file) {
            if (!Files.isRegularFile(file)) {
                throw new UserMistakeException("no " + Quote.name(file));
            }
            List<Row> rows = new ArrayList<>();
            try (Reader in = Files.newBufferedReader(file);
                 CSVParser parser = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get().parse(in)) {
                for (String column : List.of("chapter", "workers", "cache", "file_bytes", "chunk_bytes", "mean_s", "median_s", "mbps")) {
                    if (!parser.getHeaderMap().containsKey(column)) {
                        throw new UserMistakeException(Quote.name(file) + " has no " + column + " column");
                    }
                }
                for (CSVRecord record : parser) {
                    String where = Quote.name(file) + " line " + parser.getCurrentLineNumber();
                    if (!record.isConsistent()) {
                        throw new UserMistakeException(where + ": " + record.size() + " fields, not " + parser.getHeaderMap().size());
                    }
                    String chunk = record.get("chunk_bytes");
                    rows.add(new Row(where, record.get("chapter"), (int) positive(where, "workers", record.get("workers")),
                            record.get("cache"), (long) positive(where, "file_bytes", record.get("file_bytes")),
                            chunk.isEmpty() ? Optional.empty() : Optional.of((long) positive(where, "chunk_bytes", chunk)),
                            positive(where, "mean_s", record.get("mean_s")), positive(where, "median_s", record.get("median_s")),
                            positive(where, "mbps", record.get("mbps")),
                            record.isMapped("page_cache") ? record.get("page_cache") : "",
                            record.isMapped("pmd_mapped_pct") && !record.get("pmd_mapped_pct").isEmpty()
                                    ? OptionalDouble.of(share(where, record.get("pmd_mapped_pct"))) : OptionalDouble.empty()));
                }
            } catch (IOException | RuntimeException e) {
                if (e instanceof UserMistakeException mistake) {
                    throw mistake;
                }
                throw new UserMistakeException(Quote.name(file) + " does not read as CSV: " + e.getMessage());
            }
            return rows;
        }

        private static double positive(String where, String column, String text) {
            double value = number(where, column, text);
            if (!(value > 0)) {
                throw new UserMistakeException(where + ": " + column + " " + Quote.name(text) + " is not above zero");
            }
            return value;
        }

        private static double share(String where, String text) {
            double value = number(where, "pmd_mapped_pct", text);
            if (value < 0 || value > 100) {
                throw new UserMistakeException(where + ": pmd_mapped_pct " + Quote.name(text) + " is not a share from 0 to 100");
            }
            return value;
        }

        private static double number(String where, String column, String text) {
            try {
                double value = Double.parseDouble(text);
                if (Double.isFinite(value) && !text.strip().matches("(?i).*[a-z].*")) {
                    return value;
                }
            } catch (NumberFormatException e) {
                // said below
            }
            throw new UserMistakeException(where + ": " + column + " " + Quote.name(text) + " is not a number");
        }

        private final Map<String, ArticleRow> article = new LinkedHashMap<>();

        /** The article's figure for variant {@code vN} in one of its tables (scoreboard, scaling, cold). */
        Optional<ArticleRow> article(String table, int number) {
            if (article.isEmpty()) {
                Path file = root.resolve("reference").resolve("go-blog-figures.csv");
                if (!Files.isRegularFile(file)) {
                    return Optional.empty();
                }
                try (Reader in = Files.newBufferedReader(file);
                     CSVParser parser = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).setCommentMarker('#').get().parse(in)) {
                    for (CSVRecord record : parser) {
                        String where = Quote.name(file) + " line " + parser.getCurrentLineNumber();
                        article.put(record.get("table") + " " + record.get("variant"), new ArticleRow(
                                optional(where, record.get("mean_s")), optional(where, record.get("mb_per_s")),
                                optional(where, record.get("workers_1_mb_per_s")), optional(where, record.get("peak_mb_per_s")),
                                (int) optional(where, record.get("peak_at")), optional(where, record.get("cold_mb_per_s"))));
                    }
                } catch (IOException | RuntimeException e) {
                    if (e instanceof UserMistakeException mistake) {
                        throw mistake;
                    }
                    throw new UserMistakeException(Quote.name(file) + " does not read as CSV: " + e.getMessage());
                }
            }
            return Optional.ofNullable(article.get(table + " v" + number));
        }

        private static double optional(String where, String text) {
            return text.isEmpty() ? Double.NaN : positive(where, "a figure", text);
        }
    }
}
