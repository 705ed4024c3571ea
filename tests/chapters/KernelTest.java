import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import lib.chapter.NeedleSearch;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The chapters' scan kernels against a plain byte loop, on heap segments (a {@code byte[]}, only
 * 1-byte aligned) and native ones (off-heap, as the chapters use: a confined arena where one thread
 * scans, a shared one where several do), over random {@code [from, to)} ranges. Every chapter's own
 * copy of each kernel is tested: a chapter holds its whole search, its kernels included.
 */
class KernelTest {

    static final long SEED = Long.getLong("needle.seed", 20261129L);
    static final int SEGMENT_BYTES = 8 * 1024 + 5;
    static final int RANGES_PER_KERNEL = 3_000;

    enum Memory { HEAP, NATIVE, SHARED_NATIVE }

    /** A kernel's contract: the offset of the first non-zero word in {@code [from, to)}, or -1. */
    @FunctionalInterface
    interface Kernel {
        long firstNonZeroWord(MemorySegment segment, long from, long to);
    }

    /** The widest vectors C2 uses on this CPU, in bits. */
    static final int WIDEST_BITS = jdk.incubator.vector.LongVector.SPECIES_PREFERRED.vectorBitSize();

    /** A kernel with the name its tests show, and whether it needs AVX-512 to run as real SIMD. */
    record KernelUnderTest(String name, Kernel kernel, boolean needs512BitVectors) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Arguments> kernelsAndMemory() {
        return kernels().stream().flatMap(kernel -> Stream.of(Memory.values()).map(memory -> Arguments.of(kernel, memory)));
    }

    /** Every chapter's copy of every kernel it has. */
    static List<KernelUnderTest> kernels() {
        List<KernelUnderTest> kernels = new ArrayList<>();
        scalar(kernels, "V03ChunkedLong", V03ChunkedLong::firstNonZeroWordScalar);
        scalar(kernels, "V04Mmap", V04Mmap::firstNonZeroWordScalar);
        scalar(kernels, "V05MmapMadvise", V05MmapMadvise::firstNonZeroWordScalar);
        scalar(kernels, "V06MmapParallel", V06MmapParallel::firstNonZeroWordScalar);
        scalar(kernels, "V07PreadParallel", V07PreadParallel::firstNonZeroWordScalar);
        scalar(kernels, "V08Vector256", V08Vector256::firstNonZeroWordScalar);
        scalar(kernels, "V09MmapParallelVector", V09MmapParallelVector::firstNonZeroWordScalar);
        scalar(kernels, "V10MmapPopulate", V10MmapPopulate::firstNonZeroWordScalar);
        scalar(kernels, "V11PreadParallelVector256", V11PreadParallelVector256::firstNonZeroWordScalar);
        scalar(kernels, "V12Vector512", V12Vector512::firstNonZeroWordScalar);
        scalar(kernels, "V13PreadVector", V13PreadVector::firstNonZeroWordScalar);
        scalar(kernels, "V16MmapHugePages", V16MmapHugePages::firstNonZeroWordScalar);
        kernels.add(new KernelUnderTest("V08Vector256 256-bit", V08Vector256::firstNonZeroWord256, false));
        kernels.add(new KernelUnderTest("V09MmapParallelVector 256-bit", V09MmapParallelVector::firstNonZeroWord256, false));
        kernels.add(new KernelUnderTest("V10MmapPopulate 256-bit", V10MmapPopulate::firstNonZeroWord256, false));
        kernels.add(new KernelUnderTest("V11PreadParallelVector256 256-bit", V11PreadParallelVector256::firstNonZeroWord256, false));
        kernels.add(new KernelUnderTest("V13PreadVector 256-bit", V13PreadVector::firstNonZeroWord256, false));
        kernels.add(new KernelUnderTest("V16MmapHugePages 256-bit", V16MmapHugePages::firstNonZeroWord256, false));
        kernels.add(new KernelUnderTest("V12Vector512 512-bit", V12Vector512::firstNonZeroWord512, true));
        kernels.add(new KernelUnderTest("V13PreadVector 512-bit", V13PreadVector::firstNonZeroWord512, true));
        kernels.add(new KernelUnderTest("V16MmapHugePages 512-bit", V16MmapHugePages::firstNonZeroWord512, true));
        String widest = " widest (" + WIDEST_BITS + "-bit on this CPU)";
        kernels.add(new KernelUnderTest("V13PreadVector" + widest, V13PreadVector::firstNonZeroWordWidest, false));
        kernels.add(new KernelUnderTest("V16MmapHugePages" + widest, V16MmapHugePages::firstNonZeroWordWidest, false));
        return kernels;
    }

    private static void scalar(List<KernelUnderTest> kernels, String chapter, Kernel kernel) {
        kernels.add(new KernelUnderTest(chapter + " scalar", kernel, false));
    }

    /** Where a test's native memory comes from: the arena kind decides which checks the JIT must keep. */
    static Arena arenaFor(Memory memory) {
        return memory == Memory.SHARED_NATIVE ? Arena.ofShared() : Arena.ofConfined();
    }

    static MemorySegment zeros(Memory memory, int bytes, Arena arena) {
        return memory == Memory.HEAP ? MemorySegment.ofArray(new byte[bytes]) : arena.allocate(bytes, 64);
    }

    /** What every kernel must answer: the word holding the first non-zero byte in range, or -1. */
    static long plainLoop(MemorySegment segment, long from, long to) {
        for (long i = from; i < to; i++) {
            if (segment.get(JAVA_BYTE, i) != 0) {
                return NeedleSearch.wordContaining(i);
            }
        }
        return NeedleSearch.NOT_FOUND;
    }

    @ParameterizedTest(name = "{0} on {1} memory, random ranges")
    @MethodSource("kernelsAndMemory")
    void agreesWithAPlainLoop(KernelUnderTest kernel, Memory memory) {
        assumeKernelRunsHere(kernel);
        Random random = new Random(SEED);
        List<String> mismatches = new ArrayList<>();
        try (Arena arena = arenaFor(memory)) {
            MemorySegment segment = zeros(memory, SEGMENT_BYTES, arena);
            for (int round = 0; round < RANGES_PER_KERNEL; round++) {
                segment.fill((byte) 0);
                int size = 1 + random.nextInt(SEGMENT_BYTES);
                long from = Long.BYTES * (long) random.nextInt(size / Long.BYTES + 1);
                long to = from + random.nextLong(size - from + 1);
                // 0 to 3 non-zero bytes anywhere in the segment: inside the range, before or after it.
                for (int needles = random.nextInt(4); needles > 0; needles--) {
                    segment.set(JAVA_BYTE, random.nextInt(SEGMENT_BYTES), (byte) (1 + random.nextInt(255)));
                }
                // Often one just inside or just outside an end of the range, where kernels slip.
                long[] nearEdges = {from - 1, from, to - 1, to};
                long edge = nearEdges[random.nextInt(nearEdges.length)];
                if (random.nextBoolean() && edge >= 0 && edge < SEGMENT_BYTES) {
                    segment.set(JAVA_BYTE, edge, (byte) (1 + random.nextInt(255)));
                }
                long expected = plainLoop(segment, from, to);
                long answer = kernel.kernel().firstNonZeroWord(segment, from, to);
                if (answer != expected) {
                    mismatches.add("[" + from + ", " + to + "): answered " + answer + ", expected " + expected);
                }
            }
        }
        if (!mismatches.isEmpty()) {
            fail(mismatches.size() + " of " + RANGES_PER_KERNEL + " ranges disagree (seed " + SEED + "); the first ones:\n  "
                    + String.join("\n  ", mismatches.subList(0, Math.min(10, mismatches.size()))));
        }
    }

    @ParameterizedTest(name = "{0} on {1} memory, one byte at every offset")
    @MethodSource("kernelsAndMemory")
    void findsASingleByteAtEveryOffset(KernelUnderTest kernel, Memory memory) {
        assumeKernelRunsHere(kernel);
        int size = 1024 + 7; // several 256-byte blocks, then single words, then a 7-byte tail
        try (Arena arena = arenaFor(memory)) {
            MemorySegment segment = zeros(memory, size, arena);
            for (int at = 0; at < size; at++) {
                segment.fill((byte) 0);
                segment.set(JAVA_BYTE, at, (byte) 0x80); // the sign bit alone: a word that is negative, not zero
                assertEquals(NeedleSearch.wordContaining(at), kernel.kernel().firstNonZeroWord(segment, 0, size), "byte at " + at);
            }
            segment.fill((byte) 0);
            assertEquals(NeedleSearch.NOT_FOUND, kernel.kernel().firstNonZeroWord(segment, 0, size), "all zeros");
        }
    }

    /** The 512-bit kernel only runs as real SIMD with AVX-512; elsewhere it is skipped, not passed. */
    static void assumeKernelRunsHere(KernelUnderTest kernel) {
        if (kernel.needs512BitVectors()) {
            Assumptions.assumeTrue(WIDEST_BITS >= 512, "512-bit vectors needed; this CPU offers " + WIDEST_BITS + "-bit");
        }
    }
}
