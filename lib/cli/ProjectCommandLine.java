package lib.cli;

import java.nio.file.Path;
import picocli.CommandLine;

/** Picocli's command line with the project's converters, for a chapter's options and a lab command's alike. */
public final class ProjectCommandLine {

    private ProjectCommandLine() {}

    /**
     * Picocli's command line for {@code command}: a {@code Path} through {@link PathConverter}, and
     * every {@code int} and {@code Integer} option through {@link CountConverter} (digits 0 to 9 only;
     * a count no int holds is out of range), whether or not the option names it.
     */
    public static CommandLine of(Object command) {
        CountConverter counts = new CountConverter();
        return new CommandLine(command)
                .registerConverter(Path.class, new PathConverter())
                .registerConverter(Integer.class, counts)
                .registerConverter(int.class, counts);
    }
}
