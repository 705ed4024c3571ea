import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import lib.chapter.NeedleSearch;
import lib.linux.HugeFolios;
import org.junit.jupiter.api.Assumptions;

/** What a chapter needs from the CPU and kernel, so tests skip visibly where it is missing, never pass quietly. */
final class CpuSupport {

    private CpuSupport() {}

    /** Chapter 12 refuses to run without 512-bit vectors (it throws a UserMistakeException): skip it there. */
    static void assumeChapterRunsHere(NeedleSearch chapter) {
        if (chapter instanceof V12Vector512) {
            Assumptions.assumeTrue(V12Vector512.WIDEST_BITS >= 512,
                    "V12Vector512 needs 512-bit vectors; this CPU offers " + V12Vector512.WIDEST_BITS + "-bit");
        }
        if (chapter instanceof V16MmapHugePages) { // its files are made under the temporary directory
            String reason = whyNoHugeFolios(Path.of(System.getProperty("java.io.tmpdir")));
            Assumptions.assumeTrue(reason == null, () -> "V16MmapHugePages refuses here: " + reason);
        }
    }

    /** Why a file under {@code dir} cannot be cached in 2 MiB folios here, or null. */
    static String whyNoHugeFolios(Path dir) {
        try {
            return HugeFolios.whyNot(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
