///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
//SOURCES ../LabWithChapters.java FaultCosts.java
//COMPILE_OPTIONS --add-modules jdk.incubator.vector
//RUNTIME_OPTIONS --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import com.sun.nio.file.ExtendedOpenOption;
import lib.chapter.NeedleSearch;
import lib.cli.PathConverter;
import lib.cli.Quote;
import lib.cli.UserMistakeException;
import lib.harness.Machine;
import lib.cli.OutputCheck;
import lib.harness.PageCache;
import lib.harness.ResultsCsv;
import lib.counters.Stats;
import lib.haystack.Haystack;
import lib.linux.HugePageBuffer;
import lab.tools.ToolCommand;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The machine's unit costs for the events a chapter's bill counts: a read call, a page fault and
 * each entry it maps, a wake-up, a byte scanned in the CPU's cache, a byte from the device. With the
 * walls (a byte scanned from memory, a byte copied out of the page cache), they are what
 * {@code lab/report/CostModel.java} adds up from a chapter's bill. Each comes from its own
 * micro-measurement, never from a chapter's time:
 *
 * <ul>
 *   <li>{@code read_call}: an 8-byte positional read of a cached page, next to nothing to copy;
 *       {@code pread_1mib}: a 1 MiB one, as a chapter reads (the model takes its copy back out).
 *   <li>{@code minor_fault}: a fresh mapping of the cached file touched every 4 KiB, per fault counted.
 *   <li>{@code fault_fixed} and {@code pte_fill}: what a fault costs, and each page-table entry it fills
 *       (a PMD mapping fills one for 2 MiB), from two scratch files beside the haystack, in 4 KiB and
 *       in 2 MiB folios: two equations in the two costs ({@link FaultCosts}); {@code pte_fill_as_found}: an
 *       entry as the cache holds the haystack; {@code _all}: on every thread at once (wall time);
 *       {@code populate_fixed} and {@code populate_pte}: the same pair where {@code MADV_POPULATE_READ} fills
 *       the mapping, one call per thread, as chapters 10 and 16 fill theirs; {@code unmap_entry}: what
 *       {@code munmap} takes per entry to tear the 4 KiB-folio file's mapping down; {@code unmap_entry_all}: the
 *       same where every thread first clears its part ({@code MADV_DONTNEED}) at once, which no chapter does (chapter 9 says why);
 *       {@code walk_entry}: what a 4 KiB entry adds to the first scan of a filled mapping beyond a 2 MiB one, its
 *       first touch ({@code _as_found}: the haystack's own mapping); {@code rescan_page}: a second scan, per 4 KiB page.
 *   <li>{@code wake_up}: two threads handing a turn to each other: half a round trip, per hand-over.
 *   <li>{@code scan_in_cache}: chapter 13's 256-bit kernel over one 1 MiB chunk, again and again, so
 *       it stays in the CPU's cache: what a reading chapter pays a byte to scan what it just copied.
 *       {@code scan_word_in_cache}: the same with chapter 3's word-at-a-time kernel;
 *       {@code scan_word_from_memory}: chapter 4's over 1 GiB of memory, what chapters 4 to 6 pay a byte
 *       ({@code _all}: on every thread at once, the wall time).
 *   <li>{@code device_byte_qd1} and {@code device_byte_deep}: O_DIRECT reads of 1 MiB from the
 *       disk, one in flight, then eight at once (a thread each), per byte.
 * </ul>
 *
 * Each is measured {@code --rounds} times; a row holds the median, the rounds' lowest and highest (from
 * five rounds on, less the lowest and the highest, as a chapter's runs are trimmed), and their spread,
 * (highest − lowest) ÷ median, past {@link #UNSTABLE_SPREAD} unstable (the model says so).
 *
 * <pre>
 * How to run:   ./jbang lab/yardsticks/UnitCosts.java haystack.bin [--rounds 5] [--csv results/MACHINE/costs.csv]
 * What you should see: one line per cost, such as
 *   cost=read_call ns=612 low=598 high=640 rounds=5 spread=6.9%
 * in under half a minute on a 4 GiB haystack.
 * </pre>
 */
@Command(name = "UnitCosts", mixinStandardHelpOptions = true, versionProvider = lib.harness.ProjectVersion.class,
        description = "Measures what one read call, one page fault, one wake-up, one byte scanned in the cache and one byte from the device cost on this machine.")
public class UnitCosts implements Callable<Integer> {

    /** The first columns of costs.csv, all a costs.csv written before the spread had: the model reads either. */
    static final String HEADER = "date,machine,cost,unit,value,low,high,rounds";
    /** The header UnitCosts writes: one row per cost and sitting, with its rounds' spread and whether that makes it unstable. */
    static final String HEADER_WITH_SPREAD = HEADER + ",spread,stable";
    /** Rounds that spread by more than a quarter of their median make a cost unstable. */
    static final double UNSTABLE_SPREAD = 0.25;

    static final int CALLS_PER_ROUND = 100_000, PREAD_BYTES = 1 << 20;
    static final long MAPPED_BYTES = 256L << 20, PAGE_BYTES = 4096, PREAD_SPAN_BYTES = 256L << 20;
    static final int HAND_OVERS_PER_ROUND = 20_000, DEEP_QUEUE = 8, WARM_UP_SCANS = 2_000, SCANS_PER_ROUND = 2_000;
    static final long DEVICE_BYTES = 256L << 20, DEVICE_READ_BYTES = 1 << 20, CHUNK_BYTES = lib.chapter.ChunkedSearch.DEFAULT_CHUNK_BYTES;
    /** Memory the word kernel scans from: past any CPU cache here. */
    static final long WORD_SCAN_BYTES = 1L << 30;
    static final int WORD_SCAN_PASSES = 3;
    /** Each scratch file: 65,536 pages in 4 KiB folios, 128 in 2 MiB ones. */
    static final long SCRATCH_BYTES = 256L << 20;

    @Parameters(index = "0", paramLabel = "FILE", converter = PathConverter.class,
            description = "A haystack (its first 256 MiB are read); it is cached first if it is not.")
    Path file;

    @Option(names = "--rounds", paramLabel = "N", defaultValue = "5", converter = lib.cli.CountConverter.class,
            description = "Rounds of each measurement (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--csv", paramLabel = "PATH", converter = PathConverter.class, description = "Append one row per cost to this CSV.")
    Path csv;

    @Option(names = "--scratch", paramLabel = "DIR", converter = PathConverter.class,
            description = "Where the two 256 MiB scratch files of the fault costs are written, and removed after (default: FILE's folder; "
                    + "its file system decides the folios, so keep it the haystack's).")
    Path scratch;

    /** Each scratch file's size, but for its needle's page (tests make it smaller). */
    long scratchBytes = SCRATCH_BYTES;

    /** A cost this file system or kernel gives no way to measure, said in one line; the other costs are still written. */
    static final class NotMeasurableHere extends IOException {
        NotMeasurableHere(String message) { super(message); }
    }

    /** One cost: its name, its unit, and one round of its measurement. */
    record Cost(String name, String unit, Measure measure) {}

    interface Measure { double once(Path file) throws IOException, InterruptedException; }

    static final List<Cost> COSTS = List.of(
            new Cost("read_call", "ns", file -> readNanos(file, Long.BYTES, CALLS_PER_ROUND)),
            new Cost("pread_1mib", "ns", file -> readNanos(file, PREAD_BYTES, (int) (PREAD_SPAN_BYTES / PREAD_BYTES))),
            new Cost("minor_fault", "ns", file -> FaultCosts.Pass.of(file, 1).nanosPerFault()),
            new Cost("wake_up", "ns", file -> wakeUpNanos()),
            new Cost("scan_in_cache", "ns", file -> scanInCacheNanosPerByte(V13PreadVector::firstNonZeroWord256, 64)),
            new Cost("scan_word_in_cache", "ns", file -> scanInCacheNanosPerByte(V03ChunkedLong::firstNonZeroWordScalar, 4096)),
            new Cost("scan_word_from_memory", "ns", file -> scanWordFromMemoryNanosPerByte(1)),
            new Cost("scan_word_from_memory_all", "ns", file -> scanWordFromMemoryNanosPerByte(Runtime.getRuntime().availableProcessors())),
            new Cost("device_byte_qd1", "ns", file -> deviceNanosPerByte(file, 1)),
            new Cost("device_byte_deep", "ns", file -> deviceNanosPerByte(file, DEEP_QUEUE)));

    public static void main(String[] args) { ToolCommand.run("UnitCosts", new UnitCosts(), args); }

    /** The command line as a method, for tests: returns the exit status. */
    static int execute(String[] args, java.io.PrintStream out, java.io.PrintStream err) {
        return ToolCommand.execute("UnitCosts", new UnitCosts(), args, out, err);
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        if (rounds < 1) {
            throw new UserMistakeException("--rounds must be at least 1, not " + rounds);
        }
        if (!Files.isRegularFile(file) || !Haystack.endsWithNeedle(file)) {
            throw new UserMistakeException(Quote.name(file) + " is not a haystack (a chapter makes one: --size 1g)");
        }
        if (csv != null) { // a costs.csv of an earlier sitting is appended to; any other file is left alone
            OutputCheck.requireWritableFile("--csv", csv); // a directory, a missing folder: refused before any header is read
            if (Files.exists(csv) && Files.size(csv) > 0 && !isCostsHeader(ResultsCsv.firstLine(csv))) {
                throw new UserMistakeException(Quote.name(csv) + " is not a costs.csv (its header is not " + HEADER_WITH_SPREAD + "): left it alone");
            }
        }
        Path scratchFolder = scratch != null ? scratch : file.toAbsolutePath().getParent();
        if (!Files.isDirectory(scratchFolder)) {
            throw new UserMistakeException("--scratch " + Quote.name(scratchFolder) + " is not a folder");
        }
        PageCache.warmUnlessCached(file);
        String date = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(), machine = Machine.current().name();
        List<String> rows = new ArrayList<>();
        for (Cost cost : COSTS) {
            try {
                double[] each = new double[rounds];
                for (int round = 0; round < rounds; round++) {
                    each[round] = cost.measure().once(file);
                }
                addUnlessNothing(rows, date, machine, cost.name(), cost.unit(), each);
            } catch (NotMeasurableHere e) { // the others still count: the model leaves out what needs this one
                System.out.println("cost=" + cost.name() + " not measured: " + e.getMessage());
            }
        }
        try {
            // past the first two, a cost that came to nothing is left out, and the model does without
            FaultCosts.measure(file, scratchFolder, rounds, scratchBytes).forEach((name, solved) -> addUnlessNothing(rows, date, machine, name, "ns", solved));
        } catch (NotMeasurableHere e) {
            System.out.println("cost=fault_fixed and pte_fill not measured: " + e.getMessage());
        }
        if (csv != null) {
            ResultsCsv.appendWhole(csv, HEADER_WITH_SPREAD, header -> {
                if (!isCostsHeader(header)) {
                    throw new UserMistakeException(Quote.name(csv) + " is not a costs.csv (its header is not " + HEADER_WITH_SPREAD + ")");
                }
                // a costs.csv of before the spread takes rows of its own columns: the model finds their spread from low and high
                return rows.stream().map(row -> header.equals(HEADER) ? row.substring(0, row.lastIndexOf(',', row.lastIndexOf(',') - 1)) : row)
                        .collect(java.util.stream.Collectors.joining("\n")) + "\n";
            });
        }
        return 0;
    }

    /**
     * A cost's row, added unless its rounds came to nothing: a round whose threads never met times nothing (NaN), and on a
     * busy machine a fault's first touch can come out no slower than its second (0). Such a cost is said not measured
     * rather than written as 0, which no model could price with.
     */
    static void addUnlessNothing(List<String> rows, String date, String machine, String name, String unit, double[] rounds) {
        double[] each = Arrays.stream(rounds).filter(Double::isFinite).toArray();
        if (each.length > 0 && Stats.median(each) > 0) {
            rows.add(row(date, machine, name, unit, each));
        } else {
            System.out.println("cost=" + name + " not measured: its rounds came to nothing " + Arrays.toString(rounds));
        }
    }

    private static boolean isCostsHeader(String header) {
        return HEADER.equals(header) || HEADER_WITH_SPREAD.equals(header);
    }
    /** One cost's row of costs.csv from its rounds, said on stdout too: median, lowest, highest, spread, stable or not. */
    static String row(String date, String machine, String name, String unit, double[] rounds) {
        double[] each = rounds.clone();
        Arrays.sort(each);
        // From five rounds on, the lowest and the highest are left out, as a chapter's fastest and slowest runs are:
        // one round another program interrupted does not make a cost unstable, nor its pair below zero.
        int drop = each.length >= Stats.RUNS_TO_TRIM ? 1 : 0;
        double median = Stats.median(each), low = each[drop], high = each[each.length - 1 - drop], spread = spread(median, low, high);
        String stable = spread > UNSTABLE_SPREAD ? "unstable" : "stable";
        System.out.printf(Locale.ROOT, "cost=%s %s=%s low=%s high=%s rounds=%d spread=%.1f%%%s%n", name, unit, figure(median), figure(low),
                figure(high), each.length, 100 * spread, spread > UNSTABLE_SPREAD ? " unstable" : "");
        return String.join(",", date, machine, name, unit, figure(median), figure(low), figure(high),
                String.valueOf(each.length), String.format(Locale.ROOT, "%.3f", spread), stable);
    }

    /** How far a cost's rounds spread: (highest − lowest) ÷ median; infinite where the median is not above zero. */
    static double spread(double median, double low, double high) {
        return median > 0 ? (high - low) / median : Double.POSITIVE_INFINITY;
    }

    /** Four significant figures: 612.3, 0.2981, 1.234e-4 stays readable in a CSV. */
    static String figure(double value) {
        return String.format(Locale.ROOT, "%.4g", value);
    }

    /**
     * Positional reads of {@code bytes} through {@code FileChannel}, one after the other along the cached file's first
     * 256 MiB, as the reading chapters make them, after as many untimed for the JIT: ns a call, copy included, the
     * median of batches of 1 KiB read (or of one call).
     */
    static double readNanos(Path file, int bytes, int calls) throws IOException {
        long span = Math.min(PREAD_SPAN_BYTES, Files.size(file) / bytes * bytes);
        if (span == 0) {
            throw new NotMeasurableHere(Quote.name(file) + " is smaller than " + bytes + " bytes: too small for reads of that size");
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ); Arena arena = Arena.ofConfined()) {
            ByteBuffer buffer = arena.allocate(bytes, 4096).asByteBuffer();
            int perBatch = Math.max(1, 1024 / bytes); // 8-byte calls in batches long enough for the clock
            double[] batches = new double[Math.max(1, calls / perBatch)];
            for (int i = -calls, batch = 0; batch < batches.length; ) {
                long started = System.nanoTime();
                for (int call = 0; call < perBatch; call++, i++) {
                    long at = Math.floorMod((long) i * bytes, span);
                    buffer.clear();
                    while (buffer.hasRemaining() && channel.read(buffer, at + buffer.position()) > 0) {
                        // a read may return less than asked
                    }
                }
                if (i > 0) { // past the untimed calls for the JIT
                    batches[batch++] = (double) (System.nanoTime() - started) / perBatch;
                }
            }
            return Stats.median(batches); // a batch another program's thread took the core from is not the call's
        }
    }

    /** Two threads handing a turn back and forth: ns per hand-over, half a round trip. */
    static double wakeUpNanos() throws InterruptedException {
        Thread main = Thread.currentThread();
        AtomicBoolean othersTurn = new AtomicBoolean();
        Thread other = Thread.ofPlatform().daemon().start(() -> {
            for (int i = 0; i < HAND_OVERS_PER_ROUND; i++) {
                while (!othersTurn.get()) {
                    LockSupport.park();
                }
                othersTurn.set(false);
                LockSupport.unpark(main);
            }
        });
        long started = System.nanoTime();
        for (int i = 0; i < HAND_OVERS_PER_ROUND; i++) {
            othersTurn.set(true);
            LockSupport.unpark(other);
            while (othersTurn.get()) {
                LockSupport.park();
            }
        }
        long elapsed = System.nanoTime() - started;
        other.join();
        return (double) elapsed / (2.0 * HAND_OVERS_PER_ROUND);
    }

    /** A chapter's own scan kernel: the offset of the first non-zero word in {@code [from, to)}, or {@code NOT_FOUND}. */
    interface Kernel { long firstNonZeroWord(MemorySegment segment, long from, long to); }

    /**
     * A chapter's kernel over one chunk of zeros, held in the CPU's cache by scanning it again and again: ns per byte.
     * Chapter 13's 256-bit kernel is what a reading chapter pays a byte to scan what it just copied; chapter 3's
     * word-at-a-time one, what chapters 3 and 7 pay. Each cost calls its own chapter's copy of the kernel, so that each
     * copy meets one kind of segment, as in its chapter, and the JIT compiles it as it does there; the chunk is aligned
     * as that chapter aligns it.
     */
    static double scanInCacheNanosPerByte(Kernel kernel, long alignment) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment chunk = arena.allocate(CHUNK_BYTES, alignment); // zeroed: the kernel reads every byte
            long found = 0;
            for (int i = 0; i < WARM_UP_SCANS; i++) { // the JIT compiles the kernel first
                found += kernel.firstNonZeroWord(chunk, 0, CHUNK_BYTES);
            }
            double[] scans = new double[SCANS_PER_ROUND];
            for (int i = 0; i < SCANS_PER_ROUND; i++) {
                long started = System.nanoTime();
                found += kernel.firstNonZeroWord(chunk, 0, CHUNK_BYTES);
                scans[i] = System.nanoTime() - started;
            }
            if (found != (long) (WARM_UP_SCANS + SCANS_PER_ROUND) * NeedleSearch.NOT_FOUND) {
                throw new IllegalStateException("the kernel found a non-zero word in a buffer of zeros");
            }
            return Stats.median(scans) / CHUNK_BYTES; // a scan another program's thread interrupted is not the kernel's
        }
    }

    /**
     * The word-at-a-time kernel over 1 GiB of anonymous memory in 4 KiB pages, already faulted in: ns per byte, the median
     * of three passes after one for the JIT. On one thread, chapter 4's copy of the kernel in one call, as chapter 4 scans
     * its mapping; on several ({@code _all}), chapter 6's, a part per thread, all at once, the wall time. The memory wall
     * streams memory with a vector kernel; a word loop keeps fewer cache lines in flight and may not keep up.
     */
    static double scanWordFromMemoryNanosPerByte(int threads) throws IOException, InterruptedException {
        lib.harness.AvailableMemory.require(WORD_SCAN_BYTES, "the word kernel's scan from memory");
        try (Arena arena = Arena.ofShared()) {
            MemorySegment memory = lib.linux.Native.mapAnonymous(WORD_SCAN_BYTES, arena);
            lib.linux.Native.madvise(memory, lib.linux.Native.MADV_NOHUGEPAGE); // the pages of the 4 KiB memory wall
            memory.fill((byte) 0); // every page really there: untouched memory reads as the kernel's one zero page
            long partBytes = WORD_SCAN_BYTES / threads / PAGE_BYTES * PAGE_BYTES;
            double[] passes = new double[WORD_SCAN_PASSES + 1];
            for (int pass = 0; pass < passes.length; pass++) { // the first for the JIT
                long[] began = new long[threads], ended = new long[threads], found = new long[threads];
                FaultCosts.runAtOnce(threads, part -> { // every part starts at once, as a chapter's workers do
                    began[part] = System.nanoTime();
                    found[part] = threads == 1 ? V04Mmap.firstNonZeroWordScalar(memory, 0, partBytes)
                            : V06MmapParallel.firstNonZeroWordScalar(memory, part * partBytes, (part + 1) * partBytes);
                    ended[part] = System.nanoTime();
                });
                if (Arrays.stream(found).anyMatch(hit -> hit != V04Mmap.NOT_FOUND)) {
                    throw new IllegalStateException("the kernel found a non-zero word in memory of zeros");
                }
                passes[pass] = (double) (Arrays.stream(ended).max().orElseThrow() - Arrays.stream(began).min().orElseThrow()) / (partBytes * threads);
            }
            return Stats.median(Arrays.copyOfRange(passes, 1, passes.length));
        }
    }

    /** The file's first 256 MiB (or all of a smaller one's whole MiBs) read around the page cache in 1 MiB O_DIRECT reads, {@code inFlight} threads at once: ns per byte. */
    static double deviceNanosPerByte(Path file, int inFlight) throws IOException, InterruptedException {
        long deviceBytes = Math.min(DEVICE_BYTES, Files.size(file) / (inFlight * DEVICE_READ_BYTES) * inFlight * DEVICE_READ_BYTES);
        if (deviceBytes == 0) {
            throw new NotMeasurableHere(Quote.name(file) + " is smaller than " + inFlight + " MiB: too small to time the device");
        }
        long perThread = deviceBytes / inFlight;
        List<Thread> threads = new ArrayList<>();
        IOException[] failed = {null};
        long started = System.nanoTime();
        for (int t = 0; t < inFlight; t++) {
            long from = t * perThread;
            threads.add(Thread.ofPlatform().start(() -> {
                try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, ExtendedOpenOption.DIRECT);
                     Arena arena = Arena.ofConfined()) {
                    ByteBuffer buffer = HugePageBuffer.allocate(DEVICE_READ_BYTES, arena).asByteBuffer();
                    for (long at = from; at < from + perThread; at += DEVICE_READ_BYTES) {
                        buffer.clear();
                        while (buffer.hasRemaining() && channel.read(buffer, at + buffer.position()) > 0) {
                            // a read may return less than asked
                        }
                    }
                } catch (IOException e) {
                    synchronized (failed) {
                        failed[0] = e;
                    }
                }
            }));
        }
        for (Thread thread : threads) {
            thread.join();
        }
        if (failed[0] != null) {
            throw new NotMeasurableHere("O_DIRECT reads of " + Quote.name(file) + " failed (" + failed[0].getMessage()
                    + "): a file system without O_DIRECT, such as tmpfs, has no device to measure");
        }
        return (double) (System.nanoTime() - started) / deviceBytes;
    }
}
