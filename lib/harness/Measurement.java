package lib.harness;

import lib.counters.Stats;
import lib.chapter.NeedleSearch;
import lib.cli.Quote;
import lib.counters.KernelBill;
import lib.counters.KernelCounters;
import lib.counters.PmdMapping;
import lib.haystack.FileChangedException;
import lib.haystack.Haystack;
import lib.haystack.ReferenceSearch;
import lib.haystack.WrongAnswerException;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The one measurement loop: warm-up runs, then timed runs, of anything that returns an offset (a
 * chapter's search in this JVM, or {@code cmp} in a process of its own).
 *
 * <p>Every run prints a line on stderr and is checked: it must agree with the first, the file must
 * keep its size, and a haystack's answer must be its needle. A failed check throws, so no figure
 * of a wrong answer is ever printed or recorded. Once all runs are done, one summary line goes to
 * stdout, as space-separated {@code key=value} pairs that scripts read (the study among them):
 *
 * <pre>
 *   variant=… workers=… offset=… runs=… mean_s=… median_s=… mbps=… cache=… bytes=… [chunk_bytes=…] [page_cache=…] [pmd_mapped_pct=…]
 *       [read_mode=…] read_calls_per_gib=… returned_bytes_per_gib=… device_bytes_per_gib=… minor_faults_per_gib=…
 *       major_faults_per_gib=… voluntary_switches_per_gib=… involuntary_switches_per_gib=…
 * </pre>
 *
 * {@code mbps} comes from the trimmed mean of 5 runs or more, else from the median ({@link Stats#typicalSeconds}),
 * and a line on stderr says so. {@code chunk_bytes} is there only for a chapter that reads in chunks, {@code page_cache} only
 * where the caller set up the page cache ({@link #pageCache}), {@code pmd_mapped_pct} only for a
 * chapter that maps the file. The last seven are the runs' bill from the kernel ({@link KernelBill}):
 * medians over the timed runs, per GiB searched, each empty where this system does not count it;
 * each run's line on stderr ends with its own. A caller adds its own per-run note ({@link #runNote})
 * without touching this loop.
 */
public final class Measurement {

    /** What is timed: one whole search, returning the offset of the first non-zero word, or -1. */
    @FunctionalInterface
    public interface TimedAction {
        long run() throws IOException, InterruptedException;
    }

    /** Work done before a run, outside its time: evicting the file, resuming a profiler. */
    @FunctionalInterface
    public interface BeforeRun {
        /** {@code index} counts from 0 among the warm-up runs, then again from 0 among the timed ones. */
        void prepare(int index, boolean timed) throws IOException;
    }

    /** A last check once the runs are done, before the summary line: it may still refuse the figures by throwing. */
    @FunctionalInterface
    public interface AfterRuns {
        void check() throws IOException;
    }

    /**
     * The figures of one measurement, with what they were measured on; {@link ResultsCsv#row} makes
     * them a CSV row. {@code pageCache}: the state the warm runs started from, where the caller set
     * one up; {@code pmdMappedPercent}: the median share of a mapped chapter's mapping that was
     * PMD-mapped over the timed runs (see {@link PmdMapping}); {@code readMode}: how a chapter that
     * can read more than one way read the file ({@link NeedleSearch#readMode}); {@code bill}: what the
     * timed runs cost the kernel ({@link KernelBill}), empty for figures not measured here (another
     * program's, a test's).
     */
    public record Result(String variant, int workers, String cache, long bytes, OptionalLong chunkBytes, long offset,
                         double[] warmupSeconds, double[] seconds, Optional<PageCache.Folios> pageCache,
                         OptionalDouble pmdMappedPercent, Optional<String> readMode, Optional<KernelBill> bill) {

        /** Figures measured elsewhere, with no bill. */
        public Result(String variant, int workers, String cache, long bytes, OptionalLong chunkBytes, long offset,
                      double[] warmupSeconds, double[] seconds, Optional<PageCache.Folios> pageCache,
                      OptionalDouble pmdMappedPercent, Optional<String> readMode) {
            this(variant, workers, cache, bytes, chunkBytes, offset, warmupSeconds, seconds, pageCache, pmdMappedPercent, readMode,
                    Optional.empty());
        }

        /** Figures of a chapter that reads one way only. */
        public Result(String variant, int workers, String cache, long bytes, OptionalLong chunkBytes, long offset,
                      double[] warmupSeconds, double[] seconds, Optional<PageCache.Folios> pageCache, OptionalDouble pmdMappedPercent) {
            this(variant, workers, cache, bytes, chunkBytes, offset, warmupSeconds, seconds, pageCache, pmdMappedPercent, Optional.empty());
        }

        /** Figures with no page-cache state of their own (another program's, or a test's). */
        public Result(String variant, int workers, String cache, long bytes, OptionalLong chunkBytes, long offset,
                      double[] warmupSeconds, double[] seconds) {
            this(variant, workers, cache, bytes, chunkBytes, offset, warmupSeconds, seconds, Optional.empty(), OptionalDouble.empty(),
                    Optional.empty());
        }

        public double meanSeconds() {
            return Stats.trimmedMean(seconds);
        }

        public double medianSeconds() {
            return Stats.median(seconds);
        }

        /** From the trimmed mean of 5 runs or more, else from the median ({@link Stats#typicalSeconds}). */
        public double megabytesPerSecond() {
            return Stats.megabytesPerSecond(bytes, Stats.typicalSeconds(seconds));
        }

        /** The line on stdout that people (and their scripts) read; its keys and their order are stable. The tools read the CSV row. */
        public String summaryLine() {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
                    "variant=%s workers=%d offset=%d runs=%d mean_s=%.4f median_s=%.4f mbps=%.0f cache=%s bytes=%d",
                    variant, workers, offset, seconds.length, meanSeconds(), medianSeconds(), megabytesPerSecond(),
                    cache, bytes));
            chunkBytes.ifPresent(chunk -> line.append(" chunk_bytes=").append(chunk));
            pageCache.ifPresent(folios -> line.append(" page_cache=").append(folios.label));
            pmdMappedPercent.ifPresent(percent -> line.append(" pmd_mapped_pct=").append(PmdMapping.percent(percent)));
            readMode.ifPresent(mode -> line.append(" read_mode=").append(mode));
            bill.ifPresent(counted -> line.append(' ').append(counted.summaryFields()));
            return line.toString();
        }
    }

    private final String variant;
    private final Path file;
    private final long bytes;
    private final OptionalLong expected;
    private final PrintStream out;
    private final PrintStream err;
    private int warmup = 1;
    private int runs = 5;
    private RunBudget budget = RunBudget.NONE;
    private int workers = 1;
    private boolean cold;
    private OptionalLong chunkBytes = OptionalLong.empty();
    private BeforeRun beforeRun = (index, timed) -> {};
    private LongSupplier untimedNanos = () -> 0;
    private Supplier<long[]> untimedCounts = () -> null;
    private Supplier<String> runNote = () -> "";
    private AfterRuns afterRuns = () -> {};
    private Optional<PageCache.Folios> pageCache = Optional.empty();
    private Supplier<OptionalDouble> pmdMappedPercent = OptionalDouble::empty;
    private Supplier<Optional<String>> readMode = Optional::empty;
    private Duration signOfLifeEvery = SIGN_OF_LIFE_EVERY;

    /**
     * How long a run may be silent: a longer one (chapter 1's first warm-up, chapter 2's every run)
     * says on stderr, this often, that it is still running, so that a reader does not take it for a hang.
     */
    public static final Duration SIGN_OF_LIFE_EVERY = Duration.ofSeconds(15);

    /** A measurement of {@code variant} on {@code file}: summary to {@code out}, one line per run to {@code err}. */
    public Measurement(String variant, Path file, PrintStream out, PrintStream err) throws IOException {
        this.variant = variant;
        this.file = file;
        this.bytes = Files.size(file);
        this.expected = Haystack.expectedAnswer(file);
        this.out = out;
        this.err = err;
    }

    public Measurement runs(int warmupRuns, int timedRuns) {
        this.warmup = warmupRuns;
        this.runs = timedRuns;
        return this;
    }

    /** How often a long run says it is still running ({@link #SIGN_OF_LIFE_EVERY} unless a test asks for less). */
    public Measurement signOfLifeEvery(Duration every) {
        this.signOfLifeEvery = every;
        return this;
    }

    /** Takes fewer timed runs than asked when runs are slow ({@link RunBudget}); none by default. */
    public Measurement budget(RunBudget timeBudget) {
        this.budget = timeBudget;
        return this;
    }

    /** The worker count to print and record (1 for anything single-threaded). */
    public Measurement workers(int count) {
        this.workers = count;
        return this;
    }

    /** Records the runs as cold; evicting the file is the caller's, in {@link #beforeEachRun}. */
    public Measurement cold(boolean evictedBeforeEveryRun) {
        this.cold = evictedBeforeEveryRun;
        return this;
    }

    /** Bytes per read, for a chapter that reads in chunks; left empty otherwise. */
    public Measurement chunkBytes(long readBytes) {
        this.chunkBytes = OptionalLong.of(readBytes);
        return this;
    }

    public Measurement beforeEachRun(BeforeRun prepare) {
        this.beforeRun = prepare;
        return this;
    }

    /**
     * Asked right after each run, before its time is taken: nanoseconds spent inside the run on
     * something other than the search (a chapter's report of how its mapping was mapped, see
     * {@link PmdMapping}), taken out of the run's time.
     */
    public Measurement untimedInEachRun(LongSupplier nanos) {
        this.untimedNanos = nanos;
        return this;
    }

    /**
     * Asked right after each run, after {@link #untimedInEachRun}: what that untimed step added to
     * the run's counts ({@link KernelCounters.Snapshot#spentSince}), taken out of the run's bill; null for nothing.
     */
    public Measurement untimedCountsInEachRun(Supplier<long[]> counts) {
        this.untimedCounts = counts;
        return this;
    }

    /** Asked right after each run; a non-empty note ends that run's line on stderr. */
    public Measurement runNote(Supplier<String> note) {
        this.runNote = note;
        return this;
    }

    public Measurement afterRuns(AfterRuns check) {
        this.afterRuns = check;
        return this;
    }

    /** The page-cache state the caller set up before the warm runs, recorded with the figures. */
    public Measurement pageCache(PageCache.Folios state) {
        this.pageCache = Optional.of(state);
        return this;
    }

    /** Asked once the runs are done: the median PMD-mapped share of a mapped chapter's timed runs, if any. */
    public Measurement pmdMappedPercent(Supplier<OptionalDouble> medianOfTimedRuns) {
        this.pmdMappedPercent = medianOfTimedRuns;
        return this;
    }

    /** How the action read the file, where it can read more than one way; asked once the runs are done. */
    public Measurement readMode(Supplier<Optional<String>> modeOfTheRuns) {
        this.readMode = modeOfTheRuns;
        return this;
    }

    /**
     * Runs {@code action} warm-up plus timed times (fewer timed ones when the {@link #budget} says so),
     * checks every answer, prints the summary line.
     */
    public Result time(TimedAction action) throws IOException, InterruptedException {
        double[] warmupSeconds = new double[warmup];
        double[] seconds = new double[runs];
        long answer = NeedleSearch.NOT_FOUND;
        int taken = 0; // timed runs so far: the budget may stop before --runs
        List<long[]> timedCounts = new ArrayList<>();
        rehearseOnce();
        for (int i = 0; i < warmup || (i < warmup + runs && budget.another(runs, Arrays.copyOf(seconds, taken))); i++) {
            boolean timed = i >= warmup;
            int index = timed ? i - warmup : i;
            beforeRun.prepare(index, timed);
            KernelCounters.Snapshot countsBefore = KernelCounters.beforeRun(); // the bill is read outside the run's time
            Thread signOfLife = signOfLife(timed ? "timed run " + (index + 1) + " of " + budget.timedRuns(runs, Arrays.copyOf(seconds, taken))
                    : "warm-up " + (index + 1) + " of " + warmup);
            long start = System.nanoTime();
            long offset;
            long end;
            try {
                offset = action.run();
            } catch (IOException refused) {
                throw changedSizeOr(refused);
            } finally {
                end = System.nanoTime();
                signOfLife.interrupt();
                signOfLife.join(); // its last line, if any, before the run's own
            }
            long[] counts = KernelCounters.afterRun().since(countsBefore);
            double elapsed = (end - start - untimedNanos.getAsLong()) / 1e9;
            counts = KernelCounters.Snapshot.less(counts, untimedCounts.get());
            check(i == 0 ? offset : answer, offset);
            answer = offset;
            (timed ? seconds : warmupSeconds)[index] = elapsed;
            taken += timed ? 1 : 0;
            if (timed) {
                timedCounts.add(counts);
            }
            String note = runNote.get();
            err.printf(Locale.ROOT, "  %s %d: %.4f s  %,.0f MB/s  offset %d  %s%s%n", timed ? "run" : "warm-up", index + 1,
                    elapsed, Stats.megabytesPerSecond(bytes, elapsed), offset, KernelBill.runFields(counts, bytes),
                    note.isEmpty() ? "" : "  " + note);
        }
        seconds = Arrays.copyOf(seconds, taken);
        budget.note(variant, runs, seconds).ifPresent(err::println);
        afterRuns.check();
        Result result = new Result(variant, workers, cold ? "cold" : "warm", bytes, chunkBytes, answer,
                warmupSeconds, seconds, pageCache, pmdMappedPercent.get(), readMode.get(),
                Optional.of(KernelBill.ofRuns(timedCounts, bytes)));
        if (seconds.length < Stats.RUNS_TO_TRIM) { // with the summary only: the summary's runs= counts them, this says what that changes
            err.println(variant + ": " + (seconds.length == 1 ? "1 timed run: MB/s from it alone"
                    : seconds.length + " timed runs: MB/s from their median") + " (" + Stats.RUNS_TO_TRIM + " or more give the trimmed mean)");
        }
        out.println(result.summaryLine());
        return result;
    }

    /** Whether this JVM has run, once, what a run runs around its search ({@link #rehearseOnce}). */
    private static volatile boolean rehearsed;

    /**
     * Runs, once per JVM and outside every run, the harness's own steps that sit inside a run's
     * counted window: a snapshot of the counters compared with another, and a sign-of-life thread
     * started and stopped. The first time, the JVM loads their classes, reading them from the
     * chapter's jar or {@code $JAVA_HOME/lib/modules} (a sleeping thread's flight-recorder event is
     * in no class-data archive): read calls that, inside the first run, would be billed to a search
     * that made none (a mapped chapter shown 32 read calls per GiB of a 64 MiB file). So are the
     * JDK's classes for a mapped file, mapped here for one byte and unmapped at once: a mapped
     * chapter's first run would load them inside its count (7 read calls for a 16 MiB file, without
     * the launcher's archive).
     */
    private void rehearseOnce() throws IOException, InterruptedException {
        if (rehearsed) {
            return;
        }
        KernelCounters.Snapshot.less(KernelCounters.afterRun().since(KernelCounters.beforeRun()), null);
        try (Arena arena = Arena.ofConfined(); FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            channel.map(FileChannel.MapMode.READ_ONLY, 0, Math.min(1, channel.size()), arena);
        }
        Thread signOfLife = signOfLife("rehearsal"); // stopped before its first line: it prints nothing
        signOfLife.interrupt(); // its sleep loads what it needs before it finds the interrupt
        signOfLife.join();
        rehearsed = true;
    }

    /**
     * A thread that sleeps while a run lasts and, every {@link #signOfLifeEvery}, prints
     * "  still running: timed run 2 of 5, 30 s" on stderr; interrupted when the run ends. A run
     * shorter than that prints nothing, and the summary line and stdout are never touched.
     */
    private Thread signOfLife(String run) {
        long started = System.nanoTime();
        return Thread.ofPlatform().daemon().name("sign-of-life").start(() -> {
            try {
                while (true) {
                    Thread.sleep(signOfLifeEvery);
                    err.printf(Locale.ROOT, "  still running: %s, %d s%n", run, Math.round((System.nanoTime() - started) / 1e9));
                }
            } catch (InterruptedException runEnded) {
                // the run's own line follows
            }
        });
    }

    /**
     * A run that failed because another program changed the file's size under it (the JDK's
     * {@code map} refuses a size past the file's end as "cannot extend file to required size", a
     * read meets an early end) is reported as the file's change, the cause, not as the symptom.
     */
    private IOException changedSizeOr(IOException refused) {
        if (refused instanceof FileChangedException) {
            return refused;
        }
        try {
            long now = Files.size(file);
            if (now != bytes) {
                FileChangedException changed = changedSize(now);
                changed.initCause(refused);
                return changed;
            }
        } catch (IOException gone) {
            // the file is gone or unreadable: the run's own refusal says more
        }
        return refused;
    }

    private FileChangedException changedSize(long now) {
        return new FileChangedException(Quote.name(file) + " changed size during the search (" + bytes + " -> "
                + now + " bytes); no figure is reported");
    }

    /** Every answer must agree with the first, the file must not have changed, and a haystack's must be its needle. */
    private void check(long first, long offset) throws IOException {
        long now = Files.size(file);
        if (now != bytes) {
            throw changedSize(now);
        }
        if (offset != first) {
            throw new WrongAnswerException("runs disagree: offset " + first + ", then " + offset);
        }
        if (expected.isPresent() && offset != expected.getAsLong()) {
            long reference = new ReferenceSearch().search(file, 1);
            if (reference == offset) {
                throw new WrongAnswerException(Quote.name(file) + " ends with the needle but has a non-zero word at offset "
                        + offset + ": a damaged haystack, not timed");
            }
            throw new WrongAnswerException(variant + " answered " + offset + " but a plain scan finds " + reference);
        }
    }
}
