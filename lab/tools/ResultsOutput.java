package lab.tools;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import lib.cli.OutputCheck;
import lib.harness.ResultsCsv;

/**
 * The results CSV a yardstick or an experiment appends to, in a machine folder that may not exist
 * yet. A command refused after it made that folder (a FILE that is a directory, an empty one, a
 * --size that differs, a benchmark that fails to start) would leave an empty folder behind: so the
 * CSV is checked first without making anything ({@link #check}), and its folder made only once
 * nothing is left to refuse ({@link #create}).
 */
public final class ResultsOutput {

    private ResultsOutput() {}

    /**
     * Refuses, in one line and creating nothing, a CSV that could not be appended to: a foreign or
     * unwritable file, FILE itself, or a folder that could not be made (no permission, a read-only
     * file system, a file on the way).
     */
    public static void check(Path csv, Path searched) throws IOException {
        Path folder = csv.toAbsolutePath().getParent();
        if (Files.isDirectory(folder)) {
            ResultsCsv.checkWritable(csv, searched);
        } else {
            OutputCheck.requireWritable("--results", folder);
        }
    }

    /** Makes the CSV's folder, once every check of the command has passed, and checks the CSV again, now that it can be. */
    public static void create(Path csv, Path searched) throws IOException {
        Files.createDirectories(csv.toAbsolutePath().getParent());
        ResultsCsv.checkWritable(csv, searched);
    }
}
