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
import lib.EarlyCompile;
import lib.Harness;
import lib.ParallelSearch;
import lib.PositionalReader;
import lib.VectorKernel;

/**
 * Chapter 13: parallel positional reads with the widest vectors this CPU has. The headline.
 *
 * <p>Chapter 11 with {@link VectorKernel#firstNonZeroWordWidest}: 512-bit vectors with AVX-512,
 * 256-bit without (it says which when it starts). By now the scan is close to free and most of the
 * time goes to the kernel copying page-cache pages into each worker's buffer. {@code WallPageCacheCopy}
 * measures that copy alone, as a reference: measured at another moment, it is not a ceiling, and
 * this chapter has run above it.
 *
 * <pre>
 * How to run:   ./jbang variants/V13PreadVector.java haystack.bin
 *
 * What you should see: each run's line on stderr, then on stdout one summary line per worker count:
 *   variant=V13PreadVector workers=2 offset=4294967288 runs=5 mean_s=… median_s=… mbps=… cache=warm bytes=4294967296 chunk_bytes=1048576 page_cache=as-is
 * Expect about chapter 11's figure.
 * Measured figures, each with its machine, are in README.md and results/.
 * </pre>
 */
public class V13PreadVector implements ChunkedSearch {

    public static void main(String[] args) {
        EarlyCompile.start(VectorKernel::firstNonZeroWordWidest); // while the options are read
        Harness.run(new V13PreadVector(), args);
    }

    @Override
    public String note() {
        return "scanning with " + VectorKernel.widestDescription();
    }

    @Override
    public long search(Path file, int workers, long chunkBytes) throws IOException {
        return ParallelSearch.firstNonZeroWord(Files.size(file), workers, chunkBytes,
                () -> new PositionalReader(file, chunkBytes, VectorKernel::firstNonZeroWordWidest));
    }
}
