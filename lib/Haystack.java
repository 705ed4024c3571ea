package lib;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.OptionalLong;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * The haystack: a file of zeros with one 8-byte needle in its last aligned slot.
 *
 * <p>Every byte is really written, so the file system allocates real blocks: a sparse file would
 * read as zeros without touching a disk and make every cold-cache figure a lie. The file is
 * written under a temporary name and only appears under its real name once complete and synced,
 * so a creation that is interrupted never leaves half a haystack where a whole one is expected.
 * A creation killed outright leaves its hidden {@code .NAME.partial-PID} file behind; the next
 * creation of that name in that directory deletes it, once no process with that id is alive.
 * Nothing here ever truncates, overwrites or writes to a file that exists already.
 */
public final class Haystack {

    /** The needle: "!!ELDEEN" in memory, "NEEDLE!!" when read as a little-endian long's hex. */
    public static final long NEEDLE = 0x4E4545444C452121L;
    public static final long DEFAULT_BYTES = 4L << 30;
    public static final Path DEFAULT_PATH = Path.of("haystack.bin");

    private static final int WRITE_BYTES = 1 << 20;
    private static final long SPARE_DISK_BYTES = 64L << 20;
    private static final String PARTIAL_MARK = ".partial-";

    private Haystack() {}

    /** Where the needle of a haystack of {@code bytes} sits. */
    public static long needleOffset(long bytes) {
        return bytes - Long.BYTES;
    }

    /**
     * The file a command is asked to search: an existing regular, readable file is taken as it is; a
     * missing one becomes a new haystack of {@code requestedBytes} (4 GiB if empty), announced on
     * {@code err}. Anything else is refused with one line, before a byte is written: a symbolic link
     * to nothing, a directory, a pipe or device, an unreadable file, an existing file of another size
     * than the one asked for.
     */
    public static Path findOrCreate(Path path, OptionalLong requestedBytes, PrintStream err) throws IOException {
        if (Files.isSymbolicLink(path) && !Files.exists(path)) {
            throw new UserMistakeException(path + " is a symbolic link to nothing; refusing to create a file through it");
        }
        if (!Files.exists(path)) {
            long bytes = requestedBytes.orElse(DEFAULT_BYTES);
            checkCreatable(path, bytes); // a refusal is one line, not "creating..." then an error
            err.println("creating a " + Sizes.human(bytes) + " haystack at " + path + " (needle at offset "
                    + needleOffset(bytes) + ")");
            create(path, bytes);
            return path;
        }
        if (Files.isDirectory(path)) {
            throw new UserMistakeException(path + " is a directory, not a file");
        }
        if (!Files.isRegularFile(path)) {
            throw new UserMistakeException(path + " is not a regular file (a pipe or a device cannot be timed as a haystack)");
        }
        if (!Files.isReadable(path)) {
            throw new UserMistakeException("cannot read " + path + ": permission denied");
        }
        if (requestedBytes.isPresent() && Files.size(path) != requestedBytes.getAsLong()) {
            throw new UserMistakeException(path + " exists with " + Files.size(path) + " bytes, not the --size "
                    + requestedBytes.getAsLong() + " you asked for; it is left as it is (choose another FILE for a new haystack)");
        }
        return path;
    }

    /**
     * Creates a haystack of exactly {@code bytes} at {@code target}, which must not exist.
     * Checks free space first; on any failure removes its partial file and throws.
     */
    public static void create(Path target, long bytes) throws IOException {
        Path directory = checkCreatable(target, bytes);
        removeStalePartials(target);
        Path partial = partialPath(target, ProcessHandle.current().pid());
        Thread removeOnExit = new Thread(() -> deleteQuietly(partial)); // Ctrl-C during creation
        Runtime.getRuntime().addShutdownHook(removeOnExit);
        try {
            writeZerosAndNeedle(partial, bytes);
            publish(partial, target);
        } catch (UserMistakeException e) {
            deleteQuietly(partial);
            throw e;
        } catch (IOException e) {
            deleteQuietly(partial);
            throw new IOException("could not write a " + Sizes.human(bytes) + " haystack in " + directory + ": "
                    + (e.getMessage() != null ? e.getMessage() : e) + " (the partial file was removed)", e);
        } catch (RuntimeException | Error e) {
            deleteQuietly(partial);
            throw e;
        } finally {
            Runtime.getRuntime().removeShutdownHook(removeOnExit);
        }
    }

    /**
     * Everything {@link #create} checks before it writes a byte: a sensible size, an existing
     * directory, no file under the name, enough free space. Returns the directory.
     */
    public static Path checkCreatable(Path target, long bytes) throws IOException {
        if (bytes < Long.BYTES || bytes % Long.BYTES != 0) {
            throw new UserMistakeException("a haystack's size must be a positive multiple of 8 bytes, not " + bytes);
        }
        Path directory = target.toAbsolutePath().getParent();
        if (directory == null || !Files.isDirectory(directory)) {
            throw new UserMistakeException("cannot create " + target + ": " + directory + " is not an existing directory");
        }
        if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            throw new UserMistakeException(target + " already exists; a haystack is never written over a file");
        }
        long usable = Files.getFileStore(directory).getUsableSpace();
        if (usable < bytes + SPARE_DISK_BYTES) {
            throw new UserMistakeException("not enough disk space for a " + Sizes.human(bytes) + " haystack in " + directory
                    + " (" + Sizes.human(usable) + " free)");
        }
        return directory;
    }

    /** Where a creation by process {@code pid} writes before the file gets its real name. */
    public static Path partialPath(Path target, long pid) {
        return target.toAbsolutePath().resolveSibling("." + target.getFileName() + PARTIAL_MARK + pid);
    }

    /**
     * Deletes the partial files of earlier creations of {@code target} whose process is gone
     * (killed, or the machine lost power): only files this class names, only of dead processes.
     */
    static void removeStalePartials(Path target) throws IOException {
        String prefix = "." + target.getFileName() + PARTIAL_MARK;
        try (DirectoryStream<Path> partials = Files.newDirectoryStream(target.toAbsolutePath().getParent(),
                entry -> entry.getFileName().toString().startsWith(prefix))) { // not a glob: names may hold [ or *
            for (Path partial : partials) {
                String pid = partial.getFileName().toString().substring(prefix.length());
                if (pid.matches("\\d{1,18}") && ProcessHandle.of(Long.parseLong(pid)).isEmpty()
                        && Files.isRegularFile(partial, LinkOption.NOFOLLOW_LINKS)) {
                    deleteQuietly(partial);
                }
            }
        }
    }

    private static void writeZerosAndNeedle(Path partial, long bytes) throws IOException {
        ByteBuffer zeros = ByteBuffer.allocateDirect(WRITE_BYTES);
        try (FileChannel channel = FileChannel.open(partial, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
             ProgressBar progress = progressBar(bytes)) {
            for (long position = 0; position < bytes; ) {
                zeros.clear().limit((int) Math.min(WRITE_BYTES, bytes - position));
                position += channel.write(zeros, position);
                progress.stepTo(position >> 20);
            }
            ByteBuffer needle = ByteBuffer.allocate(Long.BYTES).order(ByteOrder.LITTLE_ENDIAN).putLong(0, NEEDLE);
            channel.write(needle, needleOffset(bytes));
            channel.force(true); // on disk before it gets its real name
        }
    }

    /** Gives the finished file its real name, failing rather than replacing anything there. */
    private static void publish(Path partial, Path target) throws IOException {
        try {
            Files.createLink(target, partial); // atomic, and refuses an existing target
            Files.delete(partial);
        } catch (FileAlreadyExistsException e) {
            throw new UserMistakeException(target + " appeared while the haystack was being written; left it alone");
        } catch (UnsupportedOperationException | IOException noHardLinks) {
            if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
                throw new UserMistakeException(target + " appeared while the haystack was being written; left it alone");
            }
            Files.move(partial, target); // without REPLACE_EXISTING: fails if the target exists
        }
    }

    private static ProgressBar progressBar(long bytes) {
        return new ProgressBarBuilder()
                .setTaskName("writing haystack")
                .setInitialMax(bytes >> 20)
                .setUnit(" MiB", 1)
                .setStyle(ProgressBarStyle.ASCII)
                .setUpdateIntervalMillis(System.console() != null ? 250 : 10_000)
                .continuousUpdate()
                .build();
    }

    /** True when the file's last aligned word is the needle: such a file is treated as a haystack. */
    public static boolean endsWithNeedle(Path file) throws IOException {
        long bytes = Files.size(file);
        if (bytes < Long.BYTES || bytes % Long.BYTES != 0) {
            return false;
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer last = ByteBuffer.allocate(Long.BYTES).order(ByteOrder.LITTLE_ENDIAN);
            while (last.hasRemaining() && channel.read(last, needleOffset(bytes) + last.position()) >= 0) {
                // keep reading until 8 bytes or the end
            }
            return !last.hasRemaining() && last.getLong(0) == NEEDLE;
        }
    }

    /** The answer a search of {@code file} must give: its needle's offset if it is a haystack, else unknown. */
    public static OptionalLong expectedAnswer(Path file) throws IOException {
        return endsWithNeedle(file) ? OptionalLong.of(needleOffset(Files.size(file))) : OptionalLong.empty();
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // nothing more can be done; the name says what it is
        }
    }
}
