package lib;

import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The second wall: how fast can the kernel copy a cached file into our buffers?
 *
 * <p>Not a chapter but a yardstick, run by {@code tools/WallProbe.java}. It is chapter 13 without
 * the scan: the same parallel positional reads ({@link PositionalReader}) into per-worker buffers,
 * but the "kernel" looks at one word per chunk, the last, and nothing else. That is enough to find
 * a haystack's needle, which sits in the file's last word, and costs nothing next to the copy. A
 * pread chapter can only approach this figure.
 */
public final class WallPageCacheCopy implements ChunkedSearch {

    @Override
    public long search(Path file, int workers, long chunkBytes) throws IOException {
        if (!Haystack.endsWithNeedle(file)) {
            throw new UserMistakeException(file + " is not a haystack: the copy probe only looks at the last word, so it needs the needle there");
        }
        return ParallelSearch.firstNonZeroWord(Files.size(file), workers, chunkBytes,
                () -> new PositionalReader(file, chunkBytes, WallPageCacheCopy::lastWordOnly));
    }

    /** A kernel that scans nothing: it reports the chunk's last word if that is not zero. */
    private static long lastWordOnly(MemorySegment chunk, long from, long to) {
        long last = to - Long.BYTES;
        return last >= from && chunk.get(JAVA_LONG_UNALIGNED, last) != 0 ? last : NeedleSearch.NOT_FOUND;
    }
}
