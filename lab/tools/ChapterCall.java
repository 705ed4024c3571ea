package lab.tools;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.Consumer;
import lib.harness.ResultsCsv;

/**
 * A chapter a yardstick runs beside its own side, given {@code --csv CSV}: how it ended, and the rows
 * it appended to CSV, which say what it found (its summary line on stdout is for people to read).
 */
public record ChapterCall(ChildProcess.Ended ended, List<Map<String, String>> appended) {

    /** Runs {@code chapter} ({@link ChildProcess#chapter}, its arguments ending {@code --csv csv}) and reads back the rows it appended. */
    public static ChapterCall run(ChildProcess chapter, Path csv, String what, Consumer<String> notes) throws IOException, InterruptedException {
        int rowsBefore = ResultsCsv.rows(csv).size();
        ChildProcess.Ended ended = chapter.run(what, notes);
        List<Map<String, String>> rows = ResultsCsv.rows(csv);
        return new ChapterCall(ended, rows.subList(Math.min(rowsBefore, rows.size()), rows.size()));
    }

    /** It ended by itself with status 0. */
    public boolean ran() {
        return !ended.timedOut() && ended.status() == 0;
    }

    /** Why it did not {@link #ran run}, in one line: its time limit's, or "WHAT ended with status N", WHAT as {@link #run} was told. */
    public String failure() {
        return ended.timedOut() ? ended.timeOutLine() : ended.what() + " ended with status " + ended.status();
    }

    /**
     * The figure {@code column} of the last row it appended, such as a bill's {@code user_us_per_gib}; NaN where
     * that row lacks it, holds no number, or there is no row.
     */
    public double lastFigure(String column) {
        try {
            return Double.parseDouble(appended.getLast().get(column));
        } catch (java.util.NoSuchElementException | NumberFormatException | NullPointerException notAFigure) {
            return Double.NaN;
        }
    }

    /** The median run's seconds of the last row it appended; empty without one that is positive and finite. */
    public OptionalDouble medianSeconds() {
        double median = lastFigure("median_s");
        return median > 0 && Double.isFinite(median) ? OptionalDouble.of(median) : OptionalDouble.empty();
    }
}
