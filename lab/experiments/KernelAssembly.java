///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
//SOURCES ../LabWithChapters.java
//COMPILE_OPTIONS --add-modules jdk.incubator.vector
//RUNTIME_OPTIONS --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.Callable;
import lib.cli.SizeConverter;
import lib.haystack.Haystack;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Calls one scan kernel on an in-cache buffer until C2 has compiled it, so that the JIT's own
 * listing of the kernel can be read ({@code lab/experiments/print-kernel-assembly} adds the flags that print it).
 * The kernels are chapter 13's, {@code V13PreadVector.firstNonZeroWordScalar}, {@code …256} and
 * {@code …512}: every chapter with one of them writes it the same way (ChapterSourcesTest).
 *
 * <p>The buffer is zeros with the needle in its last word, like the haystack, so every call runs the
 * whole loop. The arena is the one the chapters use: confined for a chapter with one thread, shared
 * where several threads scan one mapping.
 *
 * <pre>
 * How to run:   lab/experiments/print-kernel-assembly                     (the 256-bit kernel, confined arena)
 *               lab/experiments/print-kernel-assembly --kernel 512 --arena shared
 * </pre>
 */
@Command(name = "KernelAssembly", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        description = "Runs a scan kernel until C2 compiles it (for -XX:+PrintAssembly).")
public class KernelAssembly implements Callable<Integer> {

    enum KernelChoice { word, v256, v512 }

    enum ArenaChoice { confined, shared }

    @Option(names = "--kernel", paramLabel = "KERNEL", description = "word, 256 or 512 (default: ${DEFAULT-VALUE})",
            converter = KernelConverter.class, defaultValue = "256")
    KernelChoice kernel;

    @Option(names = "--arena", paramLabel = "ARENA", description = "confined or shared (default: ${DEFAULT-VALUE})",
            defaultValue = "confined")
    ArenaChoice arena;

    @Option(names = "--size", paramLabel = "SIZE", description = "buffer size (default: ${DEFAULT-VALUE})",
            converter = SizeConverter.class, defaultValue = "256k")
    long bufferBytes;

    @Option(names = "--calls", paramLabel = "N", description = "kernel calls (default: ${DEFAULT-VALUE})", defaultValue = "20000")
    int calls;

    /** A kernel's contract: the offset of the first non-zero word in {@code [from, to)}, or -1. */
    @FunctionalInterface
    interface Kernel {
        long firstNonZeroWord(MemorySegment segment, long from, long to);
    }

    static final class KernelConverter implements CommandLine.ITypeConverter<KernelChoice> {
        @Override
        public KernelChoice convert(String text) {
            return switch (text) {
                case "word" -> KernelChoice.word;
                case "256" -> KernelChoice.v256;
                case "512" -> KernelChoice.v512;
                default -> throw new CommandLine.TypeConversionException("'" + text + "' is not a kernel (word, 256 or 512)");
            };
        }
    }

    public static void main(String[] args) {
        lab.tools.ToolCommand.run("KernelAssembly", new KernelAssembly(), args);
    }

    @Override
    public Integer call() {
        if (kernel == KernelChoice.v512 && V13PreadVector.WIDEST_BITS < 512) {
            System.err.println("KernelAssembly: this CPU offers " + V13PreadVector.WIDEST_BITS + "-bit vectors, not 512");
            return 2;
        }
        if (bufferBytes < Long.BYTES || calls < 1) {
            System.err.println("KernelAssembly: the buffer needs at least 8 bytes and the kernel at least one call");
            return 2;
        }
        Kernel scan = switch (kernel) {
            case word -> V13PreadVector::firstNonZeroWordScalar;
            case v256 -> V13PreadVector::firstNonZeroWord256;
            case v512 -> V13PreadVector::firstNonZeroWord512;
        };
        try (Arena memory = arena == ArenaChoice.confined ? Arena.ofConfined() : Arena.ofShared()) {
            MemorySegment buffer = memory.allocate(bufferBytes, 4096); // zeroed
            long needle = Haystack.needleOffset(bufferBytes);
            buffer.set(ValueLayout.JAVA_LONG_UNALIGNED, needle, Haystack.NEEDLE);
            for (int call = 0; call < calls; call++) {
                long hit = scan.firstNonZeroWord(buffer, 0, bufferBytes);
                if (hit != needle) {
                    System.err.println("KernelAssembly: the kernel answered " + hit + ", not " + needle);
                    return 2;
                }
            }
        }
        System.err.println("KernelAssembly: " + calls + " calls of the " + kernel + " kernel on " + bufferBytes
                + " bytes in a " + arena + " arena");
        return 0;
    }
}
