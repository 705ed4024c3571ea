// One step of the study: what it measures, into which table. No package line, as every file of
// study/: the study compiles them together with its //SOURCES.

import java.util.Locale;
import lab.results.*;
import lib.cli.Sizes;

/**
 * One step: a chapter (or wall, notebook) at a worker count, warm or cold, at a read size (null:
 * the chapter's own), from a page-cache state ({@code --page-cache}), into one table.
 */
record StudyStep(String table, String chapter, int workers, boolean cold, Long chunkBytes, String pageCache) {
    /** The chapter's own worker count: one per processor, or 1 for a single-threaded chapter (the chapter knows). */
    static final int CHAPTER_DEFAULT = 0;

    StudyStep(String table, String chapter, int workers, boolean cold) {
        this(table, chapter, workers, cold, null);
    }

    StudyStep(String table, String chapter, int workers, boolean cold, Long chunkBytes) {
        this(table, chapter, workers, cold, chunkBytes, "as-is");
    }

    String cache() {
        return cold ? "cold" : "warm";
    }

    /**
     * What identifies its row in the CSVs, as a row read back gives it ({@link StudyResults#resumeKey};
     * the answer round's, {@link AnswerRound#resumeKey}).
     */
    String key(long fileBytes) {
        if (table.equals(AnswerRound.TABLE)) {
            return AnswerRound.resumeKey(chapter);
        }
        return StudyResults.resumeKey(table, chapter, workers, cache(), pageCache, fileBytes, chunkBytes);
    }

    boolean measures() {
        return Study.TABLES.contains(table);
    }

    @Override
    public String toString() {
        return switch (table) {
            case Study.CHARTS -> "charts      notebooks/{" + chapter + "}.jsh";
            case Study.REPORT -> "report      index.html";
            case Study.COSTS -> "costs       lab/yardsticks/UnitCosts.java";
            case Study.MODEL -> "model       lab/report/CostModel.java";
            default -> String.format(Locale.ROOT, "%-11s %-28s %-11s %s%s", table, chapter,
                    workers == CHAPTER_DEFAULT ? "" : "workers=" + workers, cache(),
                    (chunkBytes == null ? "" : " chunk=" + Sizes.human(chunkBytes))
                            + (table.equals(Study.PAGE_CACHE_TABLE) ? ", page cache " + pageCache : ""));
        };
    }
}
