import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import lib.cli.Quote;
import lib.cli.Sizes;
import lib.cli.UserMistakeException;
import lib.haystack.Haystack;
import lib.haystack.ReferenceSearch;

/**
 * The one file the Go article's benchmark is ever handed, checked first and checked again before
 * every call.
 *
 * <p>Why so careful? The Go benchmark "ensures" its haystack: an existing file whose size is not the
 * one it was built for (4 GiB) is truncated and rewritten with zeros, and a file of that size
 * without the needle in its last aligned slot gets the needle written there. Handed a user's file by
 * mistake, it destroys it. So the file it gets is either created here by {@link Haystack#create}, or
 * an existing file verified to be exactly a haystack (the size, every byte zero but the needle at
 * size−8) before the first call; and before each call its identity, size, time of last change and
 * needle are compared with what was verified, so the Go benchmark never sees anything it would
 * write to.
 */
final class GoHaystack {

    private final Path path;
    private final long bytes;
    private final Object fileKey;
    private final FileTime lastModified;

    private GoHaystack(Path path, long bytes, BasicFileAttributes verified) {
        this.path = path;
        this.bytes = bytes;
        this.fileKey = verified.fileKey();
        this.lastModified = verified.lastModifiedTime();
    }

    /**
     * Creates a haystack of {@code bytes} at {@code path} if nothing is there, or verifies the file
     * that is; refuses, touching nothing, anything that is not exactly such a haystack.
     */
    static GoHaystack prepare(Path path, long bytes, java.io.PrintStream err) throws IOException {
        if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
            Haystack.checkCreatable(path, bytes);
            err.println("versus-go: creating a " + Sizes.human(bytes) + " haystack at " + path);
            Haystack.create(path, bytes);
            return new GoHaystack(path, bytes, attributes(path)); // written here: zeros and the needle
        }
        checkShape(path, bytes);
        err.println("versus-go: " + path + " exists; checking that every byte but the needle is zero...");
        long first = new ReferenceSearch().search(path, 1);
        if (first != Haystack.needleOffset(bytes)) {
            throw new UserMistakeException(path + " is not a haystack (a non-zero byte in the word at offset " + first
                    + "); the Go benchmark would write to it, so it is left alone (remove --haystack to use a new file)");
        }
        GoHaystack verified = new GoHaystack(path, bytes, attributes(path));
        verified.checkUnchanged(); // nobody wrote to it while it was being read
        return verified;
    }

    Path path() {
        return path;
    }

    long bytes() {
        return bytes;
    }

    /**
     * Before (and after) every call: the same file as verified, unchanged since. Its lines never say
     * "left alone": after a call, the binary has had the file.
     */
    void checkUnchanged() throws IOException {
        if (!Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
            throw new UserMistakeException(Quote.name(path) + " is no longer the regular file that was checked; stopped");
        }
        BasicFileAttributes now = attributes(path);
        if (fileKey != null && !fileKey.equals(now.fileKey())) {
            throw new UserMistakeException(Quote.name(path) + " was replaced by another file since it was checked; stopped before handing it to the Go benchmark");
        }
        if (now.size() != bytes || !lastModified.equals(now.lastModifiedTime()) || !Haystack.endsWithNeedle(path)) {
            throw new UserMistakeException(Quote.name(path) + " was written to since it was checked (now " + now.size()
                    + " bytes); stopped (check it, or remove it for a new one)");
        }
    }

    /** A regular file (not a link), exactly the size the Go benchmark was built for, the needle at size−8. */
    private static void checkShape(Path path, long bytes) throws IOException {
        if (!Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
            throw new UserMistakeException(path + " is not a regular file (a link, a directory or a device is never handed to the Go benchmark)");
        }
        long size = Files.size(path);
        if (size != bytes) {
            throw new UserMistakeException(path + " has " + size + " bytes, not the " + bytes + " (" + Sizes.human(bytes)
                    + ") the Go benchmark was built for, which would truncate and rewrite it; left alone");
        }
        if (!Haystack.endsWithNeedle(path)) {
            throw new UserMistakeException(path + " has no needle at offset " + Haystack.needleOffset(bytes)
                    + "; the Go benchmark would write one there, so it is left alone");
        }
    }

    private static BasicFileAttributes attributes(Path path) throws IOException {
        return Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    }
}
