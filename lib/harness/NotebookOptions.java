package lib.harness;

import lib.cli.CountConverter;
import lib.cli.PathConverter;
import lib.cli.Quote;
import lib.cli.SizeConverter;
import lib.cli.UserMistakeException;
import lib.haystack.Haystack;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import picocli.CommandLine;

/**
 * The options of notebooks/chapters.jsh, which JShell gets as system properties ({@code -Dhaystack=FILE},
 * {@code -Dsize=SIZE}, {@code -Druns=N}), read as a chapter reads FILE, {@code --size} and {@code --runs}:
 * the same converters (lib/cli: digits 0 to 9 for a count, {@link lib.cli.Sizes} for a size, a name the
 * JVM can encode for a path), the same rules ({@link RunOptions#check}) and the same haystack
 * ({@link Haystack#findOrCreate}). A mistake is a {@link UserMistakeException} whose one line names
 * the {@code -D} option it came from, so the notebook can refuse it before it compiles a chapter.
 */
public final class NotebookOptions {

    /** Timed runs of each chapter when {@code -Druns} is not given. */
    public static final int DEFAULT_RUNS = 3;

    private final RunOptions options = new RunOptions();

    private NotebookOptions() {}

    /** The options {@code property} gives ({@code System::getProperty}), converted and checked. */
    public static NotebookOptions read(UnaryOperator<String> property) {
        NotebookOptions read = new NotebookOptions();
        String runs = property.apply("runs");
        if (runs != null) {
            read.options.runs = convert("runs", runs, new CountConverter()::convert);
        }
        String size = property.apply("size");
        if (size != null) {
            read.options.haystack.size = convert("size", size, new SizeConverter()::convert);
        }
        String file = property.apply("haystack");
        if (file != null) {
            if (file.isEmpty()) {
                throw new UserMistakeException("-Dhaystack is empty: name a file, or leave it out for " + Haystack.DEFAULT_PATH);
            }
            read.options.haystack.file = new PathConverter().convert(file);
        }
        try {
            read.options.check();
        } catch (UserMistakeException e) {
            throw asProperty(e);
        }
        return read;
    }

    /** Timed runs of each chapter: {@code -Druns}, else {@link #DEFAULT_RUNS}. */
    public int runs() {
        return options.runsGiven() ? options.runs() : DEFAULT_RUNS;
    }

    /**
     * The haystack, checked as a chapter checks FILE, or created at {@code -Dsize} when missing
     * ({@link Haystack#findOrCreate}); an empty file is refused too, as the study refuses it: there
     * is nothing to time.
     */
    public Path findOrCreateFile(PrintStream err) throws IOException {
        Path file;
        try {
            file = Haystack.findOrCreate(options.file(), options.size(), "-Dsize", err);
        } catch (UserMistakeException e) {
            throw asProperty(e);
        }
        Haystack.requireNotEmpty(file, "the notebook");
        return file;
    }

    private static <T> T convert(String name, String value, Function<String, T> converter) {
        try {
            return converter.apply(value);
        } catch (CommandLine.TypeConversionException e) {
            // The converter's line starts with the value in quotes; quoted again here, a control character cannot break the line.
            String quoted = "'" + value + "'";
            String reason = e.getMessage().startsWith(quoted) ? e.getMessage().substring(quoted.length()) : ": " + e.getMessage();
            throw new UserMistakeException("-D" + name + "=" + Quote.name(value) + reason);
        }
    }

    /** A line of the chapters' rules, which name their options (--runs, --size, FILE), with the notebook's names. */
    private static UserMistakeException asProperty(UserMistakeException e) {
        String line = e.getMessage().replaceFirst("^--(runs|size)\\b", "-D$1").replaceFirst("^FILE\\b", "-Dhaystack");
        return new UserMistakeException(line);
    }
}
