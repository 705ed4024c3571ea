//DEPS V00Cmp.java V01ReadAll.java V02BufferedByte.java V03ChunkedLong.java V04Mmap.java V05MmapMadvise.java
//DEPS V06MmapParallel.java V07PreadParallel.java V08Vector256.java V09MmapParallelVector.java V10MmapPopulate.java V11PreadParallelVector256.java
//DEPS V12Vector512.java V13PreadVector.java V14DirectIo.java V15IoUring.java V16MmapHugePages.java V17ReadDontCache.java
import java.util.LinkedHashMap;
import java.util.List;
import java.util.SequencedMap;
import java.util.Set;
import lib.chapter.ChapterTrait;

/**
 * The book's contents: every chapter's class, in order. Not a chapter, and nothing a chapter uses.
 *
 * <p>The tools that choose chapters by what they are (the study's rounds, the size sweep, fio beside
 * the cold chapters) compile this file with them (through lab/LabWithChapters.java) and ask these
 * classes what they implement ({@link ChapterTrait#of}): a chapter's traits are read one way, from its
 * type, and no tool reads a chapter's source text or looks a class up by its name. Each chapter comes
 * as its own jar ({@code //DEPS}, a script dependency), the one JBang builds to run it: an edit to one
 * chapter rebuilds that chapter alone, and no tool that reads the chapters.
 * ChapterListsTest fails when a chapter file in this folder is missing here, or out of order.
 */
final class Contents {

    static final List<Class<?>> CHAPTERS = List.of(
            V00Cmp.class, V01ReadAll.class, V02BufferedByte.class, V03ChunkedLong.class, V04Mmap.class,
            V05MmapMadvise.class, V06MmapParallel.class, V07PreadParallel.class, V08Vector256.class,
            V09MmapParallelVector.class, V10MmapPopulate.class, V11PreadParallelVector256.class, V12Vector512.class,
            V13PreadVector.class, V14DirectIo.class, V15IoUring.class, V16MmapHugePages.class, V17ReadDontCache.class);

    private Contents() {}

    /** Every chapter's name ("V04Mmap", its script's name), in order, with the traits its class declares. */
    static SequencedMap<String, Set<ChapterTrait>> traits() {
        SequencedMap<String, Set<ChapterTrait>> traits = new LinkedHashMap<>();
        CHAPTERS.forEach(chapter -> traits.put(chapter.getSimpleName(), ChapterTrait.of(chapter)));
        return traits;
    }

    /** The names of the chapters that declare {@code trait}, in order. */
    static List<String> declaring(ChapterTrait trait) {
        return CHAPTERS.stream().filter(chapter -> ChapterTrait.of(chapter).contains(trait)).map(Class::getSimpleName).toList();
    }
}
