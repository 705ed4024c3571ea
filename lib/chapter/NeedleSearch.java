package lib.chapter;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The one thing every chapter implements.
 *
 * <p>{@code search} returns the offset of the first 8-byte-aligned word of the file that is not
 * zero: the offset of the first non-zero byte, rounded down to a multiple of 8. The last 1–7
 * bytes of a file whose size is not a multiple of 8 form a short word of their own and count
 * like any other. An empty or all-zero file gives {@code -1}.
 *
 * <p>One call is the whole job, and the harness times all of it: opening the file, mapping or
 * allocating, starting threads, scanning, and tidying up.
 */
@FunctionalInterface
public interface NeedleSearch {

    long NOT_FOUND = -1;

    long search(Path file, int workers) throws IOException;

    /**
     * A line the harness prints once its checks have passed, before the first run, for a chapter whose
     * way of reading depends on the file's kernel and file system (chapter 17 says which way it
     * found); none by default.
     */
    default String note(Path file) throws IOException {
        return null;
    }

    /**
     * How this chapter read the file, where it can read more than one way (chapter 17:
     * {@code rwf_dontcache} or {@code fadv_dontneed}), for its summary line and results row; empty by default.
     */
    default Optional<String> readMode() {
        return Optional.empty();
    }

    /** The aligned word that holds the byte at {@code byteOffset}. */
    static long wordContaining(long byteOffset) {
        return byteOffset & ~7L;
    }
}
