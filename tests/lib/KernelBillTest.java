import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import lib.counters.KernelBill;
import lib.counters.KernelCounters;
import lib.harness.Harness;
import lib.harness.Measurement;
import lib.harness.PageCache;
import lib.harness.ResultsCsv;
import lib.haystack.Haystack;
import lib.haystack.ReferenceSearch;
import lib.linux.HugeFolios;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bill from the kernel means what it says: counted on small files, each figure is what the
 * chapter's code says it should be, within bounds a busy machine keeps (the JVM's own threads read
 * and fault now and then, inside a run as anywhere). Figures are per GiB searched, medians of the
 * timed runs, as the summary line prints them.
 */
class KernelBillTest {

    static final double GIB = 1L << 30;
    static final long FILE_BYTES = 16L << 20;

    @TempDir
    Path dir;

    private Path haystack(long bytes) throws IOException {
        Path file = dir.resolve("haystack-" + bytes + ".bin");
        if (!Files.exists(file)) {
            Haystack.create(file, bytes);
        }
        return file;
    }

    /** The last summary line of a chapter run in this JVM, as a map; the run must have found the needle. */
    private static Map<String, String> summary(Subprocess.Result result) {
        assertEquals(Harness.FOUND, result.exitCode(), result::toString);
        return result.stdout().lines().filter(line -> line.startsWith("variant=")).reduce((first, second) -> second)
                .map(KernelBillTest::fields).orElseThrow(() -> new AssertionError("no summary line: " + result));
    }

    /** A summary line's {@code key=value} pairs, as a person's script would split them. */
    private static Map<String, String> fields(String summaryLine) {
        Map<String, String> fields = new java.util.LinkedHashMap<>();
        for (String pair : summaryLine.strip().split(" ")) {
            fields.put(pair.substring(0, pair.indexOf('=')), pair.substring(pair.indexOf('=') + 1));
        }
        return fields;
    }

    /** A figure of the bill, which this machine must count for the test to mean anything. */
    private static double perGiB(Map<String, String> summary, String key) {
        String value = summary.get(key);
        assertTrue(value != null, "no " + key + " in " + summary);
        assumeTrue(!value.isEmpty(), () -> key + " is not counted here: " + KernelCounters.missing());
        return Double.parseDouble(value);
    }

    /** Read calls per GiB for a file read {@code readBytes} at a time, one call per read. */
    private static double callsPerGiB(long readBytes) {
        return GIB / readBytes;
    }

    private static void assertAbout(double expected, double actual, String what) {
        // At least every read the code makes; at most a quarter more, plus a few reads per run of the JVM's own
        assertTrue(actual >= expected * 0.99 && actual <= expected * 1.25 + 8 * GIB / FILE_BYTES,
                what + ": expected about " + expected + " per GiB, counted " + actual);
    }

    @Test
    void chapterThreeMakesOneReadCallPerChunk() throws IOException {
        Path file = haystack(FILE_BYTES);
        for (long chunk : new long[] {64 << 10, 1 << 20}) {
            Map<String, String> bill = summary(InProcess.run(new V03ChunkedLong(), file.toString(), "--runs", "3", "--warmup", "1",
                    "--chunk", Long.toString(chunk)));
            assertAbout(callsPerGiB(chunk), perGiB(bill, "read_calls_per_gib"), "chapter 3's read calls with --chunk " + chunk);
            double returned = perGiB(bill, "returned_bytes_per_gib");
            assertTrue(returned >= GIB && returned <= GIB * 1.01, "the reads return the file, once: " + returned + " bytes per GiB");
        }
    }

    /**
     * A user's one-shot run ({@code --runs 1 --warmup 0}, a fresh JVM) is billed for its search
     * alone: the classes the harness itself needs around a run (its counters, the thread that says a
     * long run is still running) are loaded before the first count, not read from the JDK's modules
     * or the class path inside it. A mapped chapter makes no read call; chapter 3 one per chunk, and
     * no read at the end of the file (it stops at the file's size).
     */
    @Test
    void aFirstRunWithoutWarmUpIsBilledForItsSearchAlone() throws Exception {
        Path file = haystack(FILE_BYTES);
        Map<String, String> mapped = summary(Subprocess.run(Subprocess.javaCommand(List.of(), "V04Mmap", file.toString(),
                "--runs", "1", "--warmup", "0"), dir.resolve("logs-mapped")));
        assertEquals(0, perGiB(mapped, "read_calls_per_gib"), () -> "chapter 4 makes no read call: " + mapped);
        assertEquals(0, perGiB(mapped, "returned_bytes_per_gib"), () -> "chapter 4 copies nothing: " + mapped);
        long chunkBytes = 1 << 20;
        Map<String, String> chunked = summary(Subprocess.run(Subprocess.javaCommand(List.of(), "V03ChunkedLong", file.toString(),
                "--runs", "1", "--warmup", "0", "--chunk", Long.toString(chunkBytes)), dir.resolve("logs-chunked")));
        assertEquals(callsPerGiB(chunkBytes), perGiB(chunked, "read_calls_per_gib"), () -> "chapter 3 reads once per chunk: " + chunked);
        assertEquals(GIB, perGiB(chunked, "returned_bytes_per_gib"), () -> "chapter 3 reads the file once: " + chunked);
    }

    /**
     * Chapter 2 calls read() once per byte, yet the kernel sees one read call per buffer of 64 KiB:
     * as few as chapter 3 makes reading 64 KiB at a time. Its cost is per byte, not per call.
     */
    @Test
    void chapterTwoMakesAsFewReadCallsAsChapterThreeWithTheSameReadSize() throws IOException {
        Path file = haystack(FILE_BYTES);
        double chapterTwo = perGiB(summary(InProcess.run(new V02BufferedByte(), file.toString(), "--runs", "1", "--warmup", "1")),
                "read_calls_per_gib");
        assertAbout(callsPerGiB(V02BufferedByte.BUFFER_BYTES), chapterTwo, "chapter 2's read calls");
        double chapterThree = perGiB(summary(InProcess.run(new V03ChunkedLong(), file.toString(), "--runs", "1", "--warmup", "1",
                "--chunk", Integer.toString(V02BufferedByte.BUFFER_BYTES))), "read_calls_per_gib");
        assertTrue(chapterTwo / chapterThree > 0.8 && chapterTwo / chapterThree < 1.25,
                "chapters 2 and 3 read " + V02BufferedByte.BUFFER_BYTES + " bytes per call: " + chapterTwo + " and " + chapterThree);
    }

    /**
     * A mapped chapter's page faults: with the page cache in 2 MiB folios, one fault maps 2 MiB; in
     * 4 KiB folios the kernel maps the cached pages around the fault too (fault-around, 64 KiB by
     * default), so one fault maps 16 pages, not 512. The fall is about 32×, not 512×.
     */
    @Test
    void aMappedChaptersFaultsFallWithTwoMebibyteFolios() throws IOException {
        long bytes = 64L << 20; // whole 2 MiB folios, and enough of them to count
        Path file = haystack(bytes);
        String reason = HugeFolios.whyNot(file);
        assumeTrue(reason == null, () -> "no 2 MiB folios here: " + reason);
        // Filled here, not left to --page-cache small: a cache that is not PMD-mapped passes there as small
        // folios, and a file just written sits in folios of 1 MiB or so on ext4 since Linux 6.16
        PageCache.fillInSmallFolios(file);
        Map<String, String> small = summary(InProcess.run(new V04Mmap(), file.toString(), "--runs", "3", "--warmup", "1",
                "--page-cache", "small"));
        Map<String, String> huge = summary(InProcess.run(new V04Mmap(), file.toString(), "--runs", "3", "--warmup", "1",
                "--page-cache", "huge"));
        assumeTrue(Double.parseDouble(huge.get("pmd_mapped_pct")) >= 90,
                () -> "this file system made few 2 MiB folios (" + huge.get("pmd_mapped_pct") + "% PMD-mapped)");
        double smallFaults = perGiB(small, "minor_faults_per_gib"), hugeFaults = perGiB(huge, "minor_faults_per_gib");
        assertTrue(hugeFaults >= GIB / (2 << 20) * 0.99, "at least one fault per 2 MiB folio: " + hugeFaults + " per GiB");
        assertTrue(smallFaults >= GIB / (64 << 10) * 0.99, "at least one fault per 64 KiB of 4 KiB pages: " + smallFaults + " per GiB");
        assertTrue(smallFaults >= 8 * hugeFaults, "4 KiB pages: " + smallFaults + " faults per GiB, 2 MiB folios: " + hugeFaults);
        assertTrue(perGiB(small, "read_calls_per_gib") < 64 && perGiB(huge, "read_calls_per_gib") < 64,
                "a mapped chapter makes no read call: " + small.get("read_calls_per_gib") + ", " + huge.get("read_calls_per_gib"));
    }

    /** Cold, every byte of the file comes from the device; warm, almost none does. */
    @Test
    void aColdChapterFetchesTheFileFromTheDeviceAndAWarmOneNothing() throws IOException {
        Path file = haystack(FILE_BYTES);
        assumeDeviceBytesCounted(file);
        Map<String, String> cold = summary(InProcess.run(new V03ChunkedLong(), file.toString(), "--runs", "2", "--warmup", "0", "--cold"));
        double fetched = perGiB(cold, "device_bytes_per_gib");
        assertTrue(fetched >= GIB * 0.95 && fetched <= GIB * 1.5, "cold: " + fetched + " bytes from the device per GiB");
        Map<String, String> warm = summary(InProcess.run(new V03ChunkedLong(), file.toString(), "--runs", "2", "--warmup", "1"));
        assertTrue(perGiB(warm, "device_bytes_per_gib") <= GIB * 0.05, "warm: " + warm.get("device_bytes_per_gib") + " bytes from the device per GiB");
    }

    /**
     * The JVM's own threads read files on their own schedule (its periodic task reads the JDK's
     * release file once): a run's bill leaves their reads out, and keeps every other thread's. The
     * JVM's threads are told by their names, so a thread named as a compiler thread stands in here.
     */
    @Test
    void readsOfTheJvmsOwnThreadsAreNotBilledToARun() throws Exception {
        Path file = Files.writeString(dir.resolve("small.txt"), "x");
        for (String name : List.of("C2 CompilerThread9", "a chapter's worker")) {
            var started = new java.util.concurrent.CountDownLatch(1);
            var go = new java.util.concurrent.CountDownLatch(1);
            var read = new java.util.concurrent.CountDownLatch(1);
            var end = new java.util.concurrent.CountDownLatch(1);
            Thread reader = Thread.ofPlatform().name(name).start(() -> { // alive from before the run to after it, as the JVM's are
                try {
                    started.countDown();
                    go.await();
                    for (int i = 0; i < 20; i++) {
                        Files.readAllBytes(file);
                    }
                    read.countDown();
                    end.await();
                } catch (IOException | InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            started.await(); // HotSpot gives the kernel's thread its name before run() begins: a sleep is no wait on a busy machine
            KernelCounters.Snapshot before = KernelCounters.beforeRun();
            go.countDown();
            read.await();
            long calls = KernelCounters.afterRun().since(before)[KernelBill.Item.READ_CALLS.ordinal()];
            end.countDown();
            reader.join();
            assumeTrue(calls != KernelCounters.UNKNOWN, () -> "read calls are not counted here: " + KernelCounters.missing());
            if (name.startsWith("C2")) {
                assertTrue(calls < 20, "the JVM's thread's 20 reads were billed: " + calls);
            } else {
                assertTrue(calls >= 20, "a worker's 20 reads were not billed: " + calls);
            }
        }
    }

    /** Skips, saying why, where reading an evicted file counts no bytes from a device (tmpfs, or no read_bytes here). */
    private static void assumeDeviceBytesCounted(Path file) throws IOException {
        PageCache.evict(file);
        KernelCounters.Snapshot before = KernelCounters.now();
        try (InputStream in = Files.newInputStream(file)) {
            in.transferTo(java.io.OutputStream.nullOutputStream());
        }
        long fetched = KernelCounters.now().since(before)[KernelBill.Item.DEVICE_BYTES.ordinal()];
        assumeTrue(fetched != KernelCounters.UNKNOWN, () -> "device bytes are not counted here: " + KernelCounters.missing());
        assumeTrue(fetched >= Files.size(file) / 2, () -> "reading " + file + " after evicting it fetched " + fetched
                + " bytes from a device: its file system has none behind it (tmpfs?) or keeps the file cached");
    }

    /** A counter the system lacks is an empty field, in the run's line, the summary and the CSV; never a zero. */
    @Test
    void aCounterNotKeptIsEmptyNeverZero() throws IOException {
        long unknown = KernelCounters.UNKNOWN;
        long[] run = {unknown, unknown, unknown, 10, 0, 5, 1, 2000, 300};
        KernelBill bill = KernelBill.ofRuns(List.of(run, run), 1L << 30);
        assertTrue(bill.summaryFields().startsWith("read_calls_per_gib= returned_bytes_per_gib= device_bytes_per_gib= minor_faults_per_gib=10 major_faults_per_gib=0 "),
                bill.summaryFields());
        assertTrue(KernelBill.runFields(run, 1L << 30).startsWith("read_calls_per_gib= returned_bytes_per_gib= device_bytes_per_gib= minor_faults_per_gib=10"));
        var result = new Measurement.Result("V03ChunkedLong", 1, "warm", 1 << 20, OptionalLong.empty(), 0, new double[0],
                new double[] {0.5}, java.util.Optional.empty(), java.util.OptionalDouble.empty(), java.util.Optional.empty(),
                java.util.Optional.of(bill));
        List<Object> row = ResultsCsv.row(result);
        assertEquals("", row.get(ResultsCsv.COLUMNS.indexOf("read_calls_per_gib")));
        assertEquals("10", row.get(ResultsCsv.COLUMNS.indexOf("minor_faults_per_gib")));
        assertEquals("0", row.get(ResultsCsv.COLUMNS.indexOf("major_faults_per_gib")), "a zero counted is a zero");
        assertEquals("", fields(result.summaryLine()).get("device_bytes_per_gib"));
    }

    /** The figures per GiB: a run's counts scaled by 2^30 ÷ the file's bytes, medians over the runs, small ones to one decimal. */
    @Test
    void figuresArePerGibMediansOfTheRuns() {
        long[] one = {64, 1 << 26, 0, 3, 0, 10, 2, 900, 100}, two = {64, 1 << 26, 0, 5, 1, 30, 4, 1100, 300}, three = {66, 1 << 26, 0, 4, 0, 20, 3, 1000, 200};
        KernelBill bill = KernelBill.ofRuns(List.of(one, two, three), 64L << 20);
        assertEquals(1024, bill.get(KernelBill.Item.READ_CALLS).orElseThrow());
        assertEquals(GIB, bill.get(KernelBill.Item.RETURNED_BYTES).orElseThrow());
        assertEquals(64, bill.get(KernelBill.Item.MINOR_FAULTS).orElseThrow());
        assertEquals(320, bill.get(KernelBill.Item.VOLUNTARY_SWITCHES).orElseThrow());
        assertEquals(16_000, bill.get(KernelBill.Item.USER_TIME).orElseThrow(), "1,000 µs for 64 MiB");
        assertEquals("0.3", KernelBill.figure(0.25 + 0.01), "one fault in a 4 GiB file is not zero");
        assertEquals("1024", KernelBill.figure(1024.4));
        assertEquals(KernelBill.keys(), ResultsCsv.COLUMNS.subList(ResultsCsv.COLUMNS.size() - KernelBill.keys().size(), ResultsCsv.COLUMNS.size()));
    }

    /** A run's CPU time, every thread's, is on its bill: a thread that computes for a tenth of a second is counted. */
    @Test
    void aThreadsCpuTimeIsCounted() throws InterruptedException {
        KernelCounters.Snapshot before = KernelCounters.now();
        long spentNanos = spinOnAnotherThread(100_000_000);
        long[] counts = KernelCounters.now().since(before);
        long user = counts[KernelBill.Item.USER_TIME.ordinal()], system = counts[KernelBill.Item.SYSTEM_TIME.ordinal()];
        assumeTrue(user != KernelCounters.UNKNOWN && system != KernelCounters.UNKNOWN, () -> "no CPU times here: " + KernelCounters.missing());
        // the process's time holds the thread's (which ended before the second snapshot) and more: the JVM's own threads ran too
        assertTrue(user + system >= spentNanos / 1000 * 9 / 10, () -> "user " + user + " µs + system " + system + " µs < the thread's " + spentNanos / 1000 + " µs");
    }

    /** Computes on a thread of its own until it has had {@code nanos} of CPU time; returns the CPU time it had. */
    private static long spinOnAnotherThread(long nanos) throws InterruptedException {
        long[] spent = new long[1];
        Thread spinner = Thread.ofPlatform().start(() -> {
            var threads = java.lang.management.ManagementFactory.getThreadMXBean();
            long sum = 0;
            while (threads.getCurrentThreadCpuTime() < nanos) {
                for (int i = 0; i < 100_000; i++) {
                    sum += i ^ sum;
                }
            }
            spent[0] = threads.getCurrentThreadCpuTime() + (sum == 42 ? 1 : 0);
        });
        spinner.join();
        return spent[0];
    }

    /** Reading the counters counts itself out: a snapshot, then nothing, then another, is a bill of no read call. */
    @Test
    void takingTheCountersAddsNoReadCallToTheBill() {
        assumeTrue(KernelCounters.missing().isEmpty(), () -> String.join("; ", KernelCounters.missing()));
        long[] idle = null;
        for (int attempt = 0; attempt < 5; attempt++) { // another thread of this JVM may read meanwhile: one quiet try is enough
            KernelCounters.Snapshot before = KernelCounters.now();
            idle = KernelCounters.now().since(before);
            if (idle[KernelBill.Item.READ_CALLS.ordinal()] == 0) {
                break;
            }
        }
        assertEquals(0, idle[KernelBill.Item.READ_CALLS.ordinal()], Arrays.toString(idle));
        assertEquals(0, idle[KernelBill.Item.RETURNED_BYTES.ordinal()], Arrays.toString(idle));
    }

    /**
     * --perf: where perf can count the CPU's instructions, a line of them per GiB and per byte;
     * where it cannot, one line saying why, and the runs as without it.
     */
    @Test
    void perfCountsWhereItCanAndSaysWhyNotWhereItCannot() throws Exception {
        Path file = haystack(4 << 20);
        Subprocess.Result result = InProcess.run(new V03ChunkedLong(), file.toString(), "--runs", "1", "--warmup", "0", "--perf");
        assertEquals(Harness.FOUND, result.exitCode(), result::toString);
        String why = lib.counters.PerfStat.whyNot();
        List<String> perfLines = result.stderr().lines().filter(line -> line.contains("perf")).toList();
        assertEquals(1, perfLines.size(), result::toString);
        if (why == null) {
            assertTrue(perfLines.getFirst().contains("instructions per byte"), perfLines::toString);
        } else {
            assertTrue(perfLines.getFirst().contains(why), perfLines::toString);
            assumeTrue(!why.startsWith("no perf"), why);
            var attached = lib.counters.PerfStat.start(); // perf is here, its counters are not: it attaches and says so per event
            String line = attached.stop(file.toFile().length());
            assertTrue(line.contains("instructions=<not"), line);
        }
    }

    /** Each run's line on stderr carries its bill; the summary line carries the medians under the documented names. */
    @Test
    void everyRunLineAndTheSummaryCarryTheBill() throws Exception {
        Path file = haystack(1 << 20);
        var out = new ByteArrayOutputStream();
        var err = new ByteArrayOutputStream();
        try (var outStream = new PrintStream(out, true, StandardCharsets.UTF_8); var errStream = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            new Measurement("Probe", file, outStream, errStream).runs(1, 2).time(() -> new ReferenceSearch().search(file, 1));
        }
        List<String> runLines = err.toString(StandardCharsets.UTF_8).lines().filter(line -> line.contains(": ")).toList();
        assertEquals(3, runLines.stream().filter(line -> line.contains(" read_calls_per_gib=")).count(), runLines::toString);
        String summary = out.toString(StandardCharsets.UTF_8).strip();
        for (String key : KernelBill.keys()) {
            assertTrue(summary.contains(" " + key + "="), summary);
        }
        assertFalse(summary.contains("=-"), "no negative count: " + summary);
    }
}
