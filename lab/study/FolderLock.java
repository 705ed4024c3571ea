import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import lib.cli.Quote;
import lib.cli.UserMistakeException;

/**
 * One study at a time in a machine's results folder: two at once would append to the same CSVs,
 * both write a new CSV's header, and share the report's partial file. A study holds this lock
 * from its first write to its end; a second one is refused in one line that names the first one's
 * process id.
 *
 * <p>The lock is the operating system's ({@code fcntl}), on the file {@code .study.lock} in the
 * folder, which holds the holder's process id while it runs. The system releases it when its holder
 * ends, however it ends, so a killed study never leaves the folder locked.
 *
 * <p>Two rules keep this lock a lock. A process loses every {@code fcntl} lock it holds on a file the
 * moment it closes <em>any</em> descriptor of that file, so the lock file is read and written only
 * through the one channel that holds the lock, never opened again. And the file is never removed:
 * a study that opened it just before its holder removed it would lock a file no longer in the
 * folder, while a third study locked the new one. The holder empties it when it is done.
 */
final class FolderLock implements AutoCloseable {

    static final String FILE_NAME = ".study.lock";
    /** A process id has at most 19 digits; anything longer is not a lock file of ours. */
    private static final int MOST_BYTES = 32;

    private final FileChannel channel;
    private final FileLock lock;

    private FolderLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** Locks {@code folder} (which exists) for this process, or refuses in one line naming the holder. */
    static FolderLock acquire(Path folder) throws IOException {
        Path path = folder.resolve(FILE_NAME);
        if (Files.exists(path, LinkOption.NOFOLLOW_LINKS) && !Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
            throw new UserMistakeException(Quote.name(path) + " is not a study's lock file; left it alone");
        }
        FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE,
                LinkOption.NOFOLLOW_LINKS);
        try {
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null; // this very process holds it already
            }
            String holder = holder(channel);
            if (lock == null) {
                channel.close();
                throw new UserMistakeException("another study (" + (holder.isEmpty() ? "its process id not written yet" : "PID " + holder)
                        + ") is writing into " + Quote.name(folder) + "; wait for it to end, or stop it, then start this one again");
            }
            if (!holder.isEmpty() && !holder.matches("\\d{1,19}")) {
                channel.close();
                throw new UserMistakeException(Quote.name(path) + " is not a study's lock file; left it alone");
            }
            channel.truncate(0);
            channel.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)), 0);
            return new FolderLock(channel, lock);
        } catch (IOException e) {
            channel.close();
            throw lib.cli.IoMessage.naming(path, e); // a full disk's message names no file
        } catch (RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /** The process id in the lock file, read through the channel that holds (or tried) the lock; "" when none. */
    private static String holder(FileChannel channel) throws IOException {
        ByteBuffer content = ByteBuffer.allocate(MOST_BYTES + 1);
        while (content.hasRemaining() && channel.read(content, content.position()) > 0) {
            // a short read is possible; read on until the end of the file or the buffer
        }
        return content.position() > MOST_BYTES ? "?" : new String(content.array(), 0, content.position(), StandardCharsets.US_ASCII).strip();
    }

    /** Empties the lock file while still holding it, then lets go. */
    @Override
    public void close() throws IOException {
        try {
            channel.truncate(0);
        } finally {
            try {
                lock.release();
            } finally {
                channel.close();
            }
        }
    }
}
