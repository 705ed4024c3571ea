import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import lib.cli.UserMistakeException;
import lib.harness.RunBudget;
import lib.harness.RunOptions;

/**
 * How deep a study goes, and so how long it takes: {@code --quick}, the default, or {@code --full}.
 *
 * <ul>
 *   <li>{@code --quick}: the scoreboard alone, 3 timed runs a chapter (fewer for a slow one) after the warm-up
 *       run every depth takes, the walls before and after it. Without the warm-up two of a kernel's three runs could
 *       still be the JIT's, and the median with them.
 *   <li>the default: every round, a shorter worker sweep, and 5 timed runs a chapter, fewer for a
 *       slow one ({@link RunBudget}: chapter 2 takes its warm-up and one timed pass).
 *   <li>{@code --full}: every round at the depth the study always had: the long sweep, and every
 *       run of {@code --runs} however long the runs take.
 * </ul>
 *
 * A {@code --sweep}, {@code --runs} or {@code --skip} given on the command line wins over any depth.
 */
enum StudyDepth {
    QUICK, STANDARD, FULL;

    /** The sweep of {@code --full}, the study's from the start: up to 48 workers a core on a 2-core machine. */
    static final List<Integer> FULL_SWEEP = List.of(1, 2, 4, 6, 8, 12, 24, 48, 96);
    /** Timed runs of {@code --quick}: a median that one bad run cannot move. */
    static final int QUICK_RUNS = 3;
    /** Fresh processes per chapter in the default study's answer round. */
    static final int ONE_SHOT_RUNS = 3;

    static StudyDepth of(boolean quick, boolean full) {
        if (quick && full) {
            throw new UserMistakeException("--quick and --full ask for opposite depths: choose one");
        }
        return quick ? QUICK : full ? FULL : STANDARD;
    }

    /** Whether this depth takes {@code round}; the scoreboard and the walls it always takes. */
    boolean takes(String round) {
        return this != QUICK || round.equals(Study.CHARTS);
    }

    /**
     * The worker counts of the scaling round. The default keeps the points that tell the story on
     * {@code processors} cores: one worker, one a core (the scoreboard's row), two a core, and 32 a
     * core, where oversubscription shows; {@code --full} keeps every point it always had.
     */
    List<Integer> sweep(int processors) {
        if (this == FULL) {
            return FULL_SWEEP;
        }
        return List.copyOf(new TreeSet<>(List.of(1, processors, 2 * processors, 32 * processors)));
    }

    /** Timed runs asked of each chapter: the --runs given, or this depth's. */
    int runs(RunOptions options) {
        return options.runsGiven() ? options.runs() : this == QUICK ? QUICK_RUNS : RunOptions.DEFAULT_RUNS;
    }

    /**
     * Fresh processes per chapter in the answer round: the --runs given; every run of the default
     * with {@code --full}; otherwise three, a median that one bad start cannot move. Each is a JVM
     * start and a search the JIT has not compiled, so five cost the default study a minute more.
     */
    int oneShotRuns(RunOptions options) {
        return options.runsGiven() || this == FULL ? runs(options) : ONE_SHOT_RUNS;
    }


    /** A --runs given is honoured, and --full takes every run; otherwise slow runs are cut ({@link RunBudget}). */
    RunBudget budget(RunOptions options) {
        return options.runsGiven() || this == FULL ? RunBudget.NONE : RunBudget.STANDARD;
    }

    /** What a chapter's command line says about runs, so that it takes {@link #runs} within {@link #budget}. */
    List<String> runsArguments(RunOptions options) {
        List<String> arguments = new ArrayList<>();
        boolean budgeted = budget(options) != RunBudget.NONE;
        if (!budgeted || runs(options) != RunOptions.DEFAULT_RUNS) {
            arguments.addAll(List.of("--runs", Integer.toString(runs(options))));
        }
        if (budgeted && runs(options) != RunOptions.DEFAULT_RUNS) {
            arguments.add("--budgeted"); // --runs 3, cut like the default's 5 when runs are slow
        }
        return arguments;
    }
}
