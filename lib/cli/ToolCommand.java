package lib.cli;

import java.io.IOException;
import picocli.CommandLine;

/**
 * The command line of a tool of the study, the yardsticks or the experiments: picocli runs it, and any mistake of the user's (a bad
 * option, a {@link UserMistakeException}, an {@link IOException} such as a missing file) ends it
 * with one line, {@code NAME: message}, and exit status 2. Only a bug prints a stack trace.
 */
public final class ToolCommand {

    public static final int ERROR = 2;

    private ToolCommand() {}

    /** Runs {@code command} on {@code args} and exits with its status. */
    public static void run(String name, Object command, String[] args) {
        CommandLine commandLine = new CommandLine(command)
                .registerConverter(java.nio.file.Path.class, new PathConverter())
                .setParameterExceptionHandler((e, ignored) -> fail(name, PathConverter.message(e)))
                .setExecutionExceptionHandler((e, ignoredLine, ignoredResult) -> fail(name, e));
        System.exit(commandLine.execute(args));
    }

    private static int fail(String name, Throwable e) {
        if (e instanceof UserMistakeException || e instanceof IOException) {
            return fail(name, e.getMessage() != null ? e.getMessage() : e.toString());
        }
        e.printStackTrace(); // not the user's mistake: a bug deserves its stack trace
        return ERROR;
    }

    private static int fail(String name, String message) {
        System.err.println(name + ": " + message);
        return ERROR;
    }
}
