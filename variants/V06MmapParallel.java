///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
//SOURCES ../lib/*.java
//COMPILE_OPTIONS --add-modules jdk.incubator.vector
//RUNTIME_OPTIONS --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -XX:+DisplayVMOutputToStderr -XX:ErrorFile=/tmp/hs_err_pid%p.log

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import lib.Harness;
import lib.MapsTheFile;
import lib.NeedleSearch;
import lib.ParallelSearch;
import lib.PmdMapping;
import lib.WordKernel;

/**
 * Chapter 6: one mapping, one shard per worker.
 *
 * <p>A single core cannot pull bytes as fast as the memory system can deliver them; several cores
 * issue more cache-line requests at once and take their page faults side by side.
 * {@link ParallelSearch} cuts the file into contiguous shards and keeps the LOWEST hit, not the
 * first to arrive. The mapping lives in a shared arena so every worker thread may read it;
 * closing a shared arena makes the JVM check that no thread is still using the memory.
 *
 * <pre>
 * How to run:   ./jbang variants/V06MmapParallel.java haystack.bin --workers 1,2
 *
 * What you should see: each run's line on stderr, then on stdout one summary line per worker count:
 *   variant=V06MmapParallel workers=1 offset=4294967288 runs=5 mean_s=… median_s=… mbps=… cache=warm bytes=4294967296 page_cache=as-is pmd_mapped_pct=…
 *   variant=V06MmapParallel workers=2 offset=4294967288 runs=5 mean_s=… median_s=… mbps=… cache=warm bytes=4294967296 page_cache=as-is pmd_mapped_pct=…
 * Expect more than chapter 4 with two workers and little more past the core count.
 * Measured figures, each with its machine, are in README.md and results/.
 * </pre>
 */
public class V06MmapParallel implements NeedleSearch, MapsTheFile {

    public static void main(String[] args) {
        Harness.run(new V06MmapParallel(), args);
    }

    @Override
    public long search(Path file, int workers) throws IOException {
        try (FileChannel channel = FileChannel.open(file); Arena arena = Arena.ofShared()) {
            MemorySegment mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size(), arena);
            long hit = ParallelSearch.firstNonZeroWord(mapped, workers, WordKernel::firstNonZeroWord);
            PmdMapping.recordAfterScan(mapped); // how the kernel mapped it (untimed: see PmdMapping)
            return hit;
        }
    }
}
