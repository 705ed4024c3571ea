package lib.cli;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * Whether an output ({@code --csv}, {@code --flamegraphs}) can be written, asked before the first
 * run: a figure measured for minutes and then lost to a read-only file is a waste, and the reason
 * ("read-only", "permission denied") is worth more than a bare path.
 */
public final class OutputCheck {

    private OutputCheck() {}

    /**
     * Refuses, with one line naming {@code option}, an output at {@code path} that cannot be
     * written: an existing file or directory we may not write, on a read-only file system, or a
     * missing one whose nearest existing directory we may not write in (directories on the way
     * are created when the output is written).
     */
    /**
     * As {@link #requireWritable}, for an output that is one file (a {@code --csv}): refuses too, in one line naming
     * {@code option} and the file, a directory, anything but a regular file (a dangling link, a pipe), and a file whose
     * directory does not exist, which is never made. So a tool reads no header of a folder, and never learns of a
     * missing folder only when it writes, after its measurements.
     */
    public static void requireWritableFile(String option, Path file) throws IOException {
        String what = option + " " + Quote.name(file);
        if (Files.isDirectory(file)) {
            throw new UserMistakeException(what + " is a directory");
        }
        if (Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            if (!Files.isRegularFile(file)) {
                throw new UserMistakeException(what + " is not a regular file");
            }
        } else if (file.toAbsolutePath().getParent() == null || !Files.isDirectory(file.toAbsolutePath().getParent())) {
            throw new UserMistakeException(what + ": its directory does not exist");
        }
        requireWritable(option, file);
    }

    public static void requireWritable(String option, Path path) throws IOException {
        Path existing = path.toAbsolutePath();
        while (existing.getParent() != null && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
            existing = existing.getParent();
        }
        String what = option + " " + Quote.name(path);
        boolean itself = existing.equals(path.toAbsolutePath());
        if (!itself && !Files.isDirectory(existing)) {
            throw new UserMistakeException(what + ": " + Quote.name(existing) + " is not a directory");
        }
        FileStore store = Files.getFileStore(existing);
        if (store.isReadOnly()) {
            throw new UserMistakeException(what + (itself ? "" : ": " + Quote.name(existing)) + " is on a read-only file system");
        }
        if (!Files.isWritable(existing)) {
            throw new UserMistakeException(itself
                    ? what + " is read-only (permission denied)"
                    : what + ": permission denied to write in " + Quote.name(existing));
        }
    }
}
