package lib.cli;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import picocli.CommandLine;

/**
 * Turns a command-line argument into a {@link Path}, refusing in one line of the project's own a
 * name that the JVM cannot encode: in the POSIX locale its encoding is ASCII, and any other
 * character in a name is one it can neither open nor create. (The launcher runs its programs in a
 * UTF-8 locale for this reason; this is what a JVM started without it says.) Registered by
 * the harness (lib.harness.Harness) and the lab's ToolCommand for every {@code Path} option and parameter.
 */
public final class PathConverter implements CommandLine.ITypeConverter<Path> {

    @Override
    public Path convert(String name) {
        try {
            return Path.of(name);
        } catch (InvalidPathException e) {
            throw new UserMistakeException("the name " + Quote.name(name) + " holds characters that are not valid "
                    + System.getProperty("sun.jnu.encoding") + ", this locale's encoding for file names, so the JVM cannot"
                    + " open or create it; run with a UTF-8 locale (LANG=C.UTF-8), or rename the file");
        }
    }

    /**
     * The line to show for a command-line mistake: this class's own where it is the cause, else picocli's. picocli
     * says what is missing before what it did not know, so {@code --bogus} alone reads "Missing required parameter":
     * an argument it did not know, the likelier mistake, is named first.
     */
    public static String message(CommandLine.ParameterException e) {
        if (e.getCause() instanceof UserMistakeException mistake) {
            return mistake.getMessage();
        }
        java.util.List<String> unknown = e.getCommandLine() == null ? java.util.List.of() : e.getCommandLine().getUnmatchedArguments();
        if (e instanceof CommandLine.MissingParameterException && !unknown.isEmpty()) {
            String first = unknown.getFirst();
            return (first.startsWith("-") ? "Unknown option: " : "Unmatched argument: ") + Quote.name(first) + " (and " + e.getMessage() + ")";
        }
        return e.getMessage();
    }
}
