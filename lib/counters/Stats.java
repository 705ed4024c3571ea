package lib.counters;

import java.util.Arrays;

/**
 * How run times become one figure.
 *
 * <p>The trimmed mean is the article's: with 5 or more runs, drop the fastest and the slowest and
 * average the rest; with fewer, average them all. The median is printed beside it because on a
 * shared, noisy machine it is the figure to quote. With fewer than 5 runs (a quick try, or a run
 * budget that stopped at 1 to 3), nothing is trimmed and one slow first run would drag a mean down:
 * there the MB/s comes from the median ({@link #typicalSeconds}).
 */
public final class Stats {

    /** The fewest runs the trimmed mean trims: with fewer, the figure to quote is the median. */
    public static final int RUNS_TO_TRIM = 5;

    private Stats() {}

    /** The run time a summary's MB/s comes from: the trimmed mean of 5 runs or more, else the median. */
    public static double typicalSeconds(double[] seconds) {
        return seconds.length >= RUNS_TO_TRIM ? trimmedMean(seconds) : median(seconds);
    }

    public static double trimmedMean(double[] seconds) {
        requireRuns(seconds);
        double[] sorted = sorted(seconds);
        int drop = sorted.length >= RUNS_TO_TRIM ? 1 : 0;
        double sum = 0;
        for (int i = drop; i < sorted.length - drop; i++) {
            sum += sorted[i];
        }
        return sum / (sorted.length - 2 * drop);
    }

    public static double median(double[] seconds) {
        requireRuns(seconds);
        double[] sorted = sorted(seconds);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    /** Decimal megabytes per second, as the article counts them. */
    public static double megabytesPerSecond(long bytes, double seconds) {
        return bytes / seconds / 1e6;
    }

    private static double[] sorted(double[] values) {
        double[] copy = values.clone();
        Arrays.sort(copy);
        return copy;
    }

    private static void requireRuns(double[] seconds) {
        if (seconds.length == 0) {
            throw new IllegalArgumentException("no runs to summarise");
        }
    }
}
