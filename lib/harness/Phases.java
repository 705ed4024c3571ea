package lib.harness;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * clock in {@link #LAUNCHED_ENV} and {@link #EXEC_ENV}, and its process id, which the JVM it
 * execs keeps, in {@link #LAUNCHER_PID_ENV}), otherwise the process's start as the kernel recorded
 * it, to its clock tick of 10 ms, and {@code jvm_s} is left out.
 */
public final class Phases {

    /** Set by {@code ./jbang}: its own start and the moment it exec'd the chapter's JVM, as bash's EPOCHREALTIME (seconds, microseconds). */
    public static final String LAUNCHED_ENV = "HAYSTACK_LAUNCHED_EPOCH", EXEC_ENV = "HAYSTACK_EXEC_EPOCH";
    /** Set by {@code ./jbang}: its process id, this JVM's own when the launcher exec'd it, another one when inherited. */
    public static final String LAUNCHER_PID_ENV = "HAYSTACK_LAUNCHER_PID";

    /** The words at the end of the phases line: what its figures are. Scripts read the pairs before it. */
    public static final String LEGEND = "(the _s figures: seconds since launch when each phase ended, not how long it took)";

    /** Clock ticks per second in /proc/self/stat: USER_HZ, 100 on every architecture the JDK runs Linux on. */
    private static final long TICKS_PER_SECOND = 100;

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
        long launched = epochMicros(System.getenv(LAUNCHED_ENV));
        long exec = epochMicros(System.getenv(EXEC_ENV));
        boolean ours = launched > 0 && exec >= launched
                && String.valueOf(ProcessHandle.current().pid()).equals(System.getenv(LAUNCHER_PID_ENV));
        long origin = ours ? launched : processStartMicros();
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

    /**
     * When this process started, in microseconds since the epoch, or -1 where /proc cannot say. Its age
     * is taken on the clock the kernel counts it on, time since boot, and subtracted from now: the
     * JDK's own start instant ({@code ProcessHandle.Info}) adds it to a boot time kept in whole
     * seconds, up to a second off, and costs a fresh JVM about 10 ms.
     */
    public static long processStartMicros() {
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"));
            String uptime = Files.readString(Path.of("/proc/uptime"));
            long now = nowMicros();
            // The fields after the command's name, which is in parentheses and may hold any character: state is field 3, starttime 22.
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long startedTicks = Long.parseLong(fields[22 - 3]);
            long upMicros = Math.round(Double.parseDouble(uptime.substring(0, uptime.indexOf(' '))) * 1e6);
            return now - (upMicros - startedTicks * 1_000_000 / TICKS_PER_SECOND);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static long nowMicros() {
        java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() * 1_000_000 + now.getNano() / 1_000;
    }
}
