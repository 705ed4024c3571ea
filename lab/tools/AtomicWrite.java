package lab.tools;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * A file written whole or not at all: the bytes go to a partial file beside it, which is then
 * moved over it. A write that fails half-way (a full disk, a file-size limit) removes the partial
 * file and leaves the old file as it was. A symlinked file is written where its link points (the
 * link stays a link), and a file that exists keeps its permissions. The one way the tools replace a
 * file of their own: machine.json, model.csv, the report's page, README's blocks, the charts' pages.
 */
public final class AtomicWrite {

    /** What writes a file's bytes; it may fail half-way, as a full disk makes a write fail. */
    public interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    private AtomicWrite() {}

    public static void write(Path file, String text) throws IOException {
        write(file, out -> out.write(text.getBytes(StandardCharsets.UTF_8)));
    }

    public static void write(Path file, Content content) throws IOException {
        Path target = Files.exists(file) ? file.toRealPath() : file.toAbsolutePath();
        // A name of this process's own, made new: its permissions are the account's umask's, as a plain write's.
        Path partial = target.resolveSibling("." + target.getFileName() + ".partial-" + ProcessHandle.current().pid() + "-" + System.nanoTime());
        try {
            try (OutputStream out = Files.newOutputStream(partial, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                content.writeTo(out);
            }
            if (Files.exists(target)) {
                try {
                    Files.setPosixFilePermissions(partial, Files.getPosixFilePermissions(target));
                } catch (UnsupportedOperationException notPosix) {
                    // a file system without POSIX permissions has none to keep
                }
            }
            try {
                Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(partial);
        }
    }
}
