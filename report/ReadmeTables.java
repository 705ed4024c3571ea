///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
//SOURCES ../lib/**/*.java
//SOURCES StudyResults.java
//SOURCES CommittedMachines.java
//COMPILE_OPTIONS --add-modules jdk.incubator.vector
//RUNTIME_OPTIONS --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import lib.cli.Quote;
import lib.cli.UserMistakeException;

/**
 * Keeps the tables of README.md, results/README.md and the docs that hold tables equal to what the committed CSVs give.
 *
 * <p>Only the machine folders named in {@code results/committed-machines.txt} (report/CommittedMachines)
 * are read: a reader's own study, in a folder of its own, changes no table, and a block naming any
 * other folder is refused. A results root without that file ({@code --results DIR}) has every
 * machine folder in it read.
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
 * How to run:   ./jbang report/ReadmeTables.java            # rewrite every block from results/
 *               ./jbang report/ReadmeTables.java --check    # exit 1, naming each block that differs
 *               ./jbang report/ReadmeTables.java --results DIR FILE...
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
 *     for (StudyResults.Row row : results.rowsOfEverySize(block.parameter("machine"), "sizes.csv")) {
 *         table.row(chapterLink(row.chapter()), StudyResults.binarySize(row.fileBytes()), mbps(row.mbps()));
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
    static final List<Path> DOCUMENTS = List.of(Path.of("README.md"), RESULTS.resolve("README.md"),
            Path.of("docs", "investigations.md"), Path.of("docs", "versus-go.md"));

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
                        out.println("Usage: ./jbang report/ReadmeTables.java [--check] [--results DIR] [FILE...]");
                        out.println("Rewrites the generated tables of FILE (default: README.md, results/README.md and the docs with tables) from DIR's CSVs;");
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
                err.println(differing + " generated block(s) differ from the CSVs: ./jbang report/ReadmeTables.java rewrites them");
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

    /**
     * Writes beside the document and moves over it, so an interrupted run leaves the old file whole.
     * A symlinked document is rewritten where its link points (the link stays a link), and the new
     * file keeps the old one's permissions (a temporary file is made private, 0600).
     */
    private static void replace(Path document, String text) throws IOException {
        Path target = document.toRealPath();
        Path temporary = Files.createTempFile(target.getParent(), "." + target.getFileName(), ".partial");
        try {
            Files.writeString(temporary, text);
            try {
                Files.setPosixFilePermissions(temporary, Files.getPosixFilePermissions(target));
            } catch (UnsupportedOperationException notPosix) {
                // a file system without POSIX permissions has none to keep
            }
            try {
                Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING);
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
        List<StudyResults.Row> rows = results.rows(block.parameter("machine"), "scoreboard.csv").stream()
                .filter(row -> row.cache().equals("warm") && asFound(row)).toList();
        rows = newestOfEach(rows, StudyResults.Row::chapter);
        double chapterOne = rows.stream().filter(row -> number(row) == 1).mapToDouble(StudyResults.Row::mbps).findFirst().orElse(Double.NaN);
        boolean mapped = rows.stream().anyMatch(row -> row.pmdMappedPercent() != null);
        Table table = mapped ? new Table("#", "chapter", "workers", "s", "MB/s", "× ch. 1", "PMD-mapped", "the article (Go), MB/s")
                : new Table("#", "chapter", "workers", "s", "MB/s", "× ch. 1", "the article (Go), MB/s");
        for (StudyResults.Row row : rows) {
            List<String> cells = new ArrayList<>(List.of(String.valueOf(number(row)), chapterLink(row.chapter()),
                    String.valueOf(row.workers()), seconds(row.meanSeconds()), mbps(row.mbps()),
                    Double.isNaN(chapterOne) ? "–" : String.format(Locale.ROOT, row.mbps() < chapterOne ? "%.2f" : "%.1f", row.mbps() / chapterOne)));
            if (mapped) {
                cells.add(percent(row.pmdMappedPercent()));
            }
            cells.add(results.article("scoreboard", row.chapter()).map(article -> mbps(article.mbps())).orElse("–"));
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
                .filter(row -> row.chapter().equals(chapter) && row.cache().equals("warm") && asFound(row)).toList(), StudyResults.Row::chapter)
                .forEach(row -> parts.add(seconds(row.meanSeconds()) + " s, " + mbps(row.mbps()) + " MB/s" + workers(row)
                        + (row.pmdMappedPercent() == null ? "" : ", " + percent(row.pmdMappedPercent()) + " PMD-mapped")
                        + " (`scoreboard.csv`)"));
        if (results.has(machine, "pagecache.csv")) {
            results.rows(machine, "pagecache.csv").stream()
                    .filter(row -> row.chapter().equals(chapter) && row.pageCache().equals("huge")).reduce((a, b) -> b)
                    .ifPresent(row -> parts.add("with the page cache in 2 MiB folios " + seconds(row.meanSeconds()) + " s, " + mbps(row.mbps())
                            + " MB/s, " + percent(row.pmdMappedPercent()) + " PMD-mapped (`pagecache.csv`)"));
        }
        if (results.has(machine, "cold.csv")) {
            results.rows(machine, "cold.csv").stream().filter(row -> row.chapter().equals(chapter)).reduce((a, b) -> b)
                    .ifPresent(row -> parts.add("cold " + seconds(row.meanSeconds()) + " s, " + mbps(row.mbps()) + " MB/s (`cold.csv`)"));
        }
        if (parts.isEmpty()) {
            throw new UserMistakeException("no row of " + chapter + " in " + machine + "'s scoreboard, page-cache or cold round");
        }
        String article = results.article("scoreboard", chapter)
                .map(row -> " The article (Go, on its machine): " + seconds(row.meanSeconds()) + " s, " + mbps(row.mbps()) + " MB/s.")
                .orElse("");
        return "Measured: " + String.join("; ", parts) + "." + article + "\n";
    }

    /** The mapped chapters with the cache as found, in 4 KiB folios and in 2 MiB folios. */
    static String pageCache(Results results, Block block) {
        String machine = block.parameter("machine");
        List<StudyResults.Row> asFound = results.rows(machine, "scoreboard.csv").stream().filter(row -> row.cache().equals("warm") && asFound(row)).toList();
        List<StudyResults.Row> rounds = results.rows(machine, "pagecache.csv");
        Table table = new Table("chapter", "as found, MB/s", "PMD-mapped", "4 KiB folios (`small`)", "2 MiB folios (`huge`)", "PMD-mapped");
        for (String chapter : rounds.stream().map(StudyResults.Row::chapter).collect(Collectors.toCollection(TreeSet::new))) {
            Optional<StudyResults.Row> found = asFound.stream().filter(row -> row.chapter().equals(chapter)).reduce((a, b) -> b);
            Optional<StudyResults.Row> small = rounds.stream().filter(row -> row.chapter().equals(chapter) && row.pageCache().equals("small")).reduce((a, b) -> b);
            Optional<StudyResults.Row> huge = rounds.stream().filter(row -> row.chapter().equals(chapter) && row.pageCache().equals("huge")).reduce((a, b) -> b);
            table.row(chapterLink(chapter), found.map(row -> mbps(row.mbps())).orElse("–"),
                    found.map(row -> percent(row.pmdMappedPercent())).orElse("–"), small.map(row -> mbps(row.mbps())).orElse("–"),
                    huge.map(row -> mbps(row.mbps())).orElse("–"), huge.map(row -> percent(row.pmdMappedPercent())).orElse("–"));
        }
        return table.markdown() + "\n" + source(block, "scoreboard.csv` and `pagecache.csv") + ", MB/s from each row's trimmed mean.\n";
    }

    /** The walls round: each probe at each worker count it ran. */
    static String walls(Results results, Block block) {
        List<StudyResults.Row> rows = results.rows(block.parameter("machine"), "wall.csv");
        TreeSet<Integer> workerCounts = rows.stream().map(StudyResults.Row::workers).collect(Collectors.toCollection(TreeSet::new));
        List<String> header = new ArrayList<>(List.of("wall"));
        workerCounts.forEach(count -> header.add(count + (count == 1 ? " thread" : " threads") + ", MB/s"));
        Table table = new Table(header.toArray(String[]::new));
        for (String wall : rows.stream().map(StudyResults.Row::chapter).distinct().toList()) {
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
        List<StudyResults.Row> rows = results.rows(block.parameter("machine"), "scaling.csv");
        Table table = new Table("chapter", "1 worker", "best", "at", "Go: 1 worker", "Go: best", "at");
        for (String chapter : rows.stream().map(StudyResults.Row::chapter).collect(Collectors.toCollection(TreeSet::new))) {
            List<StudyResults.Row> sweep = newestOfEach(rows.stream().filter(row -> row.chapter().equals(chapter)).toList(), StudyResults.Row::workers);
            Optional<StudyResults.Row> one = sweep.stream().filter(row -> row.workers() == 1).findFirst();
            StudyResults.Row best = sweep.stream().max(Comparator.comparingDouble(StudyResults.Row::mbps)).orElseThrow();
            Optional<StudyResults.ArticleRow> article = results.article("scaling", chapter);
            table.row(chapterLink(chapter), one.map(row -> mbps(row.mbps())).orElse("–"), mbps(best.mbps()), String.valueOf(best.workers()),
                    article.map(row -> mbps(row.oneWorkerMbps())).orElse("–"), article.map(row -> mbps(row.peakMbps())).orElse("–"),
                    article.map(row -> row.peakAt() == null ? "–" : String.valueOf(Math.round(row.peakAt()))).orElse("–"));
        }
        return table.markdown() + "\n" + source(block, "scaling.csv") + "; the Go columns are the article's, on its 12-thread machine.\n";
    }

    /** The cold round beside the same chapters warm, and the article's cold figures. */
    static String cold(Results results, Block block) {
        String machine = block.parameter("machine");
        List<StudyResults.Row> warm = results.rows(machine, "scoreboard.csv").stream().filter(row -> row.cache().equals("warm") && asFound(row)).toList();
        Table table = new Table("chapter", "warm MB/s", "cold MB/s", "Go cold MB/s (the article)");
        for (StudyResults.Row row : newestOfEach(results.rows(machine, "cold.csv"), StudyResults.Row::chapter)) {
            table.row(chapterLink(row.chapter()),
                    warm.stream().filter(w -> w.chapter().equals(row.chapter())).reduce((a, b) -> b).map(w -> mbps(w.mbps())).orElse("–"),
                    mbps(row.mbps()), results.article("cold", row.chapter()).map(article -> mbps(article.coldMbps())).orElse("–"));
        }
        return table.markdown() + "\n" + source(block, "cold.csv` and `scoreboard.csv") + ".\n";
    }

    /** The read-size round: MB/s of each chapter at each read size. */
    static String chunks(Results results, Block block) {
        List<StudyResults.Row> rows = results.rows(block.parameter("machine"), "chunks.csv");
        TreeSet<Long> sizes = rows.stream().map(row -> Optional.ofNullable(row.chunkBytes()).orElseThrow(() -> new UserMistakeException(
                row.file() + " line " + row.line() + ": a row of the read-size round without chunk_bytes"))).collect(Collectors.toCollection(TreeSet::new));
        List<String> header = new ArrayList<>(List.of("chapter"));
        sizes.forEach(size -> header.add(size >= 1 << 20 ? (size >> 20) + " MiB" : (size >> 10) + " KiB"));
        Table table = new Table(header.toArray(String[]::new));
        for (String chapter : rows.stream().map(StudyResults.Row::chapter).collect(Collectors.toCollection(TreeSet::new))) {
            List<String> cells = new ArrayList<>(List.of(chapterLink(chapter)));
            for (long size : sizes) {
                cells.add(rows.stream().filter(row -> row.chapter().equals(chapter) && Objects.equals(row.chunkBytes(), size))
                        .reduce((a, b) -> b).map(row -> mbps(row.mbps())).orElse("–"));
            }
            table.row(cells.toArray(String[]::new));
        }
        return table.markdown() + "\n" + source(block, "chunks.csv") + ", MB/s.\n";
    }

    /**
     * The article's Go benchmark and the chapters, alternately on one machine, read as every reader
     * reads versus-go.csv ({@link StudyResults#versusGo}): per pair, the median of its rounds' ratios,
     * the lowest and highest round, and the mark (ahead, behind, tie).
     */
    static String versusGo(Results results, Block block) {
        List<StudyResults.Row> rows = results.rows(block.parameter("machine"), "versus-go.csv");
        Table table = new Table("pair", "Go MB/s", "Java MB/s", "Java ÷ Go", "rounds' range", "Java is", "rounds");
        for (StudyResults.GoPair pair : StudyResults.versusGo(rows)) {
            boolean paired = !pair.rounds().isEmpty();
            table.row(pair.number() + " " + chapterLink(pair.javaChapter()), paired ? mbps(pair.goMbps()) : "–",
                    paired ? mbps(pair.javaMbps()) : "–", pair.ratioText(), pair.rangeText(), pair.verdict().word, pair.roundsText());
        }
        return table.markdown() + "\n" + source(block, "versus-go.csv") + "; MB/s: the median over rounds of each call's median run. "
                + StudyResults.VERSUS_GO_RULE + ".\n";
    }

    private static <K> List<StudyResults.Row> newestOfEach(List<StudyResults.Row> rows, Function<StudyResults.Row, K> key) {
        Map<K, StudyResults.Row> newest = new LinkedHashMap<>();
        rows.forEach(row -> newest.put(key.apply(row), row)); // rows are appended in time order: the last wins
        return List.copyOf(newest.values());
    }

    private static String source(Block block, String csv) {
        return "`results/" + block.parameter("machine") + "/" + csv + "`";
    }

    private static String chapterLink(String chapter) {
        return "`" + chapter + "`";
    }

    /** The chapter's number: 13 for {@code V13PreadVector}, 11 for {@code Go v11}; -1 for a wall. */
    private static int number(StudyResults.Row row) {
        String number = row.number();
        return number.matches("V\\d\\d") ? Integer.parseInt(number.substring(1)) : -1;
    }

    /** Warm runs from the cache as the study found it, not refilled by {@code --page-cache}. */
    private static boolean asFound(StudyResults.Row row) {
        return row.pageCache().equals(StudyResults.PAGE_CACHE_AS_IS);
    }

    private static String workers(StudyResults.Row row) {
        return row.workers() > 1 ? " with " + row.workers() + " workers" : "";
    }

    static String mbps(double value) {
        return String.format(Locale.ROOT, "%,d", Math.round(value));
    }

    static String seconds(double value) {
        return String.format(Locale.ROOT, "%.3f", value);
    }

    /** The article's figure, or "–" where it gives none. */
    static String mbps(Double value) {
        return value == null ? "–" : mbps(value.doubleValue());
    }

    static String seconds(Double value) {
        return value == null ? "–" : seconds(value.doubleValue());
    }

    /** A share, or "–" where the row has none (a chapter that does not map the file). */
    static String percent(Double value) {
        return value == null ? "–" : String.format(Locale.ROOT, "%.1f %%", value);
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

    /**
     * The results this tool reads, each file once, through the project's one reader of results
     * (report/StudyResults.java): every CSV row read strictly (a row that does not read stops the
     * tool with one line naming its file and line), machine.json, and the article's figures.
     */
    static final class Results {
        private final Path root;
        private final Path documentFolder;
        private final Map<Path, List<StudyResults.Row>> read = new LinkedHashMap<>();

        Results(Path root, Path documentFolder) {
            this.root = root;
            this.documentFolder = documentFolder;
        }

        Path root() {
            return root;
        }

        /** The committed machine folders, when the results root names them (see the class comment). */
        private Optional<java.util.Set<String>> committed;

        private Optional<java.util.Set<String>> committed() {
            if (committed == null) {
                committed = CommittedMachines.of(root);
            }
            return committed;
        }

        /** Every folder of the results root that holds a machine.json, by name; only the committed ones where it names them. */
        List<String> machines() {
            try (Stream<Path> folders = Files.list(root)) {
                return folders.filter(folder -> Files.isRegularFile(folder.resolve("machine.json")))
                        .map(folder -> folder.getFileName().toString())
                        .filter(name -> committed().map(names -> names.contains(name)).orElse(true)).sorted().toList();
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
        List<StudyResults.Row> rowsOfEverySize(String machine, String csv) {
            return read.computeIfAbsent(folder(machine).resolve(csv), Results::parse);
        }

        /** The rows of one machine's CSV, in file order; they must all be of one file size. */
        List<StudyResults.Row> rows(String machine, String csv) {
            Path file = folder(machine).resolve(csv);
            List<StudyResults.Row> rows = rowsOfEverySize(machine, csv);
            if (rows.stream().map(StudyResults.Row::fileBytes).distinct().count() > 1) {
                throw new UserMistakeException(Quote.name(file) + " mixes file sizes (a trial appended to a study?): "
                        + "a README table shows one study");
            }
            return rows;
        }

        private Path folder(String machine) {
            if (!machine.matches("[A-Za-z0-9][A-Za-z0-9._-]*")) {
                throw new UserMistakeException("machine " + Quote.name(machine) + " is not a folder name");
            }
            if (committed().isPresent() && !committed().get().contains(machine)) {
                throw new UserMistakeException("machine " + Quote.name(machine) + " is not one of the folders committed with the project ("
                        + root.resolve(CommittedMachines.FILE_NAME) + ")");
            }
            Path folder = root.resolve(machine);
            if (!Files.isDirectory(folder)) {
                throw new UserMistakeException("no results folder " + Quote.name(folder));
            }
            return folder;
        }

        /** Every row of the CSV, read strictly: a row that does not read stops the tool with its one line. */
        private static List<StudyResults.Row> parse(Path file) {
            if (!Files.isRegularFile(file)) {
                throw new UserMistakeException("no " + Quote.name(file));
            }
            try {
                return StudyResults.readEveryRow(file).rows();
            } catch (StudyResults.NotResultsException e) {
                throw new UserMistakeException(e.getMessage());
            }
        }

        private final Map<String, Map<String, StudyResults.ArticleRow>> article = new HashMap<>();

        /** The article's figures for {@code chapter} in one of its tables (scoreboard, scaling, cold), from beside the results. */
        Optional<StudyResults.ArticleRow> article(String table, String chapter) {
            Map<String, StudyResults.ArticleRow> byNumber = article.computeIfAbsent(table, t -> {
                Map<String, StudyResults.ArticleRow> rows = new HashMap<>();
                try {
                    StudyResults.article(root.resolve("reference").resolve("go-blog-figures.csv"), t).forEach(row -> rows.put(row.number(), row));
                } catch (StudyResults.NotResultsException e) {
                    throw new UserMistakeException(e.getMessage());
                }
                return rows;
            });
            return Optional.ofNullable(byNumber.get(StudyResults.chapterNumber(chapter)));
        }
    }
}
