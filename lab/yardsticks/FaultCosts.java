// The fault costs of lab/yardsticks/UnitCosts.java: a fault's fixed cost and each page-table entry's, timed on
// scratch files of known folios and on the haystack as the cache holds it. No //SOURCES of its own: UnitCosts names it.

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.SequencedMap;
import lib.cli.Quote;
import lib.cli.UserMistakeException;
import lib.counters.KernelBill;
import lib.counters.KernelCounters;
import lib.counters.PmdMapping;
import lib.counters.Stats;
import lib.harness.PageCache;
import lib.haystack.Haystack;
import lib.linux.HugeFolios;
import lib.linux.Native;

/**
 * A fault's fixed cost and each entry's, ns, a pair a round, on one thread and on all ({@code _all}: wall time, less
 * than one thread's where faults scale): a file in 4 KiB folios (many entries a fault) and one in 2 MiB (one a fault)
 * give {@code time = faults × fixed + entries × perEntry} twice. {@code pte_fill_as_found}: what the haystack's own
 * mapping, as the cache holds it, leaves an entry once its faults' fixed cost is out; as-found rows use it.
 * {@code populate_*}: the same pair where {@code MADV_POPULATE_READ} fills the mapping in one call per thread, as
 * chapters 10 and 16 fill theirs, rather than a touch per page. {@code unmap_entry}: what {@code munmap} takes
 * per entry to tear a mapping of the 4 KiB-folio file down again, as each mapped chapter does when it is done;
 * {@code unmap_entry_all}: the wall time per entry where every thread clears its own part first
 * ({@code MADV_DONTNEED}), all at once: whether sharing a teardown out pays (chapter 9 says why it does not).
 * {@code walk_entry}: what each 4 KiB entry adds to the first scan of a freshly filled mapping, beyond a 2 MiB one: the
 * first touch of each entry, which the CPU finds by walking the page tables (under a hypervisor, the host's too);
 * {@code walk_entry_as_found}: the same for the haystack as the cache holds it. {@code rescan_page}: a second scan of
 * the 4 KiB-folio mapping, per 4 KiB page, bytes and all, once every entry has been touched. Where it is a small share
 * of {@code walk_entry}, an entry costs its first touch, not every TLB miss: a chapter that faults by touching pays
 * that touch in its faults ({@code pte_fill} is a first touch less a second), and the model prices it once.
 */
final class FaultCosts {

    /** The costs {@link #measure} gives, by their names in costs.csv and in this order. */
    static final List<String> NAMES = List.of("fault_fixed", "pte_fill", "fault_fixed_all", "pte_fill_all", "pte_fill_as_found",
            "pte_fill_as_found_all", "populate_fixed", "populate_pte", "populate_fixed_all", "populate_pte_all", "unmap_entry", "unmap_entry_all", "walk_entry", "walk_entry_as_found",
            "rescan_page");

    private FaultCosts() {}

    /** Each of {@link #NAMES} with its rounds, ns. */
    static SequencedMap<String, double[]> measure(Path haystack, Path folder, int rounds, long bytes) throws IOException {
        String whyNot = HugeFolios.whyNot(folder);
        if (whyNot != null) {
            throw new UnitCosts.NotMeasurableHere(whyNot);
        }
        long pid = ProcessHandle.current().pid();
        Path small = folder.resolve("unit-costs-" + pid + "-small.bin"), huge = folder.resolve("unit-costs-" + pid + "-huge.bin");
        List<Path> made = new ArrayList<>(); // only these are removed after: a file of the same name already there is never touched
        try {
            for (Path scratch : List.of(small, huge)) {
                if (Files.exists(scratch, LinkOption.NOFOLLOW_LINKS)) {
                    throw new UnitCosts.NotMeasurableHere(scratch + " already exists: it is not this tool's to write or remove");
                }
                Haystack.create(scratch, bytes + UnitCosts.PAGE_BYTES, System.err); // all zeros but the needle's page, which no pass maps
                made.add(scratch);
            }
            PageCache.fillInSmallFolios(small);
            if (PageCache.fillInHugeFolios(huge, 1).filePmdMappedBytes() == 0) {
                throw new UnitCosts.NotMeasurableHere("the kernel read the scratch file back in no 2 MiB folio (Linux " + System.getProperty("os.version") + ")");
            }
            int all = Runtime.getRuntime().availableProcessors();
            double[][] solved = new double[NAMES.size()][rounds];
            for (int round = 0; round < rounds; round++) {
                double[] one = solve(Pass.of(small, 1), Pass.of(huge, 1)), many = solve(Pass.of(small, all), Pass.of(huge, all));
                double[] populated = solve(Pass.populated(small, 1), Pass.populated(huge, 1));
                double[] populatedAll = solve(Pass.populated(small, all), Pass.populated(huge, all));
                Pass asFound = Pass.of(haystack, 1), asFoundAll = Pass.of(haystack, all);
                solved[0][round] = one[0];
                solved[1][round] = one[1];
                solved[2][round] = many[0];
                solved[3][round] = many[1];
                solved[4][round] = (asFound.nanos() - asFound.faults() * one[0]) / asFound.entries();
                solved[5][round] = (asFoundAll.nanos() - asFoundAll.faults() * many[0]) / asFoundAll.entries();
                solved[6][round] = populated[0];
                solved[7][round] = populated[1];
                solved[8][round] = populatedAll[0];
                solved[9][round] = populatedAll[1];
                solved[10][round] = unmapNanosPerEntry(small, 1);
                solved[11][round] = unmapNanosPerEntry(small, all);
                Scan smallScan = Scan.of(small), hugeScan = Scan.of(huge), asFoundScan = Scan.of(haystack);
                solved[12][round] = smallScan.nanosPerEntryBeyond(hugeScan);
                solved[13][round] = asFoundScan.nanosPerEntryBeyond(hugeScan);
                solved[14][round] = smallScan.nanosAgainPerPage();
            }
            for (double[] each : Arrays.copyOf(solved, 2)) { // the others are left out if they come to nothing
                if (!(Stats.median(each) > 0)) {
                    throw new UnitCosts.NotMeasurableHere("the two mappings gave no positive pair of costs (ns a fault, an entry; on all threads: "
                            + Arrays.deepToString(solved) + ")");
                }
            }
            SequencedMap<String, double[]> costs = new LinkedHashMap<>();
            for (int i = 0; i < NAMES.size(); i++) {
                costs.put(NAMES.get(i), solved[i]);
            }
            return costs;
        } catch (UserMistakeException | IOException e) {
            throw e instanceof UnitCosts.NotMeasurableHere notHere ? notHere : new UnitCosts.NotMeasurableHere(e.getMessage());
        } finally {
            for (Path scratch : made) {
                Files.deleteIfExists(scratch);
            }
        }
    }

    /**
     * Two scans of a fresh mapping of the file's first 256 MiB with the 256-bit kernel, once {@code MADV_POPULATE_READ}
     * has filled it, so that no fault falls inside the timer: the entries it holds, the first scan's ns, and the
     * second's, which touches no entry for the first time.
     */
    record Scan(long entries, long nanos, long bytes, long nanosAgain) {

        static Scan of(Path file) throws IOException {
            long mappedBytes = Pass.mappedBytes(file);
            warmUp(memory -> V13PreadVector.firstNonZeroWord256(memory, 0, memory.byteSize()));
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment mapped = Native.mapFile(file, mappedBytes, 0, arena);
                Native.madvise(mapped, Native.MADV_POPULATE_READ);
                long entries = Pass.entries(mapped);
                long started = System.nanoTime();
                long hit = V13PreadVector.firstNonZeroWord256(mapped, 0, mappedBytes);
                long nanos = System.nanoTime() - started;
                hit = Math.max(hit, V13PreadVector.firstNonZeroWord256(mapped, 0, mappedBytes));
                long nanosAgain = System.nanoTime() - started - nanos;
                if (hit >= 0) {
                    throw new UserMistakeException(Quote.name(file) + " has a non-zero byte in its first 256 MiB: not a haystack");
                }
                return new Scan(entries, nanos, mappedBytes, nanosAgain);
            }
        }

        /** What each entry this scan met beyond {@code other}'s (a mapping of as many bytes in larger folios) added to it, ns; NaN if none. */
        double nanosPerEntryBeyond(Scan other) {
            return entries > other.entries ? (double) (nanos - other.nanos) / (entries - other.entries) : Double.NaN;
        }

        /** The second scan's ns per 4 KiB page: a page whose entry was touched before, its bytes and all. */
        double nanosAgainPerPage() {
            return (double) nanosAgain / (bytes / UnitCosts.PAGE_BYTES);
        }
    }

    /** {fixed, perEntry} from two passes: t = faults × fixed + entries × perEntry, twice. */
    static double[] solve(Pass a, Pass b) {
        double determinant = (double) a.faults() * b.entries() - (double) b.faults() * a.entries();
        if (determinant == 0) {
            return new double[] {Double.NaN, Double.NaN};
        }
        return new double[] {(a.nanos() * b.entries() - b.nanos() * a.entries()) / determinant,
                (a.faults() * b.nanos() - b.faults() * a.nanos()) / determinant};
    }

    /**
     * A fresh mapping of {@code file}, filled, then torn down: ns per page-table entry. On one thread, the
     * {@code munmap} a mapped chapter pays when its arena closes, after its workers are done; on several, each clears
     * its own 2 MiB-aligned part with {@code MADV_DONTNEED}, all at once (the wall time), before the then empty unmap.
     */
    static double unmapNanosPerEntry(Path file, int threads) throws IOException {
        Arena arena = Arena.ofShared();
        long entries, started, ended;
        try {
            MemorySegment mapped = Native.mapFile(file, Pass.mappedBytes(file), 0, arena);
            Native.madvise(mapped, Native.MADV_POPULATE_READ);
            entries = Pass.entries(mapped);
            List<MemorySegment> parts = Pass.parts(mapped, threads);
            started = System.nanoTime();
            if (parts.size() > 1) {
                try {
                    runAtOnce(parts.size(), part -> Native.madvise(parts.get(part), Native.MADV_DONTNEED));
                } catch (IOException e) {
                    throw new UnitCosts.NotMeasurableHere("MADV_DONTNEED failed: " + e.getMessage());
                }
            }
        } catch (InterruptedException e) {
            arena.close();
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while timing an unmap");
        } catch (IOException | RuntimeException e) {
            arena.close();
            throw e;
        }
        arena.close(); // munmap: every entry, or none left where the threads cleared them
        ended = System.nanoTime();
        return (double) (ended - started) / entries;
    }

    /** One touch per 4 KiB page of {@code mapped}: the sum of the bytes read, zero for a haystack's. */
    static long touchEveryPage(MemorySegment mapped) {
        long sum = 0;
        for (long offset = 0; offset < mapped.byteSize(); offset += UnitCosts.PAGE_BYTES) {
            sum += mapped.get(ValueLayout.JAVA_BYTE, offset);
        }
        return sum;
    }

    /**
     * {@code parts} touched every 4 KiB at once, a thread each, 2 MiB at a time: when each 2 MiB began and ended, part
     * after part ({@code firsts}: where each part's 2 MiBs begin).
     */
    static void touchedAtOnce(List<MemorySegment> parts, int[] firsts, long[] began, long[] ended, long[] sums)
            throws IOException, InterruptedException {
        runAtOnce(parts.size(), part -> {
            MemorySegment mine = parts.get(part);
            for (int slice = 0; slice < slicesOf(mine); slice++) {
                long at = slice * PmdMapping.PMD_BYTES;
                began[firsts[part] + slice] = System.nanoTime();
                sums[part] += touchEveryPage(mine.asSlice(at, Math.min(PmdMapping.PMD_BYTES, mine.byteSize() - at)));
                ended[firsts[part] + slice] = System.nanoTime();
            }
        });
    }

    /** One thread's share of {@link #runAtOnce}: its part's number. */
    interface PartTask { void run(int part) throws IOException; }

    /**
     * {@code threads} platform threads, each running {@code task} on its part once every one of them has started, so
     * that the parts run at once, as a chapter's workers do; the first failure is thrown once all have ended.
     */
    static void runAtOnce(int threads, PartTask task) throws IOException, InterruptedException {
        java.util.concurrent.atomic.AtomicInteger ready = new java.util.concurrent.atomic.AtomicInteger();
        IOException[] failed = new IOException[1];
        List<Thread> running = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            int part = i;
            running.add(Thread.ofPlatform().start(() -> {
                ready.incrementAndGet();
                while (ready.get() < threads) { // spun, not parked: a parked thread wakes tens of µs late, after a short pass
                    Thread.onSpinWait();
                }
                try {
                    task.run(part);
                } catch (IOException e) {
                    synchronized (failed) {
                        failed[0] = e;
                    }
                }
            }));
        }
        for (Thread thread : running) {
            thread.join();
        }
        if (failed[0] != null) {
            throw failed[0];
        }
    }

    /**
     * The 2 MiBs that ran while every other thread was touching one too: for each, whether another part's 2 MiBs cover
     * half of it, part by part ({@code firsts}: where each part's 2 MiBs begin). On one thread, every one.
     */
    static boolean[] atOnce(long[] began, long[] ended, int[] firsts) {
        boolean[] together = new boolean[began.length];
        for (int part = 0; part < firsts.length; part++) {
            int from = firsts[part], to = part + 1 < firsts.length ? firsts[part + 1] : began.length;
            for (int slice = from; slice < to; slice++) {
                together[slice] = true;
                for (int other = 0; other < firsts.length; other++) {
                    long covered = 0;
                    for (int o = firsts[other]; other != part && o < (other + 1 < firsts.length ? firsts[other + 1] : began.length); o++) {
                        covered += Math.max(0, Math.min(ended[slice], ended[o]) - Math.max(began[slice], began[o]));
                    }
                    together[slice] &= other == part || 2 * covered >= ended[slice] - began[slice];
                }
            }
        }
        return together;
    }

    static int slicesOf(MemorySegment part) { return (int) Math.ceilDiv(part.byteSize(), PmdMapping.PMD_BYTES); }

    /**
     * One fresh mapping faulted in by {@code threads} threads, each its own 2 MiB-aligned part, 2 MiB at a time: the
     * faults the kernel counted, the page-table entries they filled (a PMD-mapped 2 MiB one entry, from smaps) and their
     * time: the first touch of each 2 MiB less the second, which faults nothing ({@link #undisturbed}); on several threads,
     * of the 2 MiBs touched while every thread was touching one ({@link #atOnce}), the wall clock's share of them.
     */
    record Pass(long faults, long entries, double nanos) {

        double nanosPerFault() { return nanos / faults; }

        /** The file's first 256 MiB (or a smaller one's all but its last page) mapped afresh, touched every 4 KiB, twice. */
        static Pass of(Path file, int threads) throws IOException {
            long mappedBytes = mappedBytes(file);
            warmUp(FaultCosts::touchEveryPage);
            try (Arena arena = Arena.ofShared()) {
                MemorySegment mapped = Native.mapFile(file, mappedBytes, 0, arena);
                List<MemorySegment> parts = parts(mapped, threads);
                int slices = parts.stream().mapToInt(FaultCosts::slicesOf).sum();
                int[] firsts = new int[parts.size()];
                for (int i = 1; i < firsts.length; i++) {
                    firsts[i] = firsts[i - 1] + slicesOf(parts.get(i - 1));
                }
                long[] began = new long[slices], ended = new long[slices], beganAgain = new long[slices], endedAgain = new long[slices];
                long[] sums = new long[parts.size()];
                KernelCounters.Snapshot before = KernelCounters.now();
                touchedAtOnce(parts, firsts, began, ended, sums);
                long faults = KernelCounters.now().since(before)[KernelBill.Item.MINOR_FAULTS.ordinal()];
                touchedAtOnce(parts, firsts, beganAgain, endedAgain, sums);
                if (Arrays.stream(sums).sum() != 0 || faults <= 0) {
                    throw new UserMistakeException(faults <= 0 ? "the kernel counted no page fault here (no getrusage?)"
                            : Quote.name(file) + " has a non-zero byte in its first 256 MiB: not a haystack");
                }
                long entries = entries(mapped);
                // each 2 MiB as long as those that ran with every thread faulting at once; the second pass, too short for its
                // threads to meet (one is done before the other wakes), and faulting nothing, counts every 2 MiB
                double perSlice = undisturbed(began, ended, atOnce(began, ended, firsts)) - undisturbed(beganAgain, endedAgain, atOnce(beganAgain, endedAgain, new int[] {0}));
                return new Pass(faults, Math.max(faults, entries), Math.max(0, perSlice * slices / parts.size()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("interrupted while timing faults");
            }
        }

        /**
         * One fresh mapping filled by {@code MADV_POPULATE_READ}, {@code threads} threads at once, each its own 2 MiB-aligned
         * part in one call, as chapter 16's workers fill their shards (chapter 10's {@code MAP_POPULATE} fills it on one
         * thread): the faults counted, the entries filled, and the wall time from the first call's start to the last one's end.
         */
        static Pass populated(Path file, int threads) throws IOException {
            long mappedBytes = mappedBytes(file);
            try (Arena arena = Arena.ofShared()) {
                MemorySegment mapped = Native.mapFile(file, mappedBytes, 0, arena);
                List<MemorySegment> parts = parts(mapped, threads);
                long[] began = new long[parts.size()], ended = new long[parts.size()];
                KernelCounters.Snapshot before = KernelCounters.now();
                try {
                    runAtOnce(parts.size(), part -> { // every call starts at once, as the workers' do
                        began[part] = System.nanoTime();
                        Native.madvise(parts.get(part), Native.MADV_POPULATE_READ);
                        ended[part] = System.nanoTime();
                    });
                } catch (IOException e) {
                    throw new UnitCosts.NotMeasurableHere("MADV_POPULATE_READ failed (" + e.getMessage() + "): it needs Linux 5.14 or later");
                }
                long faults = KernelCounters.now().since(before)[KernelBill.Item.MINOR_FAULTS.ordinal()];
                if (faults <= 0) {
                    throw new UserMistakeException("the kernel counted no page fault here (no getrusage?)");
                }
                long wall = Arrays.stream(ended).max().orElseThrow() - Arrays.stream(began).min().orElseThrow();
                return new Pass(faults, Math.max(faults, entries(mapped)), wall);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("interrupted while timing MADV_POPULATE_READ");
            }
        }

        /** The file's first 256 MiB, or a smaller one's all but its last page: the needle's page is never mapped. */
        static long mappedBytes(Path file) throws IOException {
            long mappedBytes = Math.min(UnitCosts.MAPPED_BYTES, (Files.size(file) / UnitCosts.PAGE_BYTES - 1) * UnitCosts.PAGE_BYTES);
            if (mappedBytes <= 0) {
                throw new UnitCosts.NotMeasurableHere(Quote.name(file) + " is too small to map a page of it");
            }
            return mappedBytes;
        }

        /** {@code mapped} cut into a part per thread, each starting on a 2 MiB boundary. */
        static List<MemorySegment> parts(MemorySegment mapped, int threads) {
            long step = Math.max(1, Math.ceilDiv(Math.ceilDiv(mapped.byteSize(), threads), PmdMapping.PMD_BYTES)) * PmdMapping.PMD_BYTES;
            List<MemorySegment> parts = new ArrayList<>();
            for (long from = 0; from < mapped.byteSize(); from += step) {
                parts.add(mapped.asSlice(from, Math.min(step, mapped.byteSize() - from)));
            }
            return parts;
        }

        /** The page-table entries {@code mapped} holds now, from smaps: a PMD-mapped 2 MiB one, any other 4 KiB page one. */
        static long entries(MemorySegment mapped) throws IOException {
            PmdMapping mapping = PmdMapping.of(mapped);
            return mapping.filePmdMappedBytes() / PmdMapping.PMD_BYTES + (mapping.rssBytes() - mapping.filePmdMappedBytes()) / UnitCosts.PAGE_BYTES;
        }

        /** The mean 2 MiB among those {@code counted}, but those over 5 × their median and 1 ms, which another program's thread interrupted; NaN for none. */
        static double undisturbed(long[] began, long[] ended, boolean[] counted) {
            double[] each = java.util.stream.IntStream.range(0, began.length).filter(i -> counted[i]).mapToDouble(i -> ended[i] - began[i]).toArray();
            if (each.length == 0) {
                return Double.NaN;
            }
            double most = Math.max(5 * Stats.median(each), 1e6);
            return Arrays.stream(each).filter(slice -> slice <= most).average().orElse(Double.NaN);
        }
    }

    /**
     * The JIT compiles {@code loop} before it is timed, as it does a chapter's in its warm-up run: a touch pass then runs
     * the same code on both passes, and a scan the compiled kernel.
     */
    static void warmUp(java.util.function.Consumer<MemorySegment> loop) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment memory = arena.allocate(PmdMapping.PMD_BYTES, UnitCosts.PAGE_BYTES);
            for (int i = 0; i < 200; i++) {
                loop.accept(memory);
            }
        }
    }
}
