package lib;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** What a figure was measured on, written beside it in every results row. */
public record Machine(String cpuModel, int logicalCores, long memoryBytes, String kernel, String jdk, int vectorBits) {

    public static Machine current() {
        return new Machine(readCpuModel(), Runtime.getRuntime().availableProcessors(), readMemoryBytes(),
                System.getProperty("os.name") + " " + System.getProperty("os.version"),
                System.getProperty("java.vm.vendor") + " " + Runtime.version(),
                VectorKernel.WIDEST_BITS);
    }

    private static String readCpuModel() {
        return procLine(Path.of("/proc/cpuinfo"), "model name")
                .map(line -> line.substring(line.indexOf(':') + 1).trim())
                .orElse(System.getProperty("os.arch"));
    }

    private static long readMemoryBytes() {
        return procLine(Path.of("/proc/meminfo"), "MemTotal:")
                .map(line -> Long.parseLong(line.replaceAll("\\D", "")) * 1024)
                .orElse(-1L);
    }

    /** Bytes the kernel says it could hand out now without swapping, or -1 if unknown. */
    public static long availableMemoryBytes() {
        return procLine(Path.of("/proc/meminfo"), "MemAvailable:")
                .map(line -> Long.parseLong(line.replaceAll("\\D", "")) * 1024)
                .orElse(-1L);
    }

    private static java.util.Optional<String> procLine(Path file, String prefix) {
        try (Stream<String> lines = Files.lines(file)) {
            return lines.filter(line -> line.startsWith(prefix)).findFirst();
        } catch (IOException | RuntimeException e) {
            return java.util.Optional.empty();
        }
    }
}
