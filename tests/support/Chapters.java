import java.util.List;
import java.util.Set;
import lib.NeedleSearch;

/** Every chapter, in order, for the tests that run them all. */
final class Chapters {

    /**
     * The chapters left out of {@link #all}: they need O_DIRECT or io_uring, which not every file
     * system and kernel allow, so ColdChaptersTest runs them where they can run.
     */
    static final Set<String> TESTED_COLD_ONLY = Set.of("V14DirectIo", "V15IoUring");

    private Chapters() {}

    static List<NeedleSearch> all() {
        return List.of(
                new V00Cmp(), new V01ReadAll(), new V02BufferedByte(), new V03ChunkedLong(), new V04Mmap(), new V05MmapMadvise(),
                new V06MmapParallel(), new V07PreadParallel(), new V08Vector256(), new V09MmapParallelVector(),
                new V10MmapPopulate(), new V11PreadParallelVector256(), new V12Vector512(), new V13PreadVector(),
                new V16MmapHugePages(), new V17ReadDontCache());
    }

    static String name(NeedleSearch chapter) {
        return chapter.getClass().getSimpleName();
    }
}
