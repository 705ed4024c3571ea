package lib.linux;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.SynchronousQueue;
import java.util.stream.Stream;

/**
 * The one way a chapter or a tool starts another program: so that the kernel kills it (SIGKILL) the
 * moment this process dies, however it dies. Ctrl-C and SIGTERM run a JVM's shutdown hooks, which
 * can stop a child; {@code kill -9} runs nothing, and a child left behind would go on reading the
 * file (chapter 0's {@code cmp}) or appending rows beside a study resumed after.
 *
 * <p>Linux offers this as the parent-death signal, {@code prctl(PR_SET_PDEATHSIG)}, which a process
 * sets on itself and which its {@code exec} keeps. Java cannot run code in a child between its fork
 * and its exec, so the child is started through util-linux's {@code setpriv --pdeathsig KILL --},
 * which sets the signal and then executes the program. Without setpriv, nothing is started.
 *
 * <p>The kernel sends the signal when the <em>thread</em> that started the child ends, not only
 * the process. So every child is started from one thread that lives as long as this JVM: a child
 * started by a short-lived thread (a pool's, a virtual thread's carrier) is not killed with it.
 */
public final class DiesWithThisProcess {

    /** util-linux's setpriv, which sets the parent-death signal of the program it then executes; null where there is none. */
    private static final String SETPRIV = Stream.of("/usr/bin/setpriv", "/bin/setpriv")
            .filter(path -> Files.isExecutable(Path.of(path))).findFirst().orElse(null);

    /** Starts handed to the one thread that starts children. */
    private static final SynchronousQueue<FutureTask<Process>> STARTS = new SynchronousQueue<>();

    static {
        Thread starter = Thread.ofPlatform().daemon().name("starts children under the parent-death signal").unstarted(() -> {
            while (true) {
                try {
                    STARTS.take().run(); // a FutureTask keeps what the start threw: this thread never ends
                } catch (InterruptedException ignored) {
                    // it lives as long as the JVM
                }
            }
        });
        starter.start();
    }

    private DiesWithThisProcess() {}

    /**
     * Starts {@code builder}'s program, as {@link ProcessBuilder#start} does, but under the
     * parent-death signal: its command is prefixed with {@link #prefix}. {@code builder} itself is
     * left as it was.
     */
    public static Process start(ProcessBuilder builder) throws IOException {
        List<String> program = List.copyOf(builder.command());
        ProcessBuilder guarded = new ProcessBuilder(guarded(program))
                .directory(builder.directory())
                .redirectInput(builder.redirectInput())
                .redirectOutput(builder.redirectOutput())
                .redirectError(builder.redirectError())
                .redirectErrorStream(builder.redirectErrorStream());
        guarded.environment().clear();
        guarded.environment().putAll(builder.environment());
        FutureTask<Process> start = new FutureTask<>(guarded::start);
        try {
            STARTS.put(start);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted before " + program.getFirst() + " was started");
        }
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return start.get(); // handed over, it is being started: wait for it, so that no child goes unowned
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw new IOException("cannot start " + program.getFirst() + ": " + e.getCause(), e.getCause());
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** {@code setpriv --pdeathsig KILL --}: what every child's command starts with. */
    public static List<String> prefix() throws IOException {
        if (SETPRIV == null) {
            throw new IOException("util-linux's setpriv is not installed (/usr/bin/setpriv): without it no program is started, "
                    + "since one could outlive this process");
        }
        return List.of(SETPRIV, "--pdeathsig", "KILL", "--");
    }

    private static List<String> guarded(List<String> program) throws IOException {
        if (program.isEmpty()) {
            throw new IOException("no program to start");
        }
        List<String> command = new ArrayList<>(prefix());
        command.addAll(program);
        return command;
    }
}
