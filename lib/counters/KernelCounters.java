package lib.counters;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The counts Linux keeps for every process, read in two cheap calls and no special rights: the
 * raw material of a run's bill ({@link KernelBill}).
 *
 * <ul>
 *   <li>{@code /proc/self/io}: {@code syscr} (read-type system calls), {@code rchar} (the bytes they
 *       returned, from the page cache or not) and {@code read_bytes} (bytes the process made the kernel
 *       fetch from a device). They cover every thread, the ones that already ended too, and the
 *       children the process waited for;
 *   <li>{@code getrusage}: minor and major page faults, voluntary and involuntary context switches,
 *       and the CPU time spent in user space and in the kernel, for {@code RUSAGE_SELF} (every
 *       thread, ended ones included) plus {@code RUSAGE_CHILDREN} (the programs it ran and waited
 *       for, such as chapter 0's {@code cmp}).
 * </ul>
 *
 * A chapter starts and joins its threads inside each run, so a count kept per live thread (as
 * {@code /proc/self/task/*}{@code /status} keeps context switches) would lose them; these sources do not.
 *
 * <p>Reading the counters costs one {@code pread} of {@code /proc/self/io}, kept open, and two
 * {@code getrusage} calls. The values a read returns are taken before the kernel counts that read
 * itself, so the snapshot taken before a run adds exactly one read call, and the bytes it returned,
 * to the counts after it: {@link Snapshot#since} takes them back out.
 *
 * <p>A counter this system does not keep (no {@code /proc/self/io} on a kernel built without task
 * I/O accounting, say) is {@link #UNKNOWN}, never zero, and {@link #missing} says why in one line.
 */
public final class KernelCounters {

    /** What {@link Snapshot#counts} holds for a counter this system does not keep. */
    public static final long UNKNOWN = -1;

    /** The order of the counts in a snapshot: the order of {@link KernelBill.Item}. */
    private static final int READ_CALLS = 0, RETURNED_BYTES = 1, DEVICE_BYTES = 2, MINOR_FAULTS = 3, MAJOR_FAULTS = 4,
            VOLUNTARY_SWITCHES = 5, INVOLUNTARY_SWITCHES = 6, USER_MICROS = 7, SYSTEM_MICROS = 8, COUNTS = 9;

    private static final Path PROC_SELF_IO = Path.of("/proc/self/io");
    private static final int RUSAGE_SELF = 0, RUSAGE_CHILDREN = -1;
    /**
     * struct rusage on 64-bit Linux: two struct timeval (16 bytes each: seconds, then microseconds),
     * ru_utime and ru_stime, then fourteen longs, of which ru_minflt, ru_majflt, ru_nvcsw and ru_nivcsw
     * are the 5th, 6th, 13th and 14th.
     */
    private static final long RUSAGE_BYTES = 144, UTIME_AT = 0, STIME_AT = 16, MINFLT_AT = 64, MAJFLT_AT = 72, NVCSW_AT = 128, NIVCSW_AT = 136;

    private static FileChannel procSelfIo;
    private static final ByteBuffer IO_TEXT = ByteBuffer.allocateDirect(4096);
    private static MethodHandle getrusage;
    private static final MemorySegment RUSAGE = Arena.global().allocate(RUSAGE_BYTES, Long.BYTES);
    private static final List<String> MISSING = new ArrayList<>();

    static {
        try {
            procSelfIo = FileChannel.open(PROC_SELF_IO);
            long[] probe = new long[COUNTS];
            Arrays.fill(probe, UNKNOWN);
            if (readProcSelfIo(probe) < 0) {
                throw new IOException("it reads empty");
            }
            List<String> lacking = new ArrayList<>();
            String[] procNames = {"syscr", "rchar", "read_bytes"}, billNames = {"read_calls", "returned_bytes", "device_bytes"};
            int[] indexes = {READ_CALLS, RETURNED_BYTES, DEVICE_BYTES};
            for (int i = 0; i < indexes.length; i++) {
                if (probe[indexes[i]] == UNKNOWN) {
                    lacking.add(billNames[i] + " (no " + procNames[i] + " line)");
                }
            }
            if (!lacking.isEmpty()) {
                MISSING.add(PROC_SELF_IO + " lacks counts here, left empty: " + String.join(", ", lacking));
            }
        } catch (IOException | SecurityException e) {
            procSelfIo = null;
            MISSING.add("cannot read " + PROC_SELF_IO + " (" + e.getMessage() + ", a kernel without task I/O accounting?):"
                    + " read_calls, returned_bytes and device_bytes are left empty");
        }
        try {
            Linker linker = Linker.nativeLinker();
            getrusage = linker.downcallHandle(linker.defaultLookup().find("getrusage").orElseThrow(),
                    FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS));
            if ((int) getrusage.invokeExact(RUSAGE_SELF, RUSAGE) != 0) {
                throw new IllegalStateException("getrusage failed");
            }
        } catch (Throwable e) { // no C library symbol, native access refused, or the call failed
            getrusage = null;
            MISSING.add("getrusage is not available here (" + e + "): minor_faults, major_faults, voluntary_switches, "
                    + "involuntary_switches, user_us and system_us are left empty");
        }
    }

    private KernelCounters() {}

    /** One line per group of counters this system does not keep, saying why; empty where all are kept. */
    public static List<String> missing() {
        return List.copyOf(MISSING);
    }

    /**
     * The process's counts now, plus the bytes of text this snapshot's own read of /proc/self/io
     * returned (what the next snapshot will find added by it), and the read calls and bytes so far
     * of each of the JVM's own threads ({@link #jvmThreadReads}), by thread id.
     */
    public record Snapshot(long[] counts, long ownReadBytes, java.util.Map<String, long[]> jvmThreads) {

        /**
         * Each count from {@code before} to this snapshot, in the order of {@link KernelBill.Item}, less
         * {@code before}'s own read of /proc/self/io; UNKNOWN where either snapshot lacks it.
         */
        public long[] since(Snapshot before) {
            long[] difference = new long[COUNTS];
            for (int i = 0; i < COUNTS; i++) {
                long after = counts[i], earlier = before.counts[i];
                difference[i] = after == UNKNOWN || earlier == UNKNOWN ? UNKNOWN : after - earlier;
            }
            for (var thread : jvmThreads.entrySet()) { // the JVM's own reads, made while the run ran, are not the search's
                long[] earlier = before.jvmThreads.get(thread.getKey());
                for (int i = 0; earlier != null && i < 2; i++) {
                    int item = i == 0 ? READ_CALLS : RETURNED_BYTES;
                    if (difference[item] != UNKNOWN) {
                        difference[item] = Math.max(0, difference[item] - (thread.getValue()[i] - earlier[i]));
                    }
                }
            }
            if (before.ownReadBytes != UNKNOWN) {
                if (difference[READ_CALLS] != UNKNOWN) {
                    difference[READ_CALLS] = Math.max(0, difference[READ_CALLS] - 1);
                }
                if (difference[RETURNED_BYTES] != UNKNOWN) {
                    difference[RETURNED_BYTES] = Math.max(0, difference[RETURNED_BYTES] - before.ownReadBytes);
                }
            }
            return difference;
        }

        /**
         * Everything counted from {@code before} to this snapshot, both snapshots' own reads of
         * /proc/self/io included: what a step inside a run cost the run's counts, for a caller
         * that takes that step back out of the run's bill (as it takes its time out of the run's).
         */
        public long[] spentSince(Snapshot before) {
            long[] spent = new long[COUNTS];
            for (int i = 0; i < COUNTS; i++) {
                spent[i] = counts[i] == UNKNOWN || before.counts[i] == UNKNOWN ? UNKNOWN : counts[i] - before.counts[i];
            }
            if (ownReadBytes != UNKNOWN) { // this snapshot's read, counted after its values were taken
                spent[READ_CALLS] += spent[READ_CALLS] == UNKNOWN ? 0 : 1;
                spent[RETURNED_BYTES] += spent[RETURNED_BYTES] == UNKNOWN ? 0 : ownReadBytes;
            }
            return spent;
        }

        /** {@code counts} less {@code untimed} (both as {@link #since} returns them), never below zero; UNKNOWN stays. */
        public static long[] less(long[] counts, long[] untimed) {
            long[] rest = counts.clone();
            for (int i = 0; i < COUNTS && untimed != null; i++) {
                if (rest[i] != UNKNOWN && untimed[i] != UNKNOWN) {
                    rest[i] = Math.max(0, rest[i] - untimed[i]);
                }
            }
            return rest;
        }
    }

    /** The counts now, every thread's reads included: for a step inside a run ({@link Snapshot#spentSince}). */
    public static Snapshot now() {
        return snapshot(false, false);
    }

    /**
     * The counts right before a run's clock starts, and the reads of the JVM's own threads so far,
     * taken first: the files this reads are read before the run's count begins.
     */
    public static Snapshot beforeRun() {
        return snapshot(true, false);
    }

    /**
     * The counts right after a run's clock stops, and then the reads of the JVM's own threads:
     * {@link Snapshot#since} takes out what those threads read while the run ran.
     */
    public static Snapshot afterRun() {
        return snapshot(false, true);
    }

    private static synchronized Snapshot snapshot(boolean threadsFirst, boolean threadsLast) {
        long[] counts = new long[COUNTS];
        Arrays.fill(counts, UNKNOWN);
        java.util.Map<String, long[]> jvmThreads = threadsFirst && procSelfIo != null ? jvmThreadReads() : java.util.Map.of();
        if (getrusage != null) { // first, so that the pread below is the last call before the run
            rusage(counts);
        }
        long ownReadBytes = procSelfIo == null ? UNKNOWN : readProcSelfIo(counts);
        if (threadsLast && procSelfIo != null) {
            jvmThreads = jvmThreadReads();
        }
        return new Snapshot(counts, ownReadBytes, jvmThreads);
    }

    /**
     * The names (as the kernel keeps them, cut at 15 characters) that the JVM gives its own threads:
     * its compilers, its periodic task, its collector, its reference and cleaner threads. Such a
     * thread reads a file now and then on its own schedule, whatever the chapter does: the periodic
     * task reads the JDK's {@code release} file once, a compiler thread opens a library of the JDK's
     * for an intrinsic (three reads), and one of them landing inside a one-shot's only run billed a
     * mapped chapter a read call it never made.
     */
    private static final java.util.regex.Pattern JVM_THREAD = java.util.regex.Pattern.compile(
            "(VM |C1 |C2 |GC |G1 |ZGC|JFR|Reference Handl|Finalizer|Signal Dispatch|Service Thread|Monitor Deflati"
                    + "|Common-Cleaner|Notification Th|Attach Listener).*");

    /**
     * {@code syscr} and {@code rchar} of each live thread of the JVM's own, by thread id, from
     * {@code /proc/self/task/ID/io}; a thread that ended between the listing and its read is left out.
     */
    static java.util.Map<String, long[]> jvmThreadReads() {
        java.util.Map<String, long[]> threads = new java.util.HashMap<>();
        try (var tasks = java.nio.file.Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path task : tasks) {
                String id = task.getFileName().toString();
                java.util.Optional<FileChannel> io = JVM_THREAD_IO.computeIfAbsent(id, unseen -> openIoIfJvmThread(task));
                long[] counts = new long[COUNTS];
                Arrays.fill(counts, UNKNOWN);
                if (io.isEmpty() || read(io.get(), counts) < 0) {
                    continue; // not the JVM's, or it ended meanwhile: its reads stay in the bill
                }
                if (counts[READ_CALLS] != UNKNOWN && counts[RETURNED_BYTES] != UNKNOWN) {
                    threads.put(id, new long[] {counts[READ_CALLS], counts[RETURNED_BYTES]});
                }
            }
        } catch (IOException | RuntimeException noTasks) {
            // no per-thread counts on this system: the bill counts every thread's reads
        }
        return threads;
    }

    /**
     * Each thread id seen so far: its {@code io} file, kept open and read again at offset 0 as
     * /proc/self/io is (a few microseconds), for one of the JVM's own threads, whose name is read
     * once; empty for any other.
     */
    private static final java.util.Map<String, java.util.Optional<FileChannel>> JVM_THREAD_IO = new java.util.concurrent.ConcurrentHashMap<>();

    private static java.util.Optional<FileChannel> openIoIfJvmThread(Path task) {
        try {
            String name = new String(java.nio.file.Files.readAllBytes(task.resolve("comm")), StandardCharsets.US_ASCII).strip();
            return JVM_THREAD.matcher(name).matches() ? java.util.Optional.of(FileChannel.open(task.resolve("io"))) : java.util.Optional.empty();
        } catch (IOException gone) {
            return java.util.Optional.empty();
        }
    }

    private static void rusage(long[] counts) {
        try {
            long minor = 0, major = 0, voluntary = 0, involuntary = 0, userMicros = 0, systemMicros = 0;
            for (int who : new int[] {RUSAGE_SELF, RUSAGE_CHILDREN}) {
                if ((int) getrusage.invokeExact(who, RUSAGE) != 0) {
                    return; // left UNKNOWN
                }
                minor += RUSAGE.get(JAVA_LONG, MINFLT_AT);
                major += RUSAGE.get(JAVA_LONG, MAJFLT_AT);
                voluntary += RUSAGE.get(JAVA_LONG, NVCSW_AT);
                involuntary += RUSAGE.get(JAVA_LONG, NIVCSW_AT);
                userMicros += microseconds(UTIME_AT);
                systemMicros += microseconds(STIME_AT);
            }
            counts[MINOR_FAULTS] = minor;
            counts[MAJOR_FAULTS] = major;
            counts[VOLUNTARY_SWITCHES] = voluntary;
            counts[INVOLUNTARY_SWITCHES] = involuntary;
            counts[USER_MICROS] = userMicros;
            counts[SYSTEM_MICROS] = systemMicros;
        } catch (Throwable e) {
            throw new AssertionError(e); // the handle's type is fixed above: an exception here is a bug
        }
    }

    /** The struct timeval at {@code at} in the rusage just read, in microseconds. */
    private static long microseconds(long at) {
        return RUSAGE.get(JAVA_LONG, at) * 1_000_000 + RUSAGE.get(JAVA_LONG, at + Long.BYTES);
    }

    /**
     * Fills syscr, rchar and read_bytes from one pread of /proc/self/io at offset 0 (the kernel
     * writes the text afresh for each read from the start); returns the bytes read, or UNKNOWN when
     * the read failed. A line that is missing leaves its count UNKNOWN.
     */
    private static long readProcSelfIo(long[] counts) {
        return read(procSelfIo, counts);
    }

    /** The same from {@code io}, an open {@code io} file of /proc (the process's, or one thread's). */
    private static long read(FileChannel io, long[] counts) {
        IO_TEXT.clear();
        int bytes;
        try {
            bytes = io.read(IO_TEXT, 0);
        } catch (IOException e) {
            return UNKNOWN;
        }
        if (bytes <= 0) {
            return UNKNOWN;
        }
        byte[] text = new byte[bytes];
        IO_TEXT.flip().get(text);
        String lines = "\n" + new String(text, StandardCharsets.US_ASCII);
        parse(lines, "syscr", counts, READ_CALLS);
        parse(lines, "rchar", counts, RETURNED_BYTES);
        parse(lines, "read_bytes", counts, DEVICE_BYTES);
        return bytes;
    }

    /** The number on the line "\nLABEL: N" of {@code lines}, into {@code counts[index]}; left as it was if there is none. */
    private static void parse(String lines, String label, long[] counts, int index) {
        int at = lines.indexOf("\n" + label + ": ");
        if (at < 0) {
            return;
        }
        int start = at + label.length() + 3, end = lines.indexOf('\n', start);
        try {
            counts[index] = Long.parseLong(lines.substring(start, end < 0 ? lines.length() : end).strip());
        } catch (NumberFormatException notANumber) {
            // left UNKNOWN
        }
    }
}
