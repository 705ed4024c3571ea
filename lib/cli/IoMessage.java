package lib.cli;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;

/**
 * An IOException as one line that names both the file and what went wrong. Java's own messages
 * often keep one of the two: an AccessDeniedException's message is the path alone, and a write
 * that fails on a full disk says "No space left on device" without the file it was writing.
 */
public final class IoMessage {

    private IoMessage() {}

    /** "permission denied: 'r/x'", "No space left on device: 'r/machine.json'", or the message as it is when it names no file. */
    public static String of(IOException e) {
        if (!(e instanceof FileSystemException failed) || failed.getFile() == null) {
            return e.getMessage() != null ? e.getMessage() : e.toString();
        }
        return reason(e) + ": " + Quote.name(failed.getFile()) + (failed.getOtherFile() != null ? " (and " + Quote.name(failed.getOtherFile()) + ")" : "");
    }

    /** Why {@code e} failed, without the file: "no such file", "permission denied", Java's reason, or its message. */
    public static String reason(IOException e) {
        if (!(e instanceof FileSystemException failed)) {
            return e.getMessage() != null ? e.getMessage() : e.toString();
        }
        return failed.getReason() != null ? failed.getReason() : switch (failed) {
            case NoSuchFileException _ -> "no such file";
            case AccessDeniedException _ -> "permission denied";
            case FileAlreadyExistsException _ -> "already exists";
            case NotDirectoryException _ -> "not a directory";
            case DirectoryNotEmptyException _ -> "directory not empty";
            default -> failed.getClass().getSimpleName();
        };
    }

    /**
     * {@code e} with {@code file} named, for a failure that names none (a write on a full disk):
     * a FileSystemException of that file, whose reason is {@code e}'s message. One that names its
     * file already is returned as it is.
     */
    public static IOException naming(Path file, IOException e) {
        if (e instanceof FileSystemException named && named.getFile() != null) {
            return e;
        }
        FileSystemException named = new FileSystemException(file.toString(), null, e.getMessage() != null ? e.getMessage() : e.toString());
        named.initCause(e);
        return named;
    }
}
