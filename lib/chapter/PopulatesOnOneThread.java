package lib.chapter;

/**
 * Marks a chapter that fills every page-table entry of its mapping on one thread before any worker
 * starts ({@code MAP_POPULATE}): its bill's faults are one thread's, taken in turn, not shared out
 * among the workers. The cost model (lab/report/CostModel.java) prices them so.
 */
public interface PopulatesOnOneThread {
}
