package lib.harness;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Where a command's time to answer goes, from the moment the user's shell started {@code ./jbang}
 * to the answer on stdout: one line on stderr, for scripts to read, such as
 *
 * <pre>
 *   phases: origin=launcher jvm_s=0.231 main_s=0.402 checked_s=0.455 preread_s=0.461 first_search_s=1.210 answer_s=1.214 preread=no (LEGEND)
 * </pre>
 *
 * with {@link #LEGEND} in words at its end, since the figures read like durations and are not: each
 * {@code *_s} is the wall-clock time, in seconds since the origin, at which that phase ended (a
 * phase's length is the difference of two of them):
 * {@code jvm} the launcher (JBang, or the launcher's cache) handing over to the chapter's JVM,
 * {@code main} the JVM reaching the chapter's {@code main}, {@code checked} the options checked
 * and the file found, {@code preread} the page cache prepared, {@code first_search} the first
 * run's end, {@code answer} the summary line printed. What follows the answer is the JVM's exit,
 * which only the caller can see: its own clock at the exit minus {@code answer_s}.
 *
 * <p>The origin is the launcher's start when {@code ./jbang} started this JVM (it passes its
 * clock in {@link #LAUNCHED_ENV} and {@link #EXEC_ENV}), otherwise the process's start as the
 * kernel recorded it, to its clock tick of 10 ms, and {@code jvm_s} is left out.
 */
public final class Phases {

    /** Set by {@code ./jbang}: its own start and the moment it exec'd the chapter's JVM, as bash's EPOCHREALTIME (seconds, microseconds). */
    public static final String LAUNCHED_ENV = "HAYSTACK_LAUNCHED_EPOCH", EXEC_ENV = "HAYSTACK_EXEC_EPOCH";

    /** The words at the end of the phases line: what its figures are. Scripts read the pairs before it. */
    public static final String LEGEND = "(the _s figures: seconds since launch when each phase ended, not how long it took)";

    /** A launcher time further than this before the process's start was inherited from an earlier launch, not ours. */
    private static final long INHERITED_MICROS = 50_000;

    private static final Map<String, Long> ENDED_MICROS = new LinkedHashMap<>();
    private static final Map<String, String> FACTS = new LinkedHashMap<>();

    private Phases() {
    }

    /** Records that {@code phase} ends now; a phase that ends twice keeps its first end. */
    public static synchronized void end(String phase) {
        ENDED_MICROS.putIfAbsent(phase, nowMicros());
    }

    /** Records a fact about the command that its time depends on, such as whether it read the file beforehand. */
    public static synchronized void note(String key, String value) {
        FACTS.put(key, value);
    }

    /** The phases line, or nothing when no search began (--help, --version, a refused option). */
    public static synchronized Optional<String> line() {
        if (!ENDED_MICROS.containsKey("checked")) {
            return Optional.empty();
        }
        long processStart = ProcessHandle.current().info().startInstant()
                .map(start -> start.getEpochSecond() * 1_000_000 + start.getNano() / 1_000).orElse(-1L);
        long launched = epochMicros(System.getenv(LAUNCHED_ENV));
        long exec = epochMicros(System.getenv(EXEC_ENV));
        boolean ours = launched > 0 && exec >= launched && (processStart < 0 || launched >= processStart - INHERITED_MICROS);
        long origin = ours ? launched : processStart;
        if (origin < 0) {
            return Optional.empty();
        }
        StringBuilder line = new StringBuilder("phases: origin=").append(ours ? "launcher" : "process");
        if (ours) {
            line.append(seconds("jvm", exec - origin));
        }
        ENDED_MICROS.forEach((phase, micros) -> line.append(seconds(phase, micros - origin)));
        FACTS.forEach((key, value) -> line.append(' ').append(key).append('=').append(value));
        return Optional.of(line.append(' ').append(LEGEND).toString());
    }

    /** Prints the phases line, if there is one. */
    public static void print(PrintStream err) {
        line().ifPresent(err::println);
    }

    private static String seconds(String phase, long micros) {
        return String.format(Locale.ROOT, " %s_s=%.3f", phase, micros / 1e6);
    }

    /** bash's EPOCHREALTIME ("1700000000.123456", or with a comma in some locales) in microseconds; -1 if absent or not that. */
    public static long epochMicros(String text) {
        if (text == null || !text.matches("\\d{1,12}[.,]\\d{6}")) {
            return -1;
        }
        return Long.parseLong(text.replace(".", "").replace(",", ""));
    }

    private static long nowMicros() {
        java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() * 1_000_000 + now.getNano() / 1_000;
    }
}
