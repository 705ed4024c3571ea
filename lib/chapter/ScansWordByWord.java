package lib.chapter;

/**
 * Marks a chapter whose kernel reads one 8-byte word at a time, not a vector: chapters 3 to 7. A
 * word loop scans a buffer in the CPU's cache at several bytes a nanosecond, but keeps too few cache
 * lines in flight to stream memory as fast as a vector kernel does. The cost model
 * (lab/report/CostModel.java) prices its scan at the word kernel's own costs.
 */
public interface ScansWordByWord {
}
