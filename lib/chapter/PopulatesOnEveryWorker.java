package lib.chapter;

/**
 * Marks a chapter whose workers each fill their own shard's page-table entries with one call
 * ({@code MADV_POPULATE_READ}), all at once, before they scan: its bill's faults are priced at what
 * such calls on every thread take together (the wall time, measured apart from a touch's), not shared
 * out among the workers. The cost model (lab/report/CostModel.java) prices them so.
 */
public interface PopulatesOnEveryWorker {
}
