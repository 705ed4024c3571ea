///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
//SOURCES ../Lab.java
//DEPS org.apache.commons:commons-csv:1.10.0
//COMPILE_OPTIONS --add-modules jdk.incubator.vector
//RUNTIME_OPTIONS --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import lab.tools.AtomicWrite;
import lib.cli.Quote;
import lib.cli.UserMistakeException;

/**
 * Why each chapter takes the time it takes: its bill per GiB times the machine's unit costs, added
 * up, never fitted to any chapter's time.
 *
 * <p>For a file of B bytes (G GiB) searched by W workers, with a bill per GiB of {@code calls} read
 * calls, {@code copied} bytes returned, {@code device} bytes from the disk, {@code faults} minor
 * faults and {@code wakeUps} voluntary switches:
 *
 * <pre>
 *   one core  = [ G × (calls × c_call + faults × c_fault + wakeUps × c_wake)
 *                 + G × copied × (c_copy(1 thread) + c_scan_in_cache)
 *                 + (B − G × copied) × c_scan(1 thread) ] / W
 *   memory    = (B − G × copied) × c_scan(all threads)     every byte not copied is scanned from memory
 *   copy      = G × copied × c_copy(all threads)            the page cache's copy, shared by the workers
 *   device    = G × device × c_device(8 in flight, or 1 with one worker)
 *   predicted = the largest of the four; "bound" names it (for one core, its largest term)
 *   workers to the wall = one core's time with a single worker ÷ the largest shared term
 * </pre>
 *
 * The last is the model's answer to "how many workers would this chapter need to reach what the
 * machine shares": past it, a worker more only waits on memory, the copy or the device. The walls
 * are measured on this machine's threads, so it says how many of this machine's cores would.
 *
 * A byte that is copied is then scanned where the copy left it, in the CPU's cache: its copy plus a
 * scan in the cache. c_scan and c_copy are the walls ({@code wall.csv}: WallMemoryRead,
 * WallPageCacheCopy), the others {@code lab/yardsticks/UnitCosts.java}'s ({@code costs.csv}). The
 * model knows no chapter's kernel: it prices every scan at the 256-bit kernel's speed, so a chapter
 * that scans a byte at a time, or calls a method per byte, takes longer than it says, and that gap
 * is what the chapter's lesson is.
 *
 * <pre>
 * How to run:   ./jbang lab/report/CostModel.java results/MACHINE [--csv results/MACHINE/model.csv]
 * What you should see: one line per chapter of the scoreboard, page cache and cold tables:
 *   V13PreadVector  workers=2  as-is  warm  measured 0.161 s  predicted 0.142 s  bound copy  (-12 %)
 * </pre>
 */
public final class CostModel {

    static final String HEADER = "chapter,workers,page_cache,cache,measured_s,predicted_s,bound,workers_to_wall";
    /** The columns of model.csv before workers_to_wall: such a file is still read, and rewritten whole. */
    static final String FIRST_COLUMNS = "chapter,workers,page_cache,cache,measured_s,predicted_s,bound";
    static final double GIB = 1L << 30;

    /** The machine's unit costs, in nanoseconds (per event, or per byte). */
    record Costs(double call, double fault, double wake, double scanInCache, double deviceOneInFlight, double deviceDeep,
                     double scanOneThread, double scanAllThreads, double copyOneThread, double copyAllThreads) {}

    /** A prediction: seconds, the term that bounds it, and the workers at which one core's time meets the largest shared term. */
    record Prediction(double seconds, String bound, double workersToWall) {}

    /** One row of model.csv as read back, its times checked to be positive numbers. */
    record ModelRow(String chapter, String workers, String pageCache, String cache, double measuredSeconds, double predictedSeconds,
                    String bound, Double workersToWall) {

        /** The value of one of model.csv's columns that a row can be picked by; null for any other. */
        String column(String name) {
            return switch (name) {
                case "chapter" -> chapter;
                case "workers" -> workers;
                case "page_cache" -> pageCache;
                case "cache" -> cache;
                case "bound" -> bound;
                default -> null;
            };
        }
    }

    /** Every row of a model.csv; a file that does not read as one, or a time that is no positive number, stops with one line. */
    static List<ModelRow> read(Path csv) {
        try {
            return StudyResults.eachRow(csv, "a model.csv", header -> requireColumns(header, List.of("chapter", "workers", "page_cache", "cache",
                    "measured_s", "predicted_s", "bound"), csv), (file, line, row) -> {
                String workersToWall = row.getOrDefault("workers_to_wall", ""); // absent from a model.csv of before it
                return new ModelRow(row.get("chapter"), row.get("workers"), row.get("page_cache"), row.get("cache"), positive(row, "measured_s"),
                        positive(row, "predicted_s"), row.get("bound"), workersToWall.isEmpty() ? null : positive(row, "workers_to_wall"));
            }, null);
        } catch (StudyResults.NotResultsException e) {
            throw new UserMistakeException(e.getMessage());
        }
    }

    /** The figure in {@code column}, or an IllegalArgumentException when it is no positive, finite number. */
    private static double positive(Map<String, String> row, String column) {
        return positive(row, column, column);
    }

    private static double positive(Map<String, String> row, String column, String named) {
        double value;
        try {
            value = StudyResults.decimal(row, column, Double.MAX_VALUE);
        } catch (IllegalArgumentException notANumber) {
            value = 0;
        }
        if (!(value > 0)) {
            throw new IllegalArgumentException(named + " is " + StudyResults.quoted(row.get(column)) + ", not a positive number");
        }
        return value;
    }

    /** Refuses a header without one of {@code columns}, in one line naming {@code csv}. */
    private static void requireColumns(List<String> header, List<String> columns, Path csv) {
        columns.stream().filter(column -> !header.contains(column)).findFirst().ifPresent(column -> {
            throw new StudyResults.NotResultsException(Quote.name(csv) + " has no column " + column);
        });
    }

    /** Each row measured beside its prediction, and the term that bounds it: README's table, and what this tool prints. */
    static Table table(List<ModelRow> rows) {
        Table table = new Table("chapter", "workers", "page cache", "cache", "measured, s", "predicted, s", "predicted ÷ measured", "bound",
                "wall at, workers");
        for (ModelRow row : rows) {
            table.row(Table.code(row.chapter()), row.workers(), row.pageCache(), row.cache(), Table.seconds(row.measuredSeconds()),
                    Table.seconds(row.predictedSeconds()), String.format(Locale.ROOT, "%.2f", row.predictedSeconds() / row.measuredSeconds()),
                    row.bound(), row.workersToWall() == null ? "–" : String.format(Locale.ROOT, "%.1f", row.workersToWall()));
        }
        return table;
    }

    public static void main(String[] args) {
        try {
            if (args.length != 1 && !(args.length == 3 && args[1].equals("--csv"))) {
                throw new UserMistakeException("usage: CostModel results/MACHINE [--csv PATH]");
            }
            Path folder = Path.of(args[0]);
            Costs costs = unitCosts(folder);
            List<ModelRow> rows = new ArrayList<>();
            for (String table : List.of("scoreboard.csv", "pagecache.csv", "cold.csv")) {
                if (!Files.isRegularFile(folder.resolve(table))) {
                    continue;
                }
                for (StudyResults.Row row : StudyResults.readEveryRow(folder.resolve(table)).rows()) {
                    if (row.billPerGiB("read_calls_per_gib") == null || row.chapter().equals("V00Cmp")) {
                        continue; // no bill to add up (cmp's is a child's, not counted)
                    }
                    if (row.billPerGiB("device_bytes_per_gib") != null && row.billPerGiB("device_bytes_per_gib") > 0
                            && Double.isNaN(costs.deviceDeep())) {
                        continue; // reads from the disk, and no device cost was measurable here (tmpfs)
                    }
                    Prediction prediction = predict(row, costs);
                    rows.add(new ModelRow(row.chapter(), String.valueOf(row.workers()), row.pageCache(), row.cache(), row.meanSeconds(),
                            prediction.seconds(), prediction.bound(), Double.isNaN(prediction.workersToWall()) ? null : prediction.workersToWall()));
                }
            }
            System.out.print(table(rows).text());
            if (args.length == 3) {
                Path csv = Path.of(args[2]);
                if (Files.exists(csv) && !Files.readString(csv).startsWith(FIRST_COLUMNS)) {
                    throw new UserMistakeException(Quote.name(csv) + " is not a model.csv: it is left as it is");
                }
                StringBuilder text = new StringBuilder(HEADER).append('\n'); // a model is recomputed whole
                rows.forEach(row -> text.append(String.join(",", row.chapter(), row.workers(), row.pageCache(), row.cache(),
                        String.format(Locale.ROOT, "%.4f", row.measuredSeconds()),
                        String.format(Locale.ROOT, "%.4f", row.predictedSeconds()), row.bound(),
                        row.workersToWall() == null ? "" : String.format(Locale.ROOT, "%.2f", row.workersToWall()))).append('\n'));
                AtomicWrite.write(csv, text.toString());
            }
        } catch (UserMistakeException | StudyResults.NotResultsException e) {
            System.err.println("CostModel: " + e.getMessage());
            System.exit(2);
        } catch (IOException e) {
            System.err.println("CostModel: cannot read or write: " + e.getMessage());
            System.exit(2);
        }
    }

    /** The formula's terms, in nanoseconds: one core's, each by its name, and the shared ones. */
    record Terms(Map<String, Double> oneCore, Map<String, Double> shared) {

        double core() {
            return oneCore.values().stream().mapToDouble(Double::doubleValue).sum();
        }
    }

    /** The model's formula (see the class comment), term by term. */
    static Terms terms(StudyResults.Row row, Costs c) {
        double bytes = row.fileBytes(), gib = bytes / GIB, workers = row.workers();
        double copied = Math.min(bytes, gib * bill(row, "returned_bytes_per_gib")), scanned = bytes - copied;
        Map<String, Double> oneCore = new LinkedHashMap<>();
        oneCore.put("read calls", gib * bill(row, "read_calls_per_gib") * c.call() / workers);
        oneCore.put("faults", gib * bill(row, "minor_faults_per_gib") * c.fault() / workers);
        oneCore.put("wake-ups", gib * bill(row, "voluntary_switches_per_gib") * c.wake() / workers);
        oneCore.put("copy", copied * c.copyOneThread() / workers);
        oneCore.put("scan in cache", copied * c.scanInCache() / workers);
        oneCore.put("scan", scanned * c.scanOneThread() / workers);
        Map<String, Double> shared = new LinkedHashMap<>();
        shared.put("memory", scanned * c.scanAllThreads());
        shared.put("page-cache copy", copied * c.copyAllThreads());
        double fromDevice = gib * bill(row, "device_bytes_per_gib");
        shared.put("device", fromDevice == 0 ? 0 : fromDevice * (workers > 1 ? c.deviceDeep() : c.deviceOneInFlight()));
        return new Terms(oneCore, shared);
    }

    static Prediction predict(StudyResults.Row row, Costs c) {
        return predict(terms(row, c), row.workers());
    }

    /** The largest term is the prediction, and its name the bound (for one core, its largest term's). */
    static Prediction predict(Terms terms, int workers) {
        double core = terms.core(), largestShared = terms.shared().values().stream().mapToDouble(Double::doubleValue).max().orElseThrow();
        double workersToWall = largestShared > 0 ? core * workers / largestShared : Double.NaN;
        if (core >= largestShared) {
            String coreBound = terms.oneCore().entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
            return new Prediction(core / 1e9, "core: " + coreBound, workersToWall);
        }
        String sharedBound = terms.shared().entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
        return new Prediction(largestShared / 1e9, sharedBound, workersToWall);
    }

    private static double bill(StudyResults.Row row, String column) {
        Double perGiB = row.billPerGiB(column);
        return perGiB == null ? 0 : perGiB;
    }

    /** The walls' newest rows (one thread, and the most threads measured) and costs.csv's newest row of each cost. */
    static Costs unitCosts(Path folder) throws IOException {
        Map<String, Double> cost = new LinkedHashMap<>();
        Path costs = folder.resolve("costs.csv");
        if (!Files.isRegularFile(costs)) {
            throw new UserMistakeException("no " + Quote.name(costs) + ": ./jbang lab/yardsticks/UnitCosts.java FILE --csv " + costs + " measures them");
        }
        try {
            StudyResults.eachRow(costs, "a costs.csv", header -> requireColumns(header, List.of("cost", "value"), costs), (file, line, row) ->
                    cost.put(row.get("cost"), positive(row, "value", "the cost " + Quote.name(row.get("cost")))), null); // the newest of each wins
        } catch (StudyResults.NotResultsException e) {
            throw new UserMistakeException(e.getMessage());
        }
        List<StudyResults.Row> walls = StudyResults.readEveryRow(folder.resolve("wall.csv")).rows();
        return new Costs(need(cost, "read_call", costs), need(cost, "minor_fault", costs), need(cost, "wake_up", costs),
                need(cost, "scan_in_cache", costs),
                cost.getOrDefault("device_byte_qd1", Double.NaN), cost.getOrDefault("device_byte_deep", Double.NaN),
                nanosPerByte(walls, "WallMemoryRead", false), nanosPerByte(walls, "WallMemoryRead", true),
                nanosPerByte(walls, "WallPageCacheCopy", false), nanosPerByte(walls, "WallPageCacheCopy", true));
    }

    private static double need(Map<String, Double> cost, String name, Path costs) {
        Double value = cost.get(name);
        if (value == null) {
            throw new UserMistakeException(Quote.name(costs) + " has no " + name + ": ./jbang lab/yardsticks/UnitCosts.java FILE --csv " + costs
                    + " measures it");
        }
        return value;
    }

    /** A wall's ns per byte: its newest row on one thread, or on the most threads measured. */
    private static double nanosPerByte(List<StudyResults.Row> walls, String wall, boolean allThreads) {
        StudyResults.Row chosen = null;
        for (StudyResults.Row row : walls) {
            if (row.chapter().equals(wall) && (allThreads ? chosen == null || row.workers() >= chosen.workers() : row.workers() == 1)) {
                chosen = row;
            }
        }
        if (chosen == null) {
            throw new UserMistakeException("wall.csv has no " + wall + (allThreads ? "" : " on one thread"));
        }
        return 1e3 / chosen.mbps(); // MB/s: 10^6 bytes a second, so 10^3 / MB/s is ns per byte
    }

    private CostModel() {}
}
