package lib.linux;

import lib.cli.UserMistakeException;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.VarHandle;
import lib.linux.Native.ErrnoException;

/**
 * A minimal io_uring (Linux 5.1+) for file reads, spoken through {@code java.lang.foreign} with
 * no C library beyond libc: two system calls and three shared-memory mappings.
 *
 * <p>{@code io_uring_setup} creates a submission queue (SQ) and a completion queue (CQ), ring
 * buffers the kernel shares with us through {@code mmap}. To read, we fill a 64-byte submission
 * entry (SQE: opcode, file, offset, buffer, length, a tag of our own), publish it by advancing
 * the SQ tail, and call {@code io_uring_enter}; the kernel later appends a 16-byte completion
 * (CQE: our tag, bytes read or {@code -errno}) and advances the CQ tail. One call can submit many
 * reads and wait for one, so a single thread keeps many reads in flight.
 *
 * <p>Head and tail indices are shared with another "thread", the kernel, so they are read with
 * acquire and written with release semantics ({@link VarHandle#getAcquire}, {@link
 * VarHandle#setRelease}): the kernel must see an SQE's fields before the tail that publishes it,
 * and we must see a CQE's fields only after the tail that announced it. The struct layouts are
 * {@code <linux/io_uring.h>}'s; they and the system call numbers are the same on x86-64 and
 * AArch64. Not thread-safe: one ring per thread.
 */
public final class IoUring implements AutoCloseable {

    private static final long SYS_IO_URING_SETUP = 425, SYS_IO_URING_ENTER = 426;
    private static final byte IORING_OP_READ = 22;
    private static final long IORING_ENTER_GETEVENTS = 1;
    private static final int IORING_FEAT_SINGLE_MMAP = 1;
    private static final long IORING_OFF_SQ_RING = 0, IORING_OFF_CQ_RING = 0x8000000, IORING_OFF_SQES = 0x10000000;

    /** struct io_sqring_offsets: where each field of the submission ring sits in its mapping. */
    private static final StructLayout SQ_OFFSETS = MemoryLayout.structLayout(
            JAVA_INT.withName("head"), JAVA_INT.withName("tail"), JAVA_INT.withName("ring_mask"),
            JAVA_INT.withName("ring_entries"), JAVA_INT.withName("flags"), JAVA_INT.withName("dropped"),
            JAVA_INT.withName("array"), JAVA_INT.withName("resv1"), JAVA_LONG.withName("user_addr"));

    /** struct io_cqring_offsets: the same for the completion ring. */
    private static final StructLayout CQ_OFFSETS = MemoryLayout.structLayout(
            JAVA_INT.withName("head"), JAVA_INT.withName("tail"), JAVA_INT.withName("ring_mask"),
            JAVA_INT.withName("ring_entries"), JAVA_INT.withName("overflow"), JAVA_INT.withName("cqes"),
            JAVA_INT.withName("flags"), JAVA_INT.withName("resv1"), JAVA_LONG.withName("user_addr"));

    /** struct io_uring_params: what we ask for, and what the kernel answers. */
    private static final StructLayout PARAMS = MemoryLayout.structLayout(
            JAVA_INT.withName("sq_entries"), JAVA_INT.withName("cq_entries"), JAVA_INT.withName("flags"),
            JAVA_INT.withName("sq_thread_cpu"), JAVA_INT.withName("sq_thread_idle"), JAVA_INT.withName("features"),
            JAVA_INT.withName("wq_fd"), MemoryLayout.sequenceLayout(3, JAVA_INT).withName("resv"),
            SQ_OFFSETS.withName("sq_off"), CQ_OFFSETS.withName("cq_off"));

    /** struct io_uring_sqe, the fields a read uses (the rest stay zero). */
    private static final StructLayout SQE = MemoryLayout.structLayout(
            JAVA_BYTE.withName("opcode"), JAVA_BYTE.withName("flags"), JAVA_SHORT.withName("ioprio"),
            JAVA_INT.withName("fd"), JAVA_LONG.withName("off"), JAVA_LONG.withName("addr"),
            JAVA_INT.withName("len"), JAVA_INT.withName("rw_flags"), JAVA_LONG.withName("user_data"),
            MemoryLayout.paddingLayout(24));

    /** struct io_uring_cqe. */
    private static final StructLayout CQE = MemoryLayout.structLayout(
            JAVA_LONG.withName("user_data"), JAVA_INT.withName("res"), JAVA_INT.withName("flags"));

    private static final long SQE_OPCODE = offset(SQE, "opcode"), SQE_FD = offset(SQE, "fd"),
            SQE_OFF = offset(SQE, "off"), SQE_ADDR = offset(SQE, "addr"), SQE_LEN = offset(SQE, "len"),
            SQE_USER_DATA = offset(SQE, "user_data"), CQE_USER_DATA = offset(CQE, "user_data"), CQE_RES = offset(CQE, "res");

    /** Ring indices: plain 32-bit ints, accessed with acquire/release ordering. */
    private static final VarHandle INDEX = JAVA_INT.varHandle();

    private final Arena arena = Arena.ofConfined(); // owns the mappings: closing it unmaps them
    private final MemorySegment callState = Native.allocateCallState(arena); // one per ring: no allocation per call
    private final int ringFd;
    private final MemorySegment sqRing, cqRing, sqes;
    private final long sqHead, sqTail, cqHead, cqTail, cqes; // byte offsets of ring fields in their mappings
    private final int sqEntries, sqMask, cqMask;
    private int queuedNotSubmitted;

    /** A ring with room for {@code entries} requests in flight (a power of two up to 4096). */
    public IoUring(int entries) throws IOException {
        MemorySegment params = arena.allocate(PARAMS); // zeroed: no flags, default everything
        long fd = syscall(SYS_IO_URING_SETUP, entries, params.address(), 0, 0, 0, 0);
        if (fd < 0) {
            int errno = (int) -fd;
            arena.close();
            throw new UserMistakeException(switch (errno) {
                case ErrnoException.ENOSYS -> "this kernel has no io_uring (it needs Linux 5.1 or later)";
                case ErrnoException.EPERM -> "io_uring is not allowed here (see /proc/sys/kernel/io_uring_disabled, or a seccomp filter)";
                default -> "io_uring_setup failed: " + Native.strerror(errno);
            });
        }
        ringFd = (int) fd;
        try {
            sqEntries = field(params, "sq_entries");
            sqHead = field(params, "sq_off", "head");
            sqTail = field(params, "sq_off", "tail");
            long sqArray = field(params, "sq_off", "array");
            cqHead = field(params, "cq_off", "head");
            cqTail = field(params, "cq_off", "tail");
            cqes = field(params, "cq_off", "cqes");
            long sqRingBytes = sqArray + (long) sqEntries * Integer.BYTES;
            long cqRingBytes = cqes + field(params, "cq_entries") * CQE.byteSize();
            if ((field(params, "features") & IORING_FEAT_SINGLE_MMAP) != 0) { // Linux 5.4+: one mapping for both rings
                sqRing = map(Math.max(sqRingBytes, cqRingBytes), IORING_OFF_SQ_RING);
                cqRing = sqRing;
            } else {
                sqRing = map(sqRingBytes, IORING_OFF_SQ_RING);
                cqRing = map(cqRingBytes, IORING_OFF_CQ_RING);
            }
            sqes = map(sqEntries * SQE.byteSize(), IORING_OFF_SQES);
            sqMask = sqRing.get(JAVA_INT, field(params, "sq_off", "ring_mask"));
            cqMask = cqRing.get(JAVA_INT, field(params, "cq_off", "ring_mask"));
            // The SQ ring holds indices into the SQE array; slot i always names SQE i.
            for (int i = 0; i < sqEntries; i++) {
                sqRing.set(JAVA_INT, sqArray + (long) i * Integer.BYTES, i);
            }
        } catch (IOException | RuntimeException e) {
            Native.close(ringFd);
            arena.close();
            throw e;
        }
    }

    /** An int field of io_uring_params, found by its path of names in {@link #PARAMS}. */
    private static int field(MemorySegment params, String... path) {
        MemoryLayout.PathElement[] elements = new MemoryLayout.PathElement[path.length];
        for (int i = 0; i < path.length; i++) {
            elements[i] = MemoryLayout.PathElement.groupElement(path[i]);
        }
        return params.get(JAVA_INT, PARAMS.byteOffset(elements));
    }

    private static long offset(StructLayout layout, String field) {
        return layout.byteOffset(MemoryLayout.PathElement.groupElement(field));
    }

    /** Queues a read of {@code buffer.byteSize()} bytes at {@code fileOffset}; {@link #submitAndWait} sends it. */
    public void queueRead(int fd, MemorySegment buffer, long fileOffset, long tag) {
        int tail = sqRing.get(JAVA_INT, sqTail); // only we write the SQ tail
        int head = (int) INDEX.getAcquire(sqRing, sqHead); // the kernel moves the SQ head as it takes entries
        if (tail - head >= sqEntries) {
            throw new IllegalStateException("the submission queue is full");
        }
        MemorySegment sqe = sqes.asSlice((tail & sqMask) * SQE.byteSize(), SQE.byteSize());
        sqe.fill((byte) 0);
        sqe.set(JAVA_BYTE, SQE_OPCODE, IORING_OP_READ);
        sqe.set(JAVA_INT, SQE_FD, fd);
        sqe.set(JAVA_LONG, SQE_OFF, fileOffset);
        sqe.set(JAVA_LONG, SQE_ADDR, buffer.address());
        sqe.set(JAVA_INT, SQE_LEN, Math.toIntExact(buffer.byteSize()));
        sqe.set(JAVA_LONG, SQE_USER_DATA, tag);
        INDEX.setRelease(sqRing, sqTail, tail + 1); // publishes the SQE written above
        queuedNotSubmitted++;
    }

    /** A finished request: the tag given to {@link #queueRead}, and bytes read or {@code -errno}. */
    public record Completion(long tag, int result) {}

    /**
     * Submits what is queued, waits until at least one completion is there, and takes it. Call it
     * only with requests in flight, or it waits for ever.
     */
    public Completion submitAndWait() throws IOException {
        while (true) {
            int head = (int) INDEX.getAcquire(cqRing, cqHead);
            int tail = (int) INDEX.getAcquire(cqRing, cqTail); // the CQE fields below are visible after this
            if (head != tail && queuedNotSubmitted == 0) {
                long cqe = cqes + (head & cqMask) * CQE.byteSize();
                Completion done = new Completion(cqRing.get(JAVA_LONG, cqe + CQE_USER_DATA), cqRing.get(JAVA_INT, cqe + CQE_RES));
                INDEX.setRelease(cqRing, cqHead, head + 1); // hands the slot back to the kernel
                return done;
            }
            // Submit everything queued; wait for a completion only if none is there yet.
            long submitted = syscall(SYS_IO_URING_ENTER, ringFd, queuedNotSubmitted,
                    head != tail ? 0 : 1, IORING_ENTER_GETEVENTS, 0, 0);
            if (submitted < 0 && submitted != -ErrnoException.EINTR) {
                throw new IOException("io_uring_enter: " + Native.strerror((int) -submitted));
            }
            queuedNotSubmitted -= (int) Math.max(0, submitted);
        }
    }

    @Override
    public void close() {
        Native.close(ringFd);
        arena.close();
    }

    /** Maps one of the ring's regions, shared with the kernel, pre-faulted, unmapped with the arena. */
    private MemorySegment map(long bytes, long offset) throws IOException {
        return Native.map(ringFd, bytes, Native.PROT_READ | Native.PROT_WRITE, Native.MAP_SHARED | Native.MAP_POPULATE,
                offset, arena);
    }

    /** A raw system call through {@link Native#syscall}; returns the result, or {@code -errno} like the kernel itself. */
    private long syscall(long number, long a, long b, long c, long d, long e, long f) {
        return Native.syscall(callState, number, a, b, c, d, e, f);
    }
}
