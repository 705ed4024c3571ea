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
import lib.PmdMapping;
import lib.SingleThreaded;
import lib.VectorKernel;

/**
 * Chapter 8: SIMD, one thread, 256-bit vectors over the mapping.
 *
 * <p>Where the Go article dropped into assembly, Java has the Vector API, still an incubator module
 * ({@code --add-modules jdk.incubator.vector}, and a warning at start-up). {@link VectorKernel}
 * tests 128 bytes per step: four AVX2-sized loads, ORed, one "any lane non-zero?" question.
 * The CPU side of the scan becomes nearly free; whether that matters depends on memory.
 *
 * <p>Like the article's own v8, it first advises the mapping as chapter 5 does (sequential, will
 * need), so the two run one plan; v8 takes the same 128-byte step in assembly.
 * {@code tools/VersusGo.java} runs the two side by side on one machine, and docs/jit.md shows the
 * loop C2 compiled ({@code tools/print-kernel-assembly} prints it on yours).
 *
 * <pre>
 * How to run:   ./jbang variants/V08Vector256.java haystack.bin
 *
 * What you should see: each run's line on stderr, then on stdout one summary line per worker count:
 *   variant=V08Vector256 workers=1 offset=4294967288 runs=5 mean_s=… median_s=… mbps=… cache=warm bytes=4294967296 page_cache=as-is pmd_mapped_pct=…
 * Expect about chapter 4's figure: a faster loop over the same mapping.
 * Measured figures, each with its machine, are in README.md and results/.
 * </pre>
 */
public class V08Vector256 implements NeedleSearch, SingleThreaded, MapsTheFile {

    public static void main(String[] args) {
        Harness.run(new V08Vector256(), args);
    }

    @Override
    public long search(Path file, int workers) throws IOException {
        try (FileChannel channel = FileChannel.open(file); Arena arena = Arena.ofConfined()) {
            MemorySegment mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size(), arena);
            if (mapped.byteSize() > 0) { // the article's v8 and v9 advise as chapter 5 does
                Native.madvise(mapped, Native.MADV_SEQUENTIAL);
                Native.madvise(mapped, Native.MADV_WILLNEED);
            }
            long hit = VectorKernel.firstNonZeroWord256(mapped, 0, mapped.byteSize());
            PmdMapping.recordAfterScan(mapped); // how the kernel mapped it (untimed: see PmdMapping)
            return hit;
        }
    }
}
