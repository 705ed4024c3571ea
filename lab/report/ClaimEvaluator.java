// A claim of the book judged on one machine's results folder: the one evaluator, for the book's
// check (CheckBook) and for a learner's own study (BookVerdicts). No package line, as every file here
// that the notebooks' readers share a folder with.

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import lab.results.*;
import lib.cli.Quote;
import lib.cli.UserMistakeException;
import lib.counters.Stats;

/** A claim's comparison judged on one machine's figures: it holds, it does not, or the folder cannot tell. */
final class ClaimEvaluator {

    private ClaimEvaluator() {}


    /** What a claim comes to on one machine: it holds, it does not, or the folder cannot tell; each with its figures or what is missing. */
    sealed interface Outcome permits Holds, Fails, CannotTell {
        String said();
    }

    record Holds(String said) implements Outcome {}

    record Fails(String said) implements Outcome {}

    record CannotTell(String said) implements Outcome {}

    /**
     * The claim's comparison on {@code machine}'s results. A figure the folder does not have makes it
     * one that cannot be told, and says what is missing. So does a verdict that rests on a trial's few
     * runs where it could go the other way: their spread keeps the fastest and the slowest run, so a
     * {@code >} or {@code <} that holds on it holds, and a tie that fails on it fails, but not the
     * reverse. A CSV that does not read throws UserMistakeException, as {@code results} reads it.
     */
    static Outcome evaluate(ReadmeResults results, String machine, BookClaims.Comparison comparison) {
        Figure left, right;
        try {
            left = figure(results, machine, comparison.left());
            right = figure(results, machine, comparison.right());
        } catch (MissingFigure missing) {
            return new CannotTell(missing.getMessage());
        }
        double k = comparison.factor();
        boolean holds = switch (comparison.operator()) {
            case ">" -> left.low() > k * right.high();
            case "<" -> left.high() < k * right.low();
            case "≤" -> left.low() <= k * right.high(); // not clearly above: the spreads meet, or A is below
            case "≥" -> left.high() >= k * right.low();
            default -> left.low() <= k * right.high() && left.high() >= k * right.low(); // the spreads meet
        };
        String figures = left.describe(comparison.left().text()) + (holds ? " " : " is not ") + comparison.operator() + " "
                + comparison.factorText() + right.describe(comparison.right().text());
        boolean strict = comparison.operator().equals(">") || comparison.operator().equals("<");
        String fewRuns = left.fewRuns() != null ? left.fewRuns() : right.fewRuns();
        if (fewRuns != null && holds != strict) {
            return new CannotTell(figures + ", but " + fewRuns + ": their spread keeps the fastest and the slowest run, "
                    + "so a full study's five runs can tell");
        }
        return holds ? new Holds(figures) : new Fails(figures + " (each with its spread)");
    }

    /**
     * A figure and the spread of the runs or rounds behind it; {@code fewRuns}, where not null, says
     * that its row is a trial's, of fewer runs than a full study's.
     */
    record Figure(double value, double low, double high, String unit, String fewRuns) {
        Figure(double value, double low, double high, String unit) {
            this(value, low, high, unit, null);
        }

        /** "scoreboard:V13PreadVector = 34,951 MB/s (34,665–35,203)": the spread left out where it prints as one figure. */
        String describe(String term) {
            String spread = decimal(low).equals(decimal(high)) ? "" : " (" + decimal(low) + "–" + decimal(high) + ")";
            return term + " = " + decimal(value) + unit + spread;
        }
    }

    /** A figure the folder does not have: its message says what is missing. */
    static final class MissingFigure extends RuntimeException {
        MissingFigure(String message) {
            super(message);
        }
    }

    /** The figure a term names on one machine. */
    static Figure figure(ReadmeResults results, String machine, BookClaims.Term term) {
        return switch (term) {
            case BookClaims.Constant number -> new Figure(number.value(), number.value(), number.value(), "");
            case BookClaims.GoPair pair -> goPair(results, machine, pair);
            case BookClaims.OneShot oneShot -> oneShot(results, machine, oneShot);
            case BookClaims.ModelRatio model -> modelFigure(results, machine, model);
            case BookClaims.UnitCost cost -> unitCost(results, machine, cost);
            case BookClaims.RowFigure row -> rowFigure(results, machine, row);
        };
    }

    private static Figure goPair(ReadmeResults results, String machine, BookClaims.GoPair pair) {
        String csv = requireTable(results, machine, "versus-go");
        return VersusGoPairs.pairs(results.rowsOfEverySize(machine, csv)).stream()
                .filter(each -> each.number() == pair.number() && !each.rounds().isEmpty())
                .map(each -> new Figure(each.ratio(), each.lowest(), each.highest(), " (Java ÷ Go)"))
                .findFirst().orElseThrow(() -> new MissingFigure("no pair " + pair.number() + " in " + csv + " of " + machine));
    }

    private static Figure oneShot(ReadmeResults results, String machine, BookClaims.OneShot oneShot) {
        String csv = requireTable(results, machine, "answer");
        return results.answers(machine).stream()
                .filter(answer -> answer.chapter().equals(oneShot.chapter()))
                .map(answer -> spread(answer.medianSeconds(), answer.runSeconds(), " s"))
                .findFirst().orElseThrow(() -> new MissingFigure("no " + oneShot.chapter() + " in " + csv + " of " + machine));
    }

    /**
     * A row of the cost model's model.csv: its predicted time over its measured one (1: the model
     * is right; 0.5: the chapter took twice what its bill adds up to), or the workers at which the
     * model has it meet the shared wall. The measured time carries the spread the model.csv does
     * not keep, so the figure is taken as it stands.
     */
    private static Figure modelFigure(ReadmeResults results, String machine, BookClaims.ModelRatio model) {
        Path csv = results.file(machine, requireTable(results, machine, "model"));
        List<ModelResults.ModelRow> rows;
        try {
            rows = CostModel.read(csv);
        } catch (UserMistakeException unreadable) {
            throw new MissingFigure(unreadable.getMessage());
        }
        ModelResults.ModelRow chosen = null;
        for (ModelResults.ModelRow row : rows) {
            boolean picked = row.chapter().equals(model.chapter())
                    && model.filters().entrySet().stream().allMatch(filter -> filter.getValue().equals(row.column(filter.getKey())));
            if (picked) {
                chosen = row; // the last that matches, as for every other CSV
            }
        }
        if (chosen == null) {
            throw new MissingFigure("no row " + Quote.name(model.text().substring("model:".length())) + " in " + csv);
        }
        if (model.workersToWall()) {
            if (chosen.workersToWall() == null) {
                throw new MissingFigure(csv + " has no workers_to_wall column (./jbang cost-model writes it)");
            }
            return new Figure(modelled(chosen.workersToWall(), csv), chosen.workersToWall(), chosen.workersToWall(), " workers to the wall");
        }
        double ratio = modelled(chosen.predictedSeconds() / chosen.measuredSeconds(), csv);
        return new Figure(ratio, ratio, ratio, " (predicted ÷ measured)");
    }

    /**
     * A unit cost of costs.csv, in ns: the median of its sittings' values, spread from the lowest round of any sitting
     * to the highest (a sitting's rounds are what {@code lab/yardsticks/UnitCosts.java} keeps of them). A row whose
     * figures do not read, or in a unit costs.csv does not use, makes the claim one that cannot be told.
     */
    private static Figure unitCost(ReadmeResults results, String machine, BookClaims.UnitCost cost) {
        Path csv = results.file(machine, requireTable(results, machine, "costs"));
        List<double[]> sittings; // value, low, high, in ns
        try {
            sittings = StudyResults.eachRow(csv, "a costs.csv", header -> CostModel.requireColumns(header, List.of("cost", "unit", "value", "low", "high"), csv),
                    (file, line, row) -> row.get("cost").equals(cost.name()) ? nanos(row) : null, null).stream().filter(java.util.Objects::nonNull).toList();
        } catch (StudyResults.NotResultsException | UserMistakeException unreadable) {
            throw new MissingFigure(unreadable.getMessage());
        }
        if (sittings.isEmpty()) {
            throw new MissingFigure("no cost " + Quote.name(cost.name()) + " in " + csv);
        }
        double[] values = sittings.stream().mapToDouble(sitting -> sitting[0]).sorted().toArray();
        return new Figure(Stats.median(values), sittings.stream().mapToDouble(sitting -> sitting[1]).min().orElseThrow(),
                sittings.stream().mapToDouble(sitting -> sitting[2]).max().orElseThrow(), " ns");
    }

    /** A costs.csv row's value, low and high in ns; an IllegalArgumentException for a unit it does not use or a figure that is no finite number. */
    private static double[] nanos(java.util.Map<String, String> row) {
        double perUnit = UnitPrices.nanosPerUnit(row);
        double[] figures = new double[3];
        String[] columns = {"value", "low", "high"};
        for (int i = 0; i < 3; i++) {
            try {
                figures[i] = Double.parseDouble(row.get(columns[i])) * perUnit;
            } catch (NumberFormatException notANumber) {
                throw new IllegalArgumentException(columns[i] + " " + StudyResults.quoted(row.get(columns[i])) + " is no number");
            }
            if (!Double.isFinite(figures[i]) || Math.abs(figures[i]) > 1e12) {
                throw new IllegalArgumentException(columns[i] + " " + StudyResults.quoted(row.get(columns[i])) + " is no cost");
            }
        }
        return figures;
    }

    /** No model is a million times off, nor has a wall a million workers away: a model.csv that says so was not written by the model. */
    private static final double MOST_MODEL_FIGURE = 1e6;

    private static double modelled(double figure, Path csv) {
        if (!(figure >= 1 / MOST_MODEL_FIGURE && figure <= MOST_MODEL_FIGURE)) {
            throw new MissingFigure(csv + " gives " + figure + ", which no cost model does");
        }
        return figure;
    }

    private static Figure rowFigure(ReadmeResults results, String machine, BookClaims.RowFigure figure) {
        String csv = requireTable(results, machine, figure.table());
        List<StudyResults.Row> rows = results.rowsOfEverySize(machine, csv).stream()
                .filter(row -> row.chapter().equals(figure.chapter()))
                .filter(row -> figure.filters().entrySet().stream().allMatch(filter -> matches(row, filter.getKey(), filter.getValue())))
                .sorted(Comparator.comparing(StudyResults.Row::date)).toList();
        if (rows.isEmpty()) {
            String named = figure.text().substring(figure.table().length() + 1).replaceFirst("(\\.[a-z_]+)?(@all)?$", "");
            throw new MissingFigure("no row " + Quote.name(named) + " in " + csv + " of " + machine + notRunHere(results, machine, figure.chapter()));
        }
        if (figure.everyRow()) { // a sitting of several processes: their median, spread as a row's runs are, the extremes left out from five on
            double[] each = rows.stream().mapToDouble(row -> figure(row, figure.quantity()).value()).sorted().toArray();
            int trim = each.length >= 5 ? 1 : 0;
            return new Figure(Stats.median(each), each[trim], each[each.length - 1 - trim], figure(rows.getFirst(), figure.quantity()).unit());
        }
        return figure(rows.getLast(), figure.quantity());
    }

    /** The CSV's file name, when the machine's folder has it; else why it cannot be told: the round that writes it was not run. */
    private static String requireTable(ReadmeResults results, String machine, String table) {
        String csv = table + ".csv";
        if (!results.has(machine, csv)) {
            throw new MissingFigure("no " + csv + " for " + machine + ": " + BookClaims.ROUNDS.get(table) + " was not run there");
        }
        return csv;
    }

    /** Why a chapter has no row, where the machine's description says: a CPU that could not run it. */
    private static String notRunHere(ReadmeResults results, String machine, String chapter) {
        MachineDescription description = results.description(machine);
        String notRun = description.text(MachineDescription.NOT_ON_THIS_CPU).orElse("");
        if (notRun.contains(chapter)) {
            return " (not run on this CPU: " + notRun + ")";
        }
        if (chapter.equals("V12Vector512") && description.text("avx512").map(flag -> flag.equals("false")).orElse(false)) {
            return " (chapter 12 needs AVX-512, which this CPU lacks)";
        }
        return "";
    }

    /** One row's MB/s and seconds (the trimmed mean of 5 runs, else the median), its timed or warm-up runs' seconds, each with its runs' spread, or a count of its bill. */
    static Figure figure(StudyResults.Row row, String quantity) {
        return switch (quantity) {
            case "s" -> withFewRuns(spread(row.typicalSeconds(), row.runSeconds(), " s"), row);
            case "warmup" -> {
                if (row.warmupSeconds().length == 0) {
                    throw new MissingFigure("the row of " + row.chapter() + " in " + row.file().getFileName() + " has no warm-up run");
                }
                yield spread(Arrays.stream(row.warmupSeconds()).average().orElseThrow(), row.warmupSeconds(), " s");
            }
            case "mbps" -> withFewRuns(spread(row.mbps(), Arrays.stream(row.runSeconds()).map(s -> row.fileBytes() / s / 1e6).toArray(), " MB/s"), row);
            default -> { // a count of the bill, the median of the timed runs' as the summary line gives it
                Double perGiB = row.billPerGiB(quantity);
                if (perGiB == null) {
                    throw new MissingFigure("the row of " + row.chapter() + " in " + row.file().getFileName() + " has no " + quantity);
                }
                yield new Figure(perGiB, perGiB, perGiB, " " + quantity.replace("_per_gib", " per GiB").replace('_', ' '));
            }
        };
    }

    /** The figure, marked as a trial's when its row has fewer runs than a full study's (a row the time budget cut is not). */
    private static Figure withFewRuns(Figure figure, StudyResults.Row row) {
        if (StudyResults.runsForTrialRule(row.runs(), row.runSeconds()) >= StudyResults.FULL_RUNS) {
            return figure;
        }
        String fewRuns = row.chapter() + "'s row in " + row.file().getFileName() + " rests on " + row.runs() + " timed run"
                + (row.runs() == 1 ? "" : "s") + (row.warmupRuns() == 0 ? " and no warm-up" : "");
        return new Figure(figure.value(), figure.low(), figure.high(), figure.unit(), fewRuns);
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

    private static boolean matches(StudyResults.Row row, String column, String value) {
        return switch (column) {
            case "workers" -> String.valueOf(row.workers()).equals(value);
            case "warmup_runs" -> String.valueOf(row.warmupRuns()).equals(value);
            case "cache" -> value.equals(row.cache());
            case "page_cache" -> value.equals(row.pageCache());
            case "chunk_bytes" -> String.valueOf(row.chunkBytes()).equals(value);
            default -> String.valueOf(row.fileBytes()).equals(value); // file_bytes, the last column a claim narrows by
        };
    }

    /** 47,005 for MB/s, 0.561 for seconds, 1.27 for a ratio: as the book prints them. */
    static String decimal(double value) {
        return Math.abs(value) >= 100 ? String.format(Locale.ROOT, "%,.0f", value)
                : Math.abs(value) >= 1 ? String.format(Locale.ROOT, "%.2f", value) : String.format(Locale.ROOT, "%.3f", value);
    }
}
