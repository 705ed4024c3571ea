package lib.linux;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.util.OptionalDouble;

/**
 * cachestat(2), Linux 6.5 and later: how many pages of a file the page cache holds, counted by the
 * kernel as it walks the cache's own index, a folio at a time.
 *
 * <p>{@code mincore(2)}, the older way, answers for a mapping one 4 KiB page at a time: 2^20
 * look-ups for a 4 GiB file, most of a tenth of a second, which a one-shot run used to spend before
 * its first search (docs/startup.md). cachestat walks the same file's cache in about 4,000 steps
 * when it is held in 1 MiB folios.
 *
 * <p>This class links only the four calls it needs, not {@link Native}'s dozen: linking costs a
 * fresh JVM a few milliseconds a call. A kernel without cachestat, or one that refuses it on a file
 * the caller could not write (kernels since 2025 do), gets no answer: ask mincore instead.
 */
public final class CacheStat {

    /** cachestat's number in the system call table Linux shares across architectures since 6.5. */
    private static final long SYS_CACHESTAT = 451;

    private static final Linker LINKER = Linker.nativeLinker();
    // int open(const char *path, int flags)
    private static final MethodHandle OPEN = downcall("open", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
    // int close(int fd)
    private static final MethodHandle CLOSE = downcall("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    // int getpagesize(void)
    private static final MethodHandle GETPAGESIZE = downcall("getpagesize", FunctionDescriptor.of(JAVA_INT));
    // long syscall(long number, ...): cachestat(fd, &range, &stat, flags), which the C library has no wrapper for
    private static final MethodHandle SYSCALL = LINKER.downcallHandle(LINKER.defaultLookup().findOrThrow("syscall"),
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_INT, ADDRESS, ADDRESS, JAVA_INT), Linker.Option.firstVariadicArg(1));

    // struct cachestat_range { __u64 off; __u64 len; }: all zeros, from offset 0 to the end of the file
    private static final long RANGE_BYTES = 16;
    // struct cachestat { __u64 nr_cache; __u64 nr_dirty; __u64 nr_writeback; __u64 nr_evicted; __u64 nr_recently_evicted; }
    private static final long STAT_BYTES = 40, NR_CACHE_AT = 0;

    private CacheStat() {}

    /**
     * The share of {@code file}'s pages in the page cache, from 0 to 1; empty when cachestat cannot
     * say (a kernel without it, a refusal, a file that does not open) and mincore must be asked.
     */
    public static OptionalDouble residentShare(Path file, long fileBytes) {
        try (Arena call = Arena.ofConfined()) {
            int fd = (int) OPEN.invokeExact(call.allocateFrom(file.toString()), Native.O_RDONLY);
            if (fd < 0) {
                return OptionalDouble.empty();
            }
            try {
                MemorySegment range = call.allocate(RANGE_BYTES, Long.BYTES);
                MemorySegment stat = call.allocate(STAT_BYTES, Long.BYTES);
                if ((long) SYSCALL.invokeExact(SYS_CACHESTAT, fd, range, stat, 0) != 0) {
                    return OptionalDouble.empty(); // ENOSYS, EPERM: the reason does not change what to do
                }
                long pages = Math.ceilDiv(fileBytes, (long) (int) GETPAGESIZE.invokeExact());
                return OptionalDouble.of(pages == 0 ? 0 : Math.min(1.0, (double) stat.get(JAVA_LONG, NR_CACHE_AT) / pages));
            } finally {
                int ignored = (int) CLOSE.invokeExact(fd);
            }
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    private static MethodHandle downcall(String name, FunctionDescriptor signature) {
        return LINKER.downcallHandle(LINKER.defaultLookup().findOrThrow(name), signature);
    }
}
