import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * What a directory holds, file by file: kind, size, modification time and SHA-256 of the
 * content. Two snapshots are equal only if nothing under the directory was created, deleted,
 * truncated, written or touched in between.
 */
final class DiskState {

    private DiskState() {}

    static Map<String, String> of(Path directory) throws IOException {
        Map<String, String> state = new TreeMap<>();
        try (Stream<Path> paths = Files.walk(directory)) { // does not follow symbolic links
            for (Path path : paths.toList()) {
                state.put(directory.relativize(path).toString(), describe(path));
            }
        }
        return state;
    }

    static String describe(Path path) throws IOException {
        BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (attributes.isSymbolicLink()) {
            return "link to " + Files.readSymbolicLink(path);
        }
        if (!attributes.isRegularFile()) {
            return attributes.isDirectory() ? "directory" : "other";
        }
        return "file size=" + attributes.size() + " mtime=" + attributes.lastModifiedTime().toInstant()
                + (Files.isReadable(path) ? " sha256=" + sha256(path) : " unreadable"); // a test's own file without read permission
    }

    static String sha256(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            byte[] block = new byte[1 << 16];
            for (int n; (n = in.read(block)) > 0; ) {
                digest.update(block, 0, n);
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
