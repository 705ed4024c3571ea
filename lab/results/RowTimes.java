// The times of a results row, each checked as its MB/s is (StudyResults reads every row through here,
// answer.csv's too).

package lab.results;

import java.util.Locale;

/** A row whose times cannot all be true was not measured: no run faster than 10 TB/s or longer than a week, and each within min_s–max_s. */
public final class RowTimes {

    private RowTimes() {}

    /** 10 TB/s: more than any memory system reads, so a row that claims it was not measured. */
    static final double MOST_MEGABYTES_PER_SECOND = 10_000_000;

    /** A week: longer than any run this project times (a study stops a chapter long before), so a row that claims it was not measured. */
    static final double MOST_SECONDS = 7 * 24 * 3600;

    /**
     * A thousand events or bytes of the bill for each byte searched: more than any search makes (a
     * read call returns a byte at least; a fault maps a page), so a row that claims it was not measured.
     */
    static final double MOST_PER_GIB = 1024.0 * (1L << 30);

    /**
     * How far two times of one row may differ by rounding alone: the coarsest a project tool writes
     * them is 4 places (answer.csv; the chapters write 6), so a time written apart from the others
     * may land this far outside their min_s–max_s and still be true.
     */
    static final double SECONDS_ROUNDING = 0.0001;

    /**
     * Every time of a row, checked as {@code mbps} is: no run, warm-up run, mean or median faster
     * than {@link #MOST_MEGABYTES_PER_SECOND} over the row's file or longer than {@link #MOST_SECONDS},
     * and each run, the mean and the median within min_s–max_s. A figure a claim or a table shows is built from these times (a
     * spread from the runs), so one edited time would move it while mbps still looked true.
     */
    public static void check(long fileBytes, double meanSeconds, Double medianSeconds, Double minSeconds, Double maxSeconds,
                                   double[] runSeconds, double[] warmupSeconds) {
        double least = fileBytes / (MOST_MEGABYTES_PER_SECOND * 1e6);
        requireATime("mean_s", meanSeconds, least, fileBytes);
        requireATime("median_s", medianSeconds, least, fileBytes);
        requireATime("min_s", minSeconds, least, fileBytes);
        requireATime("max_s", maxSeconds, least, fileBytes);
        for (double run : runSeconds) {
            requireATime("run_s", run, least, fileBytes);
        }
        for (double run : warmupSeconds) {
            requireATime("warmup_s", run, least, fileBytes);
        }
        requireWithin(minSeconds, maxSeconds, runSeconds, meanSeconds, medianSeconds);
    }

    /**
     * {@code seconds} (null: a column the row does not have) no less than {@code least}, the file's
     * time at 10 TB/s, and no more than {@link #MOST_SECONDS}.
     */
    private static void requireATime(String column, Double seconds, double least, long fileBytes) {
        if (seconds != null && seconds < least) {
            String pace = seconds == 0 ? "no time at all" : String.format(Locale.ROOT, "%,.0f MB/s", fileBytes / seconds / 1e6);
            throw new IllegalArgumentException(column + " holds " + plainSeconds(seconds) + " s, " + pace + " over its "
                    + PageText.binarySize(fileBytes) + ": faster than the 10 TB/s no chapter reaches");
        }
        requireNoLongerThanAWeek(column, seconds);
    }

    static void requireNoLongerThanAWeek(String column, Double seconds) {
        if (seconds != null && seconds > MOST_SECONDS) {
            throw new IllegalArgumentException(column + " holds " + plainSeconds(seconds) + " s, longer than the week no run takes");
        }
    }

    /**
     * Each run, the mean and the median (null: not in the row) within the row's own min_s–max_s,
     * give or take {@link #SECONDS_ROUNDING}; a bound older rows lack bounds nothing.
     */
    static void requireWithin(Double minSeconds, Double maxSeconds, double[] runSeconds, double meanSeconds, Double medianSeconds) {
        for (double run : runSeconds) {
            requireWithin("run_s", run, minSeconds, maxSeconds);
        }
        requireWithin("mean_s", meanSeconds, minSeconds, maxSeconds);
        requireWithin("median_s", medianSeconds, minSeconds, maxSeconds);
    }

    private static void requireWithin(String column, Double seconds, Double minSeconds, Double maxSeconds) {
        boolean belowMin = seconds != null && minSeconds != null && seconds < minSeconds - SECONDS_ROUNDING;
        boolean aboveMax = seconds != null && maxSeconds != null && seconds > maxSeconds + SECONDS_ROUNDING;
        if (belowMin || aboveMax) {
            throw new IllegalArgumentException(column + " holds " + plainSeconds(seconds) + " s, outside the row's own min_s–max_s ("
                    + (minSeconds == null ? "–" : plainSeconds(minSeconds)) + "–" + (maxSeconds == null ? "–" : plainSeconds(maxSeconds)) + ")");
        }
    }

    /** 0.0000001 rather than 1.0E-7: a time as a reader typed it (but 1.0E300 rather than its 301 digits). */
    private static String plainSeconds(double seconds) {
        String plain = java.math.BigDecimal.valueOf(seconds).stripTrailingZeros().toPlainString();
        return plain.length() > 20 ? String.valueOf(seconds) : plain;
    }
}
