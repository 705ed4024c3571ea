package lib.counters;

import lib.cli.Quote;
import lib.cli.OutputCheck;
import lib.cli.UserMistakeException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import one.profiler.AsyncProfiler;

/**
 * Flame graphs of the timed runs, from async-profiler running inside this JVM ({@code --profile}).
 *
 * <p>async-profiler samples the stacks of every thread, Java frames and native frames alike, without
 * the safepoint bias of the JDK's own sampling, so a flame graph shows where the time goes: in the
 * kernel loop, in {@code pread}'s copy, in page faults. Its jar on Maven Central carries the native
 * library, which {@link AsyncProfiler#getInstance()} unpacks and loads.
 *
 * <p>The best event is {@code cpu} (perf events, kernel frames included). Where perf events are not
 * allowed, in many containers or with a high {@code kernel.perf_event_paranoid}, async-profiler 4
 * samples {@code cpu} with a timer of its own ({@code ctimer}); should {@code cpu} refuse to start
 * at all, the {@code itimer} event still samples Java and native user frames.
 */
public final class Profiler {

    /** 1 ms between samples: a few searches of a small file still give a readable graph. */
    private static final String INTERVAL = "1ms";
    private static final Path PARANOIA = Path.of("/proc/sys/kernel/perf_event_paranoid");

    private final AsyncProfiler profiler;
    private final String event;
    private boolean started;

    private Profiler(AsyncProfiler profiler, String event) {
        this.profiler = profiler;
        this.event = event;
    }

    /** Loads async-profiler and picks the best event this machine allows; says on {@code err} what it picked. */
    public static Profiler load(PrintStream err) {
        AsyncProfiler profiler;
        try {
            profiler = AsyncProfiler.getInstance();
        } catch (LinkageError | RuntimeException e) { // no library for this platform, or it would not load
            throw new UserMistakeException("--profile: cannot load async-profiler's native library (" + e.getMessage() + ")");
        }
        try {
            profiler.execute("start,event=cpu,interval=" + INTERVAL);
            profiler.stop();
            // Since async-profiler 4.0, "cpu" itself switches to its ctimer timer where perf events are refused.
            err.println("--profile: sampling the cpu event every " + INTERVAL
                    + " (perf events where allowed, else async-profiler's ctimer" + paranoiaNote() + ")");
            return new Profiler(profiler, "cpu");
        } catch (IllegalStateException | IllegalArgumentException | IOException noPerfEvents) {
            err.println("--profile: perf events are not available (" + String.valueOf(noPerfEvents.getMessage()).strip()
                    + paranoiaNote() + "); falling back to the itimer event, which sees no kernel frames");
            return new Profiler(profiler, "itimer");
        }
    }

    /** Starts sampling, or carries on with the same profile after a {@link #pause()}. */
    public void resume() {
        try {
            profiler.execute((started ? "resume" : "start") + ",event=" + event + ",interval=" + INTERVAL);
            started = true;
        } catch (IOException e) {
            throw new IllegalStateException("async-profiler would not start: " + e.getMessage(), e);
        }
    }

    public void pause() {
        profiler.stop();
    }

    /**
     * Fails, before any run, on {@code --flamegraphs} without {@code --profile}, on a {@code --flamegraphs}
     * that is not an existing directory (a missing one is never created: a mistyped path would be), and
     * when {@code --profile} could not write in {@code directory}, the given one or the results folder's
     * (created if missing, as the project's own).
     */
    public static void checkOptions(boolean profile, Path given, Path directory) throws IOException {
        if (given != null && !profile) {
            throw new UserMistakeException("--flamegraphs says where --profile writes its flame graphs: add --profile, or leave it out");
        }
        if (given != null && !Files.isDirectory(given)) {
            throw new UserMistakeException("--flamegraphs " + Quote.name(given) + (Files.exists(given) ? " is not a directory" : ": no such directory"));
        }
        if (profile) {
            checkWritable(directory);
        }
    }

    private static void checkWritable(Path directory) throws IOException {
        if (Files.exists(directory) && !Files.isDirectory(directory)) {
            throw new UserMistakeException("--flamegraphs " + Quote.name(directory) + " is not a directory");
        }
        OutputCheck.requireWritable("--flamegraphs", directory);
    }

    /**
     * Writes everything sampled so far as an HTML flame graph, {@code directory/name.html}, or
     * {@code name-2.html} and so on when that exists: an earlier graph is never overwritten.
     */
    public Path writeFlameGraph(Path directory, String name) throws IOException {
        if (!started) {
            throw new IllegalStateException("nothing was profiled");
        }
        String html = profiler.execute("flamegraph,title=" + name + " (" + event + " samples)");
        Files.createDirectories(directory);
        for (int attempt = 1; ; attempt++) {
            Path target = directory.resolve(attempt == 1 ? name + ".html" : name + "-" + attempt + ".html");
            try {
                return Files.writeString(target, html, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            } catch (FileAlreadyExistsException taken) {
                // keep the earlier graph; try the next name
            }
        }
    }

    private static String paranoiaNote() {
        try {
            return "; kernel.perf_event_paranoid is " + Files.readString(PARANOIA).strip();
        } catch (IOException | RuntimeException unknown) {
            return "";
        }
    }
}
