///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
//SOURCES ../Lab.java ReadmeTables.java
//COMPILE_OPTIONS --add-modules jdk.incubator.vector
//RUNTIME_OPTIONS --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import lib.cli.Quote;
import lib.cli.UserMistakeException;
import lib.counters.Stats;

/**
 * Checks the book against its data: every generated block of README.md and the docs is what the
 * committed CSVs give ({@link ReadmeTables}), and every lesson that compares figures still holds.
 *
 * <p>A lesson's claim sits right below it, in a comment a reader of the rendered page does not see:
 *
 * <pre>
 * 4. **Parallelism before a wider loop.** …
 *    &lt;!-- claim on amd-epyc-f26m2-2c-avx512: scaling:V09MmapParallelVector;workers=2 &gt; 1.5 × scaling:V09MmapParallelVector;workers=1 --&gt;
 * </pre>
 *
 * A figure is {@code CSV:CHAPTER}, the MB/s of the newest row of that chapter in the machine's CSV,
 * narrowed by {@code ;column=value} (workers, cache, page_cache, file_bytes); {@code .s} after it takes its
 * timed runs' seconds, {@code .warmup} its warm-up runs', {@code .read_calls_per_gib} (or another
 * column of the bill) that count, and {@code @all} at the end the median of
 * every matching row, for a sitting of several processes (its spread, too, without the extremes from five rows on). {@code versus-go:N} is pair N's Java ÷ Go,
 * {@code answer:CHAPTER.s} a one-shot's seconds, {@code model:CHAPTER;page_cache=huge} the cost
 * model's predicted time over the measured one ({@code .workers_to_wall}: the workers at which it
 * meets the shared wall), and a plain number is itself. Each figure carries
 * its spread: the runs of its row less the fastest and the slowest (with five runs or more), a
 * pair's rounds, or a sitting's processes (less the slowest and the fastest from five on). {@code A > k × B} holds only when A's low end beats k
 * times B's high end, {@code <} the other way round, so no rerun within the rounds' own spread can
 * flip it; {@code A ≈ B} (a tie) holds when the two spreads meet, {@code A ≤ B} when A is not
 * clearly above B (a tie, or below), {@code A ≥ B} when it is not clearly below. {@code on every machine} checks a
 * claim on each committed machine whose CSVs hold its figures.
 *
 * <pre>
 * How to run:   ./jbang lab/report/CheckBook.java            # check; exit 1 naming each stale block and failing lesson
 *               ./jbang lab/report/CheckBook.java --write    # rewrite the generated blocks from the CSVs, then check the lessons
 * </pre>
 *
 * Exit status: 0 the book holds, 1 a block is stale or a claim fails (one line each), 2 a usage
 * error or a CSV that does not read.
 */
public final class CheckBook {

    static final Pattern CLAIM = Pattern.compile("<!-- claim on (every machine|[A-Za-z0-9._-]+): (.+?) -->");
    static final Pattern COMPARISON = Pattern.compile("(.+?) ([<>≈≤≥]) (?:([0-9]+(?:\\.[0-9]+)?) × )?(.+)");
    static final Pattern LEAD = Pattern.compile("^\\s*(?:\\d+\\.\\s+|[-*]\\s+)?\\*\\*(.+?)\\*\\*");

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        boolean write = false;
        for (String arg : args) {
            switch (arg) {
                case "--write" -> write = true;
                case "--help", "-h" -> {
                    out.println("Usage: ./jbang lab/report/CheckBook.java [--write]");
                    out.println("Checks that every generated block of README.md and the docs is what results/ gives, and that every lesson's claim holds;");
                    out.println("with --write, rewrites the blocks first. Exit 1 names each stale block and failing lesson.");
                    return 0;
                }
                default -> {
                    err.println("unknown option " + Quote.name(arg) + " (--help lists them)");
                    return 2;
                }
            }
        }
        int blocks = ReadmeTables.run(write ? new String[0] : new String[] {"--check"}, out, err);
        if (blocks == 2) {
            return 2;
        }
        try {
            List<String> failures = failingClaims(ReadmeTables.RESULTS, documents());
            failures.forEach(err::println);
            if (!failures.isEmpty()) {
                err.println(failures.size() + " claim(s) of the book do not hold on the committed CSVs");
            } else {
                out.println("every claim of the book holds on the CSVs in " + ReadmeTables.RESULTS);
            }
            return blocks == 0 && failures.isEmpty() ? 0 : 1;
        } catch (UserMistakeException e) {
            err.println(e.getMessage());
            return 2;
        } catch (IOException e) {
            err.println("cannot read: " + e.getMessage());
            return 2;
        }
    }

    /** README.md, results/README.md and every page of docs/: where lessons live. */
    static List<Path> documents() throws IOException {
        List<Path> documents = new ArrayList<>(List.of(Path.of("README.md"), ReadmeTables.RESULTS.resolve("README.md")));
        try (Stream<Path> pages = Files.list(Path.of("docs"))) {
            pages.filter(page -> page.toString().endsWith(".md")).sorted().forEach(documents::add);
        }
        return documents;
    }

    /** One line per claim of the documents that does not hold on the results under {@code root}. */
    static List<String> failingClaims(Path root, List<Path> documents) throws IOException {
        List<String> failures = new ArrayList<>();
        ReadmeResults results = new ReadmeResults(root, root.toAbsolutePath());
        for (Path document : documents) {
            String text = Files.readString(document);
            Matcher claim = CLAIM.matcher(text);
            while (claim.find()) {
                int line = lineOf(text, claim.start());
                String where = document + ":" + line + ": " + lesson(text, claim.start());
                List<String> machines = claim.group(1).equals("every machine") ? results.machines() : List.of(claim.group(1));
                failures.addAll(check(results, machines, claim.group(2), claim.group(1).equals("every machine")).stream()
                        .map(why -> where + ": " + why).toList());
            }
        }
        return failures;
    }

    /** Why the comparison fails on the machines, one line each; empty when it holds on every one that has its figures. */
    static List<String> check(ReadmeResults results, List<String> machines, String comparison, boolean skipMachinesWithout) {
        Matcher parts = COMPARISON.matcher(comparison);
        if (!parts.matches()) {
            return List.of("the claim " + Quote.name(comparison) + " is not A > B, A < B, A ≈ B, A ≤ B or A ≥ B, with k × before B or not");
        }
        double factor = parts.group(3) == null ? 1 : Double.parseDouble(parts.group(3));
        String operator = parts.group(2);
        List<String> failures = new ArrayList<>();
        int checked = 0;
        for (String machine : machines) {
            Figure left, right;
            try {
                left = figure(results, machine, parts.group(1).strip());
                right = figure(results, machine, parts.group(4).strip());
            } catch (MissingFigure e) {
                if (!skipMachinesWithout) {
                    failures.add("on " + machine + ": " + e.getMessage());
                }
                continue;
            }
            checked++;
            boolean holds = switch (operator) {
                case ">" -> left.low() > factor * right.high();
                case "<" -> left.high() < factor * right.low();
                case "≤" -> left.low() <= factor * right.high(); // not clearly above: the spreads meet, or A is below
                case "≥" -> left.high() >= factor * right.low();
                default -> left.low() <= factor * right.high() && left.high() >= factor * right.low(); // the spreads meet
            };
            if (!holds) {
                failures.add("on " + machine + ": " + left.describe(parts.group(1).strip()) + " is not " + parts.group(2) + " "
                        + (factor == 1 ? "" : decimal(factor) + " × ") + right.describe(parts.group(4).strip())
                        + " (each with its spread)");
            }
        }
        if (checked == 0 && failures.isEmpty()) {
            failures.add("no committed machine has the figures of " + Quote.name(comparison));
        }
        return failures;
    }

    /** A figure and the spread of the runs or rounds behind it. */
    record Figure(double value, double low, double high, String unit) {
        String describe(String term) {
            String spread = low == high ? "" : " (" + decimal(low) + "–" + decimal(high) + ")";
            return term + " = " + decimal(value) + unit + spread;
        }
    }

    static final class MissingFigure extends RuntimeException {
        MissingFigure(String message) {
            super(message);
        }
    }

    /** The figure a term names on one machine. */
    static Figure figure(ReadmeResults results, String machine, String term) {
        if (term.matches("[0-9]+(\\.[0-9]+)?")) {
            double value = Double.parseDouble(term);
            return new Figure(value, value, value, "");
        }
        int colon = term.indexOf(':');
        if (colon < 0) {
            throw new MissingFigure(Quote.name(term) + " is neither a number nor CSV:CHAPTER");
        }
        String table = term.substring(0, colon), named = term.substring(colon + 1);
        boolean everyRow = named.endsWith("@all");
        String unsuffixed = everyRow ? named.substring(0, named.length() - 4) : named;
        String suffix = unsuffixed.substring(unsuffixed.lastIndexOf('.') + 1);
        String quantity = suffix.equals("s") || suffix.equals("warmup") || StudyResults.BILL.contains(suffix) ? suffix : "mbps";
        String rest = quantity.equals("mbps") ? unsuffixed : unsuffixed.substring(0, unsuffixed.lastIndexOf('.'));
        String[] filters = rest.split(";");
        String csv = table + ".csv";
        if (!results.has(machine, csv)) {
            throw new MissingFigure("no " + csv + " for " + machine);
        }
        if (table.equals("versus-go")) {
            int number = Integer.parseInt(filters[0]);
            return VersusGoPairs.pairs(results.rowsOfEverySize(machine, csv)).stream()
                    .filter(pair -> pair.number() == number && !pair.rounds().isEmpty())
                    .map(pair -> new Figure(pair.ratio(), pair.lowest(), pair.highest(), " (Java ÷ Go)"))
                    .findFirst().orElseThrow(() -> new MissingFigure("no pair " + number + " in " + csv + " of " + machine));
        }
        if (table.equals("model")) {
            boolean workers = unsuffixed.endsWith(WORKERS_TO_WALL);
            String[] rowFilters = (workers ? unsuffixed.substring(0, unsuffixed.length() - WORKERS_TO_WALL.length()) : unsuffixed).split(";");
            return modelFigure(results.root().resolve(machine).resolve(csv), rowFilters, workers);
        }
        if (table.equals("answer")) {
            return AnswerResults.read(results.root().resolve(machine).resolve(csv)).newestOfEach().stream()
                    .filter(answer -> answer.chapter().equals(filters[0]))
                    .map(answer -> spread(answer.medianSeconds(), answer.runSeconds(), " s"))
                    .findFirst().orElseThrow(() -> new MissingFigure("no " + filters[0] + " in " + csv + " of " + machine));
        }
        List<StudyResults.Row> rows = results.rowsOfEverySize(machine, csv).stream()
                .filter(candidate -> candidate.chapter().equals(filters[0]))
                .filter(candidate -> Arrays.stream(filters).skip(1).allMatch(filter -> matches(candidate, filter)))
                .sorted(Comparator.comparing(StudyResults.Row::date)).toList();
        if (rows.isEmpty()) {
            throw new MissingFigure("no row " + Quote.name(rest) + " in " + csv + " of " + machine);
        }
        if (everyRow) { // a sitting of several processes: their median, spread as a row's runs are, the extremes left out from five on
            double[] each = rows.stream().mapToDouble(row -> figure(row, quantity).value()).sorted().toArray();
            int trim = each.length >= 5 ? 1 : 0;
            return new Figure(Stats.median(each), each[trim], each[each.length - 1 - trim], figure(rows.getFirst(), quantity).unit());
        }
        return figure(rows.getLast(), quantity);
    }

    /** One row's MB/s (a trimmed mean), its timed or warm-up runs' seconds, each with its runs' spread, or a count of its bill. */
    static Figure figure(StudyResults.Row row, String quantity) {
        return switch (quantity) {
            case "s" -> spread(row.meanSeconds(), row.runSeconds(), " s");
            case "warmup" -> {
                if (row.warmupSeconds().length == 0) {
                    throw new MissingFigure("the row of " + row.chapter() + " in " + row.file().getFileName() + " has no warm-up run");
                }
                yield spread(Arrays.stream(row.warmupSeconds()).average().orElseThrow(), row.warmupSeconds(), " s");
            }
            case "mbps" -> spread(row.mbps(), Arrays.stream(row.runSeconds()).map(s -> row.fileBytes() / s / 1e6).toArray(), " MB/s");
            default -> { // a count of the bill, the median of the timed runs' as the summary line gives it
                Double perGiB = row.billPerGiB(quantity);
                if (perGiB == null) {
                    throw new MissingFigure("the row of " + row.chapter() + " in " + row.file().getFileName() + " has no " + quantity);
                }
                yield new Figure(perGiB, perGiB, perGiB, " " + quantity.replace("_per_gib", " per GiB").replace('_', ' '));
            }
        };
    }

    static final String WORKERS_TO_WALL = ".workers_to_wall";

    /**
     * A row of the cost model's model.csv: its predicted time over its measured one (1: the model
     * is right; 0.5: the chapter took twice what its bill adds up to), or with {@code workersToWall}
     * the workers at which the model has it meet the shared wall. The measured time carries the
     * spread the model.csv does not keep, so the figure is taken as it stands.
     */
    static Figure modelFigure(Path csv, String[] filters, boolean workersToWall) {
        List<CostModel.ModelRow> rows;
        try {
            rows = CostModel.read(csv);
        } catch (UserMistakeException e) {
            throw new MissingFigure(e.getMessage());
        }
        CostModel.ModelRow chosen = null;
        for (CostModel.ModelRow row : rows) {
            boolean picked = row.chapter().equals(filters[0]) && Arrays.stream(filters).skip(1).allMatch(filter -> {
                int equals = filter.indexOf('=');
                return equals > 0 && filter.substring(equals + 1).equals(row.column(filter.substring(0, equals)));
            });
            if (picked) {
                chosen = row; // the last that matches, as for every other CSV
            }
        }
        if (chosen == null) {
            throw new MissingFigure("no row " + Quote.name(String.join(";", filters)) + " in " + csv);
        }
        if (workersToWall) {
            if (chosen.workersToWall() == null) {
                throw new MissingFigure(csv + " has no workers_to_wall column (./jbang lab/report/CostModel.java writes it)");
            }
            return new Figure(chosen.workersToWall(), chosen.workersToWall(), chosen.workersToWall(), " workers to the wall");
        }
        double ratio = chosen.predictedSeconds() / chosen.measuredSeconds();
        return new Figure(ratio, ratio, ratio, " (predicted ÷ measured)");
    }

    /** A figure with the spread of its runs, less the fastest and the slowest where there are five or more. */
    static Figure spread(double value, double[] runs, String unit) {
        if (runs.length == 0) {
            return new Figure(value, value, value, unit);
        }
        double[] sorted = runs.clone();
        Arrays.sort(sorted);
        int trim = sorted.length >= 5 ? 1 : 0;
        return new Figure(value, Math.min(value, sorted[trim]), Math.max(value, sorted[sorted.length - 1 - trim]), unit);
    }

    private static boolean matches(StudyResults.Row row, String filter) {
        int equals = filter.indexOf('=');
        if (equals < 0) {
            throw new MissingFigure("the filter " + Quote.name(filter) + " is not column=value");
        }
        String column = filter.substring(0, equals), value = filter.substring(equals + 1);
        return switch (column) {
            case "workers" -> String.valueOf(row.workers()).equals(value);
            case "cache" -> value.equals(row.cache());
            case "page_cache" -> value.equals(row.pageCache());
            case "file_bytes" -> String.valueOf(row.fileBytes()).equals(value);
            default -> throw new MissingFigure("a claim narrows rows by workers, cache, page_cache or file_bytes, not " + Quote.name(column));
        };
    }

    /** The lesson a claim belongs to: the heading above it and, where there is one, the bold words that open its paragraph or item. */
    static String lesson(String text, int at) {
        String[] lines = text.substring(0, at).split("\n", -1);
        String lead = null;
        boolean inParagraph = true; // the bold words count only in the claim's own paragraph or item
        for (int i = lines.length - 1; i >= 0; i--) {
            String line = lines[i];
            if (line.startsWith("#")) {
                String heading = line.replaceFirst("^#+\\s*", "");
                return "\"" + heading + (lead == null ? "" : " › " + lead) + "\"";
            }
            Matcher bold = LEAD.matcher(line);
            if (inParagraph && lead == null && bold.find()) {
                lead = bold.group(1).replaceAll("[.;:]$", "");
            }
            inParagraph &= i == lines.length - 1 || !line.isBlank();
        }
        return lead == null ? "(no heading)" : "\"" + lead + "\"";
    }

    /** 47,005 for MB/s, 0.561 for seconds, 1.27 for a ratio: as the book prints them. */
    static String decimal(double value) {
        return Math.abs(value) >= 100 ? String.format(Locale.ROOT, "%,.0f", value)
                : Math.abs(value) >= 1 ? String.format(Locale.ROOT, "%.2f", value) : String.format(Locale.ROOT, "%.3f", value);
    }

    private static int lineOf(String text, int index) {
        return (int) text.substring(0, index).chars().filter(c -> c == '\n').count() + 1;
    }

    private CheckBook() {}
}
