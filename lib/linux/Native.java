package lib.linux;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.file.Path;

/**
 * The few Linux system calls the JDK does not offer, called through {@code java.lang.foreign}.
 *
 * <p>{@code FileChannel} can map a file but cannot pass {@code MAP_POPULATE}, advise the kernel
 * with {@code madvise}, or drop a file from the page cache with {@code posix_fadvise}. The Foreign
 * Function and Memory API (final since JDK 22) calls them straight from Java: look the symbol up
 * in the C library, describe its signature, and invoke the resulting {@link MethodHandle}. Errors
 * come back through {@code errno}, which the linker captures right after the call, before the
 * JVM can overwrite it. Calling native code is a "restricted" operation: the JVM warns unless it
 * runs with {@code --enable-native-access=ALL-UNNAMED}, which every chapter passes.
 *
 * <p>The constants are Linux's; x86-64 and AArch64 agree on all of them but {@link #O_DIRECT}.
 */
public final class Native {

    public static final int O_RDONLY = 0;
    /** O_DIRECT is one of the few open flags whose value differs between architectures. */
    public static final int O_DIRECT = System.getProperty("os.arch").equals("aarch64") ? 0x10000 : 0x4000;
    public static final int PROT_READ = 0x1;
    public static final int PROT_WRITE = 0x2;
    public static final int MAP_SHARED = 0x01;
    public static final int MAP_PRIVATE = 0x02;
    public static final int MAP_ANONYMOUS = 0x20;
    public static final int MAP_POPULATE = 0x8000;
    public static final int MADV_RANDOM = 1;
    public static final int MADV_SEQUENTIAL = 2;
    public static final int MADV_WILLNEED = 3;
    /** Drop a range's page-table entries; a shared file mapping's pages stay in the page cache. */
    public static final int MADV_DONTNEED = 4;
    public static final int MADV_HUGEPAGE = 14;
    public static final int MADV_NOHUGEPAGE = 15;
    /** Fault a range in now, readable, without touching it from user space (Linux 5.14). */
    public static final int MADV_POPULATE_READ = 22;
    public static final int POSIX_FADV_RANDOM = 1;
    public static final int POSIX_FADV_DONTNEED = 4;
    /** preadv2(2)'s flag for a buffered read whose new page-cache pages are dropped once copied out (Linux 6.14). */
    public static final int RWF_DONTCACHE = 0x80;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO =
            CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno")).withInvokeExactBehavior();

    // int open(const char *path, int flags)
    private static final MethodHandle OPEN = downcall("open", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
    // int close(int fd)
    private static final MethodHandle CLOSE = downcall("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    // void *mmap(void *addr, size_t length, int prot, int flags, int fd, off_t offset)
    private static final MethodHandle MMAP = downcall("mmap",
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG));
    // int munmap(void *addr, size_t length)
    private static final MethodHandle MUNMAP = downcall("munmap", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
    // int madvise(void *addr, size_t length, int advice)
    private static final MethodHandle MADVISE = downcall("madvise", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));
    // int fdatasync(int fd)
    private static final MethodHandle FDATASYNC = downcall("fdatasync", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    // int posix_fadvise(int fd, off_t offset, off_t len, int advice): returns the error, leaves errno alone
    private static final MethodHandle POSIX_FADVISE = LINKER.downcallHandle(symbol("posix_fadvise"),
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_INT));
    // ssize_t pread(int fd, void *buf, size_t count, off_t offset)
    private static final MethodHandle PREAD = downcall("pread",
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG));
    // ssize_t preadv2(int fd, const struct iovec *iov, int iovcnt, off_t offset, int flags)
    private static final MethodHandle PREADV2 = downcall("preadv2",
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG, JAVA_INT));
    // struct iovec { void *iov_base; size_t iov_len; }
    private static final StructLayout IOVEC = MemoryLayout.structLayout(ADDRESS.withName("iov_base"), JAVA_LONG.withName("iov_len"));
    // int statfs(const char *path, struct statfs *buf)
    private static final MethodHandle STATFS = downcall("statfs", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
    // long syscall(long number, ...): variadic, so every argument is passed as a full long
    private static final MethodHandle SYSCALL = LINKER.downcallHandle(symbol("syscall"),
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG),
            Linker.Option.firstVariadicArg(1), Linker.Option.captureCallState("errno"));
    // int mincore(void *addr, size_t length, unsigned char *vec)
    private static final MethodHandle MINCORE = downcall("mincore", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS));
    // int getpagesize(void)
    private static final MethodHandle GETPAGESIZE = LINKER.downcallHandle(symbol("getpagesize"), FunctionDescriptor.of(JAVA_INT));
    // char *strerror(int errnum)
    private static final MethodHandle STRERROR = LINKER.downcallHandle(symbol("strerror"), FunctionDescriptor.of(ADDRESS, JAVA_INT));

    private Native() {}

    /** madvise(2) over a whole mapped segment. */
    public static void madvise(MemorySegment mapping, int advice) throws IOException {
        try (Arena call = Arena.ofConfined()) {
            MemorySegment state = call.allocate(CALL_STATE);
            int result = (int) MADVISE.invokeExact(state, mapping, mapping.byteSize(), advice);
            check(result, state, "madvise");
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /**
     * mmap(2) of a whole file, read-only and shared, with extra {@code flags} such as
     * {@link #MAP_POPULATE}. The segment lives as long as {@code arena}; closing the arena
     * calls munmap(2).
     */
    public static MemorySegment mapFile(Path file, long bytes, int flags, Arena arena) throws IOException {
        if (bytes == 0) {
            return MemorySegment.NULL; // mmap refuses a length of 0; an empty file has nothing to scan
        }
        int fd = open(file, O_RDONLY);
        try {
            return map(fd, bytes, PROT_READ, MAP_SHARED | flags, 0, arena);
        } finally {
            close(fd); // a mapping stays valid after its descriptor is closed
        }
    }

    /**
     * mmap(2) of {@code bytes} of descriptor {@code fd} from {@code offset}, as a segment that
     * lives as long as {@code arena}; closing the arena calls munmap(2).
     */
    public static MemorySegment map(int fd, long bytes, int prot, int flags, long offset, Arena arena) throws IOException {
        try (Arena call = Arena.ofConfined()) {
            MemorySegment state = call.allocate(CALL_STATE);
            MemorySegment address = (MemorySegment) MMAP.invokeExact(state, MemorySegment.NULL, bytes, prot, flags, fd, offset);
            if (address.address() == -1L) { // MAP_FAILED
                throw new ErrnoException("mmap", errno(state));
            }
            // A raw address has size 0; reinterpret gives it its real size and ties it to the
            // arena, whose closing runs munmap. (Restricted: it trusts us about the size.)
            return address.reinterpret(bytes, arena, Native::munmapQuietly);
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /**
     * mmap(2) of {@code bytes} of fresh, zeroed memory (anonymous, private, readable and writable),
     * not yet touched, so that {@link #madvise} can still shape how it is faulted in. Closing
     * {@code arena} calls munmap(2).
     */
    public static MemorySegment mapAnonymous(long bytes, Arena arena) throws IOException {
        return map(-1, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, 0, arena);
    }

    /**
     * Drops a file's pages from the page cache: fdatasync(2), then
     * posix_fadvise(POSIX_FADV_DONTNEED). Reads nothing, writes nothing to the file. The error
     * names the call that failed, not the file: the caller says which file it was.
     */
    public static void evictFromPageCache(Path file) throws IOException {
        int fd = open(file, O_RDONLY);
        try (Arena call = Arena.ofConfined()) {
            MemorySegment state = call.allocate(CALL_STATE);
            check((int) FDATASYNC.invokeExact(state, fd), state, "fdatasync");
            fadvise(fd, POSIX_FADV_DONTNEED);
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError(t);
        } finally {
            close(fd);
        }
    }

    /**
     * posix_fadvise(2) over the whole file behind descriptor {@code fd}, e.g. {@link #POSIX_FADV_RANDOM}.
     * The advice belongs to this open file description only, not to the file's other readers.
     */
    public static void fadvise(int fd, int advice) throws IOException {
        fadvise(fd, 0, 0, advice); // a length of 0 means "to the end of the file"
    }

    /** posix_fadvise(2) over {@code length} bytes from {@code offset} of the file behind {@code fd}. */
    public static void fadvise(int fd, long offset, long length, int advice) throws IOException {
        try {
            int error = (int) POSIX_FADVISE.invokeExact(fd, offset, length, advice);
            if (error != 0) {
                throw new IOException("posix_fadvise: " + strerror(error));
            }
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /**
     * pread(2) of up to {@code buffer.byteSize()} bytes at {@code offset} of descriptor {@code fd}:
     * the bytes read, 0 at the end of the file. An interrupted call is retried.
     */
    public static long pread(int fd, MemorySegment buffer, long offset) throws IOException {
        try (Arena call = Arena.ofConfined()) {
            MemorySegment state = call.allocate(CALL_STATE);
            while (true) {
                long read = (long) PREAD.invokeExact(state, fd, buffer, buffer.byteSize(), offset);
                if (read >= 0) {
                    return read;
                }
                if (errno(state) != ErrnoException.EINTR) {
                    throw new ErrnoException("pread", errno(state));
                }
            }
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /**
     * preadv2(2) of up to {@code buffer.byteSize()} bytes at {@code offset} of descriptor {@code fd},
     * with per-call {@code flags} such as {@link #RWF_DONTCACHE}: the bytes read, 0 at the end of the
     * file. An interrupted call is retried; a refused flag comes back as an {@link ErrnoException}
     * ({@code EOPNOTSUPP} where the file system lacks it, {@code EINVAL} where the kernel does not know it).
     */
    public static long preadv2(int fd, MemorySegment buffer, long offset, int flags) throws IOException {
        try (Arena call = Arena.ofConfined()) {
            MemorySegment state = call.allocate(CALL_STATE);
            MemorySegment vector = call.allocate(IOVEC);
            vector.set(ADDRESS, 0, buffer);
            vector.set(JAVA_LONG, ADDRESS.byteSize(), buffer.byteSize());
            while (true) {
                long read = (long) PREADV2.invokeExact(state, fd, vector, 1, offset, flags);
                if (read >= 0) {
                    return read;
                }
                if (errno(state) != ErrnoException.EINTR) {
                    throw new ErrnoException("preadv2", errno(state));
                }
            }
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /**
     * The share of {@code mapping}'s pages that are in memory, from 0 to 1: mincore(2), which
     * reports on the page cache behind a file mapping without faulting anything in.
     */
    public static double residentShare(MemorySegment mapping) throws IOException {
        try (Arena call = Arena.ofConfined()) {
            long pageBytes = (int) GETPAGESIZE.invokeExact();
            long pages = Math.ceilDiv(mapping.byteSize(), pageBytes);
            MemorySegment state = call.allocate(CALL_STATE);
            MemorySegment vector = call.allocate(pages); // one byte per page; bit 0 says "resident"
            check((int) MINCORE.invokeExact(state, mapping, mapping.byteSize(), vector), state, "mincore");
            long resident = 0;
            // Counted in a byte[]: a segment read per page costs far more before the JIT gets to it,
            // and a one-shot run asks this once, in the interpreter. A 4 GiB file is 2^20 pages.
            for (byte flags : vector.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE)) {
                resident += flags & 1;
            }
            return (double) resident / pages;
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** The file system magic number of tmpfs (and of a shmem file), from linux/magic.h. */
    public static final long TMPFS_MAGIC = 0x01021994L;
    public static final long RAMFS_MAGIC = 0x858458f6L;

    /**
     * statfs(2)'s {@code f_type} for the file system holding {@code file}: a magic number such as
     * {@link #TMPFS_MAGIC}. It is the struct's first field, a {@code long} on 64-bit Linux.
     */
    public static long fileSystemMagic(Path file) throws IOException {
        try (Arena call = Arena.ofConfined()) {
            MemorySegment state = call.allocate(CALL_STATE);
            MemorySegment buffer = call.allocate(512, 8); // struct statfs is 120 bytes on x86-64 and AArch64
            check((int) STATFS.invokeExact(state, call.allocateFrom(file.toString()), buffer), state, "statfs " + file);
            return buffer.get(JAVA_LONG, 0) & 0xffffffffL;
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** open(2): a raw descriptor for {@code file}, e.g. with {@link #O_RDONLY} or {@code O_RDONLY | O_DIRECT}. */
    public static int open(Path file, int flags) throws IOException {
        try (Arena call = Arena.ofConfined()) {
            MemorySegment state = call.allocate(CALL_STATE);
            int fd = (int) OPEN.invokeExact(state, call.allocateFrom(file.toString()), flags);
            if (fd == -1) {
                throw new ErrnoException("open " + file, errno(state));
            }
            return fd;
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /**
     * Memory for the {@code errno} a {@link #syscall} leaves behind: a caller that makes many calls
     * on one thread allocates it once, so no call pays for an allocation.
     */
    public static MemorySegment allocateCallState(Arena arena) {
        return arena.allocate(CALL_STATE);
    }

    /**
     * syscall(2): the system call {@code number} with six arguments (unused ones 0), for calls the C
     * library has no wrapper for, such as io_uring's. Returns the result, or {@code -errno} as the
     * kernel itself does; {@code callState} is from {@link #allocateCallState}.
     */
    public static long syscall(MemorySegment callState, long number, long a, long b, long c, long d, long e, long f) {
        try {
            long result = (long) SYSCALL.invokeExact(callState, number, a, b, c, d, e, f);
            return result == -1 ? -errno(callState) : result;
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** close(2) of a descriptor from {@link #open}. */
    public static void close(int fd) {
        try (Arena call = Arena.ofConfined()) {
            int ignored = (int) CLOSE.invokeExact(call.allocate(CALL_STATE), fd);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    private static void munmapQuietly(MemorySegment mapping) {
        try (Arena call = Arena.ofConfined()) {
            int ignored = (int) MUNMAP.invokeExact(call.allocate(CALL_STATE), mapping, mapping.byteSize());
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    private static void check(int result, MemorySegment state, String what) throws IOException {
        if (result == -1) {
            throw new ErrnoException(what, errno(state));
        }
    }

    private static int errno(MemorySegment state) {
        return (int) ERRNO.get(state, 0L);
    }

    /** The C library's text for an error number, e.g. "Invalid argument" for EINVAL. */
    public static String strerror(int errno) {
        try {
            MemorySegment text = (MemorySegment) STRERROR.invokeExact(errno);
            return text.reinterpret(256).getString(0);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** A failed system call, with its error number for callers that treat some errors apart. */
    public static final class ErrnoException extends IOException {
        public static final int EPERM = 1, EINTR = 4, EFAULT = 14, EINVAL = 22, ENOSYS = 38, EOPNOTSUPP = 95;
        private final int errno;

        public ErrnoException(String call, int errno) {
            super(call + ": " + strerror(errno));
            this.errno = errno;
        }

        public int errno() {
            return errno;
        }
    }

    private static MethodHandle downcall(String name, FunctionDescriptor signature) {
        return LINKER.downcallHandle(symbol(name), signature, Linker.Option.captureCallState("errno"));
    }

    private static MemorySegment symbol(String name) {
        return LINKER.defaultLookup().find(name)
                .orElseThrow(() -> new UnsupportedOperationException("the C library has no " + name + " (this needs Linux)"));
    }
}
