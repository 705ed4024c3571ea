///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
//SOURCES ../lib/Library.java
//COMPILE_OPTIONS --add-modules jdk.incubator.vector
//RUNTIME_OPTIONS --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED
// Its vector kernels compile after 1 % of the JIT's usual calls, and a thread that calls one waits while it compiles
// rather than run it in the interpreter, an object per vector: a first run waits less for C2 (docs/startup.md).
//RUNTIME_OPTIONS -XX:CompileCommand=quiet -XX:CompileCommand=CompileThresholdScaling:V13PreadVector::firstNonZeroWord512:0.01 -XX:CompileCommand=CompileThresholdScaling:V13PreadVector::firstNonZeroWord256:0.01
//RUNTIME_OPTIONS -XX:CompileCommand=BackgroundCompilation:V13PreadVector::firstNonZeroWord512:false -XX:CompileCommand=BackgroundCompilation:V13PreadVector::firstNonZeroWord256:false

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;
import lib.chapter.ChunkedSearch;
import lib.chapter.CompilesEarly;
import lib.chapter.NeedleSearch;
import lib.chapter.ScansWithWidestVector;
import lib.harness.Harness;
import lib.haystack.FileChangedException;

/**
 * Chapter 13: the headline — parallel positional reads with the widest vectors this CPU has.
 *
 * <p>Changes chapter 11's kernel to the widest one: chapter 12's 512-bit vectors with AVX-512,
 * chapter 11's 256-bit ones without (the harness says which when it starts). By now the scan is close to free and most of the time
 * goes to the kernel copying page-cache pages into each worker's buffer. {@code WallPageCacheCopy}
 * measures that copy alone, as a reference: measured at another moment, it is not a ceiling, and
 * this chapter has run above it.
 *
 * <pre>
 * How to run:   ./jbang variants/V13PreadVector.java haystack.bin
 * What you should see: each run's line on stderr, then on stdout one summary line per worker count:
 *   variant=V13PreadVector workers=2 offset=4294967288 runs=5 mean_s=… median_s=… mbps=… cache=warm bytes=4294967296 chunk_bytes=1048576 page_cache=as-is
 * Expect about chapter 11's figure.
 * Its bill per GiB: chapter 11's, 1,024 read calls and 1 GiB returned.
 * </pre>
 */
public class V13PreadVector implements ChunkedSearch, CompilesEarly, ScansWithWidestVector {

    public static void main(String[] args) {
        Harness.run(new V13PreadVector(), args);
    }

    /** Reads {@code [from, to)} of the file into the buffer, then scans it a slice at a time. */
    static long readAndScan(FileChannel channel, MemorySegment buffer, ByteBuffer bufferView, long from, long to) throws IOException {
        int length = Math.toIntExact(to - from);
        bufferView.clear().limit(length);
        while (bufferView.hasRemaining()) { // a read may return less than asked
            long position = from + bufferView.position();
            if (channel.read(bufferView, position) < 0) {
                throw new FileChangedException("the file ended at " + position + " bytes, shorter than when the search began");
            }
        }
        for (long slice = 0; slice < length; slice += SCAN_SLICE_BYTES) {
            long hit = firstNonZeroWordWidest(buffer, slice, Math.min(slice + SCAN_SLICE_BYTES, length));
            if (hit >= 0) {
                return from + hit;
            }
        }
        return NOT_FOUND;
    }

    /** The widest vectors C2 will use on this CPU, in bits (512 with AVX-512, 256 with AVX2). */
    static final int WIDEST_BITS = LongVector.SPECIES_PREFERRED.vectorBitSize();

    /** The widest kernel this CPU runs as real SIMD: 512 bits, else 256, else scalar words. */
    static long firstNonZeroWordWidest(MemorySegment segment, long from, long to) {
        if (WIDEST_BITS >= 512) { // a constant: C2 keeps only one branch
            return firstNonZeroWord512(segment, from, to);
        } else if (WIDEST_BITS >= 256) {
            return firstNonZeroWord256(segment, from, to);
        }
        return firstNonZeroWordScalar(segment, from, to);
    }

    // Chapter 12's 512-bit kernel, twice chapter 11's step, without chapter 12's guard: no mapping here.
    static final VectorSpecies<Long> SPECIES_512 = LongVector.SPECIES_512;
    static final int BLOCK_BYTES_512 = 4 * 64;

    /** 512-bit vectors, AVX-512 width: 256 bytes per step. Same contract as the scalar kernel. */
    static long firstNonZeroWord512(MemorySegment segment, long from, long to) {
        long offset = from;
        for (; offset <= to - BLOCK_BYTES_512; offset += BLOCK_BYTES_512) {
            LongVector a = LongVector.fromMemorySegment(SPECIES_512, segment, offset, ByteOrder.LITTLE_ENDIAN);
            LongVector b = LongVector.fromMemorySegment(SPECIES_512, segment, offset + 64, ByteOrder.LITTLE_ENDIAN);
            LongVector c = LongVector.fromMemorySegment(SPECIES_512, segment, offset + 128, ByteOrder.LITTLE_ENDIAN);
            LongVector d = LongVector.fromMemorySegment(SPECIES_512, segment, offset + 192, ByteOrder.LITTLE_ENDIAN);
            if (a.or(b).or(c.or(d)).compare(VectorOperators.NE, 0).anyTrue()) { // kortest on the compare's mask
                break; // this block holds the first non-zero word
            }
        }
        return firstNonZeroWordScalar(segment, offset, to); // the block that hit, or the tail
    }

    // The harness compiles this kernel early with it, while it reads the options: a first run waits less for C2.
    @Override
    public Scan scanToCompile() {
        return new Scan(V13PreadVector::firstNonZeroWordWidest, SCAN_SLICE_BYTES);
    }

    // ===== below: chapter 11's code, unchanged (diff variants/V11PreadParallelVector256.java variants/V13PreadVector.java) =====

    /** Every shard starts on a multiple of this, so no shard splits a word or a vector block. */
    static final long SHARD_ALIGN_BYTES = 4096;

    /** The kernel scans a chunk this much at a time, for the JIT (chapter 7 says why). */
    static final long SCAN_SLICE_BYTES = 64 << 10;

    /** One shard per worker, each on a platform thread of its own; the answer is the lowest hit. */
    @Override
    public long search(Path file, int workers, long chunkBytes) throws IOException {
        long fileBytes = Files.size(file);
        long shardBytes = Math.max(SHARD_ALIGN_BYTES, Math.ceilDiv(Math.ceilDiv(fileBytes, workers), SHARD_ALIGN_BYTES) * SHARD_ALIGN_BYTES);
        AtomicLong lowestHit = new AtomicLong(Long.MAX_VALUE);
        AtomicBoolean failed = new AtomicBoolean();
        List<Future<?>> results = new ArrayList<>();
        try (ExecutorService threads = Executors.newThreadPerTaskExecutor(Thread.ofPlatform().name("worker-", 0).factory())) {
            for (long start = 0; start < fileBytes; start += shardBytes) {
                long shardStart = start, shardEnd = Math.min(fileBytes, start + shardBytes);
                results.add(threads.submit(() -> {
                    try {
                        scanShard(file, shardStart, shardEnd, chunkBytes, lowestHit, failed);
                    } catch (IOException | RuntimeException | Error e) {
                        failed.set(true); // tells the other workers to stop early
                        throw e;
                    }
                    return null;
                }));
            }
        } // closing the executor waits for every worker
        for (Future<?> result : results) {
            await(result);
        }
        long hit = lowestHit.get();
        return hit == Long.MAX_VALUE ? NOT_FOUND : hit;
    }

    /** Waits for a worker, and throws here what it threw there: its I/O error as itself, not wrapped. */
    static void await(Future<?> result) throws IOException {
        try {
            result.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for a worker", e);
        } catch (ExecutionException e) {
            switch (e.getCause()) {
                case IOException io -> throw io;
                case RuntimeException runtime -> throw runtime;
                case Error error -> throw error;
                default -> throw new IOException(e.getCause());
            }
        }
    }

    /** A worker reads its shard a chunk at a time, with pread(2), into one reused buffer of its own. */
    static void scanShard(Path file, long shardStart, long shardEnd, long chunkBytes,
                          AtomicLong lowestHit, AtomicBoolean failed) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ); Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = arena.allocate(chunkBytes, 4096); // page-aligned, freed when the arena closes
            ByteBuffer bufferView = buffer.asByteBuffer(); // the same memory, as FileChannel wants it
            for (long from = shardStart; from < shardEnd && from < lowestHit.get(); from += chunkBytes) {
                if (failed.get()) {
                    return;
                }
                long hit = readAndScan(channel, buffer, bufferView, from, Math.min(from + chunkBytes, shardEnd));
                if (hit >= 0) {
                    lowestHit.accumulateAndGet(hit, Math::min);
                    return;
                }
            }
        }
    }

    /** Offset of the first non-zero word in {@code [from, to)} of the segment, or -1; a short last word counts. */
    static long firstNonZeroWordScalar(MemorySegment segment, long from, long to) {
        long offset = from;
        // The unaligned layout: it costs nothing here, and reads any segment, a heap byte[] too.
        for (; offset <= to - Long.BYTES; offset += Long.BYTES) {
            if (segment.get(JAVA_LONG_UNALIGNED, offset) != 0) {
                return offset;
            }
        }
        for (; offset < to; offset++) { // the 1-7 tail bytes
            if (segment.get(JAVA_BYTE, offset) != 0) {
                return NeedleSearch.wordContaining(offset);
            }
        }
        return NOT_FOUND;
    }

    // A static final species, so that C2 makes single instructions of its calls; four vectors a step.
    static final VectorSpecies<Long> SPECIES_256 = LongVector.SPECIES_256;
    static final int BLOCK_BYTES_256 = 4 * 32;

    /** 256-bit vectors, AVX2 width: 128 bytes per step. Same contract as the scalar kernel. */
    static long firstNonZeroWord256(MemorySegment segment, long from, long to) {
        long offset = from;
        for (; offset <= to - BLOCK_BYTES_256; offset += BLOCK_BYTES_256) {
            LongVector a = LongVector.fromMemorySegment(SPECIES_256, segment, offset, ByteOrder.LITTLE_ENDIAN);
            LongVector b = LongVector.fromMemorySegment(SPECIES_256, segment, offset + 32, ByteOrder.LITTLE_ENDIAN);
            LongVector c = LongVector.fromMemorySegment(SPECIES_256, segment, offset + 64, ByteOrder.LITTLE_ENDIAN);
            LongVector d = LongVector.fromMemorySegment(SPECIES_256, segment, offset + 96, ByteOrder.LITTLE_ENDIAN);
            // "Not every lane zero", asked of eight int lanes: the same bits as "any long lane
            // non-zero", in fewer instructions (with AVX2, an equality compare and vtestps).
            if (!a.or(b).or(c.or(d)).reinterpretAsInts().eq(0).allTrue()) {
                break; // this block holds the first non-zero word
            }
        }
        return firstNonZeroWordScalar(segment, offset, to); // the block that hit, or the tail
    }
}
