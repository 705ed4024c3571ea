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
import lib.Native;
import lib.NeedleSearch;
import lib.ParallelRelease;
import lib.ParallelSearch;
import lib.PmdMapping;
import lib.VectorKernel;

/**
 * Chapter 9: chapter 6's parallel mapping with chapter 8's 256-bit kernel.
 *
 * <p>If one thread gained from SIMD, several should gain more. They do not, much: once the workers
 * together wait on page faults and memory, a faster inner loop only waits sooner. It advises the
 * mapping as chapter 8 does, as the article's v9 does.
 *
 * <p>One step the article's v9 leaves to a single thread: unmapping. Clearing the page-table
 * entries of 4 GiB costs one core a tenth of the search, so the workers clear their own shards
 * first, in parallel ({@link ParallelRelease}), and the arena's munmap finds nothing left to do.
 *
 * <pre>
 * How to run:   ./jbang variants/V09MmapParallelVector.java haystack.bin --workers 1,2
 *
 * What you should see: each run's line on stderr, then on stdout one summary line per worker count:
 *   variant=V09MmapParallelVector workers=1 offset=4294967288 runs=5 mean_s=… median_s=… mbps=… cache=warm bytes=4294967296 page_cache=as-is pmd_mapped_pct=…
 *   variant=V09MmapParallelVector workers=2 offset=4294967288 runs=5 mean_s=… median_s=… mbps=… cache=warm bytes=4294967296 page_cache=as-is pmd_mapped_pct=…
 * Expect about chapter 6's figure: the workers wait on memory, not on the loop.
 * Measured figures, each with its machine, are in README.md and results/.
 * </pre>
 */
public class V09MmapParallelVector implements NeedleSearch, MapsTheFile {

    public static void main(String[] args) {
        Harness.run(new V09MmapParallelVector(), args);
    }

    @Override
    public long search(Path file, int workers) throws IOException {
        try (FileChannel channel = FileChannel.open(file); Arena arena = Arena.ofShared()) {
            MemorySegment mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size(), arena);
            if (mapped.byteSize() > 0) { // the article's v8 and v9 advise as chapter 5 does
                Native.madvise(mapped, Native.MADV_SEQUENTIAL);
                Native.madvise(mapped, Native.MADV_WILLNEED);
            }
            long hit = ParallelSearch.firstNonZeroWord(mapped, workers, VectorKernel::firstNonZeroWord256);
            PmdMapping.recordAfterScan(mapped); // how the kernel mapped it (untimed: see PmdMapping)
            ParallelRelease.pageTables(mapped, workers);
            return hit;
        }
    }
}
