package lab.results;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import lib.cli.Quote;
import lib.cli.UserMistakeException;
import lib.harness.Machine;

/**
 * The machine folders committed with the project, named in {@code results/committed-machines.txt}:
 * the figures README.md cites. A study never writes that file, so a reader's study cannot change
 * what the README's tables are generated from, and no command measures into a folder named there:
 * a reader whose machine has the name of a committed folder gets a folder of their own,
 * {@code results/NAME-local/}.
 *
 * <p>A results root without the file (a {@code --results DIR} of one's own) commits nothing: every
 * machine folder in it is its own.
 */
public final class CommittedMachines {

    public static final String FILE_NAME = "committed-machines.txt";
    /** A machine's name as lib/harness/Machine makes it: one folder, never a path. */
    private static final Pattern NAME = Pattern.compile("[a-z0-9]+(?:-[a-z0-9]+)*");

    private CommittedMachines() {}

    /** The committed machine folders of {@code root}, in the file's order; empty when it has no list. */
    public static Optional<Set<String>> of(Path root) {
        Path list = root.resolve(FILE_NAME);
        if (!Files.exists(list)) {
            return Optional.empty();
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(list);
        } catch (IOException e) {
            throw new UserMistakeException("cannot read " + Quote.name(list) + ": " + e.getMessage());
        }
        Set<String> names = new LinkedHashSet<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            if (!NAME.matcher(line).matches()) {
                throw new UserMistakeException(list + " line " + (i + 1) + ": " + Quote.name(line)
                        + " is not a machine folder's name (lower-case letters and digits joined by single hyphens)");
            }
            names.add(line);
        }
        return Optional.of(names);
    }

    /** The folder under {@code root} a study of {@code machine} measures into: its name, unless a committed folder has it. */
    public static String studyFolder(Path root, String machine) {
        return of(root).orElse(Set.of()).contains(machine) ? machine + ResultsFolder.OWN_FOLDER_SUFFIX : machine;
    }

    /**
     * The folder under {@code root} that a command measuring this machine appends to: the study's, so
     * that no command adds rows to a folder the book cites. Where that is not the machine's own name,
     * one line on {@code err}, started by {@code command}, says so.
     */
    public static Path ownFolder(Path root, String command, PrintStream err) {
        String machine = Machine.current().name(), folder = studyFolder(root, machine);
        if (!folder.equals(machine)) {
            err.println(command + ": " + root.resolve(machine) + " holds figures committed with the project (see "
                    + root.resolve(FILE_NAME) + "), so this measures into " + root.resolve(folder) + " instead");
        }
        return root.resolve(folder);
    }
}
