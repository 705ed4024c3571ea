///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
//SOURCES ../lib/*.java
//COMPILE_OPTIONS --add-modules jdk.incubator.vector
//RUNTIME_OPTIONS --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -XX:+DisplayVMOutputToStderr -XX:ErrorFile=/tmp/hs_err_pid%p.log

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import lib.Harness;
import lib.MapsTheFile;
import lib.Native;
import lib.NeedleSearch;
import lib.ParallelSearch;
import lib.PmdMapping;
import lib.VectorKernel;

/**
 * Chapter 10: MAP_POPULATE, fault every page in up front.
 *
 * <p>If page faults are the tax, ask mmap to take them all at once: {@code MAP_POPULATE} fills the
 * page tables inside the mmap call. {@code FileChannel.map} has no way to pass that flag, so
 * {@link Native#mapFile} calls {@code mmap(2)} itself and wraps the address as a
 * {@link MemorySegment} whose arena runs {@code munmap} on close. The catch: the kernel populates
 * on the calling thread alone, before any worker starts.
 *
 * <pre>
 * How to run:   ./jbang variants/V10MmapPopulate.java haystack.bin --workers 1,2
 *
 * What you should see: each run's line on stderr, then on stdout one summary line per worker count:
 *   variant=V10MmapPopulate workers=1 offset=4294967288 runs=5 mean_s=… median_s=… mbps=… cache=warm bytes=4294967296 page_cache=as-is pmd_mapped_pct=…
 *   variant=V10MmapPopulate workers=2 offset=4294967288 runs=5 mean_s=… median_s=… mbps=… cache=warm bytes=4294967296 page_cache=as-is pmd_mapped_pct=…
 * Expect a figure that depends on the page cache: one thread fills the page tables before the workers start.
 * Measured figures, each with its machine, are in README.md and results/.
 * </pre>
 */
public class V10MmapPopulate implements NeedleSearch, MapsTheFile {

    public static void main(String[] args) {
        Harness.run(new V10MmapPopulate(), args);
    }

    @Override
    public long search(Path file, int workers) throws IOException {
        try (Arena arena = Arena.ofShared()) {
            MemorySegment mapped = Native.mapFile(file, Files.size(file), Native.MAP_POPULATE, arena);
            long hit = ParallelSearch.firstNonZeroWord(mapped, workers, VectorKernel::firstNonZeroWord256);
            PmdMapping.recordAfterScan(mapped); // how the kernel mapped it (untimed: see PmdMapping)
            return hit;
        }
    }
}
