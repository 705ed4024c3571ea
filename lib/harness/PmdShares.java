package lib.harness;

import lib.counters.PmdMapping;
import lib.counters.Stats;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

/**
 * The harness's record of how a mapped chapter's runs were mapped. Once the runs are done, outside
 * their time, {@link #afterLastRun} maps the file once more as the page cache holds it and reads
 * {@code /proc/self/smaps} ({@link PageCache#mappedAsCached}): whether a page is mapped 2 MiB at a
 * time depends on the folio the page cache holds it in, which the chapter's mapping met the same way.
 * Once, not after every run: a whole second mapping built and torn down between two runs slowed the
 * next one (chapter 6 by about 12 % on a 1 GiB file, 2-core AMD EPYC, measured interleaved).
 * A yardstick that scans memory of its own records that memory after each run instead
 * ({@link PmdMapping#recordAfterScan}). {@link #note} ends a run's line; the median, highest and
 * lowest share sum up the timed runs.
 */
public final class PmdShares {
    private final List<Double> timedPercents = new ArrayList<>();
    private PmdMapping.Recorded last;
    private boolean timed;
    /** The file a mapped chapter searched, measured once its runs are done; null for any other search. */
    private Path mappedFile;

    public void beforeRun(boolean timedRun) {
        timed = timedRun;
        PmdMapping.startRecording();
    }

    /**
     * Right after a run, before its time is taken: takes what a yardstick recorded, and notes
     * {@code mappedFile} (null for a search that does not map the file) for {@link #afterLastRun}.
     * Returns the nanoseconds the run itself spent reading smaps, which are not the search's.
     */
    public long afterRun(Path mappedFile) {
        last = PmdMapping.takeRecorded();
        PmdMapping.stopRecording();
        this.mappedFile = mappedFile;
        if (last == null) {
            return 0;
        }
        record(timed);
        return last.readingNanos();
    }

    /**
     * Once the runs are done: measures a mapping of a mapped chapter's file, as the last timed run
     * met it. A file not wholly cached is not measured: a mapping of it would read the rest in.
     */
    public void afterLastRun() {
        if (mappedFile != null && timedPercents.isEmpty()) {
            last = measure(mappedFile);
            if (last != null) {
                record(timed);
            }
        }
    }

    private void record(boolean timedRun) {
        if (timedRun && last.mapping() != null && !Double.isNaN(last.mapping().pmdMappedPercent())) {
            timedPercents.add(last.mapping().pmdMappedPercent());
        }
    }

    private static PmdMapping.Recorded measure(Path file) {
        try {
            return PageCache.isAllResident(file) ? new PmdMapping.Recorded(PageCache.mappedAsCached(file), 0, null) : null;
        } catch (IOException | RuntimeException noSmaps) { // a failure to look fails no search
            return new PmdMapping.Recorded(null, 0, null);
        }
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
