///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
//SOURCES ../lib/Library.java
//COMPILE_OPTIONS --add-modules jdk.incubator.vector
//RUNTIME_OPTIONS --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED
// Its vector kernels compile after 1 % of the JIT's usual calls, and a thread that calls one waits while it compiles
// rather than run it in the interpreter, an object per vector: a first run waits less for C2 (docs/startup.md).
//RUNTIME_OPTIONS -XX:CompileCommand=quiet -XX:CompileCommand=CompileThresholdScaling:V17ReadDontCache::firstNonZeroWord512:0.01 -XX:CompileCommand=CompileThresholdScaling:V17ReadDontCache::firstNonZeroWord256:0.01
//RUNTIME_OPTIONS -XX:CompileCommand=BackgroundCompilation:V17ReadDontCache::firstNonZeroWord512:false -XX:CompileCommand=BackgroundCompilation:V17ReadDontCache::firstNonZeroWord256:false

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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
import lib.linux.Native;

/**
 * Chapter 17: read once, leave the cache alone — chapter 13 reading once, and leaving the page cache as it found it.
 *
 * <p>Changes chapter 13's reads. Chapter 13 reading a file larger than memory evicts everything else
 * the machine had cached. Here each worker reads with {@code RWF_DONTCACHE} (Linux 6.14): readahead
 * as usual, but the pages a read brings in are dropped once copied out, and pages already cached
 * stay. Where the flag is refused, the chapter says so in one line, reads plainly and drops each
 * chunk behind itself with {@code POSIX_FADV_DONTNEED} (pages cached before go too); the results
 * row records which ({@code read_mode}). Either way, the few MiB read ahead past the hit stay cached.
 *
 * <pre>
 * How to run:   ./jbang variants/V17ReadDontCache.java haystack.bin --cold
 * What you should see: which way it reads, each run's line on stderr, then on stdout one summary line per worker count:
 *   variant=V17ReadDontCache workers=2 offset=4294967288 runs=5 mean_s=… median_s=… mbps=… cache=cold bytes=4294967296 chunk_bytes=1048576 page_cache=as-is read_mode=rwf_dontcache
 * Expect about chapter 13's figure cold, and the rest of the page cache kept.
 * Its bill per GiB: about 1,024 read calls and 1 GiB returned; cold, about 1 GiB fetched from the
 *   device.
 * </pre>
 */
public class V17ReadDontCache implements ChunkedSearch, CompilesEarly, ScansWithWidestVector {

    public static void main(String[] args) {
        Harness.run(new V17ReadDontCache(), args);
    }

    @Override
    public long search(Path file, int workers, long chunkBytes) throws IOException {
        support = modeFor(file); // one page read with the flag: the file's own file system decides
        return search(file, workers, chunkBytes, support.mode());
    }

    /** How a worker keeps its pages out of the cache; {@link #label} is what the results row records. */
    enum Mode {
        RWF_DONTCACHE("rwf_dontcache"),
        FADV_DONTNEED("fadv_dontneed");

        final String label;

        Mode(String label) {
            this.label = label;
        }
    }

    /** What {@link #modeFor} found: the mode, and why the flag was refused (null when it was not). */
    record Support(Mode mode, String refusal) {}

    /** What the latest search found this file's file system takes, for its results row. */
    private volatile Support support;

    /** The harness prints this once, before the runs: how this file's kernel and file system let us read. */
    @Override
    public String note(Path file) throws IOException {
        support = modeFor(file);
        return support.refusal() == null ? "reading with RWF_DONTCACHE"
                : "RWF_DONTCACHE refused here (" + support.refusal() + "): plain reads, each chunk dropped with POSIX_FADV_DONTNEED once read";
    }

    @Override
    public Optional<String> readMode() {
        return support == null ? Optional.empty() : Optional.of(support.mode().label);
    }

    /**
     * Whether {@code file}'s kernel and file system take {@code RWF_DONTCACHE}: one page read with
     * the flag (a zero-length read would not be checked). Refused, it is {@link Mode#FADV_DONTNEED}.
     */
    static Support modeFor(Path file) throws IOException {
        int fd = Native.open(file, Native.O_RDONLY);
        try (Arena arena = Arena.ofConfined()) {
            Native.preadv2(fd, arena.allocate(4096, 4096), 0, Native.RWF_DONTCACHE);
            return new Support(Mode.RWF_DONTCACHE, null);
        } catch (Native.ErrnoException e) {
            if (e.errno() == Native.ErrnoException.EOPNOTSUPP || e.errno() == Native.ErrnoException.EINVAL) {
                return new Support(Mode.FADV_DONTNEED, e.getMessage());
            }
            throw e;
        } finally {
            Native.close(fd);
        }
    }

    /** Chapter 13's shards and threads; each worker is handed the mode too. */
    long search(Path file, int workers, long chunkBytes, Mode mode) throws IOException {
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
                        scanShard(file, shardStart, shardEnd, chunkBytes, mode, lowestHit, failed);
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

    /**
     * A worker reads its shard a chunk at a time into one reused off-heap buffer, with its own file
     * descriptor: {@code preadv2(2)} with {@code RWF_DONTCACHE}, or {@code pread(2)} and
     * {@code posix_fadvise(2)} where the flag is refused. FileChannel has neither.
     */
    static void scanShard(Path file, long shardStart, long shardEnd, long chunkBytes, Mode mode,
                          AtomicLong lowestHit, AtomicBoolean failed) throws IOException {
        int fd = Native.open(file, Native.O_RDONLY);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = arena.allocate(chunkBytes, 4096); // page-aligned, freed when the arena closes
            for (long from = shardStart; from < shardEnd && from < lowestHit.get(); from += chunkBytes) {
                if (failed.get()) {
                    return;
                }
                long hit = readAndScan(fd, buffer, mode, from, Math.min(from + chunkBytes, shardEnd));
                if (hit >= 0) {
                    lowestHit.accumulateAndGet(hit, Math::min);
                    return;
                }
            }
        } finally {
            Native.close(fd);
        }
    }

    /** Reads {@code [from, to)} of the file into the buffer, then scans it a slice at a time. */
    static long readAndScan(int fd, MemorySegment buffer, Mode mode, long from, long to) throws IOException {
        long length = to - from;
        for (long done = 0; done < length; ) { // a read may return less than asked
            MemorySegment rest = buffer.asSlice(done, length - done);
            long read = mode == Mode.RWF_DONTCACHE
                    ? Native.preadv2(fd, rest, from + done, Native.RWF_DONTCACHE)
                    : Native.pread(fd, rest, from + done);
            if (read == 0) {
                throw new FileChangedException("the file ended at " + (from + done) + " bytes, shorter than when the search began");
            }
            done += read;
        }
        if (mode == Mode.FADV_DONTNEED) {
            Native.fadvise(fd, from, length, Native.POSIX_FADV_DONTNEED); // right behind the reader
        }
        for (long slice = 0; slice < length; slice += SCAN_SLICE_BYTES) {
            long hit = firstNonZeroWordWidest(buffer, slice, Math.min(slice + SCAN_SLICE_BYTES, length));
            if (hit >= 0) {
                return from + hit;
            }
        }
        return NOT_FOUND;
    }

    // The harness compiles this kernel early with it, while it reads the options: a first run waits less for C2.
    @Override
    public Scan scanToCompile() {
        return new Scan(V17ReadDontCache::firstNonZeroWordWidest, SCAN_SLICE_BYTES);
    }

    // ===== below: chapter 13's code, unchanged (diff variants/V13PreadVector.java variants/V17ReadDontCache.java) =====

    /** Every shard starts on a multiple of this, so no shard splits a word or a vector block. */
    static final long SHARD_ALIGN_BYTES = 4096;

    /** The kernel scans a chunk this much at a time, for the JIT (chapter 7 says why). */
    static final long SCAN_SLICE_BYTES = 64 << 10;

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
    static final VectorSpecies<Long> SPECIES_512 = LongVector.SPECIES_512;
    static final int BLOCK_BYTES_512 = 4 * 64;

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
}
