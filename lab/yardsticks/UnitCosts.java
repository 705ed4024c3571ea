///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
//SOURCES ../Lab.java ../../variants/Contents.java
//COMPILE_OPTIONS --add-modules jdk.incubator.vector
//RUNTIME_OPTIONS --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
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
import lib.cli.PathConverter;
import lib.cli.Quote;
import lib.cli.UserMistakeException;
import lib.counters.KernelBill;
import lib.counters.KernelCounters;
import lib.harness.Machine;
import lib.cli.OutputCheck;
import lib.harness.PageCache;
import lib.harness.ResultsCsv;
import lib.counters.Stats;
import lib.haystack.Haystack;
import lib.linux.HugePageBuffer;
import lib.linux.Native;
import lab.tools.ToolCommand;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The machine's unit costs for the events a chapter's bill counts: what one read call, one page
 * fault, one thread's wake-up, one byte scanned in the CPU's cache and one byte from the device
 * cost here. With the walls (the cost of a byte scanned from memory and of a byte copied out of the
 * page cache, on one thread and on all),
 * they are what {@code lab/report/CostModel.java} adds up to predict a chapter's time from its bill.
 * Each comes from its own micro-measurement, never from a chapter's time:
 *
 * <ul>
 *   <li>{@code read_call}: an 8-byte positional read of a cached page through {@code FileChannel},
 *       as the reading chapters call it: the fixed cost of a call, with next to nothing to copy.
 *   <li>{@code minor_fault}: a mapping of the cached file touched once every 4 KiB, its time over
 *       the faults the kernel counted: one fault, with the kernel's fault-around, as the page cache
 *       holds the file now (its folios decide how many pages one fault maps).
 *   <li>{@code wake_up}: two threads handing a turn to each other ({@code LockSupport}): half a
 *       round trip, the cost behind a voluntary context switch.
 *   <li>{@code scan_in_cache}: chapter 13's 256-bit kernel over a buffer of one chunk (1 MiB), again
 *       and again, so the buffer stays in the CPU's cache: what a reading chapter pays per byte to
 *       scan what it has just copied, on one thread.
 *   <li>{@code device_byte_qd1} and {@code device_byte_deep}: O_DIRECT reads of 1 MiB from the
 *       disk, one in flight, then eight at once (a thread each), per byte.
 * </ul>
 *
 * Each is measured {@code --rounds} times; a row holds the median and the rounds' lowest and highest.
 *
 * <pre>
 * How to run:   ./jbang lab/yardsticks/UnitCosts.java haystack.bin [--rounds 5] [--csv results/MACHINE/costs.csv]
 * What you should see: one line per cost, such as
 *   cost=read_call ns=612 low=598 high=640 rounds=5
 * in under half a minute on a 4 GiB haystack.
 * </pre>
 */
@Command(name = "UnitCosts", mixinStandardHelpOptions = true, versionProvider = lib.harness.ProjectVersion.class,
        description = "Measures what one read call, one page fault, one wake-up, one byte scanned in the cache and one byte from the device cost on this machine.")
public class UnitCosts implements Callable<Integer> {

    /** The header of costs.csv: one row per cost and sitting. */
    static final String HEADER = "date,machine,cost,unit,value,low,high,rounds";

    static final int CALLS_PER_ROUND = 100_000, WARM_UP_CALLS = 20_000;
    static final long MAPPED_BYTES = 256L << 20, PAGE_BYTES = 4096;
    static final int HAND_OVERS_PER_ROUND = 20_000;
    static final long DEVICE_BYTES = 256L << 20, DEVICE_READ_BYTES = 1 << 20;
    static final int DEEP_QUEUE = 8;
    static final long CHUNK_BYTES = lib.chapter.ChunkedSearch.DEFAULT_CHUNK_BYTES;
    static final int WARM_UP_SCANS = 2_000, SCANS_PER_ROUND = 2_000;

    @Parameters(index = "0", paramLabel = "FILE", converter = PathConverter.class,
            description = "A haystack (its first 256 MiB are read); it is cached first if it is not.")
    Path file;

    @Option(names = "--rounds", paramLabel = "N", defaultValue = "5", converter = lib.cli.CountConverter.class,
            description = "Rounds of each measurement (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--csv", paramLabel = "PATH", converter = PathConverter.class, description = "Append one row per cost to this CSV.")
    Path csv;

    /** A cost this file system or kernel gives no way to measure, said in one line; the other costs are still written. */
    static final class NotMeasurableHere extends IOException {
        NotMeasurableHere(String message) {
            super(message);
        }
    }

    /** One cost: its name, its unit, and one round of its measurement. */
    record Cost(String name, String unit, Measure measure) {}

    interface Measure {
        double once(Path file) throws IOException, InterruptedException;
    }

    static final List<Cost> COSTS = List.of(
            new Cost("read_call", "ns", UnitCosts::readCallNanos),
            new Cost("minor_fault", "ns", UnitCosts::faultNanos),
            new Cost("wake_up", "ns", file -> wakeUpNanos()),
            new Cost("scan_in_cache", "ns", file -> scanInCacheNanosPerByte()),
            new Cost("device_byte_qd1", "ns", file -> deviceNanosPerByte(file, 1)),
            new Cost("device_byte_deep", "ns", file -> deviceNanosPerByte(file, DEEP_QUEUE)));

    public static void main(String[] args) {
        ToolCommand.run("UnitCosts", new UnitCosts(), args);
    }

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
            if (Files.exists(csv) && Files.size(csv) > 0 && !HEADER.equals(ResultsCsv.firstLine(csv))) {
                throw new UserMistakeException(Quote.name(csv) + " is not a costs.csv (its header is not " + HEADER + "): left it alone");
            }
        }
        PageCache.warmUnlessCached(file);
        String date = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(), machine = Machine.current().name();
        List<String> rows = new ArrayList<>();
        for (Cost cost : COSTS) {
            double[] each = new double[rounds];
            try {
                for (int round = 0; round < rounds; round++) {
                    each[round] = cost.measure().once(file);
                }
            } catch (NotMeasurableHere e) { // the others still count: the model leaves out what needs this one
                System.out.println("cost=" + cost.name() + " not measured: " + e.getMessage());
                continue;
            }
            Arrays.sort(each);
            double median = Stats.median(each);
            System.out.printf(Locale.ROOT, "cost=%s %s=%s low=%s high=%s rounds=%d%n", cost.name(), cost.unit(),
                    figure(median), figure(each[0]), figure(each[each.length - 1]), rounds);
            rows.add(String.join(",", date, machine, cost.name(), cost.unit(), figure(median), figure(each[0]),
                    figure(each[each.length - 1]), String.valueOf(rounds)));
        }
        if (csv != null) {
            ResultsCsv.appendWhole(csv, HEADER, header -> {
                if (!header.equals(HEADER)) {
                    throw new UserMistakeException(Quote.name(csv) + " is not a costs.csv (its header is not " + HEADER + ")");
                }
                return String.join("\n", rows) + "\n";
            });
        }
        return 0;
    }

    /** Four significant figures: 612.3, 0.2981, 1.234e-4 stays readable in a CSV. */
    static String figure(double value) {
        return String.format(Locale.ROOT, "%.4g", value);
    }

    /** One positional read of 8 bytes of a cached page, as the reading chapters call {@code FileChannel}: ns a call. */
    static double readCallNanos(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ); Arena arena = Arena.ofConfined()) {
            ByteBuffer word = arena.allocate(Long.BYTES, Long.BYTES).asByteBuffer();
            for (int i = 0; i < WARM_UP_CALLS; i++) { // the JIT compiles the JDK's read path first
                channel.read(word.clear(), 0);
            }
            long started = System.nanoTime();
            for (int i = 0; i < CALLS_PER_ROUND; i++) {
                channel.read(word.clear(), 0);
            }
            return (double) (System.nanoTime() - started) / CALLS_PER_ROUND;
        }
    }

    /** A fresh mapping of the file's first 256 MiB (or a smaller one's all but its last page), one byte read per 4 KiB page: ns per fault the kernel counted. */
    static double faultNanos(Path file) throws IOException {
        long mappedBytes = Math.min(MAPPED_BYTES, (Files.size(file) / PAGE_BYTES - 1) * PAGE_BYTES); // the needle's page left out
        try (Arena arena = Arena.ofShared()) {
            MemorySegment mapped = Native.mapFile(file, mappedBytes, 0, arena);
            long sum = 0;
            KernelCounters.Snapshot before = KernelCounters.now();
            long started = System.nanoTime();
            for (long offset = 0; offset < mappedBytes; offset += PAGE_BYTES) {
                sum += mapped.get(ValueLayout.JAVA_BYTE, offset);
            }
            long elapsed = System.nanoTime() - started;
            long faults = KernelCounters.now().since(before)[KernelBill.Item.MINOR_FAULTS.ordinal()];
            if (sum != 0 || faults <= 0) {
                throw new UserMistakeException(faults <= 0 ? "the kernel counted no page fault here (no getrusage?)"
                        : Quote.name(file) + " has a non-zero byte in its first 256 MiB: not a haystack");
            }
            return (double) elapsed / faults;
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

    /** Chapter 13's 256-bit kernel over one chunk of zeros, held in the CPU's cache by scanning it again and again: ns per byte. */
    static double scanInCacheNanosPerByte() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment chunk = arena.allocate(CHUNK_BYTES, 64); // zeroed: the kernel reads every byte
            long found = 0;
            for (int i = 0; i < WARM_UP_SCANS; i++) { // the JIT compiles the kernel first
                found += V13PreadVector.firstNonZeroWord256(chunk, 0, CHUNK_BYTES);
            }
            long started = System.nanoTime();
            for (int i = 0; i < SCANS_PER_ROUND; i++) {
                found += V13PreadVector.firstNonZeroWord256(chunk, 0, CHUNK_BYTES);
            }
            long elapsed = System.nanoTime() - started;
            if (found != (long) (WARM_UP_SCANS + SCANS_PER_ROUND) * V13PreadVector.NOT_FOUND) {
                throw new IllegalStateException("the kernel found a non-zero word in a buffer of zeros");
            }
            return (double) elapsed / ((double) SCANS_PER_ROUND * CHUNK_BYTES);
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
