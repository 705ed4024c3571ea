package lib.haystack;

/**
 * A mapped page of the file had no file behind it any more: another program cut the file during
 * the search. The JVM reports a read of such a page as an {@code InternalError}; {@code madvise}
 * ({@code MADV_POPULATE_READ}) reports it as {@code EFAULT}, turned into this. The harness says the
 * same one line for both.
 */
public class MappedFileShrankException extends FileChangedException {
    public MappedFileShrankException(String call) {
        super(call + " found a mapped page with no file behind it");
    }
}
