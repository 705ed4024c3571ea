///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
//SOURCES ../lib/*.java
//COMPILE_OPTIONS --add-modules jdk.incubator.vector
//RUNTIME_OPTIONS --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import lib.ChunkedSearch;
import lib.Harness;
import lib.ParallelSearch;
import lib.PositionalReader;
import lib.WordKernel;

/**
 * Chapter 7: back to reading, but in parallel, with positional reads.
 *
 * <p>Each worker opens its own {@code FileChannel}, owns one reused 1 MiB off-heap buffer (another
 * size with {@code --chunk}) and reads its shard with {@code read(buffer, position)}, which is
 * {@code pread(2)}: see {@link PositionalReader}. Reading copies every byte once more than mmap
 * does, but the copy is a tight kernel loop into a buffer that stays in cache, and there is not a
 * single page fault.
 *
 * <pre>
 * How to run:   ./jbang variants/V07PreadParallel.java haystack.bin --workers 1,2
 *
 * What you should see: each run's line on stderr, then on stdout one summary line per worker count:
 *   variant=V07PreadParallel workers=1 offset=4294967288 runs=5 mean_s=… median_s=… mbps=… cache=warm bytes=4294967296 chunk_bytes=1048576 page_cache=as-is
 *   variant=V07PreadParallel workers=2 offset=4294967288 runs=5 mean_s=… median_s=… mbps=… cache=warm bytes=4294967296 chunk_bytes=1048576 page_cache=as-is
 * Expect a gain with each worker up to the core count, then a plateau.
 * Measured figures, each with its machine, are in README.md and results/.
 * </pre>
 */
public class V07PreadParallel implements ChunkedSearch {

    public static void main(String[] args) {
        Harness.run(new V07PreadParallel(), args);
    }

    @Override
    public long search(Path file, int workers, long chunkBytes) throws IOException {
        return ParallelSearch.firstNonZeroWord(Files.size(file), workers, chunkBytes,
                () -> new PositionalReader(file, chunkBytes, WordKernel::firstNonZeroWord));
    }
}
