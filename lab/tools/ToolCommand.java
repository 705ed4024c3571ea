package lab.tools;

import java.io.IOException;
import lib.cli.IoMessage;
import lib.cli.PathConverter;
import lib.cli.ProjectCommandLine;
import lib.cli.UserMistakeException;
import java.io.PrintStream;
import java.io.PrintWriter;

/**
 * The command line of a tool of the study, the yardsticks or the experiments: picocli runs it, and any mistake of the user's (a bad
 * option, a {@link UserMistakeException}, an {@link IOException} such as a missing file) ends it
 * with one line, {@code NAME: message}, and exit status 2; an IOException's line names both the file
 * and the reason ({@link IoMessage}). Only a bug prints a stack trace.
 */
public final class ToolCommand {

    public static final int ERROR = 2;

    private ToolCommand() {}

    /** Runs {@code command} on {@code args} and exits with its status. */
    public static void run(String name, Object command, String[] args) {
        System.exit(execute(name, command, args, System.out, System.err));
    }

    /** Runs {@code command} on {@code args}, picocli's output and the line of a failure to the streams given (a test's): the exit status. */
    public static int execute(String name, Object command, String[] args, PrintStream out, PrintStream err) {
        return ProjectCommandLine.of(command)
                .setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(err, true))
                .setParameterExceptionHandler((e, ignored) -> {
                    err.println(name + ": " + PathConverter.message(e));
                    return ERROR;
                })
                .setExecutionExceptionHandler((e, ignoredLine, ignoredResult) -> fail(name, e, err))
                .execute(args);
    }

    /**
     * The one line {@code e} ends the tool {@code name} with, {@code NAME: message}; null for a bug,
     * which deserves its stack trace instead.
     */
    public static String line(String name, Throwable e) {
        return switch (e) {
            case UserMistakeException mistake -> name + ": " + (mistake.getMessage() != null ? mistake.getMessage() : mistake.toString());
            case IOException io -> name + ": " + IoMessage.of(io); // the file and the reason, whichever of them Java left out
            default -> null;
        };
    }

    /** Says {@code e} in one line, or with its stack trace when it is a bug; the exit status. */
    private static int fail(String name, Throwable e, PrintStream err) {
        String line = line(name, e);
        if (line == null) {
            e.printStackTrace(err); // not the user's mistake: a bug deserves its stack trace
        } else {
            err.println(line);
        }
        return ERROR;
    }
}
