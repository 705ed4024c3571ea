package lib.haystack;

import lib.cli.Quote;
import lib.cli.Sizes;
import lib.cli.UserMistakeException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileStore;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
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
 * creation of that name in that directory deletes it, once no process holds its lock.
 * Nothing here ever truncates, overwrites or writes to a file that exists already.
 */
public final class Haystack {

    /** The needle: "!!ELDEEN" in memory, "NEEDLE!!" when read as a little-endian long's hex. */
    public static final long NEEDLE = 0x4E4545444C452121L;
    public static final long DEFAULT_BYTES = 4L << 30;
    public static final Path DEFAULT_PATH = Path.of("haystack.bin");

    private static final int WRITE_BYTES = 1 << 20;
    /** Off a terminal, a haystack smaller than this is written without progress lines: it takes a second or so. */
    private static final long QUIET_BELOW_BYTES = 256L << 20;
    /** Disk space a haystack creation always leaves free. */
    public static final long SPARE_DISK_BYTES = 64L << 20;
    private static final String PARTIAL_MARK = ".partial-";

    private Haystack() {}

    /** Where the needle of a haystack of {@code bytes} sits. */
    public static long needleOffset(long bytes) {
        return bytes - Long.BYTES;
    }

    /**
     * Refuses, in one line, an empty {@code file} given to {@code whoTimesIt} ("a study", "versus-c"), which times
     * reading a file: a file of no bytes has no needle and nothing to time.
     */
    public static void requireNotEmpty(Path file, String whoTimesIt) throws IOException {
        if (Files.size(file) == 0) {
            throw new UserMistakeException(Quote.name(file) + " is empty: " + whoTimesIt + " times reading a file, and there is nothing to read");
        }
    }

    /**
     * The file a command is asked to search: an existing regular, readable file is taken as it is; a
     * missing one becomes a new haystack of {@code requestedBytes} (4 GiB if empty), announced on
     * {@code err}. Anything else is refused with one line, before a byte is written: a symbolic link
     * to nothing, a directory, a pipe or device, an unreadable file, an existing file of another size
     * than the one asked for.
     */
    public static Path findOrCreate(Path path, OptionalLong requestedBytes, PrintStream err) throws IOException {
        return findOrCreate(path, requestedBytes, "--size", err);
    }

    /** As {@link #findOrCreate(Path, OptionalLong, PrintStream)}, for a tool whose size option has another name ({@code sizeOption}). */
    public static Path findOrCreate(Path path, OptionalLong requestedBytes, String sizeOption, PrintStream err) throws IOException {
        checkName(path);
        if (Files.isSymbolicLink(path) && !Files.exists(path)) {
            throw new UserMistakeException(Quote.name(path) + " is a symbolic link to nothing; refusing to create a file through it");
        }
        if (!Files.exists(path)) {
            long bytes = requestedBytes.orElse(DEFAULT_BYTES);
            checkCreatable(path, bytes); // a refusal is one line, not "creating..." then an error
            err.println("creating a " + Sizes.human(bytes) + " haystack at " + Quote.name(path) + " (needle at offset "
                    + needleOffset(bytes) + ")");
            create(path, bytes, err);
            return path;
        }
        if (Files.isDirectory(path)) {
            throw new UserMistakeException(Quote.name(path) + " is a directory, not a file");
        }
        if (!Files.isRegularFile(path)) {
            throw new UserMistakeException(Quote.name(path) + " is not a regular file (a pipe or a device cannot be timed as a haystack)");
        }
        if (!Files.isReadable(path)) {
            throw new UserMistakeException("cannot read " + Quote.name(path) + ": permission denied");
        }
        String fileSystem = Files.getFileStore(path).type();
        if (SIZELESS_FILE_SYSTEMS.contains(fileSystem)) {
            throw new UserMistakeException(Quote.name(path) + " is on " + fileSystem + ", whose files are made up as they are"
                    + " read and do not report their true size (this one says " + Files.size(path) + " bytes); only a file"
                    + " on a real file system can be timed");
        }
        if (requestedBytes.isPresent() && Files.size(path) != requestedBytes.getAsLong()) {
            throw new UserMistakeException(Quote.name(path) + " exists with " + Files.size(path) + " bytes, not the " + sizeOption + " "
                    + requestedBytes.getAsLong() + " you asked for; it is left as it is (choose another FILE for a new haystack)");
        }
        return path;
    }

    /**
     * The kernel's pseudo file systems: a file there is generated on each read, and its size
     * (0 on procfs, 4096 on sysfs) says nothing about what a read returns.
     */
    private static final Set<String> SIZELESS_FILE_SYSTEMS = Set.of("proc", "sysfs", "debugfs", "tracefs", "securityfs",
            "cgroup", "cgroup2", "configfs", "pstore", "efivarfs", "bpf", "fusectl", "binfmt_misc", "devpts", "mqueue");

    /**
     * Refuses a FILE name that cannot be the file the user meant: an empty one, or one holding
     * U+FFFD, which is what the JVM makes of bytes in a command-line argument that are not valid
     * in its encoding (UTF-8 here): the file it would open or create is not the one named.
     */
    private static void checkName(Path path) {
        String name = path.toString();
        if (name.isEmpty()) {
            throw new UserMistakeException("FILE is empty: name a file, or leave it out for " + DEFAULT_PATH);
        }
        if (name.indexOf('\uFFFD') >= 0) {
            throw new UserMistakeException("FILE " + Quote.name(path) + " holds bytes that are not valid "
                    + System.getProperty("sun.jnu.encoding") + " (the JVM shows them as U+FFFD), so it cannot open or create"
                    + " the file you named; rename it, or run with a locale whose encoding the name is in");
        }
    }

    /**
     * Creates a haystack of exactly {@code bytes} at {@code target}, which must not exist.
     * Checks free space first; on any failure removes its partial file and throws.
     */
    public static void create(Path target, long bytes) throws IOException {
        create(target, bytes, System.err);
    }

    /** As {@link #create(Path, long)}, saying on {@code notes} which stale partial files it removed. */
    public static void create(Path target, long bytes, PrintStream notes) throws IOException {
        Path directory = checkCreatable(target, bytes);
        for (Path removed : removeStalePartials(target)) {
            notes.println("removed " + Quote.name(removed) + ", the partial file of a creation that was killed");
        }
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
            throw new IOException("could not write a " + Sizes.human(bytes) + " haystack in " + Quote.name(directory) + ": "
                    + reason(e) + " (the partial file was removed)", e);
        } catch (RuntimeException | Error e) {
            deleteQuietly(partial);
            throw e;
        } finally {
            Runtime.getRuntime().removeShutdownHook(removeOnExit);
        }
    }

    /**
     * Everything {@link #create} checks before it writes a byte: a sensible size, an existing
     * directory we may look into and write in, no file under the name, enough free space
     * (counting what removing stale partial files would free). Returns the directory.
     */
    public static Path checkCreatable(Path target, long bytes) throws IOException {
        if (bytes < Long.BYTES || bytes % Long.BYTES != 0) {
            throw new UserMistakeException("a haystack's size must be a positive multiple of 8 bytes, not " + bytes);
        }
        Path directory = target.toAbsolutePath().getParent();
        if (directory == null || !Files.isDirectory(directory)) {
            throw new UserMistakeException("cannot create " + Quote.name(target) + ": " + Quote.name(directory)
                    + (directory != null && !Files.notExists(directory)
                    ? " cannot be looked into (permission denied on it or a directory above it)"
                    : " is not an existing directory"));
        }
        if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            throw new UserMistakeException(Quote.name(target) + " already exists; a haystack is never written over a file");
        }
        if (!Files.notExists(target, LinkOption.NOFOLLOW_LINKS)) { // stat failed: neither there nor surely absent
            throw new UserMistakeException("cannot tell whether " + Quote.name(target) + " exists: permission denied to search "
                    + Quote.name(directory));
        }
        FileStore store = Files.getFileStore(directory);
        if (store.isReadOnly()) {
            throw new UserMistakeException("cannot create " + Quote.name(target) + ": " + Quote.name(directory)
                    + " is on a read-only file system");
        }
        if (!Files.isWritable(directory)) {
            throw new UserMistakeException("cannot create " + Quote.name(target) + ": permission denied to write in "
                    + Quote.name(directory));
        }
        long usable = store.getUsableSpace();
        long reclaimable = stalePartials(target).stream().mapToLong(Haystack::sizeOrZero).sum();
        if (bytes > usable + reclaimable - SPARE_DISK_BYTES) { // no sum of bytes: --size can be near Long.MAX_VALUE
            throw new UserMistakeException("not enough disk space for a " + Sizes.human(bytes) + " haystack in "
                    + Quote.name(directory) + " (" + Sizes.human(usable) + " free"
                    + (reclaimable > 0 ? ", plus " + Sizes.human(reclaimable) + " in partial files of killed creations,"
                    + " which would be removed first" : "")
                    + "; " + Sizes.human(SPARE_DISK_BYTES) + " is always left spare)");
        }
        return directory;
    }

    /** Where a creation by process {@code pid} writes before the file gets its real name. */
    public static Path partialPath(Path target, long pid) {
        return target.toAbsolutePath().resolveSibling("." + target.getFileName() + PARTIAL_MARK + pid);
    }

    /**
     * Deletes the partial files of earlier creations of {@code target} that no process is still
     * writing (killed, or the machine lost power), and returns them. A creation holds a lock on
     * its partial file while it writes; a file whose lock is free has no writer, even if a
     * process with the id in its name is alive, and one whose lock is held is left alone even if
     * no such process is visible here (its writer may be in another PID namespace, a container).
     */
    static List<Path> removeStalePartials(Path target) throws IOException {
        List<Path> removed = new ArrayList<>();
        for (Path partial : stalePartials(target)) {
            try (FileChannel channel = FileChannel.open(partial, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
                 FileLock lock = channel.tryLock(0, Long.MAX_VALUE, true)) {
                if (lock != null) { // checked again: a writer may have started since
                    Files.delete(partial);
                    removed.add(partial);
                }
            } catch (IOException | OverlappingFileLockException busy) {
                // written to by this process, or cannot be locked at all: not ours to judge
            }
        }
        return removed;
    }

    /** The partial files of {@code target} whose lock nobody holds: this class's names only, regular files only. */
    private static List<Path> stalePartials(Path target) throws IOException {
        String prefix = "." + target.getFileName() + PARTIAL_MARK;
        List<Path> stale = new ArrayList<>();
        try (DirectoryStream<Path> partials = Files.newDirectoryStream(target.toAbsolutePath().getParent(),
                entry -> entry.getFileName().toString().startsWith(prefix))) { // not a glob: names may hold [ or *
            for (Path partial : partials) {
                String pid = partial.getFileName().toString().substring(prefix.length());
                if (pid.matches("\\d{1,18}") && Files.isRegularFile(partial, LinkOption.NOFOLLOW_LINKS)
                        && !isLocked(partial)) {
                    stale.add(partial);
                }
            }
        }
        return stale;
    }

    private static boolean isLocked(Path partial) {
        try (FileChannel channel = FileChannel.open(partial, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
             FileLock lock = channel.tryLock(0, Long.MAX_VALUE, true)) {
            return lock == null;
        } catch (IOException | OverlappingFileLockException busy) {
            return true; // locked by this very process, or not lockable: treat as someone's
        }
    }

    private static long sizeOrZero(Path file) {
        try {
            return Files.size(file);
        } catch (IOException gone) {
            return 0;
        }
    }

    /** What went wrong, in words: an AccessDeniedException's message is only the file's name. */
    private static String reason(IOException e) {
        if (e instanceof AccessDeniedException denied) {
            return "permission denied (" + Quote.name(Path.of(denied.getFile())) + ")";
        }
        if (e instanceof FileSystemException fileSystem && fileSystem.getReason() != null) {
            return fileSystem.getReason() + (fileSystem.getFile() != null ? " (" + Quote.name(Path.of(fileSystem.getFile())) + ")" : "");
        }
        return e.getMessage() != null ? e.getMessage() : e.toString();
    }

    private static void writeZerosAndNeedle(Path partial, long bytes) throws IOException {
        ByteBuffer zeros = ByteBuffer.allocateDirect(WRITE_BYTES);
        try (FileChannel channel = FileChannel.open(partial, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
             FileLock writing = channel.lock(); // tells a later creation that this partial file is not stale
             Progress progress = progress(bytes)) {
            if (!Files.exists(partial, LinkOption.NOFOLLOW_LINKS)) { // removed as stale before the lock was taken
                throw new IOException("another creation removed " + Quote.name(partial) + " before it could be locked");
            }
            for (long position = 0; position < bytes; ) {
                zeros.clear().limit((int) Math.min(WRITE_BYTES, bytes - position));
                position += channel.write(zeros, position);
                progress.stepTo(position);
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
            throw new UserMistakeException(Quote.name(target) + " appeared while the haystack was being written; left it alone");
        } catch (UnsupportedOperationException | IOException noHardLinks) {
            if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
                throw new UserMistakeException(Quote.name(target) + " appeared while the haystack was being written; left it alone");
            }
            Files.move(partial, target); // without REPLACE_EXISTING: fails if the target exists
        }
    }

    /** How far the writing has come, in bytes. */
    private interface Progress extends AutoCloseable {
        void stepTo(long bytesWritten);

        @Override
        void close();
    }

    /**
     * On a terminal, a live bar. In a log (a test, CI, a study's output file) a bar would be a wall of
     * redrawn lines, so there: a plain line at each quarter, and nothing at all for a small file.
     */
    private static Progress progress(long bytes) {
        if (System.console() != null && System.console().isTerminal()) {
            ProgressBar bar = new ProgressBarBuilder()
                    .setTaskName("writing haystack")
                    .setInitialMax(bytes >> 20)
                    .setUnit(" MiB", 1)
                    .setStyle(ProgressBarStyle.ASCII)
                    .setUpdateIntervalMillis(250)
                    .continuousUpdate()
                    .build();
            return new Progress() {
                public void stepTo(long bytesWritten) {
                    bar.stepTo(bytesWritten >> 20);
                }

                public void close() {
                    bar.close();
                }
            };
        }
        if (bytes < QUIET_BELOW_BYTES) {
            return new Progress() {
                public void stepTo(long bytesWritten) {}

                public void close() {}
            };
        }
        return new Progress() {
            int quartersDone;

            public void stepTo(long bytesWritten) {
                int quarters = (int) (bytesWritten * 4 / bytes);
                if (quarters > quartersDone) {
                    quartersDone = quarters;
                    System.err.println("writing haystack: " + quarters * 25 + " % (" + Sizes.human(bytesWritten) + ")");
                }
            }

            public void close() {}
        };
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
