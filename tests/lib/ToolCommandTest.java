import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import lib.cli.IoMessage;
import lab.tools.ToolCommand;
import lib.cli.UserMistakeException;
import java.util.List;
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

    /** A tool that needs a FILE. */
    @picocli.CommandLine.Command(name = "NeedsFile")
    static final class NeedsFile implements java.util.concurrent.Callable<Integer> {
        @picocli.CommandLine.Parameters(index = "0", paramLabel = "FILE")
        String file;

        @Override
        public Integer call() { return 0; }
    }

    /** An unknown option with the FILE left out is named first, not hidden behind "Missing required parameter". */
    @Test
    void anUnknownOptionIsNamedBeforeAMissingFile() {
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        int status = ToolCommand.execute("NeedsFile", new NeedsFile(), new String[] {"--bogus"}, new java.io.PrintStream(new java.io.ByteArrayOutputStream()),
                new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
        assertEquals(ToolCommand.ERROR, status);
        assertEquals("NeedsFile: Unknown option: '--bogus' (and Missing required parameter: 'FILE')", err.toString(java.nio.charset.StandardCharsets.UTF_8).strip());
    }

    @Test
    void aMistakeIsItsOwnLineAndABugHasNone() {
        assertEquals("Study: --only names no chapter", ToolCommand.line("Study", new UserMistakeException("--only names no chapter")));
        assertNull(ToolCommand.line("Study", new IllegalStateException("a bug")));
    }

    /** What a command line printed on stderr, and its status. */
    record Said(int status, String err) {}

    private static Said run(String name, Object command, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int status = ToolCommand.execute(name, command, args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Said(status, err.toString(StandardCharsets.UTF_8));
    }

    /** A count of more digits than an int holds is out of range, not "not a whole number": for every count option of every tool. */
    @Test
    void aCountTooLargeForAnIntIsSaidToBeOutOfRange() {
        for (Said said : List.of(
                run("UnitCosts", new UnitCosts(), "haystack.bin", "--rounds", "99999999999"), // through CountConverter, named
                run("ColdTuning", new ColdTuning(), "--depths", "4,99999999999"), // an int option that names no converter
                run("SizeSweep", new SizeSweep(System.out, System.err), "--runs", "-99999999999"))) {
            assertEquals(ToolCommand.ERROR, said.status(), said.err());
            assertTrue(said.err().contains("out of range"), said.err());
            assertFalse(said.err().contains("whole number") || said.err().contains("not an int"), said.err());
            assertEquals(1, said.err().lines().count(), said.err());
        }
    }

    /** Digits of another script are refused in every count option, not only in those that name CountConverter. */
    @Test
    void aCountInOtherDigitsIsRefusedByEveryTool() {
        Said said = run("SizeSweep", new SizeSweep(System.out, System.err), "--runs", "\uFF12", "--dry-run");
        assertEquals(ToolCommand.ERROR, said.status(), said.err());
        assertTrue(said.err().contains("digits 0 to 9"), said.err());
    }
}
