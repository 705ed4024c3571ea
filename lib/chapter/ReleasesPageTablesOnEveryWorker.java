package lib.chapter;

/**
 * Marks a chapter whose workers each clear their own shard's page-table entries
 * ({@code MADV_DONTNEED}), all at once, before the mapping is unmapped: the cost model
 * (lab/report/CostModel.java) prices that teardown at what such calls on every thread take
 * together (the wall time), not at one thread's {@code munmap}.
 */
public interface ReleasesPageTablesOnEveryWorker {
}
