package lib;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

/**
 * The harness's record of how a mapped chapter's runs were mapped: before each run it asks
 * {@link PmdMapping} to record; right after, {@link #afterRun} takes what the chapter recorded
 * and returns the time spent reading {@code smaps}, which is not the search's; {@link #note} ends
 * the run's line; the median, highest and lowest share sum up the timed runs.
 */
public final class PmdShares {
    private final List<Double> timedPercents = new ArrayList<>();
    private PmdMapping.Recorded last;
    private boolean timed;

    public void beforeRun(boolean timedRun) {
        timed = timedRun;
        PmdMapping.startRecording();
    }

    /** Right after a run, before its time is taken: the nanoseconds spent reading smaps, not the search's. */
    public long afterRun() {
        last = PmdMapping.takeRecorded();
        PmdMapping.stopRecording();
        if (last == null) {
            return 0;
        }
        if (timed && last.mapping() != null && !Double.isNaN(last.mapping().pmdMappedPercent())) {
            timedPercents.add(last.mapping().pmdMappedPercent());
        }
        return last.readingNanos();
    }

    /** What reading smaps added to the last run's bill, to be taken out of it; null when nothing was read. */
    public long[] readingCounts() {
        return last == null ? null : last.readingCounts();
    }

    /** For the run's line on stderr: "PMD-mapped 100.0%", or empty for a chapter that does not map. */
    public String note() {
        if (last == null) {
            return "";
        }
        return last.mapping() == null ? "PMD-mapped: smaps unreadable"
                : "PMD-mapped " + PmdMapping.percent(last.mapping().pmdMappedPercent()) + "%";
    }

    /** The median share over the timed runs; empty for a chapter that does not map (or whose smaps was unreadable). */
    public OptionalDouble medianPercent() {
        return timedPercents.isEmpty() ? OptionalDouble.empty()
                : OptionalDouble.of(Stats.median(timedPercents.stream().mapToDouble(Double::doubleValue).toArray()));
    }

    /** The largest share any timed run saw; empty as for {@link #medianPercent}. */
    public OptionalDouble highestPercent() {
        return timedPercents.stream().mapToDouble(Double::doubleValue).max();
    }

    /** The smallest share any timed run saw; empty as for {@link #medianPercent}. */
    public OptionalDouble lowestPercent() {
        return timedPercents.stream().mapToDouble(Double::doubleValue).min();
    }
}
