package lib.counters;

import java.io.BufferedReader;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How the kernel mapped a segment, as {@code /proc/self/smaps} tells it: how much of it is resident
 * ({@code Rss}), and how much of that is mapped 2 MiB at a time, by one page-middle-directory entry
 * instead of 512 page-table entries ({@code FilePmdMapped} for a file, {@code AnonHugePages} for
 * anonymous memory).
 *
 * <p>A file's page is PMD-mapped only when the page cache holds it in a folio of exactly 2 MiB and
 * the mapping's address is 2 MiB-aligned where the folio's file offset is. Which it is decides how
 * fast a mapped scan can go (one TLB entry per 2 MiB or per 4 KiB), and it changes from one run to
 * the next with the page cache, so every mapped chapter's run reports it.
 *
 * <p>The harness measures a mapped chapter's file once its runs are done (lib.harness.PmdShares). A yardstick
 * that scans memory of its own, which the harness cannot map, calls {@link #recordAfterScan} after
 * its scan instead. When the harness asked for it ({@link #startRecording}), that reads
 * {@code smaps} for the memory (a few milliseconds: the kernel walks the page tables) and notes how
 * long the reading took; the harness takes that time back out of the run's. Otherwise the call does
 * nothing, so tests and other callers pay nothing.
 */
public record PmdMapping(long rssBytes, long filePmdMappedBytes, long anonHugePagesBytes) {

    public static final long PMD_BYTES = 2L << 20;

    private static final Path SMAPS = Path.of("/proc/self/smaps");
    private static final Pattern RANGE = Pattern.compile("^([0-9a-f]+)-([0-9a-f]+) ");
    private static final Pattern FIELD = Pattern.compile("^(Rss|FilePmdMapped|AnonHugePages):\\s+(\\d+) kB");

    /**
     * What one run recorded: the mapping's state after the scan, and the nanoseconds spent reading
     * it, and what reading it added to the run's bill (see {@link KernelCounters.Snapshot#spentSince}).
     */
    public record Recorded(PmdMapping mapping, long readingNanos, long[] readingCounts) {}

    private static volatile boolean recording;
    private static final AtomicReference<Recorded> LAST = new AtomicReference<>();

    /**
     * The share of the resident part mapped 2 MiB at a time (file pages by PMD entries, or anonymous
     * memory in 2 MiB pages), in percent; NaN if nothing is resident.
     */
    public double pmdMappedPercent() {
        return rssBytes == 0 ? Double.NaN : 100.0 * (filePmdMappedBytes + anonHugePagesBytes) / rssBytes;
    }

    /** A percentage as the harness prints and records it: one decimal, or empty for NaN. */
    public static String percent(double value) {
        return Double.isNaN(value) ? "" : String.format(Locale.ROOT, "%.1f", value);
    }

    /**
     * Reads {@code /proc/self/smaps} for every mapping (VMA) that overlaps {@code segment} and adds
     * up their sizes. A segment that madvise split into several VMAs is counted whole; a segment
     * sharing a VMA with other memory counts that VMA whole too, so measure whole mappings.
     */
    public static PmdMapping of(MemorySegment segment) throws IOException {
        long from = segment.address(), to = from + segment.byteSize();
        long rss = 0, pmd = 0, anonHuge = 0;
        boolean inside = false;
        try (BufferedReader smaps = Files.newBufferedReader(SMAPS)) {
            for (String line; (line = smaps.readLine()) != null; ) {
                Matcher range = RANGE.matcher(line);
                if (range.find()) {
                    long start = Long.parseUnsignedLong(range.group(1), 16), end = Long.parseUnsignedLong(range.group(2), 16);
                    inside = start < to && from < end;
                    continue;
                }
                Matcher field = inside ? FIELD.matcher(line) : null;
                if (field != null && field.find()) {
                    long bytes = Long.parseLong(field.group(2)) * 1024;
                    switch (field.group(1)) {
                        case "Rss" -> rss += bytes;
                        case "FilePmdMapped" -> pmd += bytes;
                        default -> anonHuge += bytes;
                    }
                }
            }
        }
        return new PmdMapping(rss, pmd, anonHuge);
    }

    /** From now on {@link #recordAfterScan} measures; what an earlier run recorded is dropped. */
    public static void startRecording() {
        LAST.set(null);
        recording = true;
    }

    public static void stopRecording() {
        recording = false;
        LAST.set(null);
    }

    /**
     * A yardstick's last step after its scan: records how {@code mapping} is mapped, if the harness is
     * recording. A failure to read {@code smaps} records nothing rather than failing the search.
     */
    public static void recordAfterScan(MemorySegment mapping) {
        if (!recording) {
            return;
        }
        long start = System.nanoTime();
        KernelCounters.Snapshot countsBefore = KernelCounters.now(); // reading smaps is read calls too: not the search's
        PmdMapping state;
        try {
            state = of(mapping);
        } catch (IOException | RuntimeException noSmaps) {
            state = null;
        }
        long[] readingCounts = KernelCounters.now().spentSince(countsBefore);
        LAST.set(new Recorded(state, System.nanoTime() - start, readingCounts));
    }

    /** What the last run recorded, and forgets it; null if the chapter recorded nothing (it does not map). */
    public static Recorded takeRecorded() {
        return LAST.getAndSet(null);
    }
}
