package lib.chapter;

/**
 * Marks a chapter whose kernel is the widest the CPU has, 512 bits with AVX-512: chapters 12 to 17.
 * Which width streams memory fastest is the CPU's own (512-bit loads were the faster on an Intel
 * Xeon, the slower on an AMD EPYC), so the cost model (lab/report/CostModel.java) prices its scan
 * from memory at the memory wall measured with that kernel, WallMemoryReadWidest.
 */
public interface ScansWithWidestVector {
}
