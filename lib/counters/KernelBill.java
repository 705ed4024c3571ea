package lib.counters;

import lib.counters.Stats;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.stream.Collectors;

/**
 * What a search cost the kernel, counted beside its time: its read calls, the bytes they returned,
 * the bytes fetched from the device, its page faults, its context switches, and the CPU time its
 * threads spent in user space and in the kernel (see
 * {@link KernelCounters}, which reads them just before and just after each run, outside its time).
 *
 * <p>A chapter's speed has causes a learner can count: chapter 2 makes as many read calls as chapter
 * 3 reading 64 KiB at a time, chapter 4 makes none but takes page faults (one per 64 KiB on a cache
 * in 4 KiB folios, as the kernel maps 16 pages a fault), chapter 16 one per 2 MiB folio. The bill
 * puts a number on each.
 *
 * <p>Each figure is <em>per GiB searched</em> (the run's count × 2^30 ÷ the file's bytes), so that
 * files of any size compare, and is the <em>median over the timed runs</em>: the summary line and
 * the results CSVs carry it under {@link Item#key}, which says so ({@code read_calls_per_gib}). A
 * counter the system does not keep is absent (an empty field), never a zero.
 */
public record KernelBill(Map<KernelBill.Item, Double> perGiB) {

    /** The nine counts, in the order of the CSV columns and the summary line (the CPU times in microseconds). */
    public enum Item {
        READ_CALLS("read_calls", "read calls"),
        RETURNED_BYTES("returned_bytes", "bytes returned by reads"),
        DEVICE_BYTES("device_bytes", "bytes fetched from the device"),
        MINOR_FAULTS("minor_faults", "minor page faults"),
        MAJOR_FAULTS("major_faults", "major page faults"),
        VOLUNTARY_SWITCHES("voluntary_switches", "voluntary context switches"),
        INVOLUNTARY_SWITCHES("involuntary_switches", "involuntary context switches"),
        USER_TIME("user_us", "µs of CPU time in user space, every thread's"),
        SYSTEM_TIME("system_us", "µs of CPU time in the kernel, every thread's");

        /** The name in the summary line and the CSV column's, with its unit: {@code read_calls_per_gib}. */
        public final String key;
        public final String words;

        Item(String name, String words) {
            this.key = name + "_per_gib";
            this.words = words;
        }
    }

    private static final double GIB = 1L << 30;

    /** A bill with nothing counted: another program's figures, or a test's. */
    public static final KernelBill NOT_COUNTED = new KernelBill(Map.of());

    public KernelBill {
        perGiB = perGiB.isEmpty() ? Map.of() : java.util.Collections.unmodifiableMap(new EnumMap<>(perGiB));
    }

    /** The names of the figures, in order: the summary line's keys and the CSV's last columns. */
    public static List<String> keys() {
        return Arrays.stream(Item.values()).map(item -> item.key).toList();
    }

    /** The figure for {@code item}, or empty where it was not counted. */
    public OptionalDouble get(Item item) {
        Double value = perGiB.get(item);
        return value == null ? OptionalDouble.empty() : OptionalDouble.of(value);
    }

    /**
     * The bill of the timed runs of a search over {@code fileBytes}: for each item, the median of the
     * runs' counts ({@link KernelCounters.Snapshot#since}), per GiB. An item one run could not count is absent.
     */
    public static KernelBill ofRuns(List<long[]> runCounts, long fileBytes) {
        Map<Item, Double> perGiB = new EnumMap<>(Item.class);
        if (runCounts.isEmpty() || fileBytes <= 0) {
            return NOT_COUNTED;
        }
        for (Item item : Item.values()) {
            double[] values = new double[runCounts.size()];
            boolean counted = true;
            for (int run = 0; run < values.length; run++) {
                long count = runCounts.get(run)[item.ordinal()];
                counted &= count != KernelCounters.UNKNOWN;
                values[run] = count * GIB / fileBytes;
            }
            if (counted) {
                perGiB.put(item, Stats.median(values));
            }
        }
        return new KernelBill(perGiB);
    }

    /** One run's counts as {@code key=value} pairs per GiB of {@code fileBytes}, for its line on stderr (empty for an empty file). */
    public static String runFields(long[] counts, long fileBytes) {
        return Arrays.stream(Item.values())
                .map(item -> item.key + "=" + (counts[item.ordinal()] == KernelCounters.UNKNOWN || fileBytes <= 0 ? ""
                        : figure(counts[item.ordinal()] * GIB / fileBytes)))
                .collect(Collectors.joining(" "));
    }

    /** The summary line's pairs: every key, empty where not counted. */
    public String summaryFields() {
        return Arrays.stream(Item.values()).map(item -> item.key + "=" + field(item)).collect(Collectors.joining(" "));
    }

    /** The CSV field of {@code item}: the figure, or empty where it was not counted. */
    public String field(Item item) {
        OptionalDouble value = get(item);
        return value.isPresent() ? figure(value.getAsDouble()) : "";
    }

    /**
     * A count per GiB as text: whole from 100 up (a fraction of a call there is noise), else to one
     * decimal, so that a file over 1 GiB still shows the one major fault it took (0.3 per GiB on 4 GiB).
     */
    public static String figure(double perGiB) {
        if (perGiB >= 100) {
            return Long.toString(Math.round(perGiB));
        }
        String text = String.format(Locale.ROOT, "%.1f", perGiB);
        return text.endsWith(".0") ? text.substring(0, text.length() - 2) : text;
    }
}
