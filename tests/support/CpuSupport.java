import lib.NeedleSearch;
import lib.VectorKernel;
import org.junit.jupiter.api.Assumptions;

/** What a chapter needs from the CPU, so tests skip visibly where it is missing, never pass quietly. */
final class CpuSupport {

    private CpuSupport() {}

    /** Chapter 12 refuses to run without 512-bit vectors (it throws a UserMistakeException): skip it there. */
    static void assumeChapterRunsHere(NeedleSearch chapter) {
        if (chapter instanceof V12Vector512) {
            Assumptions.assumeTrue(VectorKernel.has512BitVectors(),
                    "V12Vector512 needs 512-bit vectors; this CPU offers " + VectorKernel.WIDEST_BITS + "-bit");
        }
    }
}
