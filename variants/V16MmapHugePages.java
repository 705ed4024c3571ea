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
import lib.HugeFolios;
import lib.MapsTheFile;
import lib.Native;
import lib.NeedleSearch;
import lib.ParallelSearch;
import lib.PmdMapping;
import lib.VectorKernel;

/**
 * Chapter 16: the page cache in 2 MiB folios, mapped 2 MiB at a time.
 *
 * <p>A mapped scan needs a TLB entry per page: a million for 4 GiB in 4 KiB pages, two thousand in
 * 2 MiB ones. {@code MADV_HUGEPAGE} makes this mapping's page-cache misses read 2 MiB folios, each
 * mapped by one PMD entry; each worker faults its own shard in with {@code MADV_POPULATE_READ},
 * in parallel, then scans it with the widest vectors. A file already cached in small folios stays
 * small (the recorded {@code pmd_mapped_pct} says so): {@code --page-cache huge} refills it first.
 *
 * <pre>
 * How to run:   ./jbang variants/V16MmapHugePages.java haystack.bin --page-cache huge
 *
 * What you should see: each run's line on stderr, then on stdout one summary line per worker count:
 *   variant=V16MmapHugePages workers=2 offset=4294967288 runs=5 mean_s=… median_s=… mbps=… cache=warm bytes=4294967296 page_cache=huge pmd_mapped_pct=…
 * Expect the fastest mapped chapter with --page-cache huge, and a crawl on a cache in small folios.
 * Measured figures, each with its machine, are in README.md and results/.
 * </pre>
 */
public class V16MmapHugePages implements NeedleSearch, MapsTheFile {

    public static void main(String[] args) {
        Harness.run(new V16MmapHugePages(), args);
    }

    @Override
    public long search(Path file, int workers) throws IOException {
        HugeFolios.requireSupport(file); // one line where this kernel or file system cannot
        try (Arena arena = Arena.ofShared()) {
            MemorySegment mapped = Native.mapFile(file, Files.size(file), 0, arena);
            HugeFolios.advise(mapped);
            long hit = ParallelSearch.firstNonZeroWord(mapped.byteSize(), workers, ParallelSearch.CHECK_EVERY_BYTES, shard -> {
                HugeFolios.populate(mapped.asSlice(shard.start(), shard.length()));
                return (from, to) -> VectorKernel.firstNonZeroWordWidest(mapped, from, to);
            });
            PmdMapping.recordAfterScan(mapped);
            return hit;
        }
    }
}
