package lib.harness;

import lib.cli.Quote;
import lib.cli.UserMistakeException;
import lib.counters.PmdMapping;
import lib.harness.PmdShares;
import lib.haystack.FileChangedException;
import lib.linux.CacheStat;
import lib.linux.HugeFolios;
import lib.linux.Native;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Warm and cold: puts a file into the kernel's page cache, or takes it out.
 *
 * <p>Warm runs measure memory, not disk: the whole file is read once beforehand so every timed
 * run finds it cached. Cold runs evict the file first, through {@link Native#evictFromPageCache}.
 * Neither writes to the file: eviction only asks the kernel to forget clean pages.
 *
 * <p>Warm is not one state but many: the page cache holds a file in folios of 4 KiB to 2 MiB, and a
 * mapping of 2 MiB folios reads faster than one of small folios (see {@link PmdMapping}). So warm
 * runs can ask for the folio size ({@link Folios}): {@link #fillInSmallFolios} and
 * {@link #fillInHugeFolios} evict the file and read it back in small or in 2 MiB folios.
 */
public final class PageCache {

    private static final int READ_BYTES = 1 << 20;

    private PageCache() {}

    /** The page-cache states warm runs can start from: {@code --page-cache as-is|small|huge}. */
    public enum Folios {
        /** Whatever the cache holds after one plain read of the file. */
        AS_IS("as-is"),
        /** Read back in 4 KiB folios: nothing can be PMD-mapped. */
        SMALL("small"),
        /** Read back in 2 MiB folios, through a {@code MADV_HUGEPAGE} mapping. */
        HUGE("huge");

        public final String label;

        Folios(String label) {
            this.label = label;
        }

        public static Folios of(String label) {
            for (Folios folios : values()) {
                if (folios.label.equals(label)) {
                    return folios;
                }
            }
            throw new IllegalArgumentException("'" + label + "' is not one of as-is, small, huge");
        }

        @Override
        public String toString() {
            return label;
        }
    }

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
        evict(file, "--cold", "no cold figure can be measured");
    }

    /**
     * Fails with {@link #evict}'s one line where no run of {@code file} can be cold, whatever is
     * evicted: on tmpfs or ramfs. The harness asks before a chapter probes the file, so that
     * {@code --cold} there is refused in that one line, with nothing said before it.
     */
    public static void requireColdPossible(Path file) throws IOException {
        refuseMemoryOnly(file, "--cold", "no cold figure can be measured");
    }

    private static void evict(Path file, String option, String consequence) throws IOException {
        refuseMemoryOnly(file, option, consequence);
        try {
            Native.evictFromPageCache(file);
        } catch (IOException e) {
            throw new IOException(option + ": cannot evict " + Quote.name(file) + " from the page cache (" + e.getMessage()
                    + "); its file system does not support it, so " + consequence, e);
        }
        double resident = residentShare(file);
        if (resident > STILL_RESIDENT_LIMIT) {
            throw new UserMistakeException(option + ": " + Quote.name(file) + " is still "
                    + Math.round(resident * 100) + " % in memory after eviction (another program may hold it mapped or locked)"
                    + ", so " + consequence);
        }
    }

    /**
     * Eviction is a request the kernel may quietly decline (tmpfs keeps every page, a page mapped
     * or locked elsewhere stays): past this share still in memory, a run is not cold.
     */
    private static final double STILL_RESIDENT_LIMIT = 0.10;

    /**
     * The share of the file's pages in the page cache, from 0 to 1: cachestat(2) where the kernel
     * answers it, else mincore(2) on a mapping that faults nothing in.
     */
    public static double residentShare(Path file) throws IOException {
        long bytes = Files.size(file);
        if (bytes == 0) {
            return 0;
        }
        OptionalDouble counted = CacheStat.residentShare(file, bytes);
        if (counted.isPresent()) {
            return counted.getAsDouble();
        }
        try (Arena arena = Arena.ofConfined()) {
            return Native.residentShare(Native.mapFile(file, bytes, 0, arena));
        }
    }

    /**
     * Reads {@code file} into the page cache unless every page of it is there already (asking costs
     * milliseconds, reading 4 GiB again a second or more). Returns whether it read.
     */
    public static boolean warmUnlessCached(Path file) throws IOException {
        if (isAllResident(file)) {
            return false;
        }
        warm(file);
        return true;
    }

    /**
     * Whether every page of {@code file} is in the page cache: cachestat(2) where the kernel answers
     * it (a 4 GiB file in milliseconds), else the JDK's own {@code mincore(2)} behind
     * {@link MemorySegment#isLoaded} on a mapping that faults nothing in (a tenth of a second). A
     * one-shot run asks this once, before its first search.
     */
    public static boolean isAllResident(Path file) throws IOException {
        long bytes = Files.size(file);
        if (bytes == 0) {
            return false;
        }
        OptionalDouble counted = CacheStat.residentShare(file, bytes);
        if (counted.isPresent()) {
            return counted.getAsDouble() == 1.0;
        }
        try (Arena arena = Arena.ofConfined();
             FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            MemorySegment mapping;
            try {
                mapping = channel.map(FileChannel.MapMode.READ_ONLY, 0, bytes, arena);
            } catch (IOException noAddressSpace) {
                return false; // no room to map it (ulimit -v): cannot tell, so it is read, as a file not all cached
            }
            return mapping.isLoaded();
        }
    }

    /**
     * Puts {@code file} in the page cache in the state {@code --page-cache} asks for, before warm runs,
     * and says on {@code err} what it did. {@code huge} fails in one line if no 2 MiB folio came of it,
     * {@code small} if any of it is still, or already again, in 2 MiB folios.
     */
    public static void prepare(Path file, Folios folios, int workers, PrintStream err) throws IOException {
        switch (folios) {
            case AS_IS -> warm(file);
            case SMALL -> {
                if (alreadyHeld(file, Folios.SMALL, err)) {
                    return;
                }
                fillInSmallFolios(file);
                PmdMapping mapped = mappedAsCached(file);
                if (mapped.filePmdMappedBytes() > 0) {
                    throw new FileChangedException(changedUnder(file, Folios.SMALL, mapped.pmdMappedPercent(), "just after it was read back"));
                }
                err.println("page cache: " + Quote.name(file) + " evicted and read back in 4 KiB folios (0.0% of a mapping of it PMD-mapped)");
            }
            case HUGE -> {
                if (Files.size(file) < PmdMapping.PMD_BYTES) {
                    throw new UserMistakeException("--page-cache huge: " + Quote.name(file) + " is smaller than 2 MiB, so no 2 MiB folio can hold any of it");
                }
                if (alreadyHeld(file, Folios.HUGE, err)) {
                    return;
                }
                PmdMapping mapped = fillInHugeFolios(file, workers);
                if (mapped.filePmdMappedBytes() == 0) {
                    throw new UserMistakeException("--page-cache huge: the kernel read " + Quote.name(file) + " back in no 2 MiB folio (Linux "
                            + System.getProperty("os.version") + ", transparent huge pages " + thpSetting()
                            + "); its file system may not cache in large folios (ext4 does since Linux 6.16)");
                }
                err.println("page cache: " + Quote.name(file) + " evicted and read back in 2 MiB folios ("
                        + PmdMapping.percent(mapped.pmdMappedPercent()) + "% of a mapping of it PMD-mapped)");
            }
        }
    }

    /**
     * A mapping of a file read back in 2 MiB folios comes out 97 to 100 % PMD-mapped on the machines
     * in results/; a cache that still shows this much of it is taken as held in 2 MiB folios.
     */
    private static final double HELD_HUGE_PERCENT = 90;

    /**
     * Whether the cache already holds the whole file in the folios asked for, as the run before this
     * one left it: then evicting it and reading it back would only make the same state again. The
     * study runs the page-cache round state by state, every chapter from one fill, so that the file
     * is read back twice in that round instead of twice per chapter.
     */
    private static boolean alreadyHeld(Path file, Folios folios, PrintStream err) throws IOException {
        if (!isAllResident(file)) {
            return false; // some page is not cached: a mapping of it would read that page in
        }
        PmdMapping mapped = mappedAsCached(file);
        boolean held = folios == Folios.SMALL ? mapped.filePmdMappedBytes() == 0 : mapped.pmdMappedPercent() >= HELD_HUGE_PERCENT;
        if (held) {
            err.println("page cache: " + Quote.name(file) + " already held whole in " + (folios == Folios.SMALL ? "4 KiB" : "2 MiB")
                    + " folios (" + PmdMapping.percent(mapped.pmdMappedPercent()) + "% of a mapping of it PMD-mapped), so not read again");
        }
        return held;
    }

    /**
     * After warm runs from {@code --page-cache small} or {@code huge}: fails in one line if the cache
     * no longer held the file that way (another program evicted it and read it back), so that no
     * figure is recorded under a state it was not measured in. A chapter that maps the file tells
     * through its runs' PMD shares ({@code runShares}); for one that does not, the file is mapped once
     * more, untimed, and looked at.
     */
    public static void requireStillHeld(Path file, Folios folios, PmdShares runShares) throws IOException {
        if (folios == Folios.AS_IS) {
            return;
        }
        boolean small = folios == Folios.SMALL;
        OptionalDouble worst = small ? runShares.highestPercent() : runShares.lowestPercent();
        double percent = worst.isPresent() ? worst.getAsDouble() : mappedAsCached(file).pmdMappedPercent();
        if (Double.isNaN(percent)) {
            return; // nothing resident to judge by: an empty file
        }
        if (small ? percent > 0 : percent == 0) {
            throw new FileChangedException(changedUnder(file, folios, percent, worst.isPresent() ? "in a timed run" : "after the runs"));
        }
    }

    private static String changedUnder(Path file, Folios folios, double percent, String when) {
        return "--page-cache " + folios + ": " + Quote.name(file) + " was " + PmdMapping.percent(percent) + "% PMD-mapped " + when
                + ", so the page cache no longer held it in " + (folios == Folios.SMALL ? "4 KiB" : "2 MiB") + " folios"
                + " (another program read it back meanwhile, such as a run with --page-cache "
                + (folios == Folios.SMALL ? "huge" : "small") + "); no figure is reported as " + folios;
    }

    /**
     * How a fresh mapping of {@code file} comes out from the page cache as it stands: mapped with
     * {@code MADV_RANDOM}, so that a page not cached is read alone into a folio of its own (no
     * readahead, no large folio), then faulted in whole, looked at and unmapped. Untimed.
     */
    public static PmdMapping mappedAsCached(Path file) throws IOException {
        long bytes = Files.size(file);
        if (bytes == 0) {
            return new PmdMapping(0, 0, 0);
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment mapped = Native.mapFile(file, bytes, 0, arena);
            Native.madvise(mapped, Native.MADV_RANDOM);
            HugeFolios.populate(mapped);
            return PmdMapping.of(mapped);
        }
    }

    private static String thpSetting() {
        try {
            return "'" + Files.readString(Path.of("/sys/kernel/mm/transparent_hugepage/enabled")).strip() + "'";
        } catch (IOException | RuntimeException unreadable) {
            return "(setting unreadable)";
        }
    }

    /**
     * Evicts the file, then reads it back in 4 KiB folios. With {@code POSIX_FADV_RANDOM} on its own
     * descriptor, a read does no readahead and the kernel caches exactly the pages asked for, each
     * in a folio of one page, whatever the file system could do. Other readers are not affected.
     */
    public static void fillInSmallFolios(Path file) throws IOException {
        requireEvictable(file, "small");
        evict(file, "--page-cache small", "the cache cannot be refilled in small folios");
        int fd = Native.open(file, Native.O_RDONLY);
        try (Arena arena = Arena.ofConfined()) {
            Native.fadvise(fd, Native.POSIX_FADV_RANDOM);
            MemorySegment buffer = arena.allocate(READ_BYTES, 4096);
            for (long offset = 0, read; (read = Native.pread(fd, buffer, offset)) > 0; offset += read) {
                // reading is the point
            }
        } finally {
            Native.close(fd);
        }
    }

    /**
     * Evicts the file, then reads it back in 2 MiB folios: maps it, advises {@code MADV_HUGEPAGE},
     * and {@code workers} threads populate 2 MiB-aligned parts of it at once. Returns how the
     * mapping came out: the caller decides whether a share that small is a failure.
     */
    public static PmdMapping fillInHugeFolios(Path file, int workers) throws IOException {
        requireEvictable(file, "huge");
        String reason = HugeFolios.whyNot(file);
        if (reason != null) {
            throw new UserMistakeException("--page-cache huge: " + reason);
        }
        evict(file, "--page-cache huge", "the cache cannot be refilled in 2 MiB folios");
        long bytes = Files.size(file);
        try (Arena arena = Arena.ofShared()) {
            MemorySegment mapped = Native.mapFile(file, bytes, 0, arena);
            HugeFolios.advise(mapped);
            long step = Math.max(1, Math.ceilDiv(Math.ceilDiv(bytes, workers), PmdMapping.PMD_BYTES)) * PmdMapping.PMD_BYTES;
            List<Future<?>> parts = new ArrayList<>();
            try (ExecutorService threads = Executors.newThreadPerTaskExecutor(Thread.ofPlatform().name("populate-", 0).factory())) {
                for (long start = 0; start < bytes; start += step) {
                    MemorySegment part = mapped.asSlice(start, Math.min(step, bytes - start));
                    parts.add(threads.submit(() -> {
                        HugeFolios.populate(part);
                        return null;
                    }));
                }
            }
            for (Future<?> part : parts) {
                await(part, "the population of " + file);
            }
            return PmdMapping.of(mapped);
        }
    }

    /** tmpfs and ramfs keep every page, told by the file system's type: a sparse file's holes are not resident, so residency alone can pass a tmpfs file. */
    private static void refuseMemoryOnly(Path file, String option, String consequence) throws IOException {
        long type = Native.fileSystemMagic(file);
        if (type == Native.TMPFS_MAGIC || type == Native.RAMFS_MAGIC) {
            throw new UserMistakeException(option + ": " + Quote.name(file) + " is on tmpfs or ramfs, whose pages are the file itself "
                    + "and are never read back from a disk, so " + consequence + " (put it on a disk's file system such as ext4 or XFS)");
        }
    }

    /** tmpfs and ramfs hold the file itself in memory: "evict and read back" means nothing there. */
    private static void requireEvictable(Path file, String state) throws IOException {
        long magic = Native.fileSystemMagic(file);
        if (magic == Native.TMPFS_MAGIC || magic == Native.RAMFS_MAGIC) {
            throw new UserMistakeException("--page-cache " + state + ": " + Quote.name(file) + " is on tmpfs or ramfs, whose pages are the file"
                    + " itself and cannot be evicted and read back (put it on a disk's file system such as ext4 or XFS)");
        }
    }

    /**
     * Waits for a task on another thread, and throws here what it threw there: its I/O error as
     * itself, not wrapped. {@code waitingFor} says, if the wait is interrupted, what it waited for.
     */
    public static void await(Future<?> result, String waitingFor) throws IOException {
        try {
            result.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for " + waitingFor, e);
        } catch (java.util.concurrent.ExecutionException e) {
            switch (e.getCause()) {
                case IOException io -> throw io;
                case java.io.UncheckedIOException io -> throw io.getCause();
                case RuntimeException runtime -> throw runtime;
                case Error error -> throw error;
                default -> throw new IOException(e.getCause());
            }
        }
    }
}
