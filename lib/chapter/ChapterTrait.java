package lib.chapter;

import java.util.EnumSet;
import java.util.Set;

/**
 * What a chapter says about itself, by the interfaces its class implements: the one place each
 * fact is declared, and the one way it is read ({@link #of}). The harness asks the chapter it runs;
 * the study and the sweeps, which run each chapter in a JVM of its own, ask the chapters' classes,
 * compiled with them (variants/Contents.java).
 */
public enum ChapterTrait {
    /** Searches on the calling thread alone: no worker count to sweep. */
    SINGLE_THREADED(SingleThreaded.class),
    /** Reads into buffers of its own, a chunk at a time: {@code --chunk} applies. */
    READS_IN_CHUNKS(ChunkedSearch.class),
    /** Maps the file: its runs report the PMD-mapped share, and the page-cache round times it. */
    MAPS_THE_FILE(MapsTheFile.class),
    /** Fills its whole mapping on one thread before its workers start: the cost model takes its faults in turn. */
    POPULATES_ON_ONE_THREAD(PopulatesOnOneThread.class),
    /** Each worker fills its own shard's mapping with one call, all at once: the cost model prices that call. */
    POPULATES_ON_EVERY_WORKER(PopulatesOnEveryWorker.class),
    /** Scans a word at a time, not a vector: the cost model prices its scan at the word kernel's costs. */
    SCANS_WORD_BY_WORD(ScansWordByWord.class),
    /** Scans with the CPU's widest vectors: the cost model prices its scan from memory at that kernel's wall. */
    SCANS_WITH_WIDEST_VECTOR(ScansWithWidestVector.class),
    /** Reads around the page cache: the cold round times it, the worker sweep leaves it out. */
    BYPASSES_PAGE_CACHE(BypassesPageCache.class),
    /** Its search is another program: nothing of it to profile. */
    EXTERNAL_PROGRAM(ExternalProgram.class);

    /** The interface a chapter implements to declare this trait. */
    public final Class<?> marker;

    ChapterTrait(Class<?> marker) {
        this.marker = marker;
    }

    /** The traits {@code chapter} declares, asked of its class. */
    public static Set<ChapterTrait> of(Class<?> chapter) {
        EnumSet<ChapterTrait> traits = EnumSet.noneOf(ChapterTrait.class);
        for (ChapterTrait trait : values()) {
            if (trait.marker.isAssignableFrom(chapter)) {
                traits.add(trait);
            }
        }
        return traits;
    }
}
