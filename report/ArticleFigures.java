//DEPS org.apache.commons:commons-csv:1.14.1
// The Go article's published figures (results/reference/go-blog-figures.csv), kept in the project
// whichever results are shown. No package line: JShell, which runs the notebooks, cannot take one.

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/** The article's figures, by table and chapter number. */
final class ArticleFigures {

    /** The Go article's published figures, kept in the project whichever results are shown. */
    static final Path REFERENCE = Path.of("results", "reference", "go-blog-figures.csv");

    private ArticleFigures() {}

    /** One of the article's published figures: a chapter number's row of one table; absent figures are null. */
    record ArticleRow(String table, String variant, String number, String description, Double meanSeconds, Double mbps,
                      Double speedup, Double oneWorkerMbps, Double peakMbps, Double peakAt, Double coldMbps) {}

    /** The article's rows of {@code table} ({@code scoreboard}, {@code scaling} or {@code cold}); empty without the reference file. */
    static List<ArticleRow> of(String table) {
        return of(REFERENCE, table);
    }

    /**
     * The rows of {@code table} in {@code reference}, a file of the article's figures (README's
     * tables read the one beside the results they are given); empty without the file. A figure
     * that is not one (a word, NaN, a negative) throws {@link StudyResults.NotResultsException} naming file and line.
     */
    static List<ArticleRow> of(Path reference, String table) {
        List<ArticleRow> rows = new ArrayList<>();
        if (!Files.isRegularFile(reference)) {
            return rows;
        }
        try (Reader in = StudyResults.withoutByteOrderMark(reference);
             CSVParser parser = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).setCommentMarker('#').get().parse(in)) {
            for (CSVRecord record : parser) {
                if (record.isConsistent() && record.get("table").equals(table)) {
                    String where = reference + " line " + parser.getCurrentLineNumber();
                    rows.add(new ArticleRow(table, record.get("variant"), StudyResults.chapterNumber(record.get("variant")), record.get("description"),
                            figure(record, "mean_s", where), figure(record, "mb_per_s", where), figure(record, "speedup", where),
                            figure(record, "workers_1_mb_per_s", where), figure(record, "peak_mb_per_s", where),
                            figure(record, "peak_at", where), figure(record, "cold_mb_per_s", where)));
                }
            }
        } catch (StudyResults.NotResultsException badFigure) {
            throw badFigure;
        } catch (IOException | UncheckedIOException | IllegalStateException | IllegalArgumentException e) {
            throw new StudyResults.NotResultsException(reference + " cannot be read: " + StudyResults.firstLine(e.getMessage()));
        }
        return rows;
    }

    /** The article's rows of {@code table} by chapter number ("V06"). */
    static Map<String, ArticleRow> byNumber(String table) {
        Map<String, ArticleRow> byNumber = new LinkedHashMap<>();
        of(table).forEach(row -> byNumber.put(row.number(), row));
        return byNumber;
    }

    /** A figure of the article's, by the rule of a results row's; null where the article gives none. */
    private static Double figure(CSVRecord record, String column, String where) {
        String value = record.isMapped(column) ? record.get(column).strip() : "";
        try {
            return value.isEmpty() ? null : StudyResults.decimal(Map.of(column, value), column, Double.MAX_VALUE);
        } catch (IllegalArgumentException notAFigure) {
            throw new StudyResults.NotResultsException(where + ": " + notAFigure.getMessage());
        }
    }

    /** The article's machine, from the reference file's "# Machine:" line. */
    static String machine() {
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
