import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import lib.cli.IoMessage;
import lab.tools.ToolCommand;
import lib.cli.UserMistakeException;
import org.junit.jupiter.api.Test;

/**
 * Every study tool's I/O failure is one line that names both the file and the reason. Java's own
 * messages keep one of the two: an AccessDeniedException's is the path alone, and a write that
 * fails on a full disk names no file. (As root, permissions do not deny: these are the exceptions
 * the JDK throws for a normal account, made here.)
 */
class ToolCommandTest {

    @Test
    void aFolderTheAccountCannotWriteIsSaidWithTheReason() {
        assertEquals("Study: permission denied: '/path/r'", ToolCommand.line("Study", new AccessDeniedException("/path/r")));
    }

    @Test
    void aMissingFileIsSaidWithTheReason() {
        assertEquals("VersusGo: no such file: '/path/go/bench'", ToolCommand.line("VersusGo", new NoSuchFileException("/path/go/bench")));
    }

    @Test
    void aFileSystemsReasonIsKeptBesideTheFile() {
        assertEquals("Study: Read-only file system: '/mnt/r/machine.json'",
                ToolCommand.line("Study", new FileSystemException("/mnt/r/machine.json", null, "Read-only file system")));
    }

    @Test
    void aFullDiskNamesTheFileItWasWriting() {
        IOException full = new IOException("No space left on device");
        assertEquals("Study: No space left on device: '/r/m/machine.json'",
                ToolCommand.line("Study", IoMessage.naming(Path.of("/r/m/machine.json"), full)));
        assertEquals("Study: No space left on device", ToolCommand.line("Study", full), "a failure that names no file is said as it is");
    }

    @Test
    void aNameWithANewlineStaysOnOneLine() {
        assertEquals("Study: permission denied: '/path/a\\nb'", ToolCommand.line("Study", new AccessDeniedException("/path/a\nb")));
    }

    @Test
    void aMistakeIsItsOwnLineAndABugHasNone() {
        assertEquals("Study: --only names no chapter", ToolCommand.line("Study", new UserMistakeException("--only names no chapter")));
        assertNull(ToolCommand.line("Study", new IllegalStateException("a bug")));
    }
}
