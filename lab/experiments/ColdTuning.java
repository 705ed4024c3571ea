///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
//SOURCES ../LabWithChapters.java
//COMPILE_OPTIONS --add-modules jdk.incubator.vector
//RUNTIME_OPTIONS --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import lab.results.*;
import lib.chapter.ChunkedSearch;
import lib.chapter.Shard;
import lib.cli.SizeConverter;
import lib.cli.Sizes;
import lab.tools.HeldLines;
import lab.tools.ResultsOutput;
import lab.tools.ToolCommand;
import lib.cli.UserMistakeException;
import lib.harness.Measurement;
import lib.harness.PageCache;
import lib.harness.ProjectVersion;
import lib.harness.ResultsCsv;
import lib.harness.RunOptions;
import lib.counters.Stats;
import lib.haystack.Haystack;
import lib.linux.HugePageBuffer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The sweep behind the cold chapters' defaults: chapter 14 (O_DIRECT, one read at a time per
 * worker, made by the worker itself) at each block size, the same reads queued ahead on a thread
 * of each worker's own ({@link WithReadAhead}), and chapter 15's reader (io_uring, O_DIRECT) at
 * each block size and queue depth, every one of them cold (the file evicted first), interleaved over rounds, in one JVM.
 * Each setting's median goes to stdout, the runs to {@code tuning.csv} ({@code chapter} names the
 * setting, {@code chunk_bytes} the block size), for a reader to set against fio's figures
 * (lab/yardsticks/FioBeside.java) on the same file.
 *
 * <pre>
 * How to run:   ./jbang lab/experiments/ColdTuning.java haystack.bin --chunks 256k,1m,4m --depths 4,16,64 --rounds 3
 * </pre>
 */
@Command(name = "ColdTuning", mixinStandardHelpOptions = true, versionProvider = ProjectVersion.class,
        sortOptions = false, usageHelpAutoWidth = true,
        description = "Times chapter 14 by block size, without and with a read-ahead thread, and chapter 15's reader by block size and queue depth, cold, interleaved, into results/MACHINE/tuning.csv.",
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:every setting ran", "2:an error (one line on stderr)"})
public class ColdTuning implements Callable<Integer> {

    static final String CSV_NAME = "tuning.csv";

    @Mixin
    RunOptions.HaystackFile haystack;

    @Option(names = "--chunks", paramLabel = "SIZE[,SIZE...]", split = ",", hideParamSyntax = true, converter = SizeConverter.class,
            defaultValue = "256k,1m,4m", description = "Block sizes (default: ${DEFAULT-VALUE}).")
    List<Long> chunks;

    @Option(names = "--depths", paramLabel = "N[,N...]", split = ",", hideParamSyntax = true, defaultValue = "4,16,64",
            description = "Chapter 15's reads in flight per worker (default: ${DEFAULT-VALUE}).")
    List<Integer> depths;

    @Option(names = "--rounds", paramLabel = "N", defaultValue = "3", description = "Rounds of every setting (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--workers", paramLabel = "N", description = "Workers (default: the number of processors).")
    Integer workers;

    @Option(names = "--results", paramLabel = "DIR", defaultValue = "results",
            description = "The results root (default: ${DEFAULT-VALUE}): rows go to DIR/MACHINE/" + CSV_NAME + ".")
    Path results;

    /** One setting: a name for the chapter column, its block size, and the search it times. */
    record Setting(String name, long chunkBytes, ChunkedSearch search) {}

    public static void main(String[] args) {
        ToolCommand.run("ColdTuning", new ColdTuning(), args);
    }

    /** The command line as a method, for tests: returns the exit status. */
    static int execute(String[] args, java.io.PrintStream out, java.io.PrintStream err) {
        return ToolCommand.execute("ColdTuning", new ColdTuning(), args, out, err);
    }

    /** Chapter 14 at each block size, then with a read-ahead thread, then chapter 15's reader at each block size and depth. */
    static List<Setting> settings(List<Long> chunks, List<Integer> depths) {
        List<Setting> settings = new ArrayList<>();
        for (long chunk : chunks) {
            settings.add(new Setting("V14DirectIo", chunk, new V14DirectIo()));
        }
        for (long chunk : chunks) {
            settings.add(new Setting(WithReadAhead.NAME, chunk, new WithReadAhead()));
        }
        for (long chunk : chunks) {
            for (int depth : depths) {
                settings.add(new Setting("V15IoUring qd" + depth, chunk, new AtDepth(depth)));
            }
        }
        return settings;
    }

    /**
     * Chapter 14 with a read-ahead thread per worker, as it was written for a while: the thread
     * keeps {@link #READS_AHEAD} chunks' O_DIRECT reads queued, chunk {@code i} into buffer
     * {@code i % BUFFERS}, so that the disk is not idle while the worker scans. The blocks, the
     * scan and the 2 MiB-page buffers are chapter 14's own methods, the shards the same cuts
     * ({@link Shard#split}); only the worker's loop differs. Which is faster depends on the machine
     * (docs/cold.md): the thread overlaps the scan with the next read, and costs two thread
     * wake-ups a read.
     */
    static final class WithReadAhead implements ChunkedSearch {

        static final String NAME = "V14DirectIo with read-ahead";
        /** Reads queued beyond the chunk being scanned: with one, the thread waits after each read for the worker. */
        static final int READS_AHEAD = 3;
        /** The chunk being scanned, and one for each read queued. */
        static final int BUFFERS = READS_AHEAD + 1;

        @Override
        public long search(Path file, int workers, long chunkBytes) throws IOException {
            long blockBytes = V14DirectIo.blockBytes(file);
            return searchShards(file, workers, (shard, lowestHit, failed) ->
                    scanShard(file, shard.start(), shard.end(), chunkBytes, blockBytes, lowestHit, failed));
        }

        /** A worker whose reads run on a thread of its own, {@link #READS_AHEAD} ahead of the chunk it scans. */
        static void scanShard(Path file, long shardStart, long shardEnd, long chunkBytes, long blockBytes,
                              AtomicLong lowestHit, AtomicBoolean failed) throws IOException {
            long bufferBytes = Math.ceilDiv(chunkBytes + 2 * blockBytes, HugePageBuffer.HUGE_PAGE_BYTES) * HugePageBuffer.HUGE_PAGE_BYTES;
            ArrayDeque<Future<?>> reads = new ArrayDeque<>(); // queued or in flight, in file order
            try (FileChannel channel = V14DirectIo.openDirect(file);
                 Arena arena = Arena.ofShared(); // the read thread writes into the buffers too
                 ExecutorService readThread = Executors.newSingleThreadExecutor(Thread.ofPlatform().daemon().name("read-ahead").factory())) {
                MemorySegment buffers = HugePageBuffer.allocate(BUFFERS * bufferBytes, arena);
                long readsQueued = 0, nextRead = shardStart;
                try {
                    for (long from = shardStart, chunk = 0; from < shardEnd && from < lowestHit.get(); from += chunkBytes, chunk++) {
                        if (failed.get()) {
                            return;
                        }
                        while (reads.size() < BUFFERS && nextRead < shardEnd) {
                            long readFrom = nextRead, readTo = Math.min(nextRead + chunkBytes, shardEnd);
                            MemorySegment buffer = buffers.asSlice(readsQueued++ % BUFFERS * bufferBytes, bufferBytes);
                            reads.add(readThread.submit(() -> {
                                V14DirectIo.readBlocks(channel, buffer, readFrom, readTo, blockBytes);
                                return null;
                            }));
                            nextRead = readTo;
                        }
                        V14DirectIo.await(reads.poll());
                        long to = Math.min(from + chunkBytes, shardEnd);
                        long hit = V14DirectIo.scan(buffers.asSlice(chunk % BUFFERS * bufferBytes, bufferBytes), from, to, blockBytes);
                        if (hit >= 0) {
                            lowestHit.accumulateAndGet(hit, Math::min);
                            return;
                        }
                    }
                } finally {
                    reads.forEach(read -> read.cancel(false)); // a worker that stops early needs none of the reads not yet begun
                }
            } // the read thread closes first and lets the read in flight land: the disk is writing into a buffer
        }
    }

    /**
     * Chapter 15's reader at another queue depth: the chapter's own worker, which takes the depth as
     * it takes the chunk size, on the same shards. The chapter itself keeps its
     * {@code IN_FLIGHT_BYTES} in flight, whatever the chunk size: this sweep's depths at two chunk sizes chose it.
     */
    record AtDepth(int queueDepth) implements ChunkedSearch {

        @Override
        public long search(Path file, int workers, long chunkBytes) throws IOException {
            long blockBytes = V15IoUring.blockBytes(file);
            return searchShards(file, workers, (shard, lowestHit, failed) ->
                    V15IoUring.scanShard(file, shard.start(), shard.end(), chunkBytes, blockBytes, queueDepth, lowestHit, failed));
        }
    }

    /** One worker's loop over its shard: it lowers {@code lowestHit} when it finds the needle, and stops once {@code failed} is set. */
    @FunctionalInterface
    interface ShardScan {
        void scan(Shard shard, AtomicLong lowestHit, AtomicBoolean failed) throws IOException;
    }

    /**
     * Runs {@code worker} over each shard on a platform thread of its own, as chapters 14 and 15
     * do, and returns the lowest hit: the last shard may end first.
     */
    static long searchShards(Path file, int workers, ShardScan worker) throws IOException {
        AtomicLong lowestHit = new AtomicLong(Long.MAX_VALUE);
        AtomicBoolean failed = new AtomicBoolean();
        List<Future<?>> results = new ArrayList<>();
        try (ExecutorService threads = Executors.newThreadPerTaskExecutor(Thread.ofPlatform().name("worker-", 0).factory())) {
            for (Shard shard : Shard.split(Files.size(file), workers)) { // the chapters' shards, cut by lib's helper
                results.add(threads.submit(() -> {
                    try {
                        worker.scan(shard, lowestHit, failed);
                    } catch (IOException | RuntimeException | Error e) {
                        failed.set(true); // tells the other workers to stop early
                        throw e;
                    }
                    return null;
                }));
            }
        } // closing the executor waits for every worker
        for (Future<?> result : results) {
            V14DirectIo.await(result);
        }
        long hit = lowestHit.get();
        return hit == Long.MAX_VALUE ? ChunkedSearch.NOT_FOUND : hit;
    }

    @Override
    public Integer call() throws IOException {
        haystack.check();
        if (chunks.isEmpty() || depths.isEmpty()) { // "--chunks ," is an empty list to picocli: a sweep of nothing, or without chapter 15
            throw new UserMistakeException(chunks.isEmpty() ? "--chunks needs at least one size, such as 1m or 256k,1m"
                    : "--depths needs at least one queue depth, such as 16 or 4,16,64");
        }
        if (rounds < 1 || (workers != null && workers < 1) || depths.stream().anyMatch(depth -> depth < 1 || depth > 4096)) {
            throw new UserMistakeException("--rounds and --workers must be at least 1, --depths between 1 and 4096");
        }
        for (long chunk : chunks) {
            if (chunk < 4096 || chunk % 4096 != 0 || chunk > ChunkedSearch.MAX_CHUNK_BYTES) {
                throw new UserMistakeException("--chunks must be multiples of 4 KiB (O_DIRECT's block), at most 1 GiB, not " + chunk);
            }
        }
        HeldLines whereRowsGo = new HeldLines();
        Path csv = CommittedMachines.ownFolder(results, "cold-tuning", whereRowsGo.stream()).resolve(CSV_NAME);
        ResultsOutput.check(csv, haystack.file());
        Path file = haystack.findOrCreateFile(System.err);
        long bytes = Files.size(file);
        Haystack.requireNotEmpty(file, "cold-tuning");
        ResultsOutput.create(csv, file);
        whereRowsGo.sayTo(System.err);
        long expected = Haystack.needleOffset(bytes);
        int workerCount = workers != null ? workers : Runtime.getRuntime().availableProcessors();
        List<Setting> settings = settings(chunks, depths);
        Map<Setting, double[]> seconds = new LinkedHashMap<>();
        settings.forEach(setting -> seconds.put(setting, new double[rounds]));
        for (Setting setting : settings) { // once untimed: the JIT compiles the kernels and readers
            setting.search().search(file, workerCount, setting.chunkBytes());
        }
        for (int round = 0; round < rounds; round++) {
            for (Setting setting : settings) {
                PageCache.evict(file);
                long start = System.nanoTime();
                long found = setting.search().search(file, workerCount, setting.chunkBytes());
                seconds.get(setting)[round] = (System.nanoTime() - start) / 1e9;
                if (found != expected) {
                    throw new IOException(setting.name() + " found " + found + ", not the needle at " + expected + "; no figure recorded");
                }
            }
        }
        List<List<?>> rows = new ArrayList<>();
        for (Setting setting : settings) {
            Measurement.Result result = new Measurement.Result(setting.name(), workerCount, "cold", bytes,
                    OptionalLong.of(setting.chunkBytes()), expected, new double[0], seconds.get(setting));
            rows.add(ResultsCsv.row(result));
            System.out.println(String.format(Locale.ROOT, "%-28s %8s  median %,6.0f MB/s over %d rounds", setting.name(),
                    Sizes.human(setting.chunkBytes()), Stats.megabytesPerSecond(bytes, Stats.median(seconds.get(setting))), rounds));
        }
        ResultsCsv.append(csv, rows);
        System.err.println("tuning: rows appended to " + csv);
        return 0;
    }
}
