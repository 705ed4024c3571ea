///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
//SOURCES ../LabWithChapters.java UnitPrices.java FaultFilling.java
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
import java.util.Set;
import lab.results.*;
import lab.results.ModelResults.ModelRow;
import lab.tools.AtomicWrite;
import lib.chapter.ChapterTrait;
import lib.cli.IoMessage;
import lib.cli.PathConverter;
import lib.cli.Quote;
import lib.cli.UserMistakeException;
import lib.cli.OutputCheck;
import lib.counters.Stats;
import lib.harness.ResultsCsv;

/**
 * Why each chapter takes the time it takes: its bill per GiB times the machine's unit costs, added
 * up, never fitted to any chapter's time (docs/cost-model.md). For B bytes (G GiB) by W workers:
 *
 * <pre>
 *   faults    = G × (faults × c_fault_fixed + entries × c_pte_fill) / W, or on every thread at once
 *               (the _all costs, not divided) if that is slower; for a chapter that populates its mapping
 *               with one call, G × (faults × c_populate_fixed + entries × c_populate_pte), not divided
 *               (PopulatesOnOneThread; PopulatesOnEveryWorker: the _all costs, all at once); entries from
 *               the PMD-mapped share s: (1 − s) × 262,144 + s × 512 a GiB for a mapping, one a fault else
 *   unmap     = G × entries × c_unmap_entry for a mapping: munmap on one thread, once the workers are done
 *   touches   = G × entries × c_walk_entry for a mapping populated at the populate costs: each entry's first touch, in
 *               its scan, part of one core's time; a touched mapping's are in c_pte_fill (a first touch less a second)
 *   one core  = [ G × (calls × c_call + wakeUps × c_wake) + G × copied × (c_copy(1 thread) + c_scan_in_cache)
 *                 + (B − G × copied) × c_scan(1 thread) + touches ] / W; for a chapter that scans a word at a time
 *               (ScansWordByWord), c_scan_word_in_cache and the larger of c_scan_word_from_memory and c_scan(1 thread);
 *               for a mapping PMD-mapped at share s, c_scan is s × the wall in 2 MiB pages + (1 − s) × the one in 4 KiB pages
 *   memory    = (B − G × copied) × c_scan(all threads), for a word-at-a-time chapter the larger of that and
 *               c_scan_word_from_memory_all;  copy = G × copied × (c_copy(all threads) + c_scan_in_cache / W), a worker
 *               scanning after its copy; with the CPU's widest vectors (ScansWithWidestVector), c_scan is that kernel's wall
 *   device    = G × device × c_device(8 in flight, or 1 with one worker)
 *   predicted = faults + unmap + the largest of one core, memory, copy and device; "bound" names the largest part
 *   workers to the wall = one core's time (faults in) with a single worker ÷ the largest shared term, both less the
 *               scans that follow a shared copy
 * </pre>
 *
 * A worker that faults is not moving data, so the faults come before the rest, not beside it; a chapter's
 * class (its ChapterTrait) says how it populates, as its code runs, which no count of a bill shows. A
 * copied byte is then scanned in the CPU's cache. c_call is an 8-byte read's cost. c_scan and c_copy
 * are the walls ({@code wall.csv}), the others {@code lab/yardsticks/UnitCosts.java}'s ({@code costs.csv});
 * a cost whose rounds spread by more than a quarter is unstable, and a row whose weighing terms use one names it.
 *
 * <pre>
 * How to run:   ./jbang lab/report/CostModel.java results/MACHINE [--csv results/MACHINE/model.csv]
 * What you should see: a table of each row of the scoreboard, page-cache and cold tables, measured beside predicted.
 * </pre>
 */
public final class CostModel {

    static final String HEADER = String.join(",", ModelResults.REQUIRED) + ",workers_to_wall";
    /** What this tool writes: {@link #HEADER}, then the unstable costs (costs.csv's names) whose terms weigh in the row. */
    static final String HEADER_WITH_UNSTABLE = HEADER + ",unstable_costs";
    /** A term at least this share of a row's prediction makes the row priced with its costs: an unstable one is named. */
    static final double WEIGHS = 0.05;
    /** The columns of model.csv before workers_to_wall: such a file is still read, and rewritten whole. */
    static final String FIRST_COLUMNS = String.join(",", ModelResults.REQUIRED);
    static final double GIB = 1L << 30;
    /** One core's term for the first touch of each entry of a populated mapping, as model.csv's bound names it ("core: first touches"). */
    static final String FIRST_TOUCHES = "first touches";
    /** The shared term of the page cache's copy, as model.csv's bound names it. */
    static final String PAGE_CACHE_COPY = "page-cache copy";

    /**
     * The machine's unit costs, in nanoseconds (per event, or per byte). {@code call}: a read call as a chapter meets
     * it; {@code fault}: a fault as the cache held the file when measured, the price where {@code faultFixed} and
     * {@code pteFill} (a fault's own cost, and each entry it fills) are NaN, not measured. {@code unstable}: the
     * costs.csv names whose rounds spread by more than a quarter; {@code callFrom}: the name the call's price came from.
     * {@code populate*}: a fault and an entry where {@code MADV_POPULATE_READ} fills a mapping, on one thread and on all
     * at once; {@code unmapEntry}: an entry torn down by {@code munmap}; {@code walkEntry}: what a 4 KiB entry adds to a
     * scan of a filled mapping (as found: {@code walkEntryAsFound}). Each NaN where costs.csv has none.
     */
    record Costs(double call, double fault, double faultFixed, double pteFill, double faultFixedAll, double pteFillAll, double pteFillAsFound,
                 double pteFillAsFoundAll, double populateFixed, double populatePte, double populateFixedAll, double populatePteAll,
                 double unmapEntry, double walkEntry, double walkEntryAsFound, double wake,
                 double scanInCache, double scanWordInCache, double scanWordFromMemory, double scanWordFromMemoryAll,
                 double deviceOneInFlight, double deviceDeep, double scanOneThread, double scanAllThreads,
                 double scanWidestOneThread, double scanWidestAllThreads, double scanHugeOneThread, double scanHugeAllThreads, double copyOneThread, double copyAllThreads, String callFrom, java.util.Set<String> unstable) {

        /** The names in costs.csv of the costs a term of the formula is priced with (none for a wall's). */
        List<String> pricing(String term, int workers, boolean asFound, boolean wordByWord) {
            return switch (term) {
                case "read calls" -> List.of(callFrom);
                case "faults" -> Double.isNaN(faultFixed) ? List.of("minor_fault") : List.of("fault_fixed", asFound ? "pte_fill_as_found" : "pte_fill");
                case "faults on every thread" -> List.of("fault_fixed_all", asFound ? "pte_fill_as_found_all" : "pte_fill_all");
                case "unmap" -> List.of("unmap_entry");
                case FIRST_TOUCHES -> List.of(asFound && !Double.isNaN(walkEntryAsFound) ? "walk_entry_as_found" : "walk_entry");
                case "wake-ups" -> List.of("wake_up");
                case "scan in cache", PAGE_CACHE_COPY -> List.of(wordByWord && !Double.isNaN(scanWordInCache) ? "scan_word_in_cache" : "scan_in_cache");
                case "scan" -> wordByWord && !Double.isNaN(scanWordFromMemory) ? List.of("scan_word_from_memory") : List.of();
                case "memory" -> wordByWord && !Double.isNaN(scanWordFromMemoryAll) ? List.of("scan_word_from_memory_all") : List.of();
                case "device" -> List.of(workers > 1 ? "device_byte_deep" : "device_byte_qd1");
                default -> List.of();
            };
        }
    }

    /** A prediction: seconds, the term that bounds it, and the workers at which one core's time meets the largest shared term. */
    record Prediction(double seconds, String bound, double workersToWall) {}

    /** Every row of a model.csv ({@link ModelResults#read}); a file that does not read as one, or a row that does not, stops with one line. */
    static List<ModelRow> read(Path csv) {
        try {
            return ModelResults.read(csv, null);
        } catch (StudyResults.NotResultsException e) {
            throw new UserMistakeException(e.getMessage());
        }
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
     * The fields of model.csv for one row, each as written, read back by the reader's own rule ({@link ModelResults#modelRow}): a
     * figure it would refuse (an infinite time, a time of 10^300 s from a hostile bill) is never written, but refused in
     * one line naming the row it came from.
     */
    static List<String> fields(ModelRow row, String from) {
        List<String> fields = java.util.Arrays.asList(row.chapter(), row.workers(), row.pageCache(), row.cache(),
                figure(row.measuredSeconds(), 4), figure(row.predictedSeconds(), 4), row.bound(),
                row.workersToWall() == null ? "" : figure(row.workersToWall(), 2), row.unstableCosts());
        Map<String, String> values = new LinkedHashMap<>();
        List<String> columns = List.of(HEADER_WITH_UNSTABLE.split(","));
        for (int i = 0; i < columns.size(); i++) {
            values.put(columns.get(i), fields.get(i));
        }
        try {
            ModelResults.modelRow(values);
        } catch (IllegalArgumentException refused) {
            throw new UserMistakeException(from + ": the model of " + row.chapter() + " (" + row.workers() + " workers, " + row.cache() + ") comes to "
                    + refused.getMessage() + ", which model.csv cannot hold; no model written (are that row's bill and time, or the unit costs, right?)");
        }
        return fields;
    }

    /** Refuses a header without one of {@code columns}, in one line naming {@code csv}. */
    static void requireColumns(List<String> header, List<String> columns, Path csv) {
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
            Map<String, List<String>> pricedWith = new java.util.TreeMap<>();
            rows.forEach(row -> List.of(row.unstableCosts().split(" ")).stream().filter(name -> !name.isEmpty()).forEach(name -> pricedWith
                    .computeIfAbsent(name, unused -> new ArrayList<>()).add(row.chapter() + " (" + row.pageCache() + ", " + row.cache() + ")")));
            pricedWith.forEach((name, priced) -> out.println("unstable: " + name + ", its rounds spread by more than a quarter, prices " + String.join(", ", priced)));
            if (csv != null) {
                StringBuilder text = new StringBuilder(HEADER_WITH_UNSTABLE).append('\n'); // a model is recomputed whole
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
        UnitPrices.Measured prices = UnitPrices.of(folder);
        prices.at(null); // a folder whose costs or walls do not read is refused in one line, before any row
        List<ModelRow> rows = new ArrayList<>();
        for (String table : List.of("scoreboard.csv", "pagecache.csv", "cold.csv")) {
            if (!Files.isRegularFile(folder.resolve(table))) {
                continue;
            }
            for (StudyResults.Row row : StudyResults.readEveryRow(folder.resolve(table)).rows()) {
                if (row.billPerGiB("read_calls_per_gib") == null || row.chapter().equals("V00Cmp")) {
                    continue; // no bill to add up (cmp's is a child's, not counted)
                }
                Costs costs = prices.at(row.date()); // the walls and unit costs as they stood when the row was measured
                if (row.billPerGiB("device_bytes_per_gib") != null && row.billPerGiB("device_bytes_per_gib") > 0
                        && Double.isNaN(costs.deviceDeep())) {
                    continue; // reads from the disk, and no device cost was measurable here (tmpfs)
                }
                Double measured = measuredSeconds(row);
                if (measured == null) {
                    continue; // 3 or 4 runs with neither their times nor their median: no figure the book would quote
                }
                Terms terms = terms(row, costs);
                Prediction prediction = predict(terms, row.workers());
                ModelRow modelled = new ModelRow(row.chapter(), String.valueOf(row.workers()), row.pageCache(), row.cache(), measured,
                        prediction.seconds(), prediction.bound(), Double.isNaN(prediction.workersToWall()) ? null : prediction.workersToWall(),
                        unstablePricing(terms, prediction, costs, row.workers(), asFound(row, costs)));
                fields(modelled, row.file() + " line " + row.line()); // refused here, before a line is printed, if model.csv could not hold it
                rows.add(modelled);
            }
        }
        return rows;
    }

    /**
     * The time the book quotes for a row, as its MB/s: the trimmed mean of 5 runs or more (fastest and slowest
     * dropped), else the median ({@link Stats#typicalSeconds}), from the runs' times; a row without them gives its
     * median, or its mean where that is the same figure (5 runs or more: trimmed; 1 or 2: the median); else null.
     */
    static Double measuredSeconds(StudyResults.Row row) {
        double seconds = row.typicalSeconds();
        return Double.isNaN(seconds) ? null : seconds;
    }

    /** The unstable costs a row's weighing terms are priced with, costs.csv's names apart by spaces ("" for none). */
    static String unstablePricing(Terms terms, Prediction prediction, Costs costs, int workers, boolean asFound) {
        java.util.Set<String> named = new java.util.TreeSet<>();
        Map<String, Double> all = new LinkedHashMap<>(terms.shared());
        all.putAll(terms.oneCore());
        if (terms.faultsOnEveryThread() > all.getOrDefault("faults", 0.0)) { // the faults are priced one way, the slower
            all.remove("faults");
            all.put("faults on every thread", terms.faultsOnEveryThread());
        }
        all.put("unmap", terms.unmap());
        all.forEach((term, nanos) -> {
            if (nanos >= WEIGHS * prediction.seconds() * 1e9) {
                List<String> pricing = term.equals("faults") && terms.filling().populates() ? terms.filling().pricing(workers) : costs.pricing(term, workers, asFound, terms.scansWordByWord());
                pricing.stream().filter(costs.unstable()::contains).forEach(named::add);
            }
        });
        return String.join(" ", named);
    }

    /**
     * The formula's terms, in nanoseconds: one core's, each by its name, and the shared ones; {@code unmap}, the mapping
     * torn down by munmap on one thread once the workers are done. {@code filling}: how the faults were taken, and so priced;
     * {@code scansWordByWord}: whether the scan was priced at the word kernel's costs.
     */
    record Terms(Map<String, Double> oneCore, Map<String, Double> shared, double scanAfterCopy, double faultsOnEveryThread, double unmap, FaultFilling filling,
                 boolean scansWordByWord) {

        double core() {
            return oneCore.values().stream().mapToDouble(Double::doubleValue).sum();
        }
    }

    /** The chapters' traits by name, asked once of their classes: a row names its chapter as its class is named. */
    private static final Map<String, Set<ChapterTrait>> TRAITS = Contents.traits();

    /** How {@code chapter}, as a row names it, declares it takes its faults; touched for a name no chapter has. */
    static FaultFilling filling(String chapter) {
        return FaultFilling.of(TRAITS.getOrDefault(chapter, Set.of()));
    }

    /** Whether {@code chapter}, as a row names it, declares {@code trait} (its kernel's, for the scan's price). */
    static boolean declares(String chapter, ChapterTrait trait) {
        return TRAITS.getOrDefault(chapter, Set.of()).contains(trait);
    }

    /**
     * The model's formula (see the class comment), term by term, for a row whose faults are taken as its chapter declares
     * ({@link #filling}), priced so where costs.csv has the populate costs.
     */
    static Terms terms(StudyResults.Row row, Costs c) {
        FaultFilling declared = filling(row.chapter());
        // without the populate costs, faults on every worker are priced as touches, shared out; on one thread, whole
        FaultFilling filling = declared == FaultFilling.POPULATED_ON_EVERY_WORKER && Double.isNaN(c.populateFixedAll()) ? FaultFilling.TOUCHED : declared;
        boolean faultsBeforeWorkers = filling.populates(); // a populating call's, before the scan, not each worker's share
        double bytes = row.fileBytes(), gib = bytes / GIB, workers = row.workers();
        double copied = Math.min(bytes, gib * bill(row, "returned_bytes_per_gib")), scanned = bytes - copied;
        Map<String, Double> oneCore = new LinkedHashMap<>();
        oneCore.put("read calls", gib * bill(row, "read_calls_per_gib") * c.call() / workers);
        oneCore.put("faults", gib * faultNanosPerGiB(row, c, filling, row.workers()) / (faultsBeforeWorkers ? 1 : workers)); // the call's, or each worker's share
        oneCore.put("wake-ups", gib * bill(row, "voluntary_switches_per_gib") * c.wake() / workers);
        oneCore.put("copy", copied * c.copyOneThread() / workers);
        // a word-at-a-time kernel scans at its own pace, in the cache and from memory (on one thread, and on all at once
        // for the shared term), where costs.csv has them; never faster from memory than the memory wall, a vector kernel's
        // a kernel of the CPU's widest vectors meets the memory wall measured with it, where wall.csv has it
        boolean wordByWord = declares(row.chapter(), ChapterTrait.SCANS_WORD_BY_WORD);
        boolean widest = !Double.isNaN(c.scanWidestOneThread()) && !Double.isNaN(c.scanWidestAllThreads())
                && declares(row.chapter(), ChapterTrait.SCANS_WITH_WIDEST_VECTOR);
        double wallOneThread = widest ? c.scanWidestOneThread() : inPagesOf(row, c.scanOneThread(), c.scanHugeOneThread());
        double wallAllThreads = widest ? c.scanWidestAllThreads() : inPagesOf(row, c.scanAllThreads(), c.scanHugeAllThreads());
        double scanInCache = wordByWord && !Double.isNaN(c.scanWordInCache()) ? c.scanWordInCache() : c.scanInCache();
        double scanFromMemory = wordByWord && !Double.isNaN(c.scanWordFromMemory()) ? Math.max(c.scanWordFromMemory(), wallOneThread) : wallOneThread;
        double scanFromMemoryAll = wordByWord && !Double.isNaN(c.scanWordFromMemoryAll())
                ? Math.max(c.scanWordFromMemoryAll(), wallAllThreads) : wallAllThreads;
        oneCore.put("scan in cache", copied * scanInCache / workers);
        oneCore.put("scan", scanned * scanFromMemory / workers);
        // an entry's first touch is dear, its later ones are not (docs/cost-model.md): a chapter that faults by touching
        // pays it in its faults (c_pte_fill is a first touch less a second), a populated mapping in its scan, each worker its shard's
        oneCore.put(FIRST_TOUCHES, pricedAsPopulated(filling, c, row.workers()) ? gib * walkNanosPerGiB(row, c) / workers : 0);
        Map<String, Double> shared = new LinkedHashMap<>();
        shared.put("memory", scanned * scanFromMemoryAll);
        // a worker scans the chunk it copied in its own cache, after the copy: the copies share a wall, the scans do not
        double scanAfterCopy = copied * scanInCache / workers;
        shared.put(PAGE_CACHE_COPY, copied * c.copyAllThreads() + scanAfterCopy);
        double fromDevice = gib * bill(row, "device_bytes_per_gib");
        shared.put("device", fromDevice == 0 ? 0 : fromDevice * (workers > 1 ? c.deviceDeep() : c.deviceOneInFlight()));
        double faultsOnEveryThread = Double.isNaN(c.faultFixedAll()) || workers == 1 || faultsBeforeWorkers ? 0 // one thread faults alone
                : gib * (bill(row, "minor_faults_per_gib") * c.faultFixedAll() + entriesPerGiB(row) * (asFound(row, c) ? c.pteFillAsFoundAll() : c.pteFillAll()));
        // a chapter whose workers clear their own shards' entries first pays every thread's wall time, where it was measured
        double unmap = row.pmdMappedPercent() == null || Double.isNaN(c.unmapEntry()) ? 0 : gib * entriesPerGiB(row) * c.unmapEntry();
        return new Terms(oneCore, shared, scanAfterCopy, faultsOnEveryThread, unmap, filling, wordByWord);
    }

    /**
     * The memory wall a row's scan meets: a mapping's PMD-mapped share s at the wall in 2 MiB pages, the rest at the one in
     * 4 KiB pages, where wall.csv has both; else, and for a row that maps nothing, the 4 KiB one.
     */
    static double inPagesOf(StudyResults.Row row, double smallPages, double hugePages) {
        if (row.pmdMappedPercent() == null || Double.isNaN(hugePages)) {
            return smallPages;
        }
        double pmdShare = row.pmdMappedPercent() / 100;
        return (1 - pmdShare) * smallPages + pmdShare * hugePages;
    }

    /** 4 KiB pages in a GiB: the entries a mapping of it fills where nothing is PMD-mapped. */
    static final double PAGES_PER_GIB = GIB / 4096, PMDS_PER_GIB = GIB / (2 << 20);

    /**
     * A row's faults per GiB priced: each at {@code faultFixed}, and each page-table entry they filled at {@code pteFill}.
     * A mapping's entries come from its PMD-mapped share s: (1 − s) of a GiB in 4 KiB entries, s in 2 MiB ones; a row
     * that maps nothing (no share) fills one entry a fault. Where the two costs were not measured, a fault as the
     * cache held the file when UnitCosts ran.
     */
    static double faultNanosPerGiB(StudyResults.Row row, Costs c) {
        return faultNanosPerGiB(row, c, FaultFilling.TOUCHED, row.workers());
    }

    /** The same for faults taken as {@code filling} says: a populating call's at the populate costs, where costs.csv has them. */
    static double faultNanosPerGiB(StudyResults.Row row, Costs c, FaultFilling filling, int workers) {
        double faults = bill(row, "minor_faults_per_gib");
        if (pricedAsPopulated(filling, c, workers)) {
            double[] populate = populateCosts(filling, c, workers);
            return faults * populate[0] + entriesPerGiB(row) * populate[1];
        }
        if (Double.isNaN(c.faultFixed())) {
            return faults * c.fault();
        }
        return faults * c.faultFixed() + entriesPerGiB(row) * (asFound(row, c) ? c.pteFillAsFound() : c.pteFill());
    }

    /**
     * Whether faults taken as {@code filling} are priced at the populate costs, which fill a mapping without touching it:
     * its scan then touches each entry first. A touch's faults are priced with their first touches in them.
     */
    static boolean pricedAsPopulated(FaultFilling filling, Costs c, int workers) {
        double[] populate = populateCosts(filling, c, workers);
        return filling.populates() && !Double.isNaN(populate[0]) && !Double.isNaN(populate[1]);
    }

    /** The populate pair {fixed, per entry} faults taken as {@code filling} by {@code workers} would be priced at (NaN: not measured). */
    private static double[] populateCosts(FaultFilling filling, Costs c, int workers) {
        return filling.onEveryThread(workers) ? new double[] {c.populateFixedAll(), c.populatePteAll()}
                : new double[] {c.populateFixed(), c.populatePte()};
    }

    /**
     * What a mapping's entries add to its first scan per GiB, beyond the memory wall's (over memory touched long before):
     * each entry's first touch at {@code walkEntry}, or as found at {@code walkEntryAsFound}; nothing for a row that maps
     * nothing, or where costs.csv has no walk cost. Only a populated mapping pays it in its scan ({@link #pricedAsPopulated}).
     */
    static double walkNanosPerGiB(StudyResults.Row row, Costs c) {
        double walk = asFound(row, c) && !Double.isNaN(c.walkEntryAsFound()) ? c.walkEntryAsFound() : c.walkEntry();
        return row.pmdMappedPercent() == null || Double.isNaN(walk) ? 0 : entriesPerGiB(row) * walk;
    }

    /** Whether a row's entries are priced as the cache held the haystack when UnitCosts ran: a row as found, where that was measured. */
    static boolean asFound(StudyResults.Row row, Costs c) {
        return "as-is".equals(row.pageCache()) && !Double.isNaN(c.pteFillAsFound());
    }

    /** The page-table entries a row's faults filled per GiB: from its PMD-mapped share, never fewer than one a fault. */
    static double entriesPerGiB(StudyResults.Row row) {
        double faults = bill(row, "minor_faults_per_gib");
        if (row.pmdMappedPercent() == null) {
            return faults;
        }
        double pmdShare = row.pmdMappedPercent() / 100;
        return Math.max(faults, (1 - pmdShare) * PAGES_PER_GIB + pmdShare * PMDS_PER_GIB);
    }

    static Prediction predict(StudyResults.Row row, Costs c) {
        return predict(terms(row, c), row.workers());
    }

    /** The largest term is the prediction, and its name the bound (for one core, its largest term's). */
    static Prediction predict(Terms terms, int workers) {
        double core = terms.core(), largestShared = terms.shared().values().stream().mapToDouble(Double::doubleValue).max().orElseThrow();
        // a worker that faults is not moving data: the faults come first, on one core or, if slower, as every thread's at once
        double faultsOneCore = terms.oneCore().getOrDefault("faults", 0.0), faults = Math.max(faultsOneCore, terms.faultsOnEveryThread());
        double rest = core - faultsOneCore, data = Math.max(rest, largestShared), serial = faults + terms.unmap(); // unmapped on one thread, after
        double oneWorker = terms.filling().populates() ? faultsOneCore + rest * workers : core * workers; // faults before the workers are no share
        String sharedBound = terms.shared().entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
        // at the copy wall each worker's scan follows its copy: more workers shorten the scans, not the copy
        double scans = sharedBound.equals(PAGE_CACHE_COPY) ? terms.scanAfterCopy() : 0;
        double workersToWall = largestShared > 0 ? (oneWorker - scans * workers) / (largestShared - scans) : Double.NaN;
        if (faults >= data) {
            return new Prediction((serial + data) / 1e9, faults > faultsOneCore ? "faults on every thread" : "core: faults", workersToWall);
        }
        if (rest >= largestShared) {
            String coreBound = terms.oneCore().entrySet().stream().filter(term -> !term.getKey().equals("faults"))
                    .max(Map.Entry.comparingByValue()).orElseThrow().getKey();
            return new Prediction((serial + data) / 1e9, "core: " + coreBound, workersToWall);
        }
        return new Prediction((serial + data) / 1e9, sharedBound, workersToWall);
    }

    private static double bill(StudyResults.Row row, String column) {
        Double perGiB = row.billPerGiB(column);
        return perGiB == null ? 0 : perGiB;
    }

    /** The machine's unit costs from {@code folder}'s costs.csv and wall.csv, the walls' newest rows ({@link UnitPrices}). */
    static Costs unitCosts(Path folder) throws IOException {
        return UnitPrices.read(folder, null);
    }

    private CostModel() {}
}
