package lab.tools;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Locale;

/**
 * A file written whole or not at all: the bytes go to a partial file beside it, which is then
 * moved over it. A write that fails half-way (a full disk, a file-size limit) removes the partial
 * file and leaves the old file as it was. A failure names the file asked for, never the hidden
 * partial file, and says why (lib/cli/IoMessage makes the line of it). A symlinked file is written where its link points (the
 * link stays a link), and a file that exists keeps its permissions. The one way the tools replace a
 * file of their own: machine.json, model.csv, the report's page, README's blocks, the charts' pages.
 */
public final class AtomicWrite {

    /** What writes a file's bytes; it may fail half-way, as a full disk makes a write fail. */
    public interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    private AtomicWrite() {}

    /**
     * {@code e} as a failure of {@code file}: Java names the partial file, or no file at all (a full
     * disk, a file-size limit), and a missing folder or one not writable shows only as the partial file's.
     */
    private static FileSystemException naming(Path file, IOException e) {
        String name = file.toString();
        if (e instanceof FileSystemException failed && name.equals(failed.getFile()) && failed.getOtherFile() == null) {
            return failed; // already the file asked for
        }
        Path folder = file.toAbsolutePath().getParent();
        String reason = switch (e) {
            case NoSuchFileException _ when folder != null && !Files.isDirectory(folder) -> "its folder does not exist";
            case AccessDeniedException _ -> "permission denied to write in its folder"; // the partial file is made there
            case FileSystemException failed when failed.getReason() != null -> failed.getReason();
            case FileSystemException failed -> failed.getClass().getSimpleName().replaceFirst("Exception$", "") // NoSuchFile: "no such file"
                    .replaceAll("([a-z])([A-Z])", "$1 $2").toLowerCase(Locale.ROOT);
            default -> e.getMessage() != null ? e.getMessage() : e.toString(); // "No space left on device", "File too large"
        };
        FileSystemException named = switch (e) {
            case NoSuchFileException _ -> new NoSuchFileException(name, null, reason);
            case AccessDeniedException _ -> new AccessDeniedException(name, null, reason);
            default -> new FileSystemException(name, null, reason);
        };
        named.initCause(e);
        return named;
    }

    public static void write(Path file, String text) throws IOException {
        write(file, out -> out.write(text.getBytes(StandardCharsets.UTF_8)));
    }

    /**
     * Writes {@code content} to {@code file} whole, or throws a {@link FileSystemException} that names
     * {@code file} (as given) and the reason: a missing folder, a folder it may not write in, a full disk.
     */
    public static void write(Path file, Content content) throws IOException {
        try {
            writeWhole(file, content);
        } catch (IOException e) {
            throw naming(file, e);
        }
    }

    private static void writeWhole(Path file, Content content) throws IOException {
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
