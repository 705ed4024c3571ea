import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Collectors;
import lib.cli.UserMistakeException;
import org.apache.commons.csv.CSVFormat;

/**
 * The walls, measured in the same conditions as what they bound. A wall is an upper bound only if
 * the machine was no busier while it was measured than while the chapters ran, so the study
 * measures the walls in sittings: one right before each warm round and one right after it (one
 * sitting between two rounds serves both). Each sitting is one JVM of yardsticks/WallProbe.java, the
 * walls at one worker and at one a core, appended to {@code wall.csv}; the readers keep the best
 * row of each wall, so one sitting on a busy moment cannot pull a wall below the chapters. The
 * wall on 2 MiB pages bounds only the page-cache round (its huge folios), so only the sittings
 * next to that round measure it: each memory wall copies the whole file into memory first.
 *
 * <p>The cold round reads from the disk, which no wall bounds, so no sitting stands around it.
 * {@code wall-sittings.csv} lists the sittings: when each ran, and which rows of {@code wall.csv}
 * it wrote ({@code first_row} to {@code last_row}, counted from 1 after the header; both empty
 * when it wrote none). A resumed study measures its sittings again, in the conditions of the
 * rounds it resumes.
 */
final class WallSittings {

    static final String FILE = "wall-sittings.csv";
    static final String HEADER = "sitting,label,started,ended,first_row,last_row";

    private WallSittings() {}

    /** The walls of every sitting, as yardsticks/WallProbe.java names them; and the one measured only next to the page-cache round. */
    static final String MEMORY = "memory", MEMORY_HUGE = "memory-huge", COPY = "copy";

    /**
     * A sitting's step: the wall table, its label where a chapter's name would be: "before scoreboard",
     * "after scoreboard, before scaling", "after chunks".
     */
    static StudyStep sitting(String label) {
        return new StudyStep(Study.WALL_TABLE, label, StudyStep.CHAPTER_DEFAULT, false);
    }

    static boolean isSitting(StudyStep step) {
        return step.table().equals(Study.WALL_TABLE) && !Study.WALLS.contains(step.chapter());
    }

    /** The first argument of yardsticks/WallProbe.java for a sitting: the walls it measures. */
    static String probes(StudyStep sitting) {
        return sitting.chapter().matches(".*\\b" + Study.PAGE_CACHE_TABLE + "\\b.*")
                ? String.join(",", MEMORY, MEMORY_HUGE, COPY) : String.join(",", MEMORY, COPY);
    }

    /** The worker counts of every sitting: one, and one a core. */
    static String workers(int processors) {
        return new TreeSet<>(List.of(1, processors)).stream().map(String::valueOf).collect(Collectors.joining(","));
    }

    /** A warm round, which the walls bound: a measuring table other than the walls', its runs not evicted. */
    private static boolean bounded(StudyStep step) {
        return step.measures() && !step.cold() && !step.table().equals(Study.WALL_TABLE);
    }

    /**
     * {@code steps}, in their order, with a sitting right before and right after each warm round:
     * before the first, between each two, and after the last (a round here is a run of steps of one table).
     */
    static List<StudyStep> interleave(List<StudyStep> steps) {
        List<StudyStep> interleaved = new ArrayList<>();
        StudyStep previous = null;
        for (StudyStep step : steps) {
            boolean newRound = previous == null || !previous.table().equals(step.table()) || previous.cold() != step.cold();
            boolean after = newRound && previous != null && bounded(previous), before = newRound && bounded(step);
            if (after || before) {
                interleaved.add(sitting(after && before ? "after " + previous.table() + ", before " + step.table()
                        : after ? "after " + previous.table() : "before " + step.table()));
            }
            interleaved.add(step);
            previous = step;
        }
        if (previous != null && bounded(previous)) {
            interleaved.add(sitting("after " + previous.table()));
        }
        return interleaved;
    }

    /** The rows of a results CSV (0 for a file not there yet), to tell which rows a sitting wrote. */
    static long rows(Path csv) throws IOException {
        if (!Files.isRegularFile(csv)) {
            return 0;
        }
        try (var in = Files.newBufferedReader(csv, StandardCharsets.UTF_8);
             var parser = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get().parse(in)) {
            return parser.stream().count();
        }
    }

    /**
     * Appends one line for a sitting that ran from {@code started} to {@code ended} (whole seconds,
     * as wall.csv's dates, widened to hold them) and left wall.csv with {@code rowsAfter} rows
     * where it found {@code rowsBefore}. A file of another header is left alone.
     */
    static void record(Path folder, String label, Instant started, Instant ended, long rowsBefore, long rowsAfter) throws IOException {
        checkWritable(folder);
        Path file = folder.resolve(FILE);
        boolean exists = Files.exists(file, LinkOption.NOFOLLOW_LINKS);
        long sitting = exists ? Files.readAllLines(file, StandardCharsets.UTF_8).stream().filter(line -> !line.isBlank()).count() : 1;
        String line = CSVFormat.DEFAULT.format(sitting, label, started.truncatedTo(ChronoUnit.SECONDS), // a label has commas: quoted
                ended.plusSeconds(1).truncatedTo(ChronoUnit.SECONDS),
                rowsAfter > rowsBefore ? Long.toString(rowsBefore + 1) : "", rowsAfter > rowsBefore ? Long.toString(rowsAfter) : "") + "\n";
        try {
            Files.writeString(file, exists ? line : HEADER + "\n" + line, StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw lib.cli.IoMessage.naming(file, e); // a full disk's message names no file
        }
    }

    /** Refuses, before the study starts, a wall-sittings.csv that this study could not append to. */
    static void checkWritable(Path folder) throws IOException {
        Path file = folder.resolve(FILE);
        if (Files.exists(file, LinkOption.NOFOLLOW_LINKS)
                && (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) || !firstLine(file).equals(HEADER))) {
            throw new UserMistakeException(file + " exists and is not this study's list of wall sittings; left it alone");
        }
    }

    /** The first line, reading no more than a header's worth of bytes (a stray file may be large and binary). */
    private static String firstLine(Path file) throws IOException {
        byte[] start;
        try (var in = Files.newInputStream(file)) {
            start = in.readNBytes(HEADER.length() + 2);
        }
        return new String(start, StandardCharsets.UTF_8).lines().findFirst().orElse("");
    }
}
