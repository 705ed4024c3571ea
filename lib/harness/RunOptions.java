package lib.harness;

import lib.cli.CountConverter;
import lib.cli.SizeConverter;
import lib.cli.UserMistakeException;
import lib.haystack.Haystack;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The options every timing command shares, chapters and study alike: the file, how many runs, how
 * many of them untimed, and the size of a haystack created for a file that does not exist ({@link HaystackFile}).
 * A picocli mixin: {@code @Mixin RunOptions runOptions;} adds them to a command.
 */
public final class RunOptions {

    /** More workers than this is a typo, not an experiment. */
    public static final int MAX_WORKERS = 4096;

    /** Timed runs when --runs is not given, fewer when runs are slow ({@link RunBudget}). */
    public static final int DEFAULT_RUNS = 5;

    @Option(names = "--runs", paramLabel = "N", converter = CountConverter.class,
            description = "Timed runs (default: 5, or 3 once a run takes over 5 s, 1 once one takes over 30 s; "
                    + "a --runs given is always honoured; 5 or more drop the fastest and the slowest from the mean).")
    Integer runs; // null: not given, so the time budget applies

    @Option(names = "--budgeted", hidden = true,
            description = "Apply the time budget to the --runs given too, as the study's --quick does.")
    boolean budgeted;

    @Option(names = "--warmup", paramLabel = "N", converter = CountConverter.class,
            description = "Untimed runs first, while the JIT compiles (default: ${DEFAULT-VALUE}).")
    int warmup = 1;

    /** FILE and --size, which the tools that read a haystack without timing chapters take too. */
    @Mixin
    HaystackFile haystack = new HaystackFile();

    /**
     * The haystack a command reads: FILE, and the --size of a haystack created for a FILE that does
     * not exist. A mixin of its own, in RunOptions and in the tools that take a haystack but no runs
     * ({@code @Mixin RunOptions.HaystackFile haystack;}).
     */
    public static final class HaystackFile {

        @Parameters(arity = "0..1", paramLabel = "FILE",
                description = "The file to search (default: ${DEFAULT-VALUE}); if it does not exist, a haystack of --size is created there.")
        Path file = Path.of("haystack.bin");

        @Option(names = "--size", paramLabel = "SIZE", converter = SizeConverter.class,
                description = "Size of a haystack created for a FILE that does not exist: 4g, 64m, ... (default: 4g).")
        Long size;

        /** FILE, as given. */
        public Path file() {
            return file;
        }

        /** The --size asked for, if any. */
        public OptionalLong size() {
            return size != null ? OptionalLong.of(size) : OptionalLong.empty();
        }

        /** FILE, checked, or created as a haystack of --size if it does not exist ({@link Haystack#findOrCreate}). */
        public Path findOrCreateFile(PrintStream err) throws IOException {
            return Haystack.findOrCreate(file, size(), err);
        }

        /** Refuses, with one line, a --size no haystack can have. */
        public void check() {
            if (size != null && (size < Long.BYTES || size % Long.BYTES != 0)) {
                throw new UserMistakeException("--size must be a positive multiple of 8 bytes, not " + size);
            }
        }
    }

    /** FILE, as given. */
    public Path file() {
        return haystack.file();
    }

    /** FILE, checked, or created as a haystack of --size if it does not exist ({@link Haystack#findOrCreate}). */
    public Path findOrCreateFile(PrintStream err) throws IOException {
        return haystack.findOrCreateFile(err);
    }

    public int runs() {
        return runs != null ? runs : DEFAULT_RUNS;
    }

    /** Whether --runs was given; it is then always honoured (unless --budgeted says otherwise). */
    public boolean runsGiven() {
        return runs != null;
    }

    /** The budget for the timed runs: none when --runs was given, which is always honoured. */
    public RunBudget budget() {
        return runs != null && !budgeted ? RunBudget.NONE : RunBudget.STANDARD;
    }

    public int warmup() {
        return warmup;
    }

    /** The --size asked for, if any. */
    public OptionalLong size() {
        return haystack.size();
    }

    /** Refuses, with one line, values picocli accepts as numbers but that make no sense. */
    public void check() {
        if (runs() < 1) {
            throw new UserMistakeException("--runs must be at least 1, not " + runs());
        }
        if (warmup < 0) {
            throw new UserMistakeException("--warmup cannot be negative");
        }
        haystack.check();
    }

    /** Refuses a worker count outside 1 to {@link #MAX_WORKERS}, naming the option it came from. */
    public static void checkWorkers(String option, List<Integer> counts) {
        if (counts.isEmpty()) {
            throw new UserMistakeException(option + " needs at least one count, such as 2 or 1,2,4");
        }
        for (int count : counts) {
            if (count < 1 || count > MAX_WORKERS) {
                throw new UserMistakeException(option + " must be between 1 and " + MAX_WORKERS + ", not " + count);
            }
        }
    }
}
