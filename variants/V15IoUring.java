///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
//SOURCES ../lib/*.java
//COMPILE_OPTIONS --add-modules jdk.incubator.vector
// The vector kernels compile after 1% of the JIT's usual calls and loops, so a first run waits less for C2 (colons: JBang quotes commas).
//RUNTIME_OPTIONS --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -XX:CompileCommand=quiet -XX:CompileCommand=CompileThresholdScaling:lib.VectorKernel::firstNonZeroWord512:0.01 -XX:CompileCommand=CompileThresholdScaling:lib.VectorKernel::firstNonZeroWord256:0.01

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import lib.BypassesPageCache;
import lib.ChunkedSearch;
import lib.DirectReader;
import lib.Harness;
import lib.ParallelSearch;
import lib.UringReader;
import lib.VectorKernel;

/**
 * Chapter 15: cold files, with many reads in flight at once through io_uring.
 *
 * <p>A disk, and an SSD most of all, is fastest with a deep queue of requests; a thread blocked in
 * pread has exactly one. Here each worker submits its next chunks ahead of time through its own
 * io_uring ({@link UringReader}) and scans each buffer as its read completes, with O_DIRECT as in
 * chapter 14, so the disk always has work queued while the CPU scans.
 *
 * <p>The Java lesson: the JDK has no io_uring, but the FFM API reaches it with no C at all
 * ({@link lib.IoUring}): two system calls through {@code syscall}, the rings mapped as
 * {@code MemorySegment}s, the kernel's structs as {@code MemoryLayout}s, and the ring indices read
 * and written with acquire/release {@code VarHandle}s, because the kernel is another thread.
 *
 * <pre>
 * How to run:   ./jbang variants/V15IoUring.java haystack.bin --cold
 *
 * What you should see: each run's line on stderr, then on stdout one summary line per worker count:
 *   variant=V15IoUring workers=2 offset=4294967288 runs=5 mean_s=… median_s=… mbps=… cache=cold bytes=4294967296 chunk_bytes=1048576 page_cache=as-is
 * Expect the disk's speed, cold: many reads in flight per worker.
 * Measured figures, each with its machine, are in README.md and results/.
 * </pre>
 */
public class V15IoUring implements ChunkedSearch, BypassesPageCache {

    /**
     * Reads each worker keeps in flight, a chunk each: 4 MiB of buffers per worker with 1 MiB
     * chunks. Deeper is not faster on a virtual disk: in tools/ColdTuning.java's sweep (1 MiB, 2
     * workers) 4 and 8 beat 16 and 32, and fio's io_uring jobs agree.
     */
    static final int QUEUE_DEPTH = 4;
    /** Through the page cache, io_uring hands each miss to a kernel worker thread: several times slower cold, when we tried it. */
    static final boolean DIRECT = true;

    public static void main(String[] args) {
        Harness.run(new V15IoUring(), args);
    }

    @Override
    public long search(Path file, int workers, long chunkBytes) throws IOException {
        long bytes = Files.size(file);
        return ParallelSearch.firstNonZeroWord(bytes, workers, chunkBytes,
                () -> new UringReader(file, bytes, chunkBytes, QUEUE_DEPTH, DIRECT,
                        VectorKernel::firstNonZeroWordWidest));
    }

    @Override
    public int buffersPerWorker() {
        return QUEUE_DEPTH;
    }

    @Override
    public long smallestChunkBytes(Path file) throws IOException {
        return DIRECT ? DirectReader.blockBytes(file) : Long.BYTES; // O_DIRECT reads whole blocks
    }
}
