package lab.tools;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;
import lib.linux.DiesWithThisProcess;

/**
 * A program the tools start and wait for: a chapter, a wall probe, a notebook, {@code cmp}, the Go
 * benchmark, fio, the C yardstick, Chromium. Every one of them is started here, the same way:
 *
 * <ul>
 *   <li>a line first says what is being waited for, and for how long at most;
 *   <li>its stdout and stderr are relayed line by line as they come, and only the last
 *       {@link #TAIL_LINES} lines of each, each cut at {@link #MAX_LINE_CHARS}, are kept for reading
 *       afterwards: a child that prints without end cannot fill our memory;
 *   <li>it gets a time limit, after which it and its own children are stopped, and the caller says so;
 *   <li>Ctrl-C or a kill of the tool stops it too, so no child outlives the tool: SIGINT and SIGTERM
 *       through the tool's shutdown hook, and SIGKILL, which runs no hook, through the kernel's
 *       parent-death signal ({@link DiesWithThisProcess}, the one way a chapter or a tool starts a
 *       program): a child whose tool dies is killed with it, so it never appends a row beside a resumed study.
 * </ul>
 *
 * A chapter is always started as a user starts it, {@code ./jbang variants/VNN….java …}, so that the
 * JVM options of its header (such as the mapped chapters' {@code -XX:ErrorFile}) hold.
 */
public final class ChildProcess {

    /** Longer lines are cut here: a child printing without newlines cannot fill our memory. */
    public static final int MAX_LINE_CHARS = 8 * 1024;
    /** Lines of each stream kept for reading once the child ended: a summary line, the last error, a table. */
    public static final int TAIL_LINES = 200;
    /**
     * The slowest a child may read its file before it is taken for hung: a tenth of the slowest
     * chapter's warm speed (chapter 2, about 170 MB/s on a busy 2-core VM) and below a spinning
     * disk's sequential read, so only a child that has stopped reading ever meets its limit.
     */
    public static final long SLOWEST_BYTES_PER_SECOND = 20_000_000;
    /** Start-up of a JVM through ./jbang: compiling the script, on first use resolving its dependencies. */
    public static final Duration JBANG_START_UP = Duration.ofMinutes(5);
    /** Start-up of a native program (cmp, the Go benchmark): a process, no compiler. */
    public static final Duration PROGRAM_START_UP = Duration.ofSeconds(30);
    /** After SIGTERM, how long a child has to end before it is killed outright. */
    private static final Duration GRACE = Duration.ofSeconds(5);
    /** After the child ended, how long its relays may take to pass on what is still in the pipes. */
    private static final Duration DRAIN = Duration.ofSeconds(10);

    /** Every child running now, stopped by one shutdown hook when the tool is interrupted. */
    private static final Set<Process> RUNNING = ConcurrentHashMap.newKeySet();

    /** Set when the tool is being stopped (SIGTERM, Ctrl-C): from then on no child is started or waited on as if nothing happened. */
    private static volatile boolean stopping;

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            stopping = true;
            RUNNING.forEach(ChildProcess::stop);
        }));
    }

    /** A child's exit status when a signal ended it: 128 + SIGINT (Ctrl-C), 128 + SIGTERM. */
    private static final Set<Integer> STOPPED_BY_SIGNAL = Set.of(128 + 2, 128 + 15);

    /**
     * The tool, or the child it waited for, was stopped by a signal: whoever stopped it wants it to
     * end, so the tool ends here rather than going on to its next step.
     */
    public static final class StoppedException extends IOException {
        public StoppedException(String message) {
            super(message);
        }
    }

    /** Whether the tool is being stopped by a signal; a tool checks it before each step it takes without a child. */
    public static boolean stopping() {
        return stopping;
    }

    /** How a child ended: its exit status (or none, when it was stopped at its limit), and the last lines of its stdout and stderr. */
    public record Ended(String what, Duration limit, int status, boolean timedOut, List<String> stdout, List<String> stderr) {

        /** One line for a child stopped at its limit. */
        public String timeOutLine() {
            return what + " was still running after " + human(limit) + " (its time limit); stopped it";
        }

        /** The last stderr line that {@code wanted} accepts, stripped. */
        public Optional<String> lastError(Predicate<String> wanted) {
            return stderr.reversed().stream().filter(wanted).map(String::strip).findFirst();
        }
    }

    private final List<String> command;
    private final Map<String, String> environment = new LinkedHashMap<>();
    private Duration limit = PROGRAM_START_UP;
    private Consumer<String> stdoutRelay = line -> {};
    private Consumer<String> stderrRelay = line -> {};

    private ChildProcess(List<String> command) {
        this.command = List.copyOf(command);
    }

    public static ChildProcess of(List<String> command) {
        return new ChildProcess(command);
    }

    /** {@code ./jbang variants/CHAPTER.java ARGS}: a chapter as a user starts it, with its header's JVM options. */
    public static ChildProcess chapter(String chapter, List<String> args) {
        return jbang(Path.of("variants", chapter + ".java").toString(), args);
    }

    /** The program {@code name} in the first directory of PATH that has it executable, as a shell would find it. */
    public static Optional<Path> onPath(String name) {
        return java.util.Arrays.stream(System.getenv().getOrDefault("PATH", "").split(":")).filter(dir -> !dir.isEmpty())
                .map(dir -> Path.of(dir, name)).filter(java.nio.file.Files::isExecutable).findFirst();
    }

    /** Refuses, in one line, a tool that starts chapters from anywhere but the project's root, where {@code ./jbang} and {@code variants/} are. */
    public static void requireProjectRoot() {
        if (!java.nio.file.Files.isExecutable(Path.of("jbang")) || !java.nio.file.Files.isDirectory(Path.of("variants"))) {
            throw new lib.cli.UserMistakeException("run it from the project's root directory (where ./jbang and variants/ are)");
        }
    }

    /** {@code ./jbang SCRIPT ARGS}, from the project's root ({@link #requireProjectRoot}). */
    public static ChildProcess jbang(String script, List<String> args) {
        List<String> command = new ArrayList<>(List.of("./jbang", script));
        command.addAll(args);
        return new ChildProcess(command);
    }

    public List<String> command() {
        return command;
    }

    public ChildProcess environment(String name, String value) {
        environment.put(name, value);
        return this;
    }

    /** At most {@code startUp}, plus {@code bytesRead} at {@link #SLOWEST_BYTES_PER_SECOND}. */
    public ChildProcess timeLimit(Duration startUp, long bytesRead) {
        this.limit = startUp.plusSeconds(Math.ceilDiv(Math.max(0, bytesRead), SLOWEST_BYTES_PER_SECOND));
        return this;
    }

    /** Each line of its stdout, as it comes (by default, only kept). */
    public ChildProcess relayOut(Consumer<String> relay) {
        this.stdoutRelay = relay;
        return this;
    }

    /** Each line of its stderr, as it comes (by default, only kept). */
    public ChildProcess relayErr(Consumer<String> relay) {
        this.stderrRelay = relay;
        return this;
    }

    /**
     * Runs it to its end or its time limit. {@code notes} first gets one line saying that the tool
     * waits for {@code what}, and for how long at most.
     */
    public Ended run(String what, Consumer<String> notes) throws IOException, InterruptedException {
        if (stopping) {
            throw new StoppedException("stopped by a signal before " + what);
        }
        notes.accept("waiting for " + what + " (at most " + human(limit) + ")");
        ProcessBuilder builder = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        builder.environment().putAll(environment);
        Process process = DiesWithThisProcess.start(builder);
        RUNNING.add(process);
        try {
            Deque<String> out = new ArrayDeque<>(), err = new ArrayDeque<>();
            Thread outRelay = relay(process.getInputStream(), stdoutRelay, out);
            Thread errRelay = relay(process.getErrorStream(), stderrRelay, err);
            boolean ended = process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS);
            if (!ended) {
                stop(process);
            }
            // A grandchild that keeps the pipes open is not waited for: what was relayed is kept.
            outRelay.join(DRAIN);
            errRelay.join(DRAIN);
            if (stopping || (ended && STOPPED_BY_SIGNAL.contains(process.exitValue()))) {
                throw new StoppedException(what + " was stopped by a signal" + (stopping ? ", and so is this tool" : " (status "
                        + process.exitValue() + ")") + "; what finished before it is kept");
            }
            return new Ended(what, limit, ended ? process.exitValue() : -1, !ended, snapshot(out), snapshot(err));
        } finally {
            RUNNING.remove(process);
        }
    }

    /** "45 s", "12 min 30 s", "1 h 5 min". */
    public static String human(Duration duration) {
        long seconds = duration.toSeconds();
        if (seconds < 60) {
            return seconds + " s";
        }
        if (seconds < 3600) {
            return seconds / 60 + " min" + (seconds % 60 == 0 ? "" : " " + seconds % 60 + " s");
        }
        return String.format(Locale.ROOT, "%d h %d min", seconds / 3600, seconds % 3600 / 60);
    }

    /** SIGTERM to the child and every process it started, then SIGKILL to those still there after {@link #GRACE}. */
    private static void stop(Process process) {
        List<ProcessHandle> family = new ArrayList<>(process.descendants().toList()); // before the parent is gone
        family.add(process.toHandle());
        family.forEach(ProcessHandle::destroy);
        try {
            process.waitFor(GRACE.toMillis(), TimeUnit.MILLISECONDS);
            Thread.sleep(100); // its children, told at the same time, get a moment too
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        family.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }

    /** Reads {@code stream} line by line, each cut at {@link #MAX_LINE_CHARS}, into {@code relay} and {@code tail}. */
    private static Thread relay(InputStream stream, Consumer<String> relay, Deque<String> tail) {
        return Thread.ofVirtual().start(() -> {
            try (Reader in = new InputStreamReader(stream, StandardCharsets.UTF_8)) {
                StringBuilder line = new StringBuilder();
                boolean cut = false;
                char[] buffer = new char[8192];
                for (int n; (n = in.read(buffer)) > 0; ) {
                    for (int i = 0; i < n; i++) {
                        char c = buffer[i];
                        if (c == '\n') {
                            pass(line + (cut ? " [cut]" : ""), relay, tail);
                            line.setLength(0);
                            cut = false;
                        } else if (line.length() < MAX_LINE_CHARS) {
                            line.append(c);
                        } else {
                            cut = true;
                        }
                    }
                }
                if (!line.isEmpty()) {
                    pass(line + (cut ? " [cut]" : ""), relay, tail);
                }
            } catch (IOException ignored) {
                // the child is gone; what it said has been passed on
            }
        });
    }

    private static void pass(String line, Consumer<String> relay, Deque<String> tail) {
        synchronized (tail) {
            tail.addLast(line);
            if (tail.size() > TAIL_LINES) {
                tail.removeFirst();
            }
        }
        relay.accept(line);
    }

    private static List<String> snapshot(Deque<String> tail) {
        synchronized (tail) {
            return List.copyOf(tail);
        }
    }
}
