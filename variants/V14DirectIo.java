///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
//SOURCES ../lib/*.java
//COMPILE_OPTIONS --add-modules jdk.incubator.vector
// The vector kernels compile after 1% of the JIT's usual calls and loops, so a first run waits less for C2 (colons: JBang quotes commas).
//RUNTIME_OPTIONS --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -XX:CompileCommand=quiet -XX:CompileCommand=CompileThresholdScaling:lib.VectorKernel::firstNonZeroWord512:0.01 -XX:CompileCommand=CompileThresholdScaling:lib.VectorKernel::firstNonZeroWord256:0.01

import com.sun.nio.file.ExtendedOpenOption;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import lib.BypassesPageCache;
import lib.ChunkedSearch;
import lib.DirectReader;
import lib.Harness;
import lib.ParallelSearch;
import lib.VectorKernel;

/**
 * Chapter 14: cold files, read around the page cache with O_DIRECT.
 *
 * <p>Chapter 13 reading cold is a disk benchmark that also fills and copies out of the page cache.
 * Here the disk writes straight into each worker's buffer ({@link DirectReader}), so a cold run
 * costs the disk and nothing else; a warm run costs the same, since the cache is never consulted.
 * Each worker's reads run on a thread of their own, the next few chunks queued, so the disk is not
 * left idle while the worker scans, nor while the worker wakes to ask for the next chunk.
 *
 * <p>The Java lesson: {@code ExtendedOpenOption.DIRECT} is all it takes to open with O_DIRECT
 * (javac warns that it is internal API: it lives in the {@code jdk.unsupported} module, exported
 * for uses like this one), but every buffer address, position and length must then be a multiple
 * of the file system's block size. Arithmetic gives the positions; the buffer comes from 2 MiB
 * huge pages ({@link lib.HugePageBuffer}), which are aligned for any block size and, being
 * physically contiguous, let the disk take a whole chunk as one request.
 *
 * <pre>
 * How to run:   ./jbang variants/V14DirectIo.java haystack.bin --cold
 *
 * What you should see: each run's line on stderr, then on stdout one summary line per worker count:
 *   variant=V14DirectIo workers=2 offset=4294967288 runs=5 mean_s=… median_s=… mbps=… cache=cold bytes=4294967296 chunk_bytes=1048576 page_cache=as-is
 * Expect the disk's speed, warm or cold: the page cache is never consulted.
 * Measured figures, each with its machine, are in README.md and results/.
 * </pre>
 */
public class V14DirectIo implements ChunkedSearch, BypassesPageCache {

    public static void main(String[] args) {
        Harness.run(new V14DirectIo(), args);
    }

    @Override
    public long search(Path file, int workers, long chunkBytes) throws IOException {
        long blockBytes = DirectReader.blockBytes(file);
        return ParallelSearch.firstNonZeroWord(Files.size(file), workers, chunkBytes,
                shard -> new DirectReader(openDirect(file), blockBytes, chunkBytes, shard.end(),
                        VectorKernel::firstNonZeroWordWidest));
    }

    static FileChannel openDirect(Path file) throws IOException {
        try {
            return FileChannel.open(file, StandardOpenOption.READ, ExtendedOpenOption.DIRECT);
        } catch (IOException | UnsupportedOperationException e) {
            if (!Files.isReadable(file)) {
                throw e; // a missing or unreadable file is not the file system's fault
            }
            throw DirectReader.refused(file, e);
        }
    }

    @Override
    public int buffersPerWorker() {
        return DirectReader.BUFFERS;
    }

    @Override
    public long smallestChunkBytes(Path file) throws IOException {
        return DirectReader.blockBytes(file); // O_DIRECT reads whole blocks
    }
}
