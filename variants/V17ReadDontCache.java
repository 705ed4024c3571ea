///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
//SOURCES ../lib/*.java
//COMPILE_OPTIONS --add-modules jdk.incubator.vector
//RUNTIME_OPTIONS --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

import java.io.IOException;
import java.io.UncheckedIOException;
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
import lib.ChunkedSearch;
import lib.FileChangedException;
import lib.Harness;
import lib.Native;

/**
 * Chapter 17: chapter 13 reading once, leaving the page cache alone.
 *
 * <p>Chapter 13 reading a file larger than memory evicts everything else the machine had cached to
 * make room for pages it will never read again. Here each worker reads through the page cache with
 * {@code preadv2(2)} and {@code RWF_DONTCACHE} (Linux 6.14): readahead as usual, but the pages a
 * read brings in are dropped once copied out, and pages already cached stay. Where the kernel or
 * file system refuses the flag it says so in one line and reads plainly, dropping each chunk behind
 * itself with {@code POSIX_FADV_DONTNEED}: the same effect, except that it also drops pages of this
 * file that were cached before. The results row records which ({@code read_mode}). Either way the
 * readahead past where a worker stops stays cached: a few MiB, next to nothing.
 *
 * <pre>
 * How to run:   ./jbang variants/V17ReadDontCache.java haystack.bin --cold
 *
 * What you should see: one line saying how it reads, each run's line on stderr, then on stdout one summary line per worker count:
 *   variant=V17ReadDontCache workers=2 offset=4294967288 runs=5 mean_s=… median_s=… mbps=… cache=cold bytes=4294967296 chunk_bytes=1048576 page_cache=as-is read_mode=rwf_dontcache
 * Expect about chapter 13's figure cold, and the rest of the page cache as it was.
 * Measured figures, each with its machine, are in README.md and results/.
 * </pre>
 */
public class V17ReadDontCache implements ChunkedSearch {

    /** Every shard starts on a multiple of this, so no shard splits a word or a vector block. */
    static final long SHARD_ALIGN_BYTES = 4096;

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

    public static void main(String[] args) {
        Harness.run(new V17ReadDontCache(), args);
    }

    /** The harness prints this once, before the runs: the way of reading depends on the file's file system. */
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

    // ---------------------------------------------------------------- the shards and their threads

    @Override
    public long search(Path file, int workers, long chunkBytes) throws IOException {
        support = modeFor(file); // one page read with the flag: the file's own file system decides
        return search(file, workers, chunkBytes, support.mode());
    }

    /** The search, reading the way {@code mode} says (the tests ask for the fallback where the flag works). */
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

    // ---------------------------------------------------------------- one worker: reads that leave no pages behind

    /** Walks {@code [shardStart, shardEnd)} a chunk at a time, until its first hit or one below it is known. */
    private static void scanShard(Path file, long shardStart, long shardEnd, long chunkBytes, Mode mode,
                                  AtomicLong lowestHit, AtomicBoolean failed) throws IOException {
        int fd = Native.open(file, Native.O_RDONLY);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = arena.allocate(chunkBytes, 4096); // page-aligned, freed when the arena closes
            for (long from = shardStart; from < shardEnd && from < lowestHit.get(); from += chunkBytes) {
                if (failed.get()) {
                    return;
                }
                long length = Math.min(from + chunkBytes, shardEnd) - from;
                for (long done = 0; done < length; ) {
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
                long hit = firstNonZeroWordWidest(buffer, 0, length);
                if (hit >= 0) {
                    lowestHit.accumulateAndGet(from + hit, Math::min);
                    return;
                }
            }
        } finally {
            Native.close(fd);
        }
    }

    // ---------------------------------------------------------------- the vector kernel

    static final VectorSpecies<Long> SPECIES_256 = LongVector.SPECIES_256;
    static final VectorSpecies<Long> SPECIES_512 = LongVector.SPECIES_512;
    static final int BLOCK_BYTES_256 = 4 * 32;
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
        return firstNonZeroWord(segment, from, to);
    }

    static long firstNonZeroWord256(MemorySegment segment, long from, long to) {
        long offset = from;
        for (; offset <= to - BLOCK_BYTES_256; offset += BLOCK_BYTES_256) {
            LongVector a = LongVector.fromMemorySegment(SPECIES_256, segment, offset, ByteOrder.LITTLE_ENDIAN);
            LongVector b = LongVector.fromMemorySegment(SPECIES_256, segment, offset + 32, ByteOrder.LITTLE_ENDIAN);
            LongVector c = LongVector.fromMemorySegment(SPECIES_256, segment, offset + 64, ByteOrder.LITTLE_ENDIAN);
            LongVector d = LongVector.fromMemorySegment(SPECIES_256, segment, offset + 96, ByteOrder.LITTLE_ENDIAN);
            if (!a.or(b).or(c.or(d)).reinterpretAsInts().eq(0).allTrue()) {
                break; // this block holds the first non-zero word
            }
        }
        return firstNonZeroWord(segment, offset, to); // the block that hit, or the tail
    }

    static long firstNonZeroWord512(MemorySegment segment, long from, long to) {
        long offset = from;
        for (; offset <= to - BLOCK_BYTES_512; offset += BLOCK_BYTES_512) {
            LongVector a = LongVector.fromMemorySegment(SPECIES_512, segment, offset, ByteOrder.LITTLE_ENDIAN);
            LongVector b = LongVector.fromMemorySegment(SPECIES_512, segment, offset + 64, ByteOrder.LITTLE_ENDIAN);
            LongVector c = LongVector.fromMemorySegment(SPECIES_512, segment, offset + 128, ByteOrder.LITTLE_ENDIAN);
            LongVector d = LongVector.fromMemorySegment(SPECIES_512, segment, offset + 192, ByteOrder.LITTLE_ENDIAN);
            if (a.or(b).or(c.or(d)).compare(VectorOperators.NE, 0).anyTrue()) {
                break;
            }
        }
        return firstNonZeroWord(segment, offset, to);
    }

    /** The first non-zero word in {@code [from, to)}, 8 bytes a step; a short word at the end counts too. */
    static long firstNonZeroWord(MemorySegment segment, long from, long to) {
        long offset = from;
        for (; offset <= to - Long.BYTES; offset += Long.BYTES) {
            if (segment.get(JAVA_LONG_UNALIGNED, offset) != 0) {
                return offset;
            }
        }
        for (; offset < to; offset++) { // the 1-7 tail bytes
            if (segment.get(JAVA_BYTE, offset) != 0) {
                return offset & ~7L;
            }
        }
        return NOT_FOUND;
    }

    /** Waits for a task on another thread, and throws here what it threw there, not wrapped. */
    private static void await(Future<?> task) throws IOException {
        try {
            task.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for a worker or a read", e);
        } catch (ExecutionException e) {
            switch (e.getCause()) {
                case IOException io -> throw io;
                case UncheckedIOException io -> throw io.getCause();
                case RuntimeException runtime -> throw runtime;
                case Error error -> throw error;
                default -> throw new IOException(e.getCause());
            }
        }
    }
}
