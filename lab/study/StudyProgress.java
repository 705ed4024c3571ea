import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Locale;
import java.util.OptionalDouble;
import lib.counters.Stats;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;

/**
 * Where the study is: step i of n, the time elapsed and a guess of the time left. On a terminal a
 * progress bar stays on the last line while the chapters' own lines scroll above it; elsewhere (a
 * log, CI) one plain line starts each step.
 *
 * <p>The time left is the guessed seconds of the steps still to run ({@code StepCommand.expectedSeconds},
 * from the plan: the file's size, the runs, each chapter's rough speed), scaled by how long the
 * steps already run took against their guesses: the median of those ratios, so that one step far
 * off its guess (the first, which pays for compiling; a chapter the budget cut short) does not
 * multiply the whole study. Until {@value #TIMED_STEPS_FOR_AN_ESTIMATE} steps have been timed
 * there is no such median, and no time left is shown: a guess from one step read "3:38:27 left"
 * for a study of 18 minutes.
 */
final class StudyProgress implements AutoCloseable {

    private static final int BAR_WIDTH = 24;
    /** Steps timed before the time left is shown. */
    static final int TIMED_STEPS_FOR_AN_ESTIMATE = 3;

    private final double[] expected;
    private final double total;
    private final Instant start = Instant.now();
    private final ProgressBar bar; // null when stderr is not a terminal
    private double expectedFinished, expectedSkipped;
    /** Each timed step's seconds over its guess. */
    private final java.util.List<Double> ratios = new java.util.ArrayList<>();
    private int current = -1, stepsDone;
    private String currentStep = "";
    private Instant currentStart = start;

    /** Package-private for the tests, which draw no bar. */
    StudyProgress(double[] expected, boolean terminal) {
        this.expected = expected.clone();
        this.total = Arrays.stream(expected).sum();
        this.bar = terminal ? new ProgressBarBuilder().setTaskName("study").setInitialMax(1000).setUpdateIntervalMillis(1000)
                .setConsumer(new ConsoleProgressBarConsumer(System.err))
                .setRenderer((state, width) -> render(width)).build() : null;
    }

    /** A display of {@code expected.length} steps, each of about that many seconds. */
    static StudyProgress start(double[] expected) {
        return new StudyProgress(expected, stderrIsTerminal());
    }

    synchronized void begin(int step, String what) {
        current = step;
        currentStep = what.replaceAll("\\s+", " ");
        currentStart = Instant.now();
        println(String.format(Locale.ROOT, "[%d/%d, %s elapsed%s] %s", step + 1, expected.length,
                elapsed(), left(), what));
    }

    synchronized void end(int step) {
        ended(step, Duration.between(currentStart, Instant.now()).toMillis() / 1000.0);
    }

    /** Step {@code step} ran for {@code seconds}. */
    synchronized void ended(int step, double seconds) {
        if (expected[step] > 0) {
            ratios.add(seconds / expected[step]);
        }
        expectedFinished += expected[step];
        current = -1;
        stepsDone++;
        advance();
    }

    /** ", about 0:12:30 left", or nothing until enough steps have been timed. */
    private String left() {
        OptionalDouble left = secondsLeft();
        return left.isPresent() ? ", about " + format(left.getAsDouble()) + " left" : "";
    }

    synchronized void skip(int step, String what) {
        expectedSkipped += expected[step];
        stepsDone++;
        println(String.format(Locale.ROOT, "[%d/%d] %s", step + 1, expected.length, what));
        advance();
    }

    /** A line of the study's or a chapter's, on stderr, above the bar. */
    void println(String line) {
        print(System.err, line);
    }

    /** A line for stdout (a chapter's summary), above the bar. */
    void printOut(String line) {
        print(System.out, line);
    }

    private void print(PrintStream stream, String line) {
        if (bar == null) {
            stream.println(line);
            return;
        }
        synchronized (System.err) {
            System.err.print("\r\033[K"); // clear the bar's line, write above it; the bar redraws below
            System.err.flush();
            stream.println(line);
            stream.flush();
        }
        bar.refresh();
    }

    String elapsed() {
        return format(Duration.between(start, Instant.now()).toSeconds());
    }

    /**
     * The guesses of the steps not done, scaled by the median of the timed steps' ratios to theirs;
     * empty until {@value #TIMED_STEPS_FOR_AN_ESTIMATE} steps have been timed.
     */
    synchronized OptionalDouble secondsLeft() {
        if (ratios.size() < TIMED_STEPS_FOR_AN_ESTIMATE) {
            return OptionalDouble.empty();
        }
        double scale = Stats.median(ratios.stream().mapToDouble(Double::doubleValue).toArray());
        double waiting = total - expectedFinished - expectedSkipped;
        double left = waiting * scale;
        if (current >= 0) { // the running step: its guess, less what it has already taken
            double running = Duration.between(currentStart, Instant.now()).toMillis() / 1000.0;
            left -= Math.min(running, expected[current] * scale);
        }
        return OptionalDouble.of(Math.max(0, left));
    }

    private void advance() {
        if (bar != null) {
            bar.stepTo(Math.round(1000 * (expectedFinished + expectedSkipped) / Math.max(total, 1e-9)));
        }
    }

    private synchronized String render(int width) {
        double done = (expectedFinished + expectedSkipped) / Math.max(total, 1e-9);
        int filled = (int) Math.round(done * BAR_WIDTH);
        String line = String.format(Locale.ROOT, "study [%s%s] %3.0f%%  step %d/%d  %s elapsed%s  %s",
                "=".repeat(filled), " ".repeat(BAR_WIDTH - filled), done * 100, current >= 0 ? current + 1 : stepsDone, expected.length,
                elapsed(), left(), current >= 0 ? currentStep : "");
        return line.length() > width && width > 0 ? line.substring(0, width) : line;
    }

    static String format(double seconds) {
        long s = Math.round(seconds);
        return String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60);
    }

    /** Linux names a terminal's file descriptor /dev/pts/N or /dev/ttyN. */
    static boolean stderrIsTerminal() {
        try {
            String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
            return (target.startsWith("/dev/pts/") || target.startsWith("/dev/tty")) && !"dumb".equals(System.getenv("TERM"));
        } catch (Exception e) {
            return false;
        }
    }

    @Override
    public void close() {
        if (bar != null) {
            bar.close();
        }
    }
}
