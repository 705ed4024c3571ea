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
import lib.PmdMapping;
import lib.SingleThreaded;
import lib.UserMistakeException;
import lib.VectorKernel;

/**
 * Chapter 12: one thread, 512-bit vectors (AVX-512).
 *
 * <p>Chapter 8 again at twice the width: 256 bytes per step. The Vector API only promises real
 * SIMD for the widths the CPU has; on a CPU without AVX-512 a 512-bit species would be emulated,
 * far slower than scalar code, and timing that would teach the wrong lesson. So this chapter
 * refuses to run there rather than quietly measuring something else.
 *
 * <pre>
 * How to run:   ./jbang variants/V12Vector512.java haystack.bin
 *
 * What you should see: each run's line on stderr, then on stdout one summary line per worker count:
 *   variant=V12Vector512 workers=1 offset=4294967288 runs=5 mean_s=… median_s=… mbps=… cache=warm bytes=4294967296 page_cache=as-is pmd_mapped_pct=…
 * Expect about chapter 8's figure, sometimes less: wider is not faster out of cache.
 * Measured figures, each with its machine, are in README.md and results/.
 * </pre>
 */
public class V12Vector512 implements NeedleSearch, SingleThreaded, MapsTheFile {

    public static void main(String[] args) {
        Harness.run(new V12Vector512(), args);
    }

    @Override
    public long search(Path file, int workers) throws IOException {
        if (!VectorKernel.has512BitVectors()) {
            throw new UserMistakeException("this CPU (or JVM) offers " + VectorKernel.WIDEST_BITS
                    + "-bit vectors, not 512: chapter 12 needs AVX-512 (chapter 8 is its 256-bit twin)");
        }
        try (FileChannel channel = FileChannel.open(file); Arena arena = Arena.ofConfined()) {
            MemorySegment mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size(), arena);
            long hit = VectorKernel.firstNonZeroWord512(mapped, 0, mapped.byteSize());
            PmdMapping.recordAfterScan(mapped); // how the kernel mapped it (untimed: see PmdMapping)
            return hit;
        }
    }
}
