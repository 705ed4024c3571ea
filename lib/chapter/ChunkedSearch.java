package lib.chapter;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A search that reads the file a chunk at a time into a buffer of its own, and so has a chunk size
 * worth tuning: too small and system calls dominate, too large and the buffer falls out of cache.
 *
 * <p>The harness's {@code --chunk SIZE} reaches only chapters that implement this, and only they
 * print and record {@code chunk_bytes}; every other caller gets {@link #DEFAULT_CHUNK_BYTES}.
 */
@FunctionalInterface
public interface ChunkedSearch extends NeedleSearch {

    /** Bytes per read unless --chunk says otherwise. */
    long DEFAULT_CHUNK_BYTES = 1L << 20;
    /** The largest read --chunk accepts: a buffer a ByteBuffer can still view. */
    long MAX_CHUNK_BYTES = 1L << 30;

    /** Like {@link NeedleSearch#search}, reading {@code chunkBytes} (a multiple of 8) per read. */
    long search(Path file, int workers, long chunkBytes) throws IOException;

    /** How many {@code chunkBytes} buffers each worker holds at once: one, unless reads are kept in flight. */
    default int buffersPerWorker(long chunkBytes) {
        return 1;
    }

    /** The smallest chunk this chapter can read {@code file} in without re-reading the same bytes. */
    default long smallestChunkBytes(Path file) throws IOException {
        return Long.BYTES;
    }

    @Override
    default long search(Path file, int workers) throws IOException {
        return search(file, workers, DEFAULT_CHUNK_BYTES);
    }
}
