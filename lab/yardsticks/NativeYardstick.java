import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.SequencedMap;
import java.util.function.Consumer;
import lib.cli.UserMistakeException;
import lib.counters.KernelBill;
import lib.counters.KernelCounters;
import lib.counters.PmdMapping;
import lib.harness.AvailableMemory;
import lib.harness.Measurement;
import lib.harness.PageCache;
import lib.harness.ResultsCsv;
import lib.haystack.Haystack;
import lib.haystack.ReferenceSearch;
import lab.tools.ChildProcess;

/**
 * The walls round's native yardstick: {@code lab/yardsticks/native-yardstick.c}, the same search in plain C,
 * built here with {@code cc} and run in four modes, each at the walls' worker counts, into
 * {@code native.csv} (the results schema, with the compiler in the {@code jdk} column). Where
 * there is no C compiler the study says so in one line and goes on without it.
 *
 * <ul>
 *   <li>{@code NativeMemoryRead}: a copy of the haystack in RAM on 4 KiB pages;
 *   <li>{@code NativeMemoryReadHuge}: the same on 2 MiB pages;
 *   <li>{@code NativeMmap}: the cached file mapped, a shard per worker;
 *   <li>{@code NativePread}: the cached file read with pread, 1 MiB at a time, a shard per worker.
 * </ul>
 */
final class NativeYardstick {

    static final Path SOURCE = Path.of("lab/yardsticks/native-yardstick.c");
    /** Its table: {@code native.csv} in the machine's folder. */
    static final String TABLE = "native";
    /** The chapter column of each mode's rows, by the mode the C program takes. */
    static final SequencedMap<String, String> MODES = new LinkedHashMap<>();

    static {
        MODES.put("NativeMemoryRead", "ram");
        MODES.put("NativeMemoryReadHuge", "ramhuge");
        MODES.put("NativeMmap", "mmap");
        MODES.put("NativePread", "pread");
    }

    /** The longest the compiler may take to build the program: it is one short C file. */
    private static final java.time.Duration BUILD_TIME = java.time.Duration.ofMinutes(2);
    private static final List<String> FLAGS = List.of("-O2", "-pthread");
    /** Tuned for this CPU where the compiler can; without it where it cannot. */
    private static final String NATIVE_TUNING = "-march=native";

    /** The tool that runs it, which begins each of its lines: "study", "versus-c". */
    private final String tool;
    private Path binary;
    private String compiler;

    NativeYardstick(String tool) {
        this.tool = tool;
    }

    /** The C compiler on PATH ({@code cc}), or empty: then the walls round has no native yardstick. */
    static Optional<Path> compiler() {
        return ChildProcess.onPath("cc");
    }

    /**
     * The command that measures {@code chapter} (a key of {@link #MODES}), as the dry run prints it, with pread's bytes
     * per call where {@code readBytes} gives them (the program's default, 1 MiB, where not).
     */
    List<String> command(String chapter, Path file, int workers, int runs, int warmup, OptionalLong readBytes) {
        List<String> command = new ArrayList<>(List.of(binary == null ? "(cc " + String.join(" ", FLAGS) + " " + NATIVE_TUNING + " " + SOURCE + ")"
                : binary.toString(), MODES.get(chapter), file.toString(), Integer.toString(workers), Integer.toString(runs), Integer.toString(warmup)));
        readBytes.ifPresent(bytes -> command.add(Long.toString(bytes)));
        return List.copyOf(command);
    }

    /**
     * Measures {@code chapter} once, pread's calls of {@code readBytes} each where given (the row's chunk_bytes says so):
     * builds the program if this is the first step, warms the file, runs it, checks its answer and appends its row to
     * {@code csv}. Returns what it measured, or nothing after one line on {@code say} when it could not.
     */
    Optional<Measurement.Result> measure(String chapter, Path file, int workers, int runs, int warmup, OptionalLong readBytes, Path csv, Consumer<String> say)
            throws IOException, InterruptedException {
        if (binary == null && !build(say)) {
            return Optional.empty();
        }
        long bytes = Files.size(file);
        try {
            if (MODES.get(chapter).startsWith("ram")) {
                AvailableMemory.require(bytes + PmdMapping.PMD_BYTES, "the native yardstick's copy of the haystack");
            }
        } catch (UserMistakeException e) {
            say.accept(tool + ": " + chapter + ": " + e.getMessage() + "; no figure recorded");
            return Optional.empty();
        }
        PageCache.warm(file); // the state the chapters' warm runs start from
        ChildProcess.Ended ended = ChildProcess.of(command(chapter, file, workers, runs, warmup, readBytes))
                .timeLimit(ChildProcess.PROGRAM_START_UP, bytes * (runs + warmup + 1)).relayErr(say) // a ram mode copies the file first
                .run("native-yardstick " + MODES.get(chapter), say);
        if (ended.timedOut()) {
            say.accept(tool + ": " + ended.timeOutLine() + "; no figure recorded");
            return Optional.empty();
        }
        int status = ended.status();
        String output = String.join("\n", ended.stdout());
        if (status != 0 && status != 1) {
            say.accept(tool + ": " + chapter + ": native-yardstick ended with status " + status + " (its message is above); no figure recorded");
            return Optional.empty();
        }
        try {
            Measurement.Result result = parse(chapter, output.strip(), bytes, readBytes);
            check(result, file);
            List<Object> row = new ArrayList<>(ResultsCsv.row(result));
            row.set(ResultsCsv.COLUMNS.indexOf("jdk"), compiler);
            ResultsCsv.append(csv, List.of(row));
            say.accept(result.summaryLine());
            return Optional.of(result);
        } catch (IllegalArgumentException e) {
            say.accept(tool + ": " + chapter + ": " + e.getMessage() + "; no figure recorded");
            return Optional.empty();
        }
    }

    /** Builds the program into a temporary directory, tuned for this CPU where the compiler allows. */
    private boolean build(Consumer<String> say) throws IOException, InterruptedException {
        Optional<Path> cc = compiler();
        if (cc.isEmpty()) {
            say.accept(tool + ": no C compiler (cc) on PATH, so no native yardstick");
            return false;
        }
        Path dir = Files.createTempDirectory("native-yardstick");
        dir.toFile().deleteOnExit();
        Path built = dir.resolve("native-yardstick");
        String log = "";
        for (List<String> tuning : List.of(List.of(NATIVE_TUNING), List.<String>of())) {
            List<String> command = new ArrayList<>(List.of(cc.get().toString()));
            command.addAll(FLAGS);
            command.addAll(tuning);
            command.addAll(List.of("-o", built.toString(), SOURCE.toString()));
            ChildProcess.Ended ended = ChildProcess.of(command).timeLimit(BUILD_TIME, 0).run(cc.get().getFileName() + " building the native yardstick", say);
            log = String.join("\n", ended.stderr()) + "\n" + String.join("\n", ended.stdout());
            if (!ended.timedOut() && ended.status() == 0) {
                built.toFile().deleteOnExit();
                binary = built;
                compiler = version(cc.get()) + ", " + String.join(" ", FLAGS) + (tuning.isEmpty() ? "" : " " + NATIVE_TUNING);
                return true;
            }
        }
        say.accept(tool + ": " + cc.get() + " could not build " + SOURCE + ", so no native yardstick: "
                + log.lines().filter(line -> line.contains("error")).findFirst().orElse(log.strip()));
        return false;
    }

    /** The compiler's first line of {@code --version}, e.g. "cc (Debian 14.2.0-19) 14.2.0". */
    private static String version(Path cc) throws IOException, InterruptedException {
        ChildProcess.Ended ended = ChildProcess.of(List.of(cc.toString(), "--version")).run(cc.getFileName() + " --version", note -> {});
        return ended.stdout().stream().findFirst().orElse("cc").strip();
    }

    /**
     * Its stdout line, {@code mode=M workers=W offset=O warmup_s=S,S run_s=S,... user_us=U,... system_us=U,... pmd_mapped_pct=P},
     * as the figures of one measurement (chunk_bytes: {@code readBytes}, what each pread call asked for, where given), its
     * bill the two CPU times the chapters' bill counts too (none from a program without them); anything else is refused
     * (IllegalArgumentException).
     */
    static Measurement.Result parse(String chapter, String line, long bytes, OptionalLong readBytes) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (String pair : line.split(" ")) {
            int equals = pair.indexOf('=');
            if (equals > 0) {
                fields.put(pair.substring(0, equals), pair.substring(equals + 1));
            }
        }
        for (String key : List.of("mode", "workers", "offset", "warmup_s", "run_s", "pmd_mapped_pct")) {
            if (!fields.containsKey(key)) {
                throw new IllegalArgumentException("native-yardstick's output has no " + key + "= (it said: " + line.lines().findFirst().orElse("") + ")");
            }
        }
        if (!fields.get("mode").equals(MODES.get(chapter))) {
            throw new IllegalArgumentException("native-yardstick measured mode " + fields.get("mode") + ", not " + MODES.get(chapter));
        }
        try {
            double[] warmup = seconds(fields.get("warmup_s")), seconds = seconds(fields.get("run_s"));
            if (seconds.length == 0) {
                throw new IllegalArgumentException("native-yardstick timed no run");
            }
            String pmd = fields.get("pmd_mapped_pct");
            OptionalDouble percent = pmd.isEmpty() ? OptionalDouble.empty() : OptionalDouble.of(Double.parseDouble(pmd));
            if (percent.isPresent() && !(percent.getAsDouble() >= 0 && percent.getAsDouble() <= 100)) {
                throw new IllegalArgumentException("native-yardstick gave a share of " + pmd + " %");
            }
            return new Measurement.Result(chapter, Integer.parseInt(fields.get("workers")), "warm", bytes, readBytes,
                    Long.parseLong(fields.get("offset")), warmup, seconds, Optional.of(PageCache.Folios.AS_IS), percent, Optional.empty(),
                    cpuTimes(fields.get("user_us"), fields.get("system_us"), seconds.length, bytes));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("native-yardstick's output is not figures: " + line);
        }
    }

    /** Each timed run's CPU time in user space and in the kernel, as a bill of those two alone; none where either is absent. */
    private static Optional<KernelBill> cpuTimes(String userMicros, String systemMicros, int runs, long bytes) {
        if (userMicros == null || systemMicros == null) {
            return Optional.empty();
        }
        long[] user = Arrays.stream(userMicros.split(",")).mapToLong(Long::parseLong).toArray();
        long[] system = Arrays.stream(systemMicros.split(",")).mapToLong(Long::parseLong).toArray();
        if (user.length != runs || system.length != runs || Arrays.stream(user).anyMatch(us -> us < 0) || Arrays.stream(system).anyMatch(us -> us < 0)) {
            throw new IllegalArgumentException("native-yardstick gave CPU times that are not one per run: user_us=" + userMicros + " system_us=" + systemMicros);
        }
        List<long[]> runCounts = new ArrayList<>();
        for (int run = 0; run < runs; run++) {
            long[] counts = new long[KernelBill.Item.values().length];
            Arrays.fill(counts, KernelCounters.UNKNOWN); // C counts no reads or faults here: left empty, never zero
            counts[KernelBill.Item.USER_TIME.ordinal()] = user[run];
            counts[KernelBill.Item.SYSTEM_TIME.ordinal()] = system[run];
            runCounts.add(counts);
        }
        return Optional.of(KernelBill.ofRuns(runCounts, bytes));
    }

    /** Comma-separated seconds, each positive and finite. */
    private static double[] seconds(String text) {
        double[] seconds = text.isEmpty() ? new double[0] : Arrays.stream(text.split(",")).mapToDouble(Double::parseDouble).toArray();
        for (double value : seconds) {
            if (!(value > 0 && Double.isFinite(value))) {
                throw new IllegalArgumentException("native-yardstick timed a run at " + value + " s");
            }
        }
        return seconds;
    }

    /** Its answer must be the haystack's needle, or what a plain scan finds in any other file. */
    private static void check(Measurement.Result result, Path file) throws IOException {
        OptionalLong expected = Haystack.expectedAnswer(file);
        long right = expected.isPresent() ? expected.getAsLong() : new ReferenceSearch().search(file, 1);
        if (result.offset() != right) {
            throw new IllegalArgumentException("native-yardstick answered " + result.offset() + " but the answer is " + right);
        }
    }
}
