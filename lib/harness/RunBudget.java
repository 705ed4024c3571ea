package lib.harness;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * How many timed runs a measurement takes, bounded by time as JMH bounds its iterations: every run
 * that {@code --runs} asks for while runs are quick, three once a run takes longer than a few
 * seconds, and one once a run takes longer than the whole budget. Chapter 2, at one byte a call,
 * then costs its warm-up and one timed pass of the file, not six passes.
 *
 * <p>Only timed runs decide: a warm-up that is slow because the JIT compiles or the memory is
 * touched for the first time says nothing about the runs after it. At least one timed run is
 * always taken, and every run reads to the answer: a run is never cut short, only not started.
 * A {@code --runs} given on the command line is honoured whatever the runs take ({@link #NONE}).
 */
public record RunBudget(double slowRunSeconds, double budgetSeconds) {

    /** "A few seconds", then thirty: the budget of every measurement unless --runs is given. */
    public static final RunBudget STANDARD = new RunBudget(5, 30);
    /** No budget: every run that was asked for. */
    public static final RunBudget NONE = new RunBudget(Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY);
    /** The timed runs of a measurement whose runs are slow: enough for a median that one bad run cannot move. */
    public static final int SLOW_RUNS = 3;

    /**
     * The number of timed runs to take in all, given those measured so far (possibly none):
     * {@code requested}, or fewer when a run was slow, and never fewer than one nor than those already taken.
     */
    public int timedRuns(int requested, double[] timedSoFar) {
        double slowest = Arrays.stream(timedSoFar).max().orElse(0);
        int cap = slowest > budgetSeconds ? 1 : slowest > slowRunSeconds ? SLOW_RUNS : requested;
        return Math.max(Math.max(1, timedSoFar.length), Math.min(requested, cap));
    }

    /** Whether to start another timed run, after {@code timedSoFar}. */
    public boolean another(int requested, double[] timedSoFar) {
        return timedSoFar.length < timedRuns(requested, timedSoFar);
    }

    /** The one line that says why fewer runs were taken than requested; empty when all were. */
    public Optional<String> note(String variant, int requested, double[] seconds) {
        if (seconds.length >= requested) {
            return Optional.empty();
        }
        double slowest = Arrays.stream(seconds).max().orElse(0);
        String limit = slowest > budgetSeconds
                ? String.format(Locale.ROOT, "longer than the %.0f s budget", budgetSeconds)
                : String.format(Locale.ROOT, "longer than %.0f s", slowRunSeconds);
        return Optional.of(String.format(Locale.ROOT, "%s: a run took %.1f s, %s, so %d timed %s instead of %d (--runs %d takes them all)",
                variant, slowest, limit, seconds.length, seconds.length == 1 ? "run" : "runs", requested, requested));
    }
}
