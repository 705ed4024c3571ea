package lib;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A search that reads the file a chunk at a time into a buffer of its own, and so has a chunk size
 * worth tuning: too small and system calls dominate, too large and the buffer falls out of cache.
 *
 * <p>The harness's {@code --chunk SIZE} reaches only chapters that implement this; every other
 * caller gets {@link ParallelSearch#CHUNK_BYTES}.
 */
@FunctionalInterface
public interface ChunkedSearch extends NeedleSearch {

    /** Like {@link NeedleSearch#search}, reading {@code chunkBytes} (a multiple of 8) per read. */
    long search(Path file, int workers, int chunkBytes) throws IOException;

    @Override
    default long search(Path file, int workers) throws IOException {
        return search(file, workers, ParallelSearch.CHUNK_BYTES);
    }
}
