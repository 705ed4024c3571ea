///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
//SOURCES ../LabWithChapters.java
//COMPILE_OPTIONS --add-modules jdk.incubator.vector
//RUNTIME_OPTIONS --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED

import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import lib.counters.Stats;

/**
 * Why every chapter keeps its own copy of a kernel it shares with an earlier one: one kernel, two
 * profiles. The JIT compiles a method from what its calls have shown it so far. Chapter 4's copy of
 * the scalar kernel is first fed a heap array and a native buffer, as one kernel shared by every
 * chapter would be in one JVM (the chapters' notebook runs them all in one); chapter 5's copy, word
 * for word the same, only ever sees the mapping, as chapter 5 calls it. Then both scan the same
 * mapped file, taking turns, and their median scans are compared.
 *
 * <pre>
 * How to run:   ./jbang lab/experiments/KernelProfiles.java haystack.bin     (its first GiB is scanned)
 *
 * What you should see: one line, the two copies' MB/s and how many times slower the one that saw
 * three kinds of segment scans, such as
 *   one kernel, two profiles: saw three kinds of segment 900 MB/s, saw the mapping alone 4,600 MB/s: 5.1 times slower
 * </pre>
 */
public class KernelProfiles {

    private static final int WARMUP_SCANS = 20, TIMED_SCANS = 15;
    private static final long MOST_MAPPED_BYTES = 1L << 30;

    public static void main(String[] args) throws IOException {
        System.exit(execute(args, System.out, System.err));
    }

    /** The command line as a method, for tests: returns the exit status. */
    static int execute(String[] args, PrintStream out, PrintStream err) throws IOException {
        if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
            out.println("Usage: ./jbang lab/experiments/KernelProfiles.java FILE");
            out.println("Scans FILE's first GiB, mapped, with chapter 4's copy of the scalar kernel (first fed a heap array and a native buffer)");
            out.println("and chapter 5's (fed the mapping alone), taking turns, and prints both copies' MB/s: one kernel, two profiles.");
            return 0;
        }
        if (args.length != 1 || !Files.isRegularFile(Path.of(args[0]))) {
            err.println("usage: KernelProfiles FILE (an existing file, such as a haystack a chapter made; --help says more)");
            return 2;
        }
        try (Arena arena = Arena.ofShared(); FileChannel channel = FileChannel.open(Path.of(args[0]))) {
            MemorySegment mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, Math.min(channel.size(), MOST_MAPPED_BYTES), arena);
            MemorySegment nativeBuffer = arena.allocate(64 << 20, Long.BYTES);
            MemorySegment heapArray = MemorySegment.ofArray(new long[8 << 20]);
            for (int scan = 0; scan < WARMUP_SCANS; scan++) {
                V04Mmap.firstNonZeroWordScalar(heapArray, 0, heapArray.byteSize());
                V04Mmap.firstNonZeroWordScalar(nativeBuffer, 0, nativeBuffer.byteSize());
                V04Mmap.firstNonZeroWordScalar(mapped, 0, mapped.byteSize());
                V05MmapMadvise.firstNonZeroWordScalar(mapped, 0, mapped.byteSize());
            }
            double[] sawThree = new double[TIMED_SCANS], sawOne = new double[TIMED_SCANS];
            for (int scan = 0; scan < TIMED_SCANS; scan++) {
                long start = System.nanoTime();
                V04Mmap.firstNonZeroWordScalar(mapped, 0, mapped.byteSize());
                long between = System.nanoTime();
                V05MmapMadvise.firstNonZeroWordScalar(mapped, 0, mapped.byteSize());
                sawThree[scan] = (between - start) / 1e9;
                sawOne[scan] = (System.nanoTime() - between) / 1e9;
            }
            double three = Stats.median(sawThree), one = Stats.median(sawOne);
            out.printf(Locale.ROOT, "one kernel, two profiles: saw three kinds of segment %,.0f MB/s, saw the mapping alone %,.0f MB/s: %.1f times slower%n",
                    mapped.byteSize() / three / 1e6, mapped.byteSize() / one / 1e6, three / one);
        }
        return 0;
    }
}
