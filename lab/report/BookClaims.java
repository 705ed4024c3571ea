// The book's claims: the comments under its lessons that compare figures of a machine's results.
// Read from the book's pages, each parsed whole before any is checked, then judged on a machine's
// folder by one evaluator (ClaimEvaluator), for the book's check (lab/report/CheckBook.java) and for a learner's own
// study (lab/report/BookVerdicts.java). No package line, as every file of lab/report/.

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.MatchResult;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import lab.results.*;
import lib.cli.Quote;

/**
 * A lesson's claim sits right below it, in a comment a reader of the rendered page does not see:
 *
 * <pre>
 * 4. **Parallelism before a wider loop.** …
 *    &lt;!-- claim on amd-epyc-f26m2-2c-avx512: scaling:V09MmapParallelVector;workers=2 &gt; 1.5 × scaling:V09MmapParallelVector;workers=1 --&gt;
 * </pre>
 *
 * A figure is {@code CSV:CHAPTER}, the MB/s of the newest row of that chapter in the machine's CSV,
 * narrowed by {@code ;column=value} (workers, warmup_runs, cache, page_cache, file_bytes, chunk_bytes); {@code .s} after it takes its
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
 * clearly above B (a tie, or below), {@code A ≥ B} when it is not clearly below. {@code on every machine} names
 * each committed machine; any other name must be a committed machine's.
 *
 * <p>A sentence about several chapters ("the reading chapters", "every mapped chapter") is checked
 * on each of them: the page names the group once, anywhere on it, and a claim writes
 * {@code {NAME}} where a member goes, in one figure or several:
 *
 * <pre>
 * &lt;!-- group reading: V03ChunkedLong V07PreadParallel V11PreadParallelVector256 V13PreadVector --&gt;
 * &lt;!-- claim on every machine: scoreboard:{reading} &gt; 2 × scoreboard:V02BufferedByte --&gt;
 * </pre>
 *
 * That claim is four, one per member, each with the member in every place of {@code {reading}}; each
 * must hold, and one that fails is named by its figures. A group belongs to its page; a name is
 * lower case (letters, digits, '-'), each member a word; a claim speaks of one group. A group with
 * no member, one given twice, or a {@code {NAME}} the page does not give is refused in one line.
 *
 * <p>Every claim is parsed before any is judged, and one that is not of this shape (an unknown
 * table, chapter, column or figure, an empty side, a number no figure has) is refused with its
 * file, line and what is wrong: a claim is never judged by running into an exception.
 */
final class BookClaims {

    static final String EVERY_MACHINE = "every machine";
    /** The committed machines' folders, beside the book's pages: the machines a claim may be written for. */
    static final Path COMMITTED_RESULTS = Path.of("results");

    /** Where a claim may start: any comment that opens with the word, so that a misspelt claim is refused, not skipped. */
    static final Pattern OPENING = Pattern.compile("<!--\\s*claim\\b", Pattern.CASE_INSENSITIVE);
    /** A whole claim, on one line. */
    static final Pattern CLAIM = Pattern.compile("<!-- claim on ([^:\n]*): ([^\n]*?) -->");
    static final Pattern LEAD = Pattern.compile("^\\s*(?:\\d+\\.\\s+|[-*]\\s+)?\\*\\*(.+?)\\*\\*");
    private static final Pattern OPERATOR = Pattern.compile(" ([<>≈≤≥]) ");
    private static final Pattern FACTOR = Pattern.compile("([^ ]+) × (.*)");
    /** A number as the book writes one: digits, and a point and digits. */
    private static final Pattern NUMBER = Pattern.compile("[0-9]+(?:\\.[0-9]+)?");
    /** More digits than a double keeps exactly: no figure is written so. */
    private static final int MOST_DIGITS = 15;

    /**
     * The study's rounds and the tools that write each CSV a claim can name, by its name without
     * ".csv": what a folder without it has not run, said when a claim cannot be told.
     */
    static final Map<String, String> ROUNDS = rounds();

    private static Map<String, String> rounds() {
        Map<String, String> rounds = new LinkedHashMap<>();
        rounds.put("scoreboard", "the scoreboard, which every study runs");
        rounds.put("wall", "the walls, which every study measures");
        rounds.put("scaling", "the worker sweep (a default study runs it, --quick does not)");
        rounds.put("pagecache", "the page-cache round (a default study runs it where the file system caches in large folios; --quick does not)");
        rounds.put("cold", "the cold round (a default study runs it, --quick does not)");
        rounds.put("chunks", "the read-size round (a default study runs it, --quick does not)");
        rounds.put("native", "the native yardstick (the study's walls round, where a C compiler is)");
        rounds.put("answer", "the answer round (a default study runs it, --quick does not)");
        rounds.put("model", "the cost model (a default study runs it; alone: lab/report/CostModel.java --csv)");
        rounds.put("costs", "the unit costs (a default study measures them; alone: ./jbang unit-costs)");
        rounds.put("versus-go", "Java beside Go (lab/yardsticks/VersusGo.java, docs/versus-go.md)");
        rounds.put("versus-c", "a reading chapter beside the same search in C (lab/yardsticks/VersusC.java)");
        rounds.put("sizes", "the sweep past memory (lab/study/SizeSweep.java, or the study's --sizes)");
        rounds.put("fio", "fio beside the cold chapters (lab/yardsticks/FioBeside.java)");
        rounds.put("tuning", "the cold tuning sweep (lab/experiments/ColdTuning.java)");
        rounds.put("chapter9-and-walls", "the interleaved rounds of chapter 9 and the walls (README, lesson 6)");
        return java.util.Collections.unmodifiableMap(rounds);
    }

    /** The CSVs of results rows (StudyResults.Row): every table a claim names but the Go pairs, the answer round and the model. */
    static final Set<String> ROW_TABLES = ROUNDS.keySet().stream()
            .filter(table -> !Set.of("versus-go", "answer", "model", "costs").contains(table)).collect(java.util.stream.Collectors.toUnmodifiableSet());

    private BookClaims() {}

    // ---------------------------------------------------------------------------------------------
    // The claims, as the book writes them

    /** A claim, where it stands (its page, line and lesson), the machine it is written for, and what it compares. */
    record Claim(Path document, int line, String lesson, String machine, String text, Comparison comparison) {
        boolean onEveryMachine() {
            return machine.equals(EVERY_MACHINE);
        }

        /** "README.md:209: "Chapter 4 › Map it"": how a line about the claim begins. */
        String where() {
            return document + ":" + line + ": " + lesson;
        }
    }

    /** {@code left operator factor × right}. */
    record Comparison(Term left, String operator, double factor, Term right) {
        String factorText() {
            return factor == 1 ? "" : ClaimEvaluator.decimal(factor) + " × ";
        }
    }

    /** One side of a claim, with its text as the claim writes it. */
    sealed interface Term permits Constant, RowFigure, GoPair, OneShot, ModelRatio, UnitCost {
        String text();
    }

    record Constant(String text, double value) implements Term {}

    /** {@code TABLE:CHAPTER;column=value….quantity@all}: a quantity of a results row, or of every matching row. */
    record RowFigure(String text, String table, String chapter, Map<String, String> filters, String quantity, boolean everyRow) implements Term {}

    /** {@code versus-go:N}: pair N's Java ÷ Go. */
    record GoPair(String text, int number) implements Term {}

    /** {@code answer:CHAPTER.s}: a one-shot's seconds. */
    record OneShot(String text, String chapter) implements Term {}

    /** {@code model:CHAPTER;column=value…[.workers_to_wall]}: the cost model's predicted ÷ measured time, or where it meets the wall. */
    record ModelRatio(String text, String chapter, Map<String, String> filters, boolean workersToWall) implements Term {}

    /** {@code costs:NAME}: a unit cost of costs.csv, the median of its sittings, spread from their lowest round to their highest. */
    record UnitCost(String text, String name) implements Term {}

    /** The claims of the book's pages, in order, and one line for each comment that is no claim the check can read. */
    record Book(List<Claim> claims, List<String> refusals) {}

    /**
     * Every claim of {@code documents}, parsed; {@code machines}: the committed machines a claim may
     * be written for. A comment that opens like a claim but is not one is a refusal, never skipped.
     */
    static Book read(List<Path> documents, Set<String> machines) throws IOException {
        List<Claim> claims = new ArrayList<>();
        List<String> refusals = new ArrayList<>();
        for (Path document : documents) {
            String text = Files.readString(document);
            ClaimGroups.Page page = ClaimGroups.read(document, text);
            refusals.addAll(page.refusals());
            Matcher opening = OPENING.matcher(text);
            while (opening.find()) {
                String where = document + ":" + lineOf(text, opening.start()) + ": " + lesson(text, opening.start());
                try {
                    claims.addAll(claims(document, text, opening.start(), machines, page.groups()));
                } catch (IllegalArgumentException malformed) {
                    refusals.add(where + ": " + malformed.getMessage());
                }
            }
        }
        return new Book(claims, refusals);
    }

    /** The claim whose comment opens at {@code at}, one per member of the group it names, or an IllegalArgumentException saying what is wrong with it. */
    private static List<Claim> claims(Path document, String text, int at, Set<String> machines, Map<String, List<String>> groups) {
        int end = text.indexOf("-->", at);
        if (end < 0) {
            throw new IllegalArgumentException("a claim's comment that never ends (no -->)");
        }
        String comment = text.substring(at, end + 3);
        Matcher claim = CLAIM.matcher(comment);
        if (!claim.matches()) {
            throw new IllegalArgumentException(Quote.name(shortened(comment)) + " is not a claim: one is <!-- claim on MACHINE: A > B --> on one line"
                    + " (MACHINE a committed machine or \"every machine\")");
        }
        String machine = claim.group(1);
        if (!machine.equals(EVERY_MACHINE) && !machines.contains(machine)) {
            throw new IllegalArgumentException("the claim is on machine " + Quote.name(shortened(machine))
                    + ", which has no committed folder (those are " + String.join(", ", new TreeSet<>(machines)) + ")");
        }
        String written = claim.group(2).strip();
        List<Claim> claims = new ArrayList<>();
        try {
            for (String comparison : ClaimGroups.expand(written, groups)) {
                try {
                    claims.add(new Claim(document, lineOf(text, at), lesson(text, at), machine, comparison, comparison(comparison)));
                } catch (IllegalArgumentException malformed) {
                    throw new IllegalArgumentException(comparison.equals(written) ? malformed.getMessage()
                            : "for " + Quote.name(comparison) + ": " + malformed.getMessage());
                }
            }
        } catch (IllegalArgumentException malformed) {
            throw new IllegalArgumentException("the claim " + Quote.name(shortened(written)) + " cannot be checked: " + malformed.getMessage());
        }
        return claims;
    }

    /** {@code A op [k ×] B}, each side parsed. */
    static Comparison comparison(String text) {
        List<MatchResult> operators = OPERATOR.matcher(text).results().toList();
        if (operators.isEmpty()) {
            throw new IllegalArgumentException("it compares nothing: a claim is A > B, A < B, A ≈ B, A ≤ B or A ≥ B, a space each side of the sign");
        }
        if (operators.size() > 1) {
            throw new IllegalArgumentException("it holds " + operators.size() + " comparisons, where a claim is one");
        }
        MatchResult operator = operators.getFirst();
        String left = text.substring(0, operator.start()).strip(), right = text.substring(operator.end()).strip();
        if (left.isEmpty() || right.isEmpty()) {
            throw new IllegalArgumentException("nothing " + (left.isEmpty() ? "before " : "after ") + operator.group(1));
        }
        double factor = 1;
        Matcher scaled = FACTOR.matcher(right);
        if (scaled.matches()) {
            factor = number(scaled.group(1), "the factor k of k × B");
            if (factor == 0) {
                throw new IllegalArgumentException("a factor of 0 makes B nothing");
            }
            right = scaled.group(2).strip();
        }
        Comparison comparison = new Comparison(term(left), operator.group(1), factor, term(right));
        if (comparison.left() instanceof Constant && comparison.right() instanceof Constant) {
            throw new IllegalArgumentException("it compares two numbers, and no figure of a machine");
        }
        return comparison;
    }

    /** One side of a claim: a number, or a figure of a table. */
    static Term term(String text) {
        if (text.isEmpty()) {
            throw new IllegalArgumentException("nothing after k ×");
        }
        if (text.contains("×")) {
            throw new IllegalArgumentException(Quote.name(text) + ": a factor is k × B, once, on the right: a number, a space, ×, a space, then the figure");
        }
        if (NUMBER.matcher(text).matches()) {
            return new Constant(text, number(text, "the number"));
        }
        int colon = text.indexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException(Quote.name(text) + " is neither a number (digits, a point and digits) nor TABLE:CHAPTER");
        }
        String table = text.substring(0, colon), named = text.substring(colon + 1);
        if (!ROUNDS.containsKey(table)) {
            throw new IllegalArgumentException(Quote.name(text) + " names table " + Quote.name(table) + ", which is none of "
                    + String.join(", ", ROUNDS.keySet()));
        }
        if (named.isBlank()) {
            throw new IllegalArgumentException(Quote.name(text) + " names nothing after " + Quote.name(table + ":"));
        }
        return switch (table) {
            case "versus-go" -> goPair(text, named);
            case "answer" -> oneShot(text, named);
            case "model" -> modelRatio(text, named);
            case "costs" -> unitCost(text, named);
            default -> rowFigure(text, table, named);
        };
    }

    private static GoPair goPair(String text, String named) {
        if (!named.matches("[0-9]{1,2}") || Integer.parseInt(named) == 0) {
            throw new IllegalArgumentException(Quote.name(text) + ": a Go pair is versus-go:N, N the chapter's number from 1 to 99");
        }
        return new GoPair(text, Integer.parseInt(named));
    }

    private static OneShot oneShot(String text, String named) {
        if (!named.endsWith(".s")) {
            throw new IllegalArgumentException(Quote.name(text) + ": a one-shot's figure is its seconds, answer:CHAPTER.s");
        }
        String chapter = named.substring(0, named.length() - 2);
        if (!AnswerResults.ANSWER_CHAPTER.matcher(chapter).matches()) {
            throw new IllegalArgumentException(Quote.name(text) + ": " + Quote.name(chapter) + " is no chapter's name, nor Go vN");
        }
        requireKnownChapter(text, chapter);
        return new OneShot(text, chapter);
    }

    private static UnitCost unitCost(String text, String named) {
        if (!named.matches("[a-z][a-z0-9_]{0,63}")) {
            throw new IllegalArgumentException(Quote.name(text) + ": a unit cost is costs:NAME, NAME as costs.csv names it (letters, digits and _)");
        }
        return new UnitCost(text, named);
    }

    private static final String WORKERS_TO_WALL = "workers_to_wall";

    private static ModelRatio modelRatio(String text, String named) {
        boolean workersToWall = named.endsWith("." + WORKERS_TO_WALL);
        String body = workersToWall ? named.substring(0, named.length() - WORKERS_TO_WALL.length() - 1) : named;
        if (body.contains(".") || body.contains("@")) {
            throw new IllegalArgumentException(Quote.name(text) + ": a model figure is model:CHAPTER;column=value…, with .workers_to_wall or not");
        }
        String[] parts = body.split(";", -1);
        requireChapter(text, parts[0]);
        return new ModelRatio(text, parts[0], filters(text, parts, Set.of("workers", "page_cache", "cache", "bound")), workersToWall);
    }

    /** The quantities of a row a claim can take after its chapter and filters: seconds, warm-up seconds and the bill's counts. */
    static final Set<String> QUANTITIES = Stream.concat(Stream.of("s", "warmup"), StudyResults.BILL.stream())
            .collect(java.util.stream.Collectors.toUnmodifiableSet());

    private static RowFigure rowFigure(String text, String table, String named) {
        boolean everyRow = named.endsWith("@all");
        String body = everyRow ? named.substring(0, named.length() - "@all".length()) : named;
        if (body.contains("@")) {
            throw new IllegalArgumentException(Quote.name(text) + ": @all goes once, at the end");
        }
        String quantity = "mbps";
        int dot = body.lastIndexOf('.');
        if (dot >= 0) {
            quantity = body.substring(dot + 1);
            body = body.substring(0, dot);
            if (!QUANTITIES.contains(quantity)) {
                throw new IllegalArgumentException(Quote.name(text) + ": ." + quantity + " is no figure of a row (.s, .warmup or one of the bill: "
                        + String.join(", ", StudyResults.BILL) + ")");
            }
        }
        String[] parts = body.split(";", -1);
        requireChapter(text, parts[0]);
        return new RowFigure(text, table, parts[0], filters(text, parts, Set.of("workers", "warmup_runs", "cache", "page_cache", "file_bytes", "chunk_bytes")), quantity, everyRow);
    }

    private static void requireChapter(String text, String chapter) {
        if (chapter.isEmpty()) {
            throw new IllegalArgumentException(Quote.name(text) + " names no chapter");
        }
        if (!StudyResults.CHAPTER_NAME.matcher(chapter).matches()) {
            throw new IllegalArgumentException(Quote.name(text) + ": " + Quote.name(chapter) + " is no chapter's name");
        }
        requireKnownChapter(text, chapter);
    }

    /** A chapter of variants/ (the book's chapters), when the name is a chapter's: V13PreadVector, not V13PreadVectr. */
    private static void requireKnownChapter(String text, String chapter) {
        Set<String> chapters = chapters();
        if (chapter.matches("V\\d\\d\\w*") && !chapters.isEmpty() && !chapters.contains(chapter)) {
            throw new IllegalArgumentException(Quote.name(text) + ": no chapter " + Quote.name(chapter) + " in variants/");
        }
    }

    private static Set<String> chapters;

    /** The chapters' names, from variants/; none where the book is read away from the project's root. */
    private static synchronized Set<String> chapters() {
        if (chapters == null) {
            Set<String> names = new TreeSet<>();
            try (Stream<Path> files = Files.list(Path.of("variants"))) {
                files.map(file -> file.getFileName().toString()).filter(name -> name.matches("V\\d\\d\\w*\\.java"))
                        .forEach(name -> names.add(name.substring(0, name.length() - ".java".length())));
            } catch (IOException noVariants) {
                // no chapter to hold a name to: the name's shape is checked all the same
            }
            chapters = Set.copyOf(names);
        }
        return chapters;
    }

    /** The {@code column=value} parts after the chapter, each column once and one of {@code columns}, each value one the column can hold. */
    private static Map<String, String> filters(String text, String[] parts, Set<String> columns) {
        Map<String, String> filters = new LinkedHashMap<>();
        for (String filter : Arrays.asList(parts).subList(1, parts.length)) {
            int equals = filter.indexOf('=');
            if (equals <= 0) {
                throw new IllegalArgumentException(Quote.name(text) + ": " + Quote.name(filter) + " is not column=value");
            }
            String column = filter.substring(0, equals), value = filter.substring(equals + 1);
            if (!columns.contains(column)) {
                throw new IllegalArgumentException(Quote.name(text) + ": rows are narrowed by " + String.join(", ", new TreeSet<>(columns))
                        + ", not " + Quote.name(column));
            }
            if (filters.put(column, value) != null) {
                throw new IllegalArgumentException(Quote.name(text) + " narrows by " + column + " twice");
            }
            requireValue(text, column, value);
        }
        return filters;
    }

    private static void requireValue(String text, String column, String value) {
        boolean fits = switch (column) {
            case "workers" -> value.matches("[1-9][0-9]{0,3}") && Integer.parseInt(value) <= StudyResults.MOST_WORKERS;
            case "warmup_runs" -> value.matches("0|[1-9][0-9]{0,8}");
            case "file_bytes", "chunk_bytes" -> value.matches("[1-9][0-9]{0,17}");
            case "cache" -> StudyResults.CACHES.contains(value);
            case "page_cache" -> StudyResults.PAGE_CACHES.contains(value);
            default -> !value.isBlank();
        };
        if (!fits) {
            throw new IllegalArgumentException(Quote.name(text) + ": " + column + "=" + Quote.name(value) + " is no value of " + column);
        }
    }

    /** A number as the book writes one, of no more digits than a double holds. */
    private static double number(String text, String what) {
        if (!NUMBER.matcher(text).matches()) {
            throw new IllegalArgumentException(what + " " + Quote.name(text) + " is not a number (digits, a point and digits)");
        }
        if (text.replace(".", "").replaceFirst("^0+", "").length() > MOST_DIGITS) {
            throw new IllegalArgumentException(what + " " + Quote.name(text) + " has more digits than any figure (" + MOST_DIGITS + ")");
        }
        return Double.parseDouble(text);
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

    /** The line of {@code text} that {@code index} falls on, from 1: where every check of the book's pages says a fault is. */
    static int lineOf(String text, int index) {
        return (int) text.substring(0, index).chars().filter(c -> c == '\n').count() + 1;
    }

    static String shortened(String text) {
        return text.length() > 120 ? text.substring(0, 120) + "…" : text;
    }
}
