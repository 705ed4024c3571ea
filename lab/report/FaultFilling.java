// How a chapter takes its faults, as its class declares, for the cost model (lab/report/CostModel.java), which prices
// them so. No //SOURCES of its own: CostModel names it.

import java.util.List;
import java.util.Set;
import lib.chapter.ChapterTrait;

/**
 * How a chapter's faults are taken: a touch at a time by each worker; by {@code MAP_POPULATE} inside {@code mmap}, on
 * one thread; or by {@code MADV_POPULATE_READ}, each worker its shard, all at once. A populating call is priced at the
 * populate costs (all at once: the wall time, not shared out), measured apart, for it may not scale as touches do.
 */
enum FaultFilling {
    TOUCHED, POPULATED_ON_ONE_THREAD, POPULATED_ON_EVERY_WORKER;

    boolean populates() {
        return this != TOUCHED;
    }

    /** Whether {@code workers} fill their shards all at once, priced at the populate costs on every thread (the _all pair). */
    boolean onEveryThread(int workers) {
        return this == POPULATED_ON_EVERY_WORKER && workers > 1;
    }

    /** The costs.csv names a populating chapter's faults are priced with. */
    List<String> pricing(int workers) {
        return onEveryThread(workers) ? List.of("populate_fixed_all", "populate_pte_all") : List.of("populate_fixed", "populate_pte");
    }

    /** How a chapter whose class declares {@code traits} takes its faults: touched unless it says it populates. */
    static FaultFilling of(Set<ChapterTrait> traits) {
        return traits.contains(ChapterTrait.POPULATES_ON_ONE_THREAD) ? POPULATED_ON_ONE_THREAD
                : traits.contains(ChapterTrait.POPULATES_ON_EVERY_WORKER) ? POPULATED_ON_EVERY_WORKER : TOUCHED;
    }
}
