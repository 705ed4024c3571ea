import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import lib.chapter.NeedleSearch;

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

    /**
     * {@link #all}, and each other way of reading that a chapter's own option picks: chapter 2's
     * {@code --reader locked} beside its default plain reader. The tests of answers cover every one.
     */
    static List<NeedleSearch> everyReader() {
        List<NeedleSearch> chapters = new ArrayList<>(all());
        chapters.add(chapters.indexOf(chapters.stream().filter(V02BufferedByte.class::isInstance).findFirst().orElseThrow()) + 1,
                new V02BufferedByte(V02BufferedByte.Reader.LOCKED));
        return chapters;
    }

    static String name(NeedleSearch chapter) {
        return chapter.getClass().getSimpleName();
    }

    /** The chapter's name, with the option that picks its reader where it has more than one: "V02BufferedByte --reader locked". */
    static String nameAndReader(NeedleSearch chapter) {
        return chapter instanceof V02BufferedByte byteByByte
                ? name(chapter) + " --reader " + byteByByte.reader.name().toLowerCase(Locale.ROOT)
                : name(chapter);
    }
}
