package lib;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Warm and cold: puts a file into the kernel's page cache, or takes it out.
 *
 * <p>Warm runs measure memory, not disk: the whole file is read once beforehand so every timed
 * run finds it cached. Cold runs evict the file first, through {@link Native#evictFromPageCache}.
 */
public final class PageCache {

    private static final int READ_BYTES = 1 << 20;

    private PageCache() {}

    public static void warm(Path file) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocateDirect(READ_BYTES);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            while (channel.read(buffer.clear()) >= 0) {
                // reading is the point; the bytes are not needed
            }
        }
    }

    public static void evict(Path file) throws IOException {
        Native.evictFromPageCache(file);
    }
}
