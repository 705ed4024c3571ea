package lib.chapter;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Optional;
import jdk.incubator.vector.LongVector;

/**
 * Gets a chapter's kernel compiled by C2 while the JVM is still busy with other things: reading the
 * options, checking the file. A fresh JVM runs the Vector API as plain Java, an object per vector,
 * until C2 has compiled the kernel, and C2 starts only once the kernel has run often enough; a
 * one-shot run ({@code --runs 1 --warmup 0}) used to spend its first few hundred milliseconds of
 * search that way. So, from the first line of the harness, a daemon thread runs the kernel over a
 * small buffer of its own (zeros, never the file), on the second core, while the main thread parses
 * the options.
 *
 * <p>The harness does this for a chapter that hands it a kernel and the slice it scans its buffers
 * in ({@link CompilesEarly}, read by {@link #declaredBy}). The buffer is the chapter's own kind, a confined
 * arena's page-aligned native segment scanned a slice at a time, so the kernel's profile, and the
 * code C2 makes from it, are those of the real scan. The thread stops when the kernel scans a slice
 * at compiled speed, or at {@link #stop()}, which the harness calls before the first run: it never
 * runs beside a timed search, and once warm-up runs have compiled the kernel anyway, a timed run
 * cannot tell it ever ran.
 */
public final class EarlyCompile {

    /** A slice scanned faster than this (64 KiB at more than about 6.5 GB/s) ran as C2's vector code, not the interpreter's or C1's. */
    private static final long COMPILED_SLICE_NANOS = 10_000;
    /** Once a slice ran at compiled speed, the next call comes this much later. */
    private static final long RECHECK_MILLIS = 1;
    /** However busy the machine, the thread gives up after this long. */
    private static final long GIVE_UP_NANOS = 5_000_000_000L;

    private static volatile boolean stopping;
    private static Thread thread;

    private EarlyCompile() {}

    /**
     * The kernel and slice {@code chapter} hands over ({@link CompilesEarly}), unless it maps the file
     * or reads around the page cache. A mapped chapter's kernel compiled that early can lack the
     * scalar read that makes a fault in a shrinking mapping catchable (MappedShrinkTest); a chapter
     * that reads around the cache runs cold, where the first run waits for the disk, not for C2.
     */
    public static Optional<CompilesEarly.Scan> declaredBy(NeedleSearch chapter) {
        if (!(chapter instanceof CompilesEarly early) || chapter instanceof MapsTheFile || chapter instanceof BypassesPageCache) {
            return Optional.empty();
        }
        return Optional.of(early.scanToCompile());
    }

    /** Starts compiling the kernel {@code chapter} hands over, if it hands one; the harness's first step. */
    public static void startFor(NeedleSearch chapter) {
        declaredBy(chapter).ifPresent(scan -> start(scan.kernel(), scan.sliceBytes()));
    }

    /** What the widest kernel runs on this CPU, for people to read: "512-bit vectors". */
    public static String widestDescription() {
        int bits = LongVector.SPECIES_PREFERRED.vectorBitSize();
        return bits >= 256 ? bits + "-bit vectors" : "scalar words (no 256-bit vectors on this CPU)";
    }

    /** Starts running {@code kernel} over {@code sliceBytes} of zeros in the background. */
    public static synchronized void start(CompilesEarly.Kernel kernel, long sliceBytes) {
        if (thread != null) {
            return;
        }
        thread = Thread.ofPlatform().daemon().name("early-compile").start(() -> run(kernel, sliceBytes));
    }

    /** Stops the thread, if one runs, and waits until it has: the searches to come have both cores. */
    public static synchronized void stop() {
        if (thread == null) {
            return;
        }
        stopping = true;
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void run(CompilesEarly.Kernel kernel, long slice) {
        loadMappedSegments();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = arena.allocate(slice, 4096);
            long started = System.nanoTime();
            while (!stopping && System.nanoTime() - started < GIVE_UP_NANOS) {
                long before = System.nanoTime();
                if (kernel.firstNonZeroWord(buffer, 0, slice) != NeedleSearch.NOT_FOUND) {
                    throw new IllegalStateException("the kernel found a non-zero word in a buffer of zeros");
                }
                if (System.nanoTime() - before < COMPILED_SLICE_NANOS) {
                    // Compiled, but a class loaded later (the page-cache check maps the file) can make
                    // the JVM throw that code away: look again now and then, leaving the core free.
                    Thread.sleep(RECHECK_MILLIS);
                }
            }
        } catch (InterruptedException e) {
            // nobody interrupts this thread; if someone does, the kernel is as compiled as it got
        }
    }

    /**
     * Loads the JDK's class for a mapped segment before C2 compiles the kernel. Compiled while no
     * segment class below the native one is loaded, the kernel's code counts on there being none
     * (class hierarchy analysis), and the JVM throws it away when one is: the page-cache check maps
     * the file, and that used to discard the kernel's code just before the search
     * ({@code -XX:+PrintCompilation}: "made not entrant: marked for deoptimization").
     */
    private static void loadMappedSegments() {
        try {
            Class.forName("jdk.internal.foreign.MappedMemorySegmentImpl", false, null);
        } catch (ClassNotFoundException e) {
            // another JDK's name for it: the kernel may be compiled twice, as it was without this thread
        }
    }
}
