// One machine's folder of results, and which of its rows are this study's.

package lab.results;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * One machine's folder of results: its name (the folder's, or the description's), its
 * description and its CSVs, each read once.
 */
public final class ResultsFolder {

    /**
     * Added to a machine's name for the folder its study measures into when a folder committed with
     * the project already has that name ({@link CommittedMachines}); the rows keep the machine's name.
     */
    public static final String OWN_FOLDER_SUFFIX = "-local";

    /** The rows of a table that belong together, and one line for each row, or kind of row, left out. */
    public record Selection(List<StudyResults.Row> rows, List<String> notes) {}

    public final String name;
    public final Path dir;
    public final MachineDescription description;
    private final Map<String, StudyResults.Csv> read = new HashMap<>();
    private StudyResults.Identity identity;
    private Long mainFileBytes;
    private List<MemoryWall> walls;

    ResultsFolder(String name, Path dir, MachineDescription description) {
        this.name = name;
        this.dir = dir;
        this.description = description;
    }

    /**
     * The machine whose rows this folder holds: the one its machine.json names, for a folder may be
     * copied or renamed and still hold that machine's study. Without a name there, the folder's name,
     * but for a folder a study made because the machine's own name is a committed folder's
     * ({@link CommittedMachines}): its rows carry the machine's name, without the suffix.
     */
    public String machine() {
        return description.text("name").filter(described -> !described.isBlank()).orElseGet(() -> name.endsWith(OWN_FOLDER_SUFFIX)
                ? name.substring(0, name.length() - OWN_FOLDER_SUFFIX.length()) : name);
    }

    public Path csv(String table) {
        return dir.resolve(table + ".csv");
    }

    public boolean has(String table) {
        return Files.isRegularFile(csv(table));
    }

    /** The table's rows that read as results rows; none when the file is missing. Throws {@link StudyResults.NotResultsException}. */
    public StudyResults.Csv read(String table) {
        return read.computeIfAbsent(table, t -> has(t) ? StudyResults.read(csv(t)) : StudyResults.Csv.none(csv(t)));
    }

    /** Every readable row of every table here; a table that is no results CSV counts as none. */
    private List<StudyResults.Row> allRows() {
        List<StudyResults.Row> all = new ArrayList<>();
        for (String table : StudyResults.TABLES) {
            try {
                all.addAll(read(table).rows());
            } catch (StudyResults.NotResultsException notResults) {
                // said by whoever reads that table
            }
        }
        return all;
    }

    /**
     * The machine the folder's figures were measured on: the description's CPU model, cores and
     * vector width, or, without them, the most common of them among the rows.
     */
    StudyResults.Identity identity() {
        if (identity == null) {
            identity = description.identity().orElseGet(() -> mostCommon(allRows().stream().map(StudyResults.Row::identity).toList(),
                    Comparator.comparing(StudyResults.Identity::toString)).orElse(new StudyResults.Identity("", 0, 0)));
        }
        return identity;
    }

    /** This study's file size: 4 GiB when the folder has rows of it, else the size most rows have (the larger on a tie). */
    public long mainFileBytes() {
        if (mainFileBytes == null) {
            List<Long> sizes = allRows().stream().filter(this::measuredHere).map(StudyResults.Row::fileBytes).toList();
            mainFileBytes = sizes.contains(StudyResults.MAIN_FILE_BYTES) ? StudyResults.MAIN_FILE_BYTES
                    : mostCommon(sizes, Comparator.naturalOrder()).orElse(StudyResults.MAIN_FILE_BYTES);
        }
        return mainFileBytes;
    }

    /** Recorded for this folder's machine (or for none) and with its CPU, cores and vector width. */
    boolean measuredHere(StudyResults.Row row) {
        return (row.machine().isEmpty() || row.machine().equals(machine())) && row.identity().equals(identity());
    }

    /** The description's date, else the newest row's: which study is the most recent. */
    public String date() {
        return description.text("date").orElseGet(() -> allRows().stream().map(StudyResults.Row::date).max(Comparator.naturalOrder()).orElse(""));
    }

    /**
     * This study's rows of {@code table}: measured on this machine ({@link #measuredHere}), on
     * its main file size, with {@code cache} ("warm" or "cold"; null keeps both), the newest row
     * of each chapter, worker count, cache and page cache (and read size, for {@code chunks}): a
     * rerun appends rows rather than replacing them. Every row left out is said: a bad one by its
     * file and line, the others in one line per reason. Throws {@link StudyResults.NotResultsException}.
     */
    public Selection select(String table, String cache) {
        return choose(table, cache, true);
    }

    /** The same rows without keeping only the newest of each: every round of a sitting ({@code versus-go}). */
    public Selection everyRound(String table) {
        return choose(table, null, false);
    }

    private Selection choose(String table, String cache, boolean newestOnly) {
        StudyResults.Csv csv = read(table);
        List<String> notes = new ArrayList<>(csv.problems());
        Map<String, List<String>> leftOut = new LinkedHashMap<>();
        List<StudyResults.Row> kept = new ArrayList<>();
        long mainBytes = mainFileBytes();
        for (StudyResults.Row row : csv.rows()) {
            String reason = null;
            if (!row.machine().isEmpty() && !row.machine().equals(machine())) {
                reason = "measured on another machine (" + row.machine() + "), not " + machine();
            } else if (!row.identity().equals(identity())) {
                reason = "measured on another machine (" + row.identity() + "), not " + name + "'s " + identity();
            } else if (row.fileBytes() != mainBytes && newestOnly) {
                reason = "a " + PageText.binarySize(row.fileBytes()) + " file, where " + name + "'s study is the " + PageText.binarySize(mainBytes) + " one";
            } else if (cache != null && !cache.equals(row.cache())) {
                reason = "with a " + row.cache() + " page cache, where this table holds " + cache;
            }
            if (reason != null) {
                leftOut.computeIfAbsent(reason, r -> new ArrayList<>()).add(row.chapter());
            } else {
                kept.add(row);
            }
        }
        leftOut.forEach((reason, chapters) -> notes.add("left out " + chapters.size() + " row" + (chapters.size() == 1 ? "" : "s")
                + " of " + csv(table) + ": " + reason + " (" + String.join(", ", new LinkedHashSet<>(chapters)) + ")"));
        List<StudyResults.Row> rows = (newestOnly ? newestOfEach(kept, row -> row.measures(table)) : kept).stream()
                .sorted(Comparator.comparingLong(StudyResults.Row::line)).toList();
        return new Selection(rows, notes);
    }

    /**
     * The newest of each: the last row of each {@code key}, for a rerun appends rows rather than
     * replacing them, in the order of those newest rows.
     */
    public static <T, K> List<T> newestOfEach(List<T> rows, Function<T, K> key) {
        Map<K, T> newest = new LinkedHashMap<>();
        for (T row : rows) {
            K of = key.apply(row);
            newest.remove(of); // re-inserted, so that the rows keep the order of the newest
            newest.put(of, row);
        }
        return List.copyOf(newest.values());
    }

    /** Why this study's figures are a trial's ({@link StudyResults#trialReasons}), from {@code rows}. */
    public List<String> trialReasons(Collection<StudyResults.Row> rows) {
        return StudyResults.trialReasons(description.flag("trial"), mainFileBytes(),
                rows.stream().mapToInt(row -> StudyResults.runsForTrialRule(row.runs(), row.runSeconds())).min().orElse(StudyResults.FULL_RUNS),
                rows.stream().anyMatch(row -> row.warmupRuns() == 0));
    }

    /**
     * The memory-read walls of this study: for each probe in wall.csv ({@code WallMemoryRead}, and
     * {@code WallMemoryReadHuge} where it was measured), the best warm MB/s over the worker counts
     * measured, with the chapters of this study (any warm table) that went faster than it.
     */
    public List<MemoryWall> walls() {
        if (walls == null) {
            walls = new ArrayList<>();
            if (has("wall")) {
                List<StudyResults.Row> probes;
                try {
                    // every sitting's rows, not the newest: a wall is the best it reached in any sitting (lab/study/WallSittings)
                    probes = choose("wall", "warm", false).rows().stream().filter(row -> row.fileBytes() == mainFileBytes()).toList();
                } catch (StudyResults.NotResultsException notResults) {
                    return walls; // said by whoever reads wall.csv
                }
                List<StudyResults.Row> chapters = new ArrayList<>();
                for (String table : List.of("scoreboard", "pagecache", "scaling", "chunks")) {
                    try {
                        chapters.addAll(select(table, "warm").rows());
                    } catch (StudyResults.NotResultsException notResults) {
                        // said by whoever draws that table
                    }
                }
                MemoryWall.PROBES.forEach((probe, label) -> probes.stream().filter(row -> row.chapter().equals(probe))
                        .max(Comparator.comparingDouble(StudyResults.Row::mbps)).ifPresent(best -> walls.add(new MemoryWall(probe, label, best.mbps(),
                                best.workers(), (int) probes.stream().filter(row -> row.chapter().equals(probe)).count(),
                                chapters.stream().filter(row -> row.mbps() > best.mbps()).map(StudyResults.Row::chapter).distinct().sorted().toList()))));
            }
        }
        return walls;
    }

    private static <T> Optional<T> mostCommon(List<T> values, Comparator<T> tieBreak) {
        Map<T, Long> counts = values.stream().collect(Collectors.groupingBy(v -> v, LinkedHashMap::new, Collectors.counting()));
        return counts.entrySet().stream().max(Map.Entry.<T, Long>comparingByValue()
                .thenComparing(Map.Entry.comparingByKey(tieBreak))).map(Map.Entry::getKey);
    }

    /**
     * The machine folders under {@code root}: every folder holding a description or a results CSV
     * ({@code reference/}, the article's figures, is not a machine). A root that holds results CSVs
     * itself (a study written straight into {@code --results DIR}) is one machine, named by its
     * description, else as lib/harness/Machine would name the machine of its rows.
     */
    public static List<ResultsFolder> folders(Path root) throws IOException {
        if (StudyResults.TABLES.stream().anyMatch(table -> Files.isRegularFile(root.resolve(table + ".csv")))) {
            MachineDescription description = MachineDescription.read(root.resolve("machine.json"));
            ResultsFolder unnamed = new ResultsFolder("", root, description);
            String name = description.text("name").orElseGet(() -> StudyResults.machineName(unnamed.identity()));
            return List.of(new ResultsFolder(name, root, description));
        }
        List<ResultsFolder> found = new ArrayList<>();
        if (Files.isDirectory(root)) {
            try (Stream<Path> entries = Files.list(root)) {
                for (Path dir : entries.sorted().toList()) {
                    boolean holdsResults = Files.isRegularFile(dir.resolve("machine.json"))
                            || StudyResults.TABLES.stream().anyMatch(table -> Files.isRegularFile(dir.resolve(table + ".csv")));
                    if (Files.isDirectory(dir) && !dir.getFileName().toString().equals("reference") && holdsResults) {
                        found.add(folder(dir));
                    }
                }
            }
        }
        return found;
    }

    /** One machine's folder, named after the folder. */
    public static ResultsFolder folder(Path dir) {
        return new ResultsFolder(dir.getFileName().toString(), dir, MachineDescription.read(dir.resolve("machine.json")));
    }
}
