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
import lib.Native;
import lib.NeedleSearch;
import lib.ParallelSearch;
import lib.PmdMapping;
import lib.VectorKernel;

/**
 * Chapter 9: chapter 6's parallel mapping with chapter 8's 256-bit kernel.
 *
 * <p>If one thread gained from SIMD, several should gain more. They do not, much: once the workers
 * together wait on page faults and memory, a faster inner loop only waits sooner.
 *
 * <pre>
 * How to run:   ./jbang variants/V09MmapParallelVector.java haystack.bin --workers 1,2
 *
 * What you should see (AMD EPYC, 2 cores, Linux 6.18.44, Temurin 25.0.3+9-LTS, 2026-11-29), last lines of stdout:
 *   variant=V09MmapParallelVector workers=1 offset=4294967288 runs=5 mean_s=0.2540 median_s=0.2532 mbps=16907 cache=warm bytes=4294967296
 *   variant=V09MmapParallelVector workers=2 offset=4294967288 runs=5 mean_s=0.1818 median_s=0.1813 mbps=23622 cache=warm bytes=4294967296
 * </pre>
 */
public class V09MmapParallelVector implements NeedleSearch {

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
            return hit;
        }
    }
}
