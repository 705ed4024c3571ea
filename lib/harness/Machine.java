package lib.harness;

import lib.cli.Sizes;
import lib.cli.UserMistakeException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What a figure was measured on: written beside it in every results row, and as {@code machine.json}
 * in the machine's own results folder, {@code results/NAME/}.
 *
 * <p>The name is short, readable and stable across reboots and JDKs: the CPU model, its family and
 * model numbers, the processors the JVM sees and the widest vectors the CPU has, e.g.
 * {@code amd-epyc-f26m2-2c-avx512}. Two hosts that differ in any of these get different folders.
 *
 * <p>This file needs nothing but the JDK and lib/harness/AvailableMemory: {@code java lib/harness/Machine.java}
 * prints this machine's name (from the project's root), and the notebooks, which JShell runs and
 * which cannot load a file with a package line, have JBang build it onto their class path
 * ({@code //DEPS ../lib/harness/Machine.java}) to name machines by this one rule (lab/results/StudyResults.java).
 *
 * @param cpuFamily      the "cpu family" of /proc/cpuinfo, or null where there is none
 * @param cpuModelNumber its "model" (a number, unlike "model name"), or null
 * @param vectorBits     the widest SIMD registers the CPU has: 512 with AVX-512, 256 with AVX2, else 128
 */
public record Machine(String cpuModel, Integer cpuFamily, Integer cpuModelNumber, int logicalCores, long memoryBytes,
                      String kernel, String jdk, int vectorBits, boolean avx2, boolean avx512) {

    static final Path CPUINFO = Path.of("/proc/cpuinfo"), MEMINFO = Path.of("/proc/meminfo");
    static final Path THP = Path.of("/sys/kernel/mm/transparent_hugepage");

    /** Prints the current machine's name, the folder its results go to under {@code results/}. */
    public static void main(String[] args) {
        System.exit(execute(args, System.out, System.err));
    }

    /** The command line as a method, for tests: this machine's name, or the usage; returns the exit status. */
    static int execute(String[] args, java.io.PrintStream out, java.io.PrintStream err) {
        if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
            out.println("Usage: java lib/harness/Machine.java");
            out.println("Prints this machine's name, the folder of its results (results/NAME/): CPU model, family and model, cores, vector width.");
            return 0;
        }
        if (args.length > 0) {
            err.println("Machine: takes no arguments (--help says more)");
            return 2;
        }
        out.println(current().name());
        return 0;
    }

    public static Machine current() {
        return fromCpuinfo(CPUINFO);
    }

    /** This JVM's machine, with the CPU that {@code cpuinfo} (a /proc/cpuinfo) describes. */
    public static Machine fromCpuinfo(Path cpuinfo) {
        Map<String, String> cpu = firstProcessor(cpuinfo);
        Set<String> flags = Set.copyOf(List.of(cpu.getOrDefault("flags", "").split("\\s+")));
        boolean avx512 = flags.contains("avx512f"), avx2 = flags.contains("avx2");
        return new Machine(cpu.getOrDefault("model name", System.getProperty("os.arch")),
                integer(cpu.get("cpu family")), integer(cpu.get("model")),
                Runtime.getRuntime().availableProcessors(), AvailableMemory.meminfoBytes(MEMINFO, "MemTotal"),
                System.getProperty("os.name") + " " + System.getProperty("os.version"),
                System.getProperty("java.vm.vendor") + " " + Runtime.version(),
                avx512 ? 512 : avx2 ? 256 : 128, avx2, avx512);
    }

    /** The folder name: CPU model slug, family and model, cores, vector width. */
    public String name() {
        List<String> parts = new ArrayList<>();
        parts.add(slug(cpuModel));
        if (cpuFamily != null && cpuModelNumber != null) {
            parts.add("f" + cpuFamily + "m" + cpuModelNumber);
        }
        parts.add(logicalCores + "c");
        parts.add(vectorName(vectorBits));
        return parts.stream().filter(part -> !part.isEmpty()).collect(Collectors.joining("-"));
    }

    /** "avx512", "avx2", or "v128" for a CPU with neither. */
    static String vectorName(int vectorBits) {
        return vectorBits >= 512 ? "avx512" : vectorBits >= 256 ? "avx2" : "v" + vectorBits;
    }

    /**
     * "Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz" becomes "intel-xeon-platinum-8375c", "AMD EPYC
     * 7B13 64-Core Processor" "amd-epyc-7b13": the words that name the part, without trademarks, clock,
     * core count or filler, in lower case, at most 40 characters, never empty.
     */
    public static String slug(String cpuModel) {
        String text = cpuModel == null ? "" : cpuModel.toLowerCase(Locale.ROOT)
                .replaceAll("\\((r|tm|c)\\)", " ")
                .replaceAll("@.*$", " ")                       // the clock
                .replaceAll("\\bw/.*$", " ")                     // "w/ Radeon 780M Graphics"
                .replaceAll("\\b\\d+-core\\b", " ")
                .replaceAll("\\b(cpu|processor|with|radeon graphics|graphics)\\b", " ");
        String slug = text.replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
        if (slug.length() > 40) {
            slug = slug.substring(0, 40).replaceAll("-[^-]*$", "");
        }
        return slug.isEmpty() ? "cpu" : slug;
    }

    /**
     * Everything machine.json records: this machine, the file system and read-ahead under
     * {@code haystack}, the transparent-huge-page settings, the date and whether the study was a trial.
     */
    public Map<String, Object> description(Path haystack, Instant date, boolean trial) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("name", name());
        fields.put("cpu_model", cpuModel);
        fields.put("cpu_family", cpuFamily);
        fields.put("cpu_model_number", cpuModelNumber);
        fields.put("logical_cores", logicalCores);
        fields.put("memory_bytes", memoryBytes);
        fields.put("kernel", kernel);
        fields.put("jdk", jdk);
        fields.put("vector_bits", vectorBits);
        fields.put("avx2", avx2);
        fields.put("avx512", avx512);
        fields.put("filesystem", fileSystem(haystack).orElse(null));
        fields.put("read_ahead_kb", readAheadKb(haystack).orElse(null));
        fields.put("thp_enabled", thpSetting("enabled").orElse(null));
        fields.put("thp_defrag", thpSetting("defrag").orElse(null));
        fields.put("thp_shmem", thpSetting("shmem_enabled").orElse(null));
        fields.put("date", date.truncatedTo(ChronoUnit.SECONDS).toString());
        fields.put("trial", trial);
        return fields;
    }

    /**
     * {@code fields} as a JSON object, one field a line: strings, numbers, booleans and nulls only.
     * Written by hand rather than with the project's JSON library (Jackson) because this file must
     * compile and run with nothing but a JDK (see the class comment).
     */
    public static String json(Map<String, ?> fields) {
        return fields.entrySet().stream()
                .map(field -> "  " + jsonValue(field.getKey()) + ": " + jsonValue(field.getValue()))
                .collect(Collectors.joining(",\n", "{\n", "\n}\n"));
    }

    private static String jsonValue(Object value) {
        if (value == null || value instanceof Number || value instanceof Boolean) {
            return String.valueOf(value);
        }
        StringBuilder quoted = new StringBuilder("\"");
        for (char c : value.toString().toCharArray()) {
            switch (c) {
                case '"' -> quoted.append("\\\"");
                case '\\' -> quoted.append("\\\\");
                default -> quoted.append(c < 0x20 ? String.format(Locale.ROOT, "\\u%04x", (int) c) : String.valueOf(c));
            }
        }
        return quoted.append('"').toString();
    }

    /** The type of the file system {@code file} lives on (ext4, xfs, tmpfs, ...). */
    static Optional<String> fileSystem(Path file) {
        try {
            return Optional.of(Files.getFileStore(existing(file)).type());
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * The read-ahead of the block device {@code file} lives on, from sysfs; empty where there is none
     * (tmpfs, overlay, a network file system) or it cannot be told.
     */
    static Optional<Long> readAheadKb(Path file) {
        try {
            long dev = ((Number) Files.getAttribute(existing(file), "unix:dev")).longValue();
            long major = ((dev >>> 8) & 0xfff) | ((dev >>> 32) & ~0xfffL);
            long minor = (dev & 0xff) | ((dev >>> 12) & ~0xffL);
            Path device = Path.of("/sys/dev/block/" + major + ":" + minor).toRealPath();
            for (Path dir = device; dir != null && dir.startsWith("/sys/devices"); dir = dir.getParent()) {
                Path readAhead = dir.resolve("queue/read_ahead_kb"); // a partition's is its disk's
                if (Files.isReadable(readAhead)) {
                    return Optional.of(Long.parseLong(Files.readString(readAhead).strip()));
                }
            }
            return Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** A haystack not created yet lives where its directory is. */
    private static Path existing(Path file) {
        Path path = file.toAbsolutePath();
        while (path != null && !Files.exists(path)) {
            path = path.getParent();
        }
        return path == null ? Path.of("/") : path;
    }

    /** The selected value of a transparent-huge-page setting: "always [madvise] never" gives "madvise". */
    static Optional<String> thpSetting(String name) {
        try {
            String text = Files.readString(THP.resolve(name)).strip();
            int open = text.indexOf('['), close = text.indexOf(']');
            return Optional.of(open >= 0 && close > open ? text.substring(open + 1, close) : text);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Bytes this process can still take: see {@link AvailableMemory} (MemAvailable, and any memory cgroup's limit); -1 if unknown. */
    public static long availableMemoryBytes() {
        return AvailableMemory.now().bytes();
    }

    /** The "key : value" lines of the first processor in /proc/cpuinfo; empty if unreadable. */
    private static Map<String, String> firstProcessor(Path cpuinfo) {
        Map<String, String> fields = new LinkedHashMap<>();
        try (Stream<String> lines = Files.lines(cpuinfo)) {
            for (String line : (Iterable<String>) lines.takeWhile(line -> !line.isBlank())::iterator) {
                int colon = line.indexOf(':');
                if (colon > 0) {
                    fields.putIfAbsent(line.substring(0, colon).strip(), line.substring(colon + 1).strip());
                }
            }
        } catch (IOException | RuntimeException e) {
            // no /proc: the machine is described by what the JVM knows
        }
        return fields;
    }

    private static Integer integer(String text) {
        try {
            return text == null ? null : Integer.valueOf(text.strip());
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
