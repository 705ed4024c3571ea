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
 * <p>Against the article's own v8 (assembly, the same 128-byte step, plus chapter 5's madvise),
 * counted on the same haystack: as many page faults per search on both sides, and the same CPU time
 * within the noise (user and system alike). madvise changed neither count. Where this chapter
 * trails Go in a sitting of {@code tools/VersusGo.java}, it trails by less than its rounds differ.
 *
 * <pre>
 * How to run:   ./jbang variants/V08Vector256.java haystack.bin
 *
 * What you should see, last line of stdout (the figures depend on the machine; README and results/ hold measured ones):
 *   variant=V08Vector256 workers=1 offset=4294967288 runs=5 mean_s=… median_s=… mbps=… cache=warm bytes=4294967296 page_cache=as-is pmd_mapped_pct=…
 * About chapter 4's figure, or a little better: the scan is cheaper, the page faults are the same.
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
