///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
//SOURCES ../lib/*.java
//COMPILE_OPTIONS --add-modules jdk.incubator.vector
// The vector kernels compile after 1% of the JIT's usual calls and loops, so a first run waits less for C2 (colons: JBang quotes commas).
//RUNTIME_OPTIONS --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -XX:CompileCommand=quiet -XX:CompileCommand=CompileThresholdScaling:lib.VectorKernel::firstNonZeroWord512:0.01 -XX:CompileCommand=CompileThresholdScaling:lib.VectorKernel::firstNonZeroWord256:0.01

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import lib.ChunkedSearch;
import lib.Harness;
import lib.ParallelSearch;
import lib.PositionalReader;
import lib.VectorKernel;

/**
 * Chapter 11: chapter 7's parallel positional reads with the 256-bit kernel.
 *
 * <p>The article's fastest way in with the fastest scan so far (which of reading and mapping wins
 * depends on the machine and on how its page cache holds the file: see README). Each worker's 1 MiB buffer (another size with {@code --chunk}) was just written by the
 * kernel's copy and is still in cache, so the vector scan reads it almost for free.
 *
 * <pre>
 * How to run:   ./jbang variants/V11PreadParallelVector256.java haystack.bin --workers 1,2
 *
 * What you should see: each run's line on stderr, then on stdout one summary line per worker count:
 *   variant=V11PreadParallelVector256 workers=1 offset=4294967288 runs=5 mean_s=… median_s=… mbps=… cache=warm bytes=4294967296 chunk_bytes=1048576 page_cache=as-is
 *   variant=V11PreadParallelVector256 workers=2 offset=4294967288 runs=5 mean_s=… median_s=… mbps=… cache=warm bytes=4294967296 chunk_bytes=1048576 page_cache=as-is
 * Expect a little more than chapter 7: the scan is nearly free.
 * Measured figures, each with its machine, are in README.md and results/.
 * </pre>
 */
public class V11PreadParallelVector256 implements ChunkedSearch {

    public static void main(String[] args) {
        Harness.run(new V11PreadParallelVector256(), args);
    }

    @Override
    public long search(Path file, int workers, long chunkBytes) throws IOException {
        return ParallelSearch.firstNonZeroWord(Files.size(file), workers, chunkBytes,
                () -> new PositionalReader(file, chunkBytes, VectorKernel::firstNonZeroWord256));
    }
}
