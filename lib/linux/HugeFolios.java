package lib.linux;

import lib.cli.Quote;
import lib.cli.UserMistakeException;
import lib.haystack.MappedFileShrankException;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A file's page cache in 2 MiB folios, and mappings that use them.
 *
 * <p>Since Linux 6.16 ext4 (like XFS before it) keeps a file's page cache in folios of many sizes.
 * {@code MADV_HUGEPAGE} on a file mapping makes the page-cache misses of its faults allocate 2 MiB
 * folios; {@code MADV_POPULATE_READ} (Linux 5.14) takes those faults up front, under the mapping
 * lock held for reading, so several threads can populate disjoint parts at once. A 2 MiB folio at a
 * 2 MiB-aligned address is then mapped by one PMD entry (see lib.counters.PmdMapping). A folio already
 * in the cache keeps its size: advice only shapes what is read in next.
 *
 * <p>Where this cannot work, the calls here say why in one line ({@link UserMistakeException}).
 */
public final class HugeFolios {

    private static final Path THP_SETTINGS = Path.of("/sys/kernel/mm/transparent_hugepage");
    private static final long EXT4_MAGIC = 0xEF53L, XFS_MAGIC = 0x58465342L;

    private HugeFolios() {}

    /**
     * Why {@code file}'s page cache cannot be read back in 2 MiB folios on this machine, or null
     * where it may be. Only what can be known without trying; whether the file system really makes
     * large folios shows in the recorded PMD share.
     */
    public static String whyNot(Path file) throws IOException {
        if (!Files.isDirectory(THP_SETTINGS)) {
            return "this kernel has no transparent huge pages (no " + THP_SETTINGS + "), so no 2 MiB folio";
        }
        long magic = Native.fileSystemMagic(file);
        if (magic == Native.TMPFS_MAGIC || magic == Native.RAMFS_MAGIC) {
            return Quote.name(file) + " is on tmpfs or ramfs: its page cache is the file itself, never read back from a disk"
                    + " in folios of a chosen size (put it on a disk's file system such as ext4 or XFS)";
        }
        if (magic == EXT4_MAGIC && !kernelAtLeast(6, 16)) {
            return "ext4 caches files in large folios only since Linux 6.16; this is " + System.getProperty("os.version");
        }
        return null;
    }

    /** True where {@code file}'s file system is known to cache in large folios on this kernel (ext4 6.16+, XFS 5.18+). */
    public static boolean knownToHaveLargeFolios(Path file) throws IOException {
        long magic = Native.fileSystemMagic(file);
        return (magic == EXT4_MAGIC && kernelAtLeast(6, 16)) || (magic == XFS_MAGIC && kernelAtLeast(5, 18));
    }

    static boolean kernelAtLeast(int major, int minor) {
        String[] version = System.getProperty("os.version").split("[.-]");
        try {
            int kernelMajor = Integer.parseInt(version[0]), kernelMinor = version.length > 1 ? Integer.parseInt(version[1]) : 0;
            return kernelMajor > major || (kernelMajor == major && kernelMinor >= minor);
        } catch (NumberFormatException unknown) {
            return true; // an unreadable version is no reason to refuse: the recorded PMD share will tell
        }
    }

    /** Throws a one-line {@link UserMistakeException} where {@link #whyNot} has a reason. */
    public static void requireSupport(Path file) throws IOException {
        String reason = whyNot(file);
        if (reason != null) {
            throw new UserMistakeException(reason);
        }
    }

    /** {@code madvise(MADV_HUGEPAGE)}: this mapping's page-cache misses are to be read into 2 MiB folios. */
    public static void advise(MemorySegment mapping) throws IOException {
        if (mapping.byteSize() == 0) {
            return;
        }
        try {
            Native.madvise(mapping, Native.MADV_HUGEPAGE);
        } catch (Native.ErrnoException e) {
            if (e.errno() == Native.ErrnoException.EINVAL) {
                throw new UserMistakeException("this kernel refuses MADV_HUGEPAGE (" + e.getMessage() + "): no transparent huge pages here");
            }
            throw e;
        }
    }

    /**
     * {@code madvise(MADV_POPULATE_READ)}: faults every page of {@code part} in now, reading what is not
     * cached. A file cut under the mapping gives {@link MappedFileShrankException}.
     */
    public static void populate(MemorySegment part) throws IOException {
        if (part.byteSize() == 0) {
            return;
        }
        try {
            Native.madvise(part, Native.MADV_POPULATE_READ);
        } catch (Native.ErrnoException e) {
            if (e.errno() == Native.ErrnoException.EINVAL) {
                throw new UserMistakeException("this kernel refuses MADV_POPULATE_READ (" + e.getMessage() + "): it needs Linux 5.14 or later");
            }
            if (e.errno() == Native.ErrnoException.EFAULT) { // a page past the file's end: it was cut while mapped
                throw new MappedFileShrankException("MADV_POPULATE_READ");
            }
            throw e;
        }
    }
}
