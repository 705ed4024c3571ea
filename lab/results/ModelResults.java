// The cost model's table (model.csv, written by lab/report/CostModel.java), read by one rule for every
// reader: the model's own claims and README blocks, and the model notebook. The writer holds each row
// it writes to the same rule, so it never writes one its readers would refuse.

package lab.results;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** model.csv: each row of a study's tables, measured beside what the cost model predicts. */
public final class ModelResults {

    private ModelResults() {}

    /** The columns every model.csv has; workers_to_wall and unstable_costs came later and may be absent. */
    public static final List<String> REQUIRED = List.of("chapter", "workers", "page_cache", "cache", "measured_s", "predicted_s", "bound");
    /** The longest time model.csv holds, measured or predicted: 10^7 s, some four months, far past any chapter's search. */
    public static final double MOST_SECONDS = 1e7;
    /** The most workers to the wall model.csv holds: past a billion, the figure says nothing a smaller one would not. */
    public static final double MOST_WORKERS_TO_WALL = 1e9;

    /** One row of model.csv as read back, its times checked to be positive numbers. */
    public record ModelRow(String chapter, String workers, String pageCache, String cache, double measuredSeconds, double predictedSeconds,
                           String bound, Double workersToWall, String unstableCosts) {

        /** The value of one of model.csv's columns that a row can be picked by; null for any other. */
        public String column(String name) {
            return switch (name) {
                case "chapter" -> chapter;
                case "workers" -> workers;
                case "page_cache" -> pageCache;
                case "cache" -> cache;
                case "bound" -> bound;
                default -> null;
            };
        }
    }

    /**
     * Every row of {@code csv}. A file that is no model.csv throws {@link StudyResults.NotResultsException}; so does
     * the first row that does not read when {@code problems} is null, and otherwise that row is left out and said there.
     */
    public static List<ModelRow> read(Path csv, List<String> problems) {
        return StudyResults.eachRow(csv, "a model.csv", header -> REQUIRED.stream().filter(column -> !header.contains(column)).findFirst()
                .ifPresent(column -> {
                    throw new StudyResults.NotResultsException(csv + " is not a model.csv: it has no column " + column);
                }), (file, line, row) -> modelRow(row), problems);
    }

    /**
     * One row from its fields, by the rule its readers and its writer share: a chapter, page cache, cache, bound and
     * workers such as the model writes; times positive numbers up to {@link #MOST_SECONDS}; workers to the wall a
     * positive number up to {@link #MOST_WORKERS_TO_WALL} or empty. Otherwise an IllegalArgumentException saying what.
     * The file may come from someone else, so nothing in it reaches a page unless it has one of these shapes.
     */
    public static ModelRow modelRow(Map<String, String> row) {
        boolean written = row.get("chapter").matches("V\\d\\d[A-Za-z0-9]*") && row.get("page_cache").matches("as-is|small|huge")
                && row.get("cache").matches("warm|cold") && row.get("workers").matches("[1-9][0-9]{0,3}") && row.get("bound").matches("[a-z:. -]{1,40}");
        if (!written) {
            throw new IllegalArgumentException("not a row the cost model writes");
        }
        String workersToWall = row.getOrDefault("workers_to_wall", ""); // absent from a model.csv of before it
        return new ModelRow(row.get("chapter"), row.get("workers"), row.get("page_cache"), row.get("cache"), positive(row, "measured_s", MOST_SECONDS),
                positive(row, "predicted_s", MOST_SECONDS), row.get("bound"),
                workersToWall.isEmpty() ? null : positive(row, "workers_to_wall", MOST_WORKERS_TO_WALL), unstableCosts(row.getOrDefault("unstable_costs", "")));
    }

    /** The unstable_costs field: cost names, as costs.csv writes them, apart by spaces; anything else is refused. */
    private static String unstableCosts(String field) {
        if (field.matches("([a-z0-9_]{1,40}( |$))*")) {
            return field;
        }
        throw new IllegalArgumentException("unstable_costs is " + StudyResults.quoted(field) + ", not costs.csv names apart by spaces");
    }

    /**
     * The figure in {@code column}, or an IllegalArgumentException when it is no positive number up to {@code most}: the
     * rule for model.csv's figures, and for costs.csv's (lab/report/UnitPrices.java).
     */
    public static double positive(Map<String, String> row, String column, double most) {
        double value;
        try {
            value = StudyResults.decimal(row, column, Double.MAX_VALUE);
        } catch (IllegalArgumentException notANumber) {
            value = 0;
        }
        if (!(value > 0) || value > most) {
            throw new IllegalArgumentException(column + " is " + StudyResults.quoted(row.get(column)) + ", not a positive number"
                    + (most < Double.MAX_VALUE ? String.format(Locale.ROOT, " up to %.0e", most) : ""));
        }
        return value;
    }
}
