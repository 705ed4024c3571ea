import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import lib.cli.Sizes;
import lib.counters.Stats;
import org.junit.jupiter.api.Test;

class StatsTest {

    @Test
    void trimmedMeanDropsFastestAndSlowestFromFiveOrMoreRuns() {
        assertEquals(3.0, Stats.trimmedMean(new double[] {9.0, 2.0, 3.0, 4.0, 0.5}), 1e-12);
    }

    @Test
    void trimmedMeanAveragesEverythingBelowFiveRuns() {
        assertEquals(2.5, Stats.trimmedMean(new double[] {1.0, 2.0, 3.0, 4.0}), 1e-12);
        assertEquals(7.0, Stats.trimmedMean(new double[] {7.0}), 1e-12);
    }

    @Test
    void medianOfOddAndEvenCounts() {
        assertEquals(3.0, Stats.median(new double[] {5, 1, 3}), 1e-12);
        assertEquals(2.5, Stats.median(new double[] {4, 1, 3, 2}), 1e-12);
    }

    @Test
    void theTypicalRunIsTheTrimmedMeanOfFiveOrMoreAndTheMedianOfFewer() {
        assertEquals(3.0, Stats.typicalSeconds(new double[] {9.0, 2.0, 3.0, 4.0, 0.5}), 1e-12);
        assertEquals(3.9, Stats.typicalSeconds(new double[] {10.3, 3.9, 3.8}), 1e-12, "a slow first run does not drag it");
        assertEquals(3.85, Stats.typicalSeconds(new double[] {10.3, 3.9, 3.8, 3.8}), 1e-12);
        assertEquals(7.0, Stats.typicalSeconds(new double[] {7.0}), 1e-12);
    }

    @Test
    void noRunsIsAnError() {
        assertThrows(IllegalArgumentException.class, () -> Stats.trimmedMean(new double[0]));
    }

    @Test
    void megabytesAreDecimal() {
        assertEquals(4294.967296, Stats.megabytesPerSecond(4L << 30, 1.0), 1e-9);
    }

    @Test
    void sizesParseBinaryUnits() {
        assertEquals(4L << 30, Sizes.parse("4g"));
        assertEquals(64L << 20, Sizes.parse("64M"));
        assertEquals(512L << 10, Sizes.parse("512KiB"));
        assertEquals(4096, Sizes.parse("4096"));
        assertThrows(IllegalArgumentException.class, () -> Sizes.parse("big"));
        assertThrows(IllegalArgumentException.class, () -> Sizes.parse("-4g"));
        assertThrows(IllegalArgumentException.class, () -> Sizes.parse("99999999999t"));
    }
}
