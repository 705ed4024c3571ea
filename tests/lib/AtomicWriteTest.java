import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;
import lab.tools.AtomicWrite;
import lib.cli.IoMessage;
import lib.cli.Quote;
import lab.tools.AtomicWrite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** lab/tools/AtomicWrite: a file is written whole or not at all, keeps its permissions, and a link stays a link. */
class AtomicWriteTest {

    @Test
    void aWriteThatFailsHalfWayLeavesTheFileAsItWasAndNoPartialFile(@TempDir Path dir) throws IOException {
        Path page = dir.resolve("scoreboard.html");
        IOException full = assertThrows(IOException.class, () -> AtomicWrite.write(page, out -> {
            out.write("<html>".getBytes(StandardCharsets.UTF_8));
            throw new IOException("No space left on device");
        }));
        assertEquals("No space left on device: " + Quote.name(page), IoMessage.of(full), "the file asked for, and the reason");
        assertEquals(List.of(), filesIn(dir), "neither the file nor a partial file is left");

        Files.writeString(page, "the older chart");
        assertThrows(IOException.class, () -> AtomicWrite.write(page, out -> {
            out.write('<');
            throw new IOException("No space left on device");
        }));
        assertEquals("the older chart", Files.readString(page), "the older file is kept whole");
        assertEquals(List.of(page), filesIn(dir));
    }

    @Test
    void aRewrittenFileKeepsItsModeAndALinkStaysALink(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("README.md"), "old");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));
        Path link = Files.createSymbolicLink(dir.resolve("link.md"), file.getFileName());
        AtomicWrite.write(link, "new");
        assertTrue(Files.isSymbolicLink(link), "the link is still a link");
        assertEquals("new", Files.readString(file));
        assertEquals("rw-r-----", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertEquals(List.of(file, link), filesIn(dir));
    }

    /** Java's message names the hidden partial file, or no file; the failure names the file asked for, and why. */
    @Test
    void aFailureNamesTheFileAskedForNotThePartialFile(@TempDir Path dir) throws IOException {
        Path nowhere = dir.resolve("nowhere").resolve("model.csv");
        IOException missing = assertThrows(IOException.class, () -> AtomicWrite.write(nowhere, "x"));
        assertEquals("its folder does not exist: " + Quote.name(nowhere), IoMessage.of(missing));
        assertTrue(Files.notExists(nowhere.getParent()), "no folder is made");

        Path folder = Files.createDirectory(dir.resolve("model.csv"));
        IOException isAFolder = assertThrows(IOException.class, () -> AtomicWrite.write(folder, "x"));
        assertEquals("Is a directory: " + Quote.name(folder), IoMessage.of(isAFolder));
        assertTrue(Files.isDirectory(folder));
        assertEquals(List.of(folder), filesIn(dir), "no partial file is left");
    }

    private static List<Path> filesIn(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.sorted().toList();
        }
    }
}
