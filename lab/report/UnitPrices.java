// The machine's unit costs as the cost model takes them (lab/report/CostModel.java): costs.csv's costs and wall.csv's
// walls as they stood when a row was measured, each checked within the bounds of a sane cost. No //SOURCES of its own: CostModel names it.

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import lab.results.*;
import lib.cli.Quote;
import lib.cli.UserMistakeException;

/** Reads a results folder's unit costs and walls into {@link CostModel.Costs}; a cost out of its bounds stops with one line. */
final class UnitPrices {

    /** Rounds spread by more than this share of their median make a cost unstable (as lab/yardsticks/UnitCosts.java marks it). */
    static final double UNSTABLE_SPREAD = 0.25;

    /**
     * The bounds of a sane unit cost, in ns: an event (a read call, a fault, a wake-up) from a hundredth of a ns, less
     * than any clock cycle, to a second; a byte from 10^-4 ns (10 TB/s, the most a results row may claim) to 10^6 ns
     * (1 KB/s). Outside them, a typo or a hostile file, which would make times no reader takes.
     */
    enum Per {
        EVENT(1e-2, 1e9), BYTE(1e-4, 1e6);

        final double leastNanos, mostNanos;

        Per(double leastNanos, double mostNanos) { this.leastNanos = leastNanos; this.mostNanos = mostNanos; }

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
    static final Map<String, Per> COSTS = Map.ofEntries(Map.entry("read_call", Per.EVENT), Map.entry("pread_1mib", Per.EVENT),
            Map.entry("minor_fault", Per.EVENT), Map.entry("fault_fixed", Per.EVENT), Map.entry("pte_fill", Per.EVENT),
            Map.entry("fault_fixed_all", Per.EVENT), Map.entry("pte_fill_all", Per.EVENT), Map.entry("pte_fill_as_found", Per.EVENT), Map.entry("pte_fill_as_found_all", Per.EVENT),
            Map.entry("populate_fixed", Per.EVENT), Map.entry("populate_pte", Per.EVENT), Map.entry("populate_fixed_all", Per.EVENT),
            Map.entry("populate_pte_all", Per.EVENT), Map.entry("unmap_entry", Per.EVENT), Map.entry("walk_entry", Per.EVENT),
            Map.entry("walk_entry_as_found", Per.EVENT), Map.entry("wake_up", Per.EVENT),
            Map.entry("scan_in_cache", Per.BYTE), Map.entry("scan_word_in_cache", Per.BYTE), Map.entry("scan_word_from_memory", Per.BYTE),
            Map.entry("scan_word_from_memory_all", Per.BYTE), Map.entry("device_byte_qd1", Per.BYTE), Map.entry("device_byte_deep", Per.BYTE));

    /** The units costs.csv's {@code unit} column may give, in nanoseconds ({@code lab/yardsticks/UnitCosts.java} writes ns). */
    static final Map<String, Double> UNITS = Map.of("ns", 1.0, "us", 1e3, "µs", 1e3, "ms", 1e6, "s", 1e9);

    /** A cost of costs.csv in nanoseconds, its value in its unit; an IllegalArgumentException for another unit or a cost out of bounds. */
    private static double nanos(Map<String, String> row, Per per) {
        String name = Quote.name(row.get("cost")), unit = row.get("unit");
        double nanosPerUnit = nanosPerUnit(row);
        double value;
        try {
            value = ModelResults.positive(row, "value", Double.MAX_VALUE);
        } catch (IllegalArgumentException notANumber) {
            throw new IllegalArgumentException("the cost " + name + ": " + notANumber.getMessage());
        }
        return per.check(value * nanosPerUnit, "the cost " + name + (unit.equals("ns") ? "" : " (" + row.get("value") + " " + unit + ")"));
    }

    /** The nanoseconds in one unit of a costs.csv row's {@code unit}; an IllegalArgumentException for a unit costs.csv does not use. */
    static double nanosPerUnit(Map<String, String> row) {
        Double nanosPerUnit = UNITS.get(row.get("unit"));
        if (nanosPerUnit == null) {
            throw new IllegalArgumentException("the unit of the cost " + Quote.name(row.get("cost")) + " is " + StudyResults.quoted(row.get("unit"))
                    + ", not one of ns, µs, us, ms or s");
        }
        return nanosPerUnit;
    }

    /** costs.csv's costs and the walls as they stood at {@code when}: {@code of(folder).at(when)}. */
    static CostModel.Costs read(Path folder, String when) throws IOException {
        return of(folder).at(when);
    }

    /** A folder's costs.csv and wall.csv, each read and its costs checked within their bounds, once for all its rows. */
    static Measured of(Path folder) throws IOException {
        Path costs = folder.resolve("costs.csv"), wall = folder.resolve("wall.csv");
        if (!Files.isRegularFile(costs)) {
            throw new UserMistakeException((Files.exists(costs) ? Quote.name(costs) + " is not a file" : "no " + Quote.name(costs))
                    + ": ./jbang unit-costs FILE --csv " + costs + " measures them");
        }
        Map<String, List<Sitting>> sittings = new LinkedHashMap<>();
        try {
            StudyResults.eachRow(costs, "a costs.csv", header -> CostModel.requireColumns(header, List.of("cost", "unit", "value"), costs), (file, line, row) -> {
                Per per = COSTS.get(row.get("cost"));
                if (per == null) {
                    return null;
                }
                Sitting sitting = new Sitting(instant(row.get("date")), nanos(row, per), spread(row));
                sittings.computeIfAbsent(row.get("cost"), name -> new ArrayList<>()).add(sitting);
                return sitting;
            }, null);
        } catch (StudyResults.NotResultsException e) {
            throw new UserMistakeException(e.getMessage());
        }
        if (!Files.isRegularFile(wall)) {
            throw new UserMistakeException((Files.exists(wall) ? Quote.name(wall) + " is not a file" : "no " + Quote.name(wall))
                    + ": ./jbang wall memory,copy FILE --workers 1," + Runtime.getRuntime().availableProcessors()
                    + " --csv " + wall + " measures the walls");
        }
        return new Measured(costs, wall, sittings, StudyResults.readEveryRow(wall).rows());
    }

    /** A folder's costs by name, each in the order of its sittings, and its wall rows: {@link #at} prices a row from them. */
    record Measured(Path costs, Path wall, Map<String, List<Sitting>> sittings, List<StudyResults.Row> walls) {

        /**
         * costs.csv's costs and the walls (one thread, and the most threads measured) as they stood at {@code when} (a
         * row's date; null: their newest rows): the mean of the sittings measured last before it and first after it. A
         * cost is unstable if either sitting's was.
         */
        CostModel.Costs at(String when) {
            Map<String, Double> cost = new LinkedHashMap<>();
            Map<String, Double> spreads = new LinkedHashMap<>();
            sittings.forEach((name, measured) -> { // a study measures the costs beside each sitting of the walls, and the machine drifts between them
                List<Sitting> chosen = around(measured, Sitting::at, instant(when));
                cost.put(name, chosen.stream().mapToDouble(Sitting::nanos).average().orElseThrow());
                spreads.put(name, chosen.stream().mapToDouble(Sitting::spread).max().orElseThrow());
            });
            double copyOneThread = nanosPerByte(wall, walls, "WallPageCacheCopy", false, when);
            // a read call at an 8-byte read's cost: the copy wall's pace is that of 1 MiB reads, calls and all, and a 1 MiB
            // read less its copy at that pace differs from it by less than the two measurements' drift (docs/cost-model.md)
            double readCall = need(cost, "read_call", costs);
            boolean splitFaults = cost.containsKey("fault_fixed") && cost.containsKey("pte_fill");
            boolean splitOnEveryThread = splitFaults && cost.containsKey("fault_fixed_all") && cost.containsKey("pte_fill_all");
            boolean asFound = splitFaults && cost.containsKey("pte_fill_as_found");
            double nan = Double.NaN;
            java.util.Set<String> unstable = new java.util.TreeSet<>(spreads.keySet().stream().filter(name -> spreads.get(name) > UNSTABLE_SPREAD).toList());
            // a fault's one price is needed only where the fault's two are not: a busy sitting may have measured just those
            double fault = splitFaults ? cost.getOrDefault("minor_fault", nan) : need(cost, "minor_fault", costs);
            return new CostModel.Costs(readCall, fault,
                    splitFaults ? cost.get("fault_fixed") : nan, splitFaults ? cost.get("pte_fill") : nan, splitOnEveryThread ? cost.get("fault_fixed_all") : nan,
                    splitOnEveryThread ? cost.get("pte_fill_all") : nan, asFound ? cost.get("pte_fill_as_found") : nan,
                    splitOnEveryThread ? cost.getOrDefault(asFound ? "pte_fill_as_found_all" : "pte_fill_all", cost.get("pte_fill_all")) : nan,
                    pair(cost, "populate_fixed", "populate_pte", 0), pair(cost, "populate_fixed", "populate_pte", 1),
                    pair(cost, "populate_fixed_all", "populate_pte_all", 0), pair(cost, "populate_fixed_all", "populate_pte_all", 1),
                    cost.getOrDefault("unmap_entry", nan), cost.getOrDefault("walk_entry", nan), cost.getOrDefault("walk_entry_as_found", nan),
                    need(cost, "wake_up", costs), need(cost, "scan_in_cache", costs),
                    cost.getOrDefault("scan_word_in_cache", nan), cost.getOrDefault("scan_word_from_memory", nan), cost.getOrDefault("scan_word_from_memory_all", nan),
                    cost.getOrDefault("device_byte_qd1", nan), cost.getOrDefault("device_byte_deep", nan),
                    nanosPerByte(wall, walls, "WallMemoryRead", false, when), nanosPerByte(wall, walls, "WallMemoryRead", true, when),
                    measuredWall(wall, walls, WIDEST_WALL, false, when), measuredWall(wall, walls, WIDEST_WALL, true, when),
                    measuredWall(wall, walls, HUGE_WALL, false, when), measuredWall(wall, walls, HUGE_WALL, true, when),
                    copyOneThread, nanosPerByte(wall, walls, "WallPageCacheCopy", true, when), "read_call", unstable);
        }
    }

    /** {@code wall}'s ns per byte, as {@link #nanosPerByte}; NaN where wall.csv has no such row. */
    private static double measuredWall(Path file, List<StudyResults.Row> walls, String wall, boolean allThreads, String when) {
        boolean measured = walls.stream().anyMatch(row -> row.chapter().equals(wall) && (allThreads || row.workers() == 1));
        return measured ? nanosPerByte(file, walls, wall, allThreads, when) : Double.NaN;
    }

    /** The memory wall of the CPU's widest vectors, for the chapters that scan with them. */
    static final String WIDEST_WALL = "WallMemoryReadWidest";
    /** The memory wall in 2 MiB pages, with the 256-bit kernel: the price of a byte of a PMD-mapped mapping scanned with it. */
    static final String HUGE_WALL = "WallMemoryReadHuge";

    /** A costs.csv row's spread over its rounds: its spread column, else from its low, high and value; 0 where it gives none. */
    private static double spread(Map<String, String> row) {
        try {
            String spread = row.getOrDefault("spread", "");
            double median = Double.parseDouble(row.get("value"));
            return !spread.isEmpty() ? Double.parseDouble(spread) : (Double.parseDouble(row.get("high")) - Double.parseDouble(row.get("low"))) / median;
        } catch (NumberFormatException | NullPointerException noSpread) {
            return 0;
        }
    }

    /** One of a pair of costs measured together ({@code which} 0: the first, 1: the second); NaN for both unless both were. */
    private static double pair(Map<String, Double> cost, String first, String second, int which) {
        return cost.containsKey(first) && cost.containsKey(second) ? cost.get(which == 0 ? first : second) : Double.NaN;
    }

    private static double need(Map<String, Double> cost, String name, Path costs) {
        Double value = cost.get(name);
        if (value == null) {
            throw new UserMistakeException(Quote.name(costs) + " has no " + name + ": ./jbang unit-costs FILE --csv " + costs
                    + " measures it");
        }
        return value;
    }

    /**
     * A wall's ns per byte on one thread, or on the most threads measured: the mean of its rows measured last before
     * {@code when} and first after it (a study measures the walls between its rounds, and the machine drifts between
     * them), or its newest row where {@code when} is null or no date reads.
     */
    private static double nanosPerByte(Path file, List<StudyResults.Row> walls, String wall, boolean allThreads, String when) {
        int threads = allThreads ? walls.stream().filter(row -> row.chapter().equals(wall)).mapToInt(StudyResults.Row::workers).max().orElse(0) : 1;
        List<StudyResults.Row> rows = walls.stream().filter(row -> row.chapter().equals(wall) && row.workers() == threads).toList();
        if (rows.isEmpty()) {
            throw new UserMistakeException(Quote.name(file) + " has no " + wall + (allThreads ? "" : " on one thread"));
        }
        List<StudyResults.Row> chosen = around(rows, row -> instant(row.date()), instant(when));
        double sum = 0;
        for (StudyResults.Row row : chosen) {
            try { // MB/s: 10^6 bytes a second, so 10^3 / MB/s is ns per byte
                sum += Per.BYTE.check(1e3 / row.mbps(), wall + String.format(Locale.ROOT, "'s cost (%.4g MB/s)", row.mbps()));
            } catch (IllegalArgumentException outOfBounds) {
                throw new UserMistakeException(row.file() + " line " + row.line() + ": " + outOfBounds.getMessage());
            }
        }
        return sum / chosen.size();
    }

    /** A cost of one sitting of costs.csv: when it was measured (null if its date does not read), in ns, and its spread. */
    private record Sitting(Instant at, double nanos, double spread) {}

    /**
     * Of {@code measured}, in the order measured, those that stood around {@code when}: the last at or before it and
     * the first at or after it; the newest alone where {@code when} is null or a date does not read.
     */
    private static <T> List<T> around(List<T> measured, Function<T, Instant> at, Instant when) {
        if (when == null || measured.stream().anyMatch(each -> at.apply(each) == null)) {
            return List.of(measured.getLast());
        }
        T before = null, after = null;
        for (T each : measured) {
            before = !at.apply(each).isAfter(when) ? each : before;
            after = after == null && !at.apply(each).isBefore(when) ? each : after;
        }
        return java.util.stream.Stream.of(before, after).filter(java.util.Objects::nonNull).distinct().toList();
    }

    private static Instant instant(String date) {
        try {
            return date == null ? null : Instant.parse(date);
        } catch (java.time.format.DateTimeParseException unreadable) {
            return null;
        }
    }

    private UnitPrices() {}
}
