//DEPS org.apache.commons:commons-csv:1.10.0
// The Go article's published figures (results/reference/go-blog-figures.csv), kept in the project whichever
// results are shown.

package lab.results;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** The article's figures, by table and chapter number. */
public final class ArticleFigures {

    /** The Go article's published figures, kept in the project whichever results are shown. */
    public static final Path REFERENCE = Path.of("results", "reference", "go-blog-figures.csv");

    private ArticleFigures() {}

    /** One of the article's published figures: a chapter number's row of one table; absent figures are null. */
    public record ArticleRow(String table, String variant, String number, String description, Double meanSeconds, Double mbps,
                      Double speedup, Double oneWorkerMbps, Double peakMbps, Double peakAt, Double coldMbps) {}

    /** The article's rows of {@code table} ({@code scoreboard}, {@code scaling} or {@code cold}); empty without the reference file. */
    public static List<ArticleRow> of(String table) {
        return of(REFERENCE, table);
    }

    /**
     * The rows of {@code table} in {@code reference}, a file of the article's figures (README's
     * tables read the one beside the results they are given); empty without the file. A figure
     * that is not one (a word, NaN, a negative) throws {@link StudyResults.NotResultsException} naming file and line.
     */
    public static List<ArticleRow> of(Path reference, String table) {
        if (!Files.isRegularFile(reference)) {
            return List.of();
        }
        return StudyResults.eachRow(reference, "the article's figures", header -> {
            if (!header.containsAll(List.of("table", "variant", "description"))) {
                throw new StudyResults.NotResultsException(reference + " is not the article's figures: it has no table, variant or description column");
            }
        }, (file, line, row) -> new ArticleRow(row.get("table"), row.get("variant"), StudyResults.chapterNumber(row.get("variant")),
                row.get("description"), figure(row, "mean_s"), figure(row, "mb_per_s"), figure(row, "speedup"), figure(row, "workers_1_mb_per_s"),
                figure(row, "peak_mb_per_s"), figure(row, "peak_at"), figure(row, "cold_mb_per_s")), null)
                .stream().filter(row -> row.table().equals(table)).toList();
    }

    /** The article's rows of {@code table} by chapter number ("V06"). */
    static Map<String, ArticleRow> byNumber(String table) {
        Map<String, ArticleRow> byNumber = new LinkedHashMap<>();
        of(table).forEach(row -> byNumber.put(row.number(), row));
        return byNumber;
    }

    /** A figure of the article's, by the rule of a results row's; null where the article gives none. */
    private static Double figure(Map<String, String> row, String column) {
        return StudyResults.optionalDecimal(row, column, Double.MAX_VALUE);
    }

    /** The article's machine, from the reference file's "# Machine:" line. */
    public static String machine() {
        if (!Files.isRegularFile(REFERENCE)) {
            return "not in this copy";
        }
        try (Stream<String> lines = Files.lines(REFERENCE)) {
            return lines.filter(line -> line.startsWith("# Machine:")).findFirst()
                    .map(line -> line.substring("# Machine:".length()).trim().replaceFirst("\\.$", "")).orElse("another machine");
        } catch (IOException | UncheckedIOException e) {
            return "another machine";
        }
    }
}
