///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
//SOURCES ../Lab.java
//DEPS org.apache.commons:commons-csv:1.10.0
//COMPILE_OPTIONS --add-modules jdk.incubator.vector
//RUNTIME_OPTIONS --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import lab.tools.AtomicWrite;
import lib.cli.IoMessage;
import lib.cli.PathConverter;
import lib.cli.Quote;
import lib.cli.UserMistakeException;
import lib.cli.OutputCheck;
import lib.harness.ResultsCsv;

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

    /** The longest time model.csv holds, measured or predicted: 10^7 s, some four months, far past any chapter's search. */
    static final double MOST_SECONDS = 1e7;
    /** The most workers to the wall model.csv holds: past a billion, the figure says nothing a smaller one would not. */
    static final double MOST_WORKERS_TO_WALL = 1e9;

    /** Every row of a model.csv; a file that does not read as one, or a figure out of {@link #modelRow}'s bounds, stops with one line. */
    static List<ModelRow> read(Path csv) {
        try {
            return StudyResults.eachRow(csv, "a model.csv", header -> requireColumns(header, List.of("chapter", "workers", "page_cache", "cache",
                    "measured_s", "predicted_s", "bound"), csv), (file, line, row) -> modelRow(row), null);
        } catch (StudyResults.NotResultsException e) {
            throw new UserMistakeException(e.getMessage());
        }
    }

    /**
     * One row of model.csv from its fields, by the one rule its reader and its writer share: times positive numbers
     * up to {@link #MOST_SECONDS}, workers to the wall a positive number up to {@link #MOST_WORKERS_TO_WALL} or empty;
     * otherwise an IllegalArgumentException saying which field is what.
     */
    static ModelRow modelRow(Map<String, String> row) {
        String workersToWall = row.getOrDefault("workers_to_wall", ""); // absent from a model.csv of before it
        return new ModelRow(row.get("chapter"), row.get("workers"), row.get("page_cache"), row.get("cache"), positive(row, "measured_s", MOST_SECONDS),
                positive(row, "predicted_s", MOST_SECONDS), row.get("bound"),
                workersToWall.isEmpty() ? null : positive(row, "workers_to_wall", MOST_WORKERS_TO_WALL));
    }

    /** The figure in {@code column}, or an IllegalArgumentException when it is no positive number up to {@code most}. */
    private static double positive(Map<String, String> row, String column, double most) {
        double value;
        try {
            value = StudyResults.decimal(row, column, Double.MAX_VALUE);
        } catch (IllegalArgumentException notANumber) {
            value = 0;
        }
        if (!(value > 0) || value > most) {
            throw new IllegalArgumentException(column + " is " + StudyResults.quoted(row.get(column)) + ", not a positive number"
                    + (most < Double.MAX_VALUE ? String.format(Locale.ROOT, " up to %.0e", most) : ""));
        }
        return value;
    }

    /**
     * A figure as model.csv writes it: with {@code decimals} places, as ever, unless that would round a positive figure
     * to zero (a time under half a tenth of a millisecond), which then keeps four significant digits ("2.500e-05").
     */
    static String figure(double value, int decimals) {
        String fixed = String.format(Locale.ROOT, "%." + decimals + "f", value);
        return value > 0 && Double.isFinite(value) && Double.parseDouble(fixed) == 0 ? String.format(Locale.ROOT, "%.4g", value) : fixed;
    }

    /**
     * The fields of model.csv for one row, each as written, read back by the reader's own rule ({@link #modelRow}): a
     * figure it would refuse (an infinite time, a time of 10^300 s from a hostile bill) is never written, but refused in
     * one line naming the row it came from.
     */
    static List<String> fields(ModelRow row, String from) {
        List<String> fields = java.util.Arrays.asList(row.chapter(), row.workers(), row.pageCache(), row.cache(),
                figure(row.measuredSeconds(), 4), figure(row.predictedSeconds(), 4), row.bound(),
                row.workersToWall() == null ? "" : figure(row.workersToWall(), 2));
        Map<String, String> values = new LinkedHashMap<>();
        List<String> columns = List.of(HEADER.split(","));
        for (int i = 0; i < columns.size(); i++) {
            values.put(columns.get(i), fields.get(i));
        }
        try {
            modelRow(values);
        } catch (IllegalArgumentException refused) {
            throw new UserMistakeException(from + ": the model of " + row.chapter() + " (" + row.workers() + " workers, " + row.cache() + ") comes to "
                    + refused.getMessage() + ", which model.csv cannot hold; no model written (are that row's bill and time, or the unit costs, right?)");
        }
        return fields;
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

    static final String USAGE = "Usage: ./jbang lab/report/CostModel.java results/MACHINE [--csv results/MACHINE/model.csv]";

    public static void main(String[] args) {
        System.exit(execute(args, System.out, System.err));
    }

    /** The command line as a method, for tests: returns the exit status. */
    static int execute(String[] args, PrintStream out, PrintStream err) {
        if (List.of(args).contains("--help") || List.of(args).contains("-h")) {
            out.println(USAGE);
            out.println("Adds up each row of MACHINE's scoreboard, page-cache and cold tables from its bill per GiB at the unit costs");
            out.println("(costs.csv, lab/yardsticks/UnitCosts.java) and the walls (wall.csv, lab/yardsticks/WallProbe.java), and prints measured");
            out.println("against predicted with the term that bounds it. With --csv, writes model.csv whole (a file of another kind is refused).");
            out.println("Exit status: 0 the model was made; 2 an error, such as a cost out of its bounds (one line on stderr).");
            return 0;
        }
        try {
            if (args.length != 1 && !(args.length == 3 && args[1].equals("--csv")) || args[0].startsWith("-")) {
                throw new UserMistakeException("usage: CostModel results/MACHINE [--csv PATH] (--help says more)");
            }
            Path folder = new PathConverter().convert(args[0]);
            Path csv = args.length == 3 ? new PathConverter().convert(args[2]) : null;
            if (csv != null) {
                checkOutput(csv); // before anything is read: a model that cannot be written is not worth making
            }
            List<ModelRow> rows = model(folder);
            out.print(table(rows).text());
            if (csv != null) {
                StringBuilder text = new StringBuilder(HEADER).append('\n'); // a model is recomputed whole
                rows.forEach(row -> text.append(String.join(",", fields(row, Quote.name(folder)))).append('\n'));
                AtomicWrite.write(csv, text.toString());
            }
            return 0;
        } catch (UserMistakeException | StudyResults.NotResultsException e) {
            err.println("CostModel: " + e.getMessage());
            return 2;
        } catch (IOException e) {
            err.println("CostModel: " + IoMessage.of(e)); // the file and the reason, whichever Java left out
            return 2;
        }
    }

    /**
     * Refuses, in one line, a --csv that cannot take a model.csv: a directory, a missing folder (never made), a file or
     * folder it may not write, or a file of another kind (read no further than its first line).
     */
    static void checkOutput(Path csv) throws IOException {
        OutputCheck.requireWritableFile("--csv", csv);
        if (Files.exists(csv) && Files.size(csv) > 0 && !ResultsCsv.firstLine(csv).startsWith(FIRST_COLUMNS)) {
            throw new UserMistakeException(Quote.name(csv) + " is not a model.csv: it is left as it is");
        }
    }

    /** Each row of {@code folder}'s scoreboard, page-cache and cold tables with a bill, beside its prediction. */
    static List<ModelRow> model(Path folder) throws IOException {
        if (!Files.isDirectory(folder)) {
            throw new UserMistakeException(Quote.name(folder) + " is not a results folder: " + (Files.exists(folder) ? "not a directory" : "no such directory"));
        }
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
                ModelRow modelled = new ModelRow(row.chapter(), String.valueOf(row.workers()), row.pageCache(), row.cache(), row.meanSeconds(),
                        prediction.seconds(), prediction.bound(), Double.isNaN(prediction.workersToWall()) ? null : prediction.workersToWall());
                fields(modelled, row.file() + " line " + row.line()); // refused here, before a line is printed, if model.csv could not hold it
                rows.add(modelled);
            }
        }
        return rows;
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

    /**
     * The bounds of a sane unit cost, in nanoseconds. An event (a read call, a fault, a wake-up) costs from a hundredth
     * of a nanosecond, less than any clock cycle, to a second; a byte from 10^-4 ns (10 TB/s, the most a results row may
     * claim: StudyResults) to 10^6 ns (1 KB/s). A cost outside them is a typo or a hostile file, and a model made of
     * it would write times no reader takes (10^308 ns a call: infinite seconds).
     */
    enum Per {
        EVENT(1e-2, 1e9), BYTE(1e-4, 1e6);

        final double leastNanos, mostNanos;

        Per(double leastNanos, double mostNanos) {
            this.leastNanos = leastNanos;
            this.mostNanos = mostNanos;
        }

        /** {@code nanos}, or an IllegalArgumentException naming {@code what} when it is out of these bounds. */
        double check(double nanos, String what) {
            if (!(nanos >= leastNanos && nanos <= mostNanos)) {
                throw new IllegalArgumentException(what + " is " + String.format(Locale.ROOT, "%.4g", nanos) + " ns, out of the bounds of a cost "
                        + (this == EVENT ? "per event" : "per byte") + String.format(Locale.ROOT, " (%.0e to %.0e ns)", leastNanos, mostNanos));
            }
            return nanos;
        }
    }

    /** The costs the model takes from costs.csv, each with its bounds; a row of another cost is not read. */
    static final Map<String, Per> COSTS = Map.of("read_call", Per.EVENT, "minor_fault", Per.EVENT, "wake_up", Per.EVENT,
            "scan_in_cache", Per.BYTE, "device_byte_qd1", Per.BYTE, "device_byte_deep", Per.BYTE);

    /** The units costs.csv's {@code unit} column may give, in nanoseconds ({@code lab/yardsticks/UnitCosts.java} writes ns). */
    static final Map<String, Double> UNITS = Map.of("ns", 1.0, "us", 1e3, "µs", 1e3, "ms", 1e6, "s", 1e9);

    /** A cost of costs.csv in nanoseconds, its value in its unit; an IllegalArgumentException for another unit or a cost out of bounds. */
    private static double nanos(Map<String, String> row, Per per) {
        String name = Quote.name(row.get("cost")), unit = row.get("unit");
        Double nanosPerUnit = UNITS.get(unit);
        if (nanosPerUnit == null) {
            throw new IllegalArgumentException("the unit of the cost " + name + " is " + StudyResults.quoted(unit) + ", not one of ns, µs, us, ms or s");
        }
        double value;
        try {
            value = positive(row, "value", Double.MAX_VALUE);
        } catch (IllegalArgumentException notANumber) {
            throw new IllegalArgumentException("the cost " + name + ": " + notANumber.getMessage());
        }
        return per.check(value * nanosPerUnit, "the cost " + name + (unit.equals("ns") ? "" : " (" + row.get("value") + " " + unit + ")"));
    }

    /** The walls' newest rows (one thread, and the most threads measured) and costs.csv's newest row of each cost, each checked within its bounds. */
    static Costs unitCosts(Path folder) throws IOException {
        Map<String, Double> cost = new LinkedHashMap<>();
        Path costs = folder.resolve("costs.csv"), wall = folder.resolve("wall.csv");
        if (!Files.isRegularFile(costs)) {
            throw new UserMistakeException((Files.exists(costs) ? Quote.name(costs) + " is not a file" : "no " + Quote.name(costs))
                    + ": ./jbang lab/yardsticks/UnitCosts.java FILE --csv " + costs + " measures them");
        }
        try {
            StudyResults.eachRow(costs, "a costs.csv", header -> requireColumns(header, List.of("cost", "unit", "value"), costs), (file, line, row) -> {
                Per per = COSTS.get(row.get("cost"));
                return per == null ? null : cost.put(row.get("cost"), nanos(row, per)); // the newest of each wins
            }, null);
        } catch (StudyResults.NotResultsException e) {
            throw new UserMistakeException(e.getMessage());
        }
        if (!Files.isRegularFile(wall)) {
            throw new UserMistakeException((Files.exists(wall) ? Quote.name(wall) + " is not a file" : "no " + Quote.name(wall))
                    + ": ./jbang lab/yardsticks/WallProbe.java memory,copy FILE --workers 1," + Runtime.getRuntime().availableProcessors()
                    + " --csv " + wall + " measures the walls");
        }
        List<StudyResults.Row> walls = StudyResults.readEveryRow(wall).rows();
        return new Costs(need(cost, "read_call", costs), need(cost, "minor_fault", costs), need(cost, "wake_up", costs),
                need(cost, "scan_in_cache", costs),
                cost.getOrDefault("device_byte_qd1", Double.NaN), cost.getOrDefault("device_byte_deep", Double.NaN),
                nanosPerByte(wall, walls, "WallMemoryRead", false), nanosPerByte(wall, walls, "WallMemoryRead", true),
                nanosPerByte(wall, walls, "WallPageCacheCopy", false), nanosPerByte(wall, walls, "WallPageCacheCopy", true));
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
    private static double nanosPerByte(Path file, List<StudyResults.Row> walls, String wall, boolean allThreads) {
        StudyResults.Row chosen = null;
        for (StudyResults.Row row : walls) {
            if (row.chapter().equals(wall) && (allThreads ? chosen == null || row.workers() >= chosen.workers() : row.workers() == 1)) {
                chosen = row;
            }
        }
        if (chosen == null) {
            throw new UserMistakeException(Quote.name(file) + " has no " + wall + (allThreads ? "" : " on one thread"));
        }
        try { // MB/s: 10^6 bytes a second, so 10^3 / MB/s is ns per byte
            return Per.BYTE.check(1e3 / chosen.mbps(), wall + String.format(Locale.ROOT, "'s cost (%.4g MB/s)", chosen.mbps()));
        } catch (IllegalArgumentException outOfBounds) {
            throw new UserMistakeException(chosen.file() + " line " + chosen.line() + ": " + outOfBounds.getMessage());
        }
    }

    private CostModel() {}
}
