import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import lib.Quote;
import lib.UserMistakeException;

/**
 * One study at a time in a machine's results folder: two at once would append to the same CSVs,
 * both write a new CSV's header, and share the report's partial file. A study holds this lock
 * from its first write to its end; a second one is refused in one line that names the first one's
 * process id.
 *
 * <p>The lock is the operating system's ({@code fcntl}), on the file {@code .study.lock} in the
 * folder, which holds the holder's process id. The system releases it when its holder ends, however
 * it ends, so a killed study never leaves the folder locked. The holder removes the file when it is
 * done; whoever locked a file that was removed meanwhile finds its id missing from the file at that
 * name, and tries again.
 */
final class FolderLock implements AutoCloseable {

    static final String FILE_NAME = ".study.lock";
    private static final int ATTEMPTS = 10;

    private final Path path;
    private final FileChannel channel;
    private final FileLock lock;

    private FolderLock(Path path, FileChannel channel, FileLock lock) {
        this.path = path;
        this.channel = channel;
        this.lock = lock;
    }

    /** Locks {@code folder} (which exists) for this process, or refuses in one line naming the holder. */
    static FolderLock acquire(Path folder) throws IOException {
        Path path = folder.resolve(FILE_NAME);
        String mine = ProcessHandle.current().pid() + "\n";
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            if (Files.exists(path, LinkOption.NOFOLLOW_LINKS) && !Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
                throw new UserMistakeException(Quote.name(path) + " is not a study's lock file; left it alone");
            }
            FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null; // this very process holds it already
            }
            if (lock == null) {
                channel.close();
                String holder = holder(path);
                throw new UserMistakeException("another study (" + (holder.isEmpty() ? "its process id not written yet" : "PID " + holder)
                        + ") is writing into " + Quote.name(folder) + "; wait for it to end, or stop it, then start this one again");
            }
            String before = holder(path);
            if (!before.isEmpty() && !before.matches("\\d{1,19}")) {
                lock.release();
                channel.close();
                throw new UserMistakeException(Quote.name(path) + " is not a study's lock file; left it alone");
            }
            channel.truncate(0);
            channel.write(ByteBuffer.wrap(mine.getBytes(StandardCharsets.US_ASCII)), 0);
            if (holder(path).equals(mine.strip())) {
                return new FolderLock(path, channel, lock);
            }
            lock.release(); // locked a file its last holder removed meanwhile: the lock is the new file's
            channel.close();
        }
        throw new IOException("could not lock " + Quote.name(path) + " in " + ATTEMPTS + " attempts");
    }

    /** The process id in the lock file, or "" when there is none (yet). */
    private static String holder(Path path) throws IOException {
        try {
            byte[] content = Files.readAllBytes(path);
            return content.length > 32 ? "?" : new String(content, StandardCharsets.US_ASCII).strip();
        } catch (NoSuchFileException e) {
            return "";
        }
    }

    /** Removes the lock file while still holding it, then lets go. */
    @Override
    public void close() throws IOException {
        try {
            Files.deleteIfExists(path);
        } finally {
            lock.release();
            channel.close();
        }
    }
}
