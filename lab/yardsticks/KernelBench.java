///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
//DEPS org.openjdk.jmh:jmh-core:1.37
//DEPS org.openjdk.jmh:jmh-generator-annprocess:1.37
//SOURCES ../LabWithChapters.java
//COMPILE_OPTIONS --add-modules jdk.incubator.vector -proc:full
//RUNTIME_OPTIONS --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED
package lab.yardsticks; // JMH refuses benchmarks in the unnamed package

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import lib.chapter.EarlyCompile;
import lib.cli.Quote;
import lib.cli.Sizes;
import lib.cli.UserMistakeException;
import lib.haystack.Haystack;
import lib.linux.HugePageBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * The scan kernels alone, measured the JVM way: JMH, no file, no threads, no system calls.
 *
 * <p>The kernels are chapter 13's ({@code firstNonZeroWordScalar}, {@code firstNonZeroWord256},
 * {@code firstNonZeroWordWidest}), which every chapter that has one writes the same way
 * (ChapterSourcesTest). JMH wants its benchmarks in a package, and a class in a package cannot name
 * one in the unnamed package, so they are looked up by name, into {@code static final} method
 * handles: constants, which C2 inlines like a direct call.
 *
 * <p>Each kernel scans an off-heap segment of zeros with the needle in its last word, so it reads
 * every byte. 256 KiB fits in the L2 cache: that is the kernel's own speed. 1 GiB does not fit in
 * any cache: that is the kernel limited by memory, the figure the chapters live with. The last
 * lines convert JMH's time per scan into bytes per nanosecond (the same number as GB/s).
 *
 * <pre>
 * How to run:   ./jbang lab/yardsticks/KernelBench.java                      (about 1 minute)
 *               ./jbang lab/yardsticks/KernelBench.java -wi 5 -i 10 -f 3     (longer, steadier)
 *               ./jbang lab/yardsticks/KernelBench.java -p size=64m -p kernel=widest
 *               ./jbang lab/yardsticks/KernelBench.java -p size=1g -p pages=huge      (2 MiB pages)
 * </pre>
 *
 * Any JMH option works ({@code -h} lists them); those not given default to 1 fork, 2 warm-up and 3
 * measured iterations of 1 second each.
 *
 * <p>On a busy machine, time single calls: {@code -bm sample -p size=256k}. A 256 KiB scan takes a
 * few microseconds, so most calls run without being descheduled, and {@code bytes_per_ns_median}
 * (the median call) stays the kernel's own speed while the mean drifts with the machine's load.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1) // JMH's own defaults (5 forks of 5 iterations of 10 s) take minutes; its options on the command line win over these
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class KernelBench {

    @Param({"256k", "1g"})
    public String size;

    @Param({"word", "vector256", "widest"})
    public String kernel;

    /** "small": 4 KiB pages, as a file's mapping has; "huge": 2 MiB pages where the kernel gives them. */
    @Param({"small"})
    public String pages;

    private static final MethodHandle SCALAR = chapter13Kernel("firstNonZeroWordScalar");
    private static final MethodHandle VECTOR_256 = chapter13Kernel("firstNonZeroWord256");
    private static final MethodHandle WIDEST = chapter13Kernel("firstNonZeroWordWidest");

    private static MethodHandle chapter13Kernel(String name) {
        try {
            Class<?> chapter = Class.forName("V13PreadVector");
            return MethodHandles.privateLookupIn(chapter, MethodHandles.lookup())
                    .findStatic(chapter, name, MethodType.methodType(long.class, MemorySegment.class, long.class, long.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private Arena arena;
    private MemorySegment haystack;

    @Setup(Level.Trial)
    public void fillHaystack() throws IOException {
        long bytes = Sizes.parse(size);
        arena = Arena.ofShared();
        haystack = switch (pages) {
            case "small" -> arena.allocate(bytes, 4096); // zeroed
            case "huge" -> HugePageBuffer.allocate(bytes, arena).fill((byte) 0); // zero-filled: every page touched now
            default -> throw new IllegalArgumentException("no pages called " + pages + " (small or huge)");
        };
        haystack.set(ValueLayout.JAVA_LONG_UNALIGNED, Haystack.needleOffset(bytes), Haystack.NEEDLE);
    }

    @TearDown(Level.Trial)
    public void freeHaystack() {
        arena.close();
    }

    @Benchmark
    public long scan() throws Throwable {
        // A switch on a String per call costs nanoseconds; a 256 KiB scan costs thousands of them.
        return switch (kernel) {
            case "word" -> (long) SCALAR.invokeExact(haystack, 0L, haystack.byteSize());
            case "vector256" -> (long) VECTOR_256.invokeExact(haystack, 0L, haystack.byteSize());
            case "widest" -> (long) WIDEST.invokeExact(haystack, 0L, haystack.byteSize());
            default -> throw new IllegalArgumentException("no kernel called " + kernel);
        };
    }

    /** The benchmarks run when no name is given: JMH's own default is every benchmark on the class path. */
    static final String DEFAULT_INCLUDE = KernelBench.class.getSimpleName();

    /** The benchmarks this program holds, as JMH names them: its methods marked {@code @Benchmark}. */
    public static List<String> benchmarks() {
        return Arrays.stream(KernelBench.class.getDeclaredMethods()).filter(method -> method.isAnnotationPresent(Benchmark.class))
                .map(method -> KernelBench.class.getName() + "." + method.getName()).sorted().toList();
    }

    /**
     * JMH's options in {@code args}; a mistake in them, or a choice of benchmarks that names none of
     * {@link #benchmarks}, refused in one line before JMH starts: its own "No benchmarks to run" is a
     * stack trace. JMH runs a benchmark whose name an include pattern finds a match in, and no
     * exclude pattern does.
     */
    public static CommandLineOptions options(String[] args) {
        CommandLineOptions given;
        try {
            given = new CommandLineOptions(args);
        } catch (CommandLineOptionException e) {
            throw new UserMistakeException(e.getMessage() + " (--help lists the options)");
        }
        if (given.shouldHelp() || given.shouldList()) { // a list of what matches is an answer of its own, even an empty one
            return given;
        }
        List<String> includes = given.getIncludes().isEmpty() ? List.of(DEFAULT_INCLUDE) : given.getIncludes();
        List<Pattern> included, excluded;
        try {
            included = includes.stream().map(Pattern::compile).toList();
            excluded = given.getExcludes().stream().map(Pattern::compile).toList();
        } catch (PatternSyntaxException e) {
            throw new UserMistakeException(Quote.name(e.getPattern()) + " is not a regular expression of benchmark names: " + e.getDescription());
        }
        boolean anyChosen = benchmarks().stream().anyMatch(name -> included.stream().anyMatch(pattern -> pattern.matcher(name).find())
                && excluded.stream().noneMatch(pattern -> pattern.matcher(name).find()));
        if (!anyChosen) {
            throw new UserMistakeException("no benchmark is called " + quoted(includes)
                    + (given.getExcludes().isEmpty() ? "" : " but not " + quoted(given.getExcludes()))
                    + "; the benchmarks: " + String.join(", ", benchmarks()) + " (-l lists them)");
        }
        return given;
    }

    private static String quoted(List<String> patterns) {
        return String.join(" or ", patterns.stream().map(Quote::name).toList());
    }

    public static void main(String[] args) throws Exception {
        if (Arrays.asList(args).contains("--help")) { // JMH's own is -h
            System.out.println("Usage: ./jbang lab/yardsticks/KernelBench.java [JMH's options]");
            System.out.println("Times the scan kernels alone with JMH (one fork, 2 warm-up and 3 measured iterations of 1 s unless given), and the");
            System.out.println("widest kernel this CPU runs. JMH's options:");
            args = Arrays.stream(args).map(arg -> arg.equals("--help") ? "-h" : arg).toArray(String[]::new);
        }
        CommandLineOptions given;
        try {
            given = options(args);
        } catch (UserMistakeException e) {
            System.err.println("KernelBench: " + e.getMessage());
            System.exit(2);
            return;
        }
        if (given.shouldHelp() || given.shouldList()) {
            org.openjdk.jmh.Main.main(args);
            return;
        }
        ChainedOptionsBuilder options = new OptionsBuilder().parent(given);
        if (given.getIncludes().isEmpty()) {
            options.include(DEFAULT_INCLUDE);
        }
        Collection<RunResult> results = new Runner(options.build()).run();

        System.out.println();
        System.out.println("widest kernel on this CPU: " + EarlyCompile.widestDescription());
        for (RunResult result : results) {
            String size = result.getParams().getParam("size");
            String kernel = result.getParams().getParam("kernel");
            String pages = result.getParams().getParam("pages");
            double nanosPerScan = result.getPrimaryResult().getScore();
            // The median of what JMH recorded: iterations in the default mode, single calls with -bm sample.
            double medianNanosPerScan = result.getPrimaryResult().getStatistics().getPercentile(50);
            long bytes = Sizes.parse(size);
            System.out.printf(Locale.ROOT, "kernel=%s size=%s pages=%s bytes_per_ns=%.2f ns_per_scan=%.0f bytes_per_ns_median=%.2f%n",
                    kernel, size, pages, bytes / nanosPerScan, nanosPerScan, bytes / medianNanosPerScan);
        }
    }
}
