package lib;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Warm and cold: puts a file into the kernel's page cache, or takes it out.
 *
 * <p>Warm runs measure memory, not disk: the whole file is read once beforehand so every timed
 * run finds it cached. Cold runs evict the file first, through {@link Native#evictFromPageCache}.
 * Neither writes to the file: eviction only asks the kernel to forget clean pages.
 */
public final class PageCache {

    private static final int READ_BYTES = 1 << 20;

    private PageCache() {}

    public static void warm(Path file) throws IOException {
        // An arena frees the buffer on return; a ByteBuffer.allocateDirect would wait for a GC.
        try (Arena arena = Arena.ofConfined();
             FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer buffer = arena.allocate(READ_BYTES).asByteBuffer();
            while (channel.read(buffer.clear()) >= 0) {
                // reading is the point; the bytes are not needed
            }
        }
    }

    /** Drops the file from the page cache, or fails with one line saying why a cold run is impossible. */
    public static void evict(Path file) throws IOException {
        try {
            Native.evictFromPageCache(file);
        } catch (IOException e) {
            throw new IOException("--cold: cannot evict " + file + " from the page cache (" + e.getMessage()
                    + "); its file system does not support it, so no cold figure can be measured", e);
        }
    }
}
