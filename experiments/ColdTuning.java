///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
//SOURCES ../lib/**/*.java
//SOURCES ../variants/V14DirectIo.java
//SOURCES ../variants/V15IoUring.java
//SOURCES ../study/ToolCommand.java
//COMPILE_OPTIONS --add-modules jdk.incubator.vector
//RUNTIME_OPTIONS --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import lib.ChunkedSearch;
import lib.Haystack;
import lib.Machine;
import lib.Measurement;
import lib.PageCache;
import lib.ProjectVersion;
import lib.ResultsCsv;
import lib.RunOptions;
import lib.SizeConverter;
import lib.Sizes;
import lib.Stats;
import lib.ToolCommand;
import lib.UserMistakeException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The sweep behind the cold chapters' defaults: chapter 14 (O_DIRECT, one read at a time per
 * worker) at each block size, and chapter 15's reader (io_uring, O_DIRECT) at each block size and
 * queue depth, every one of them cold (the file evicted first), interleaved over rounds, in one JVM.
 * Each setting's median goes to stdout, the runs to {@code tuning.csv} ({@code chapter} names the
 * setting, {@code chunk_bytes} the block size), for a reader to set against fio's figures
 * (yardsticks/FioBeside.java) on the same file.
 *
 * <pre>
 * How to run:   ./jbang experiments/ColdTuning.java haystack.bin --chunks 256k,1m,4m --depths 4,16,64 --rounds 3
 * </pre>
 */
@Command(name = "ColdTuning", mixinStandardHelpOptions = true, versionProvider = ProjectVersion.class,
        sortOptions = false, usageHelpAutoWidth = true,
        description = "Times chapter 14 by block size and chapter 15's reader by block size and queue depth, cold, interleaved, into results/MACHINE/tuning.csv.",
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

    /** Chapter 14 at each block size, then chapter 15's reader at each block size and depth. */
    static List<Setting> settings(List<Long> chunks, List<Integer> depths) {
        List<Setting> settings = new ArrayList<>();
        for (long chunk : chunks) {
            settings.add(new Setting("V14DirectIo", chunk, new V14DirectIo()));
        }
        for (long chunk : chunks) {
            for (int depth : depths) {
                settings.add(new Setting("V15IoUring qd" + depth, chunk, new V15IoUring(depth)));
            }
        }
        return settings;
    }

    @Override
    public Integer call() throws IOException {
        if (rounds < 1 || (workers != null && workers < 1) || depths.stream().anyMatch(depth -> depth < 1 || depth > 4096)) {
            throw new UserMistakeException("--rounds and --workers must be at least 1, --depths between 1 and 4096");
        }
        for (long chunk : chunks) {
            if (chunk < 4096 || chunk % 4096 != 0 || chunk > ChunkedSearch.MAX_CHUNK_BYTES) {
                throw new UserMistakeException("--chunks must be multiples of 4 KiB (O_DIRECT's block), at most 1 GiB, not " + chunk);
            }
        }
        Path csv = results.resolve(Machine.current().name()).resolve(CSV_NAME);
        Files.createDirectories(csv.toAbsolutePath().getParent());
        ResultsCsv.checkWritable(csv);
        Path file = haystack.findOrCreateFile(System.err);
        long bytes = Files.size(file);
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
            System.out.println(String.format(Locale.ROOT, "%-18s %8s  median %,6.0f MB/s over %d rounds", setting.name(),
                    Sizes.human(setting.chunkBytes()), Stats.megabytesPerSecond(bytes, Stats.median(seconds.get(setting))), rounds));
        }
        ResultsCsv.append(csv, rows);
        System.err.println("tuning: rows appended to " + csv);
        return 0;
    }
}
