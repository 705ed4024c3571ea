import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import lab.results.*;
import lib.chapter.ChunkedSearch;
import lib.harness.ResultsCsv;

/**
 * Nothing measured twice. The scaling round's point at one worker a core and the chunks round's
 * point at 1 MiB run the very command of the chapter's scoreboard step (its own worker count, its
 * own read size, a warm cache as it is), so the study copies the scoreboard's row into those
 * tables rather than running it again: the same figures, with the date they were measured. The
 * study copies only a row its own scoreboard step wrote (or found, resuming), never an older study's.
 */
final class ReusedRows {

    private ReusedRows() {}

    /** Whether {@code step} measures what its chapter's scoreboard step measured, on {@code processors} cores. */
    static boolean sameAsScoreboard(StudyStep step, int processors) {
        boolean asIs = step.pageCache().equals("as-is") && !step.cold();
        return asIs && switch (step.table()) {
            case Study.SCALING -> step.workers() == processors && step.chunkBytes() == null;
            case Study.CHUNKS_TABLE -> step.workers() == StudyStep.CHAPTER_DEFAULT
                    && Objects.equals(step.chunkBytes(), ChunkedSearch.DEFAULT_CHUNK_BYTES);
            default -> false;
        };
    }

    /**
     * Appends to {@code target} the last warm row of {@code chapter} on a file of {@code fileBytes}
     * in {@code scoreboard}; false, writing nothing, when there is none (its step failed or was left out).
     */
    static boolean copy(Path scoreboard, String chapter, long fileBytes, Path target) throws IOException {
        if (!Files.isRegularFile(scoreboard) || Files.size(scoreboard) == 0) { // an empty one, as before its first row: nothing to copy
            return false;
        }
        Optional<Map<String, String>> last = StudyResults.eachRow(scoreboard, "a scoreboard", header -> {}, (file, line, row) -> row, new ArrayList<>())
                .stream().filter(row -> chapter.equals(row.get("chapter")) && "warm".equals(row.get("cache"))
                        && Long.toString(fileBytes).equals(row.get("file_bytes")))
                .reduce((earlier, later) -> later);
        if (last.isEmpty()) {
            return false;
        }
        List<Object> values = new ArrayList<>();
        for (String column : ResultsCsv.COLUMNS) {
            values.add(last.get().getOrDefault(column, "")); // an older scoreboard lacks the newest columns
        }
        ResultsCsv.append(target, List.of(values));
        return true;
    }
}
