package lib;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

/**
 * A pread worker that leaves the page cache as it found it: what it reads does not stay cached.
 *
 * <p>A buffered read of a file larger than memory fills the page cache with pages nobody will read
 * again, and the kernel makes room by evicting everything else the machine had cached. Linux 6.14
 * added {@code RWF_DONTCACHE}, a {@code preadv2(2)} flag: the read goes through the page cache as
 * usual (readahead and all), but the pages it brought in are dropped as soon as they are copied
 * out; pages that were already cached stay. Where the kernel or the file system refuses the flag,
 * {@link Mode#FADV_DONTNEED} reads plainly and then drops each chunk it has read with
 * {@code posix_fadvise(POSIX_FADV_DONTNEED)}, right behind the reader: the same effect, except that
 * it also drops pages of this file that were cached before the scan.
 *
 * <p>Either way, the readahead past the point where a worker stops (its shard's end, or a needle)
 * stays cached, read by nobody: up to two readahead windows per worker ({@code read_ahead_kb} of the
 * disk), a few MiB, next to nothing beside a file larger than memory.
 */
public final class DontCacheReader implements ParallelSearch.ChunkScanner {

    /** How a reader keeps its pages out of the cache; {@link #label} is what the results CSV records. */
    public enum Mode {
        RWF_DONTCACHE("rwf_dontcache"),
        FADV_DONTNEED("fadv_dontneed");

        public final String label;

        Mode(String label) {
            this.label = label;
        }
    }

    /** What {@link #modeFor} found: the mode, and why the flag was refused (null when it was not). */
    public record Support(Mode mode, String refusal) {}

    private final int fd;
    private final Arena arena = Arena.ofConfined();
    private final MemorySegment buffer;
    private final Mode mode;
    private final Kernel kernel;

    public DontCacheReader(Path file, long chunkBytes, Mode mode, Kernel kernel) throws IOException {
        this.fd = Native.open(file, Native.O_RDONLY);
        this.buffer = arena.allocate(chunkBytes, 4096); // page-aligned, freed when the arena closes
        this.mode = mode;
        this.kernel = kernel;
    }

    /**
     * Whether {@code file}'s kernel and file system take {@code RWF_DONTCACHE}: one page read with
     * the flag (a zero-length read would not be checked). Refused, it is {@link Mode#FADV_DONTNEED}.
     */
    public static Support modeFor(Path file) throws IOException {
        int fd = Native.open(file, Native.O_RDONLY);
        try (Arena arena = Arena.ofConfined()) {
            Native.preadv2(fd, arena.allocate(4096, 4096), 0, Native.RWF_DONTCACHE);
            return new Support(Mode.RWF_DONTCACHE, null);
        } catch (Native.ErrnoException e) {
            if (e.errno() == Native.ErrnoException.EOPNOTSUPP || e.errno() == Native.ErrnoException.EINVAL) {
                return new Support(Mode.FADV_DONTNEED, e.getMessage());
            }
            throw e;
        } finally {
            Native.close(fd);
        }
    }

    @Override
    public long firstNonZeroWord(long from, long to) throws IOException {
        long length = to - from;
        for (long done = 0; done < length; ) {
            MemorySegment rest = buffer.asSlice(done, length - done);
            long read = mode == Mode.RWF_DONTCACHE
                    ? Native.preadv2(fd, rest, from + done, Native.RWF_DONTCACHE)
                    : Native.pread(fd, rest, from + done);
            if (read == 0) {
                throw new FileChangedException("the file ended at " + (from + done) + " bytes, shorter than when the search began");
            }
            done += read;
        }
        if (mode == Mode.FADV_DONTNEED) {
            Native.fadvise(fd, from, length, Native.POSIX_FADV_DONTNEED);
        }
        long hit = kernel.firstNonZeroWord(buffer, 0, length);
        return hit < 0 ? NeedleSearch.NOT_FOUND : from + hit;
    }

    @Override
    public void close() {
        try (arena) {
            Native.close(fd);
        }
    }
}
