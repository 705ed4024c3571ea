import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The walls, measured in the same conditions as what they bound. A wall is an upper bound only if
 * the machine was no busier while it was measured than while the chapters ran, so the study
 * measures the walls in sittings: one right before each warm round and one right after it (one
 * sitting between two rounds serves both). Each sitting is one JVM of lab/yardsticks/WallProbe.java, the
 * walls at one worker and at one a core, appended to {@code wall.csv}; the readers keep the best
 * row of each wall, so one sitting on a busy moment cannot pull a wall below the chapters. Each
 * sitting then measures the unit costs, for the cost model. The wall on 2 MiB pages bounds only
 * the page-cache round (its huge folios), so only the sittings next to that round measure it:
 * each memory wall copies the whole file into memory first.
 *
 * <p>The cold round reads from the disk, which no wall bounds, so no sitting stands around it. A
 * resumed study measures its sittings again, in the conditions of the rounds it resumes.
 */
final class WallSittings {

    private WallSittings() {}

    /**
     * The unit costs (lab/yardsticks/UnitCosts.java), measured in every sitting right after its walls: the cost model
     * prices a row at the costs of the sittings around it, as it takes the walls, for a fault's costs drift too.
     */
    static final StudyStep UNIT_COSTS = new StudyStep(Study.COSTS, "UnitCosts", StudyStep.CHAPTER_DEFAULT, false);

    /** The walls of every sitting, as lab/yardsticks/WallProbe.java names them; and the one measured only next to the page-cache round. */
    static final String MEMORY = "memory", MEMORY_HUGE = "memory-huge", MEMORY_WIDEST = "memory-widest", COPY = "copy";

    /**
     * A sitting's step: the wall table, its label where a chapter's name would be: "before scoreboard",
     * "after scoreboard, before scaling", "after chunks".
     */
    static StudyStep sitting(String label) {
        return new StudyStep(Study.WALL_TABLE, label, StudyStep.CHAPTER_DEFAULT, false);
    }

    static boolean isSitting(StudyStep step) {
        return step.table().equals(Study.WALL_TABLE) && !Study.WALLS.contains(step.chapter());
    }

    /** The first argument of lab/yardsticks/WallProbe.java for a sitting: the walls it measures. */
    static String probes(StudyStep sitting) {
        return sitting.chapter().matches(".*\\b" + Study.PAGE_CACHE_TABLE + "\\b.*")
                ? String.join(",", MEMORY, MEMORY_HUGE, MEMORY_WIDEST, COPY) : String.join(",", MEMORY, MEMORY_WIDEST, COPY);
    }

    /** The worker counts of every sitting: one, and one a core. */
    static String workers(int processors) {
        return new TreeSet<>(List.of(1, processors)).stream().map(String::valueOf).collect(Collectors.joining(","));
    }

    /** A warm round, which the walls bound: a measuring table other than the walls', its runs not evicted. */
    private static boolean bounded(StudyStep step) {
        return step.measures() && !step.cold() && !step.table().equals(Study.WALL_TABLE);
    }

    /**
     * {@code steps}, in their order, with a sitting right before and right after each warm round:
     * before the first, between each two, and after the last (a round here is a run of steps of one table).
     */
    static List<StudyStep> interleave(List<StudyStep> steps) {
        List<StudyStep> interleaved = new ArrayList<>();
        StudyStep previous = null;
        for (StudyStep step : steps) {
            boolean newRound = previous == null || !previous.table().equals(step.table()) || previous.cold() != step.cold();
            boolean after = newRound && previous != null && bounded(previous), before = newRound && bounded(step);
            if (after || before) {
                addSitting(interleaved, after && before ? "after " + previous.table() + ", before " + step.table()
                        : after ? "after " + previous.table() : "before " + step.table());
            }
            interleaved.add(step);
            previous = step;
        }
        if (previous != null && bounded(previous)) {
            addSitting(interleaved, "after " + previous.table());
        }
        return interleaved;
    }

    /** A sitting's two steps: its walls, then the unit costs. */
    private static void addSitting(List<StudyStep> steps, String label) {
        steps.add(sitting(label));
        steps.add(UNIT_COSTS);
    }
}
