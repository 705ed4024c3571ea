import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import lib.cli.UserMistakeException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The study's lock (lab/study/FolderLock) still holds once it is taken: the system drops every
 * {@code fcntl} lock a process holds on a file when that process closes any descriptor of it, so
 * a lock that reopened its file to read it would lock nothing.
 */
class FolderLockTest {

    @TempDir
    Path folder;

    /** The second study's output, outside the locked folder and removed with it. */
    @TempDir
    Path logs;

    /** A second study, as far as the lock goes: its own process, trying to lock the folder given. */
    public static final class SecondStudy {
        public static void main(String[] args) throws IOException {
            try (FolderLock locked = FolderLock.acquire(Path.of(args[0]))) {
                System.out.println("locked");
            } catch (UserMistakeException refused) {
                System.out.println(refused.getMessage());
                System.exit(2);
            }
        }
    }

    private Subprocess.Result secondStudy() throws IOException, InterruptedException {
        return Subprocess.run(Subprocess.javaCommand(List.of(), SecondStudy.class.getName(), folder.toString()),
                logs.resolve("second-study-" + System.nanoTime()));
    }

    @Test
    void aTakenLockIsHeldUntilClosedAndRefusesAnotherProcess() throws Exception {
        Path lockFile = folder.resolve(FolderLock.FILE_NAME);
        long pid = ProcessHandle.current().pid();
        // Nothing here opens the lock file while the lock is held: that would drop this JVM's lock, as it dropped the study's.
        try (FolderLock held = FolderLock.acquire(folder)) {
            if (Files.isReadable(Path.of("/proc/locks"))) {
                long inode = (Long) Files.getAttribute(lockFile, "unix:ino");
                List<String> locks = Files.readAllLines(Path.of("/proc/locks"));
                assertTrue(locks.stream().anyMatch(line -> line.contains(" POSIX ") && line.contains(":" + inode + " ")),
                        "the system holds a POSIX lock on " + lockFile + " (inode " + inode + "):\n" + String.join("\n", locks));
            }
            Subprocess.Result refused = secondStudy();
            assertEquals(2, refused.exitCode(), refused.toString());
            assertTrue(refused.stdout().contains("another study (PID " + pid + ")"), refused.toString());
        }
        Subprocess.Result afterwards = secondStudy();
        assertEquals(0, afterwards.exitCode(), afterwards.toString());
        assertEquals("locked", afterwards.stdout().strip());
        assertEquals("", Files.readString(lockFile), "emptied, not removed: a removed lock file could be locked twice");
    }

    @Test
    void aLockFileThatIsNoStudysIsLeftAlone() throws Exception {
        Path lockFile = Files.writeString(folder.resolve(FolderLock.FILE_NAME), "not a process id\n");
        UserMistakeException refused = org.junit.jupiter.api.Assertions.assertThrows(UserMistakeException.class,
                () -> FolderLock.acquire(folder));
        assertTrue(refused.getMessage().contains("is not a study's lock file"), refused.getMessage());
        assertEquals("not a process id\n", Files.readString(lockFile));
    }
}
