// The memory-read walls the chapters are measured against (wall.csv, written by
// lab/yardsticks/WallProbe.java).

package lab.results;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * A ceiling the chapters are measured against: the best MB/s of {@code probe} over
 * {@code workerCounts} worker counts, and the chapters that went faster than it. A wall that a
 * chapter beats ran another kernel than that chapter (a 256-bit wall, a chapter of wider vectors),
 * or was measured in other conditions (a busier moment), so it bounds nothing: no share of it is
 * shown, and {@link #beatenNote} says why.
 */
public record MemoryWall(String probe, String label, double mbps, int workers, int workerCounts, List<String> beatenBy) {
    /** The probes behind the memory-read walls, as lab/yardsticks/WallProbe.java names them in the chapter column, and their labels. */
    static final Map<String, String> PROBES = new LinkedHashMap<>(Map.of("WallMemoryRead", "memory-read wall, 256-bit"));

    static {
        PROBES.put("WallMemoryReadHuge", "memory-read wall, 256-bit, huge pages");
        PROBES.put("WallMemoryReadWidest", "memory-read wall, widest vectors");
    }

    /** Each chapter's MB/s as a percentage of this wall; empty when the chapter went faster than the wall. */
    public OptionalDouble percentOf(double chapterMbps) {
        return chapterMbps > mbps ? OptionalDouble.empty() : OptionalDouble.of(chapterMbps / mbps * 100);
    }

    /** The one line said beside a share that is not shown. */
    public static final String ABOVE = "faster than the wall";

    /** The line said beside the wall, or empty when no chapter beat it. */
    public String beatenNote() {
        return beatenBy.isEmpty() ? "" : String.join(", ", beatenBy.stream().map(StudyResults::chapterNumber).toList())
                + " ran faster than the " + label + ": it ran another kernel or was measured in other conditions, so it bounds nothing here"
                + " and no share of it is shown";
    }

    /** The wall's line on a chart: its MB/s, and who beat it. */
    public String chartLabel() {
        return String.format(Locale.ROOT, "%s: %,.0f MB/s", label, mbps)
                + (beatenBy.isEmpty() ? "" : " (beaten by " + String.join(", ", beatenBy.stream().map(StudyResults::chapterNumber).toList())
                + ": another kernel or other conditions, no bound)");
    }
}

