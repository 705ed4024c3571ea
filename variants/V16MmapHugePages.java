///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
//SOURCES ../lib/Library.java
//COMPILE_OPTIONS --add-modules jdk.incubator.vector
//RUNTIME_OPTIONS --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED

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
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;
import lib.chapter.MapsTheFile;
import lib.chapter.NeedleSearch;
import lib.chapter.PopulatesOnEveryWorker;
import lib.chapter.ScansWithWidestVector;
import lib.cli.UserMistakeException;
import lib.harness.Harness;
import lib.haystack.MappedFileShrankException;
import lib.linux.HugeFolios;
import lib.linux.Native;

/**
 * Chapter 16: the page cache in 2 MiB folios — mapped 2 MiB at a time.
 *
 * <p>Changes how chapter 10 maps and faults the file, and scans with chapter 13's widest kernel
 * (chapter 12's 512-bit one keeps its guard here, since this chapter maps the file). A
 * mapped scan needs a TLB entry per page: a million for 4 GiB in 4 KiB pages, two thousand in 2 MiB
 * ones. {@code MADV_HUGEPAGE} makes this mapping's page-cache misses read 2 MiB folios, each mapped
 * by one PMD entry; each worker faults its own shard in with {@code MADV_POPULATE_READ}, in
 * parallel, then scans it. A file already cached in small folios stays small (the recorded
 * {@code pmd_mapped_pct} says so): {@code --page-cache huge} refills it first.
 *
 * <pre>
 * How to run:   ./jbang variants/V16MmapHugePages.java haystack.bin --page-cache huge
 * What you should see: each run's line on stderr, then on stdout one summary line per worker count:
 *   variant=V16MmapHugePages workers=2 offset=4294967288 runs=5 mean_s=… median_s=… mbps=… cache=warm bytes=4294967296 page_cache=huge pmd_mapped_pct=…
 * Expect about chapters 9 and 10 with --page-cache huge, and far less on a cache in small folios.
 * Its bill per GiB: no read call, no byte returned, and about 512 minor faults, one per 2 MiB folio,
 *   where chapter 4 on small folios takes about 16,384.
 * </pre>
 */
public class V16MmapHugePages implements NeedleSearch, MapsTheFile, PopulatesOnEveryWorker, ScansWithWidestVector {

    public static void main(String[] args) {
        Harness.run(new V16MmapHugePages(), args);
    }

    @Override
    public long search(Path file, int workers) throws IOException {
        HugeFolios.requireSupport(file); // one line where this kernel or file system cannot
        try (Arena arena = Arena.ofShared()) {
            MemorySegment mapped = Native.mapFile(file, Files.size(file), 0, arena);
            if (mapped.byteSize() > 0) { // an empty file maps to no pages to advise about
                Native.madvise(mapped, Native.MADV_HUGEPAGE);
            }
            return searchShards(mapped, workers);
        }
    }

    /** One worker's scan of its shard, a step at a time: it stops once a hit below its position is known. */
    static void scanShard(MemorySegment mapped, long shardStart, long shardEnd,
                          AtomicLong lowestHit, AtomicBoolean failed) throws IOException {
        populate(mapped.asSlice(shardStart, shardEnd - shardStart));
        for (long from = shardStart; from < shardEnd && from < lowestHit.get(); from += CHECK_EVERY_BYTES) {
            if (failed.get()) {
                return;
            }
            long hit = firstNonZeroWordWidest(mapped, from, Math.min(from + CHECK_EVERY_BYTES, shardEnd));
            if (hit >= 0) {
                lowestHit.accumulateAndGet(hit, Math::min);
                return;
            }
        }
    }

    /**
     * {@code MADV_POPULATE_READ} (Linux 5.14) faults every page of {@code part} in now, reading what
     * is not cached, under the mapping lock held for reading: the workers populate side by side.
     */
    static void populate(MemorySegment part) throws IOException {
        try {
            Native.madvise(part, Native.MADV_POPULATE_READ);
        } catch (Native.ErrnoException e) {
            if (e.errno() == Native.ErrnoException.EFAULT) { // a page past the file's end: it was cut while mapped
                throw new MappedFileShrankException("MADV_POPULATE_READ");
            }
            if (e.errno() == Native.ErrnoException.EINVAL) {
                throw new UserMistakeException("this kernel refuses MADV_POPULATE_READ (" + e.getMessage() + "): it needs Linux 5.14 or later");
            }
            throw e;
        }
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

    // Chapter 12's 512-bit kernel, with its guard: this chapter maps the file.
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
        keepFaultsCatchable(segment, from, to);
        return firstNonZeroWordScalar(segment, offset, to); // the block that hit, or the tail
    }

    // ===== below: chapter 10's code, unchanged (diff variants/V10MmapPopulate.java variants/V16MmapHugePages.java) =====

    /** Every shard starts on a multiple of this, so no shard splits a word or a vector block. */
    static final long SHARD_ALIGN_BYTES = 4096;

    /** How much of its shard a worker scans between two looks at the lowest hit so far. */
    static final long CHECK_EVERY_BYTES = 1L << 20;

    /** One shard per worker, each on a platform thread of its own; the answer is the lowest hit. */
    static long searchShards(MemorySegment mapped, int workers) throws IOException {
        long fileBytes = mapped.byteSize();
        long shardBytes = Math.max(SHARD_ALIGN_BYTES, Math.ceilDiv(Math.ceilDiv(fileBytes, workers), SHARD_ALIGN_BYTES) * SHARD_ALIGN_BYTES);
        AtomicLong lowestHit = new AtomicLong(Long.MAX_VALUE);
        AtomicBoolean failed = new AtomicBoolean();
        List<Future<?>> results = new ArrayList<>();
        try (ExecutorService threads = Executors.newThreadPerTaskExecutor(Thread.ofPlatform().name("worker-", 0).factory())) {
            for (long start = 0; start < fileBytes; start += shardBytes) {
                long shardStart = start, shardEnd = Math.min(fileBytes, start + shardBytes);
                results.add(threads.submit(() -> {
                    try {
                        scanShard(mapped, shardStart, shardEnd, lowestHit, failed);
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
        keepFaultsCatchable(segment, from, to);
        return firstNonZeroWordScalar(segment, offset, to); // the block that hit, or the tail
    }

    /** A scalar read for the JIT, so that a fault in a mapping that shrank stays catchable (chapter 8 says how). */
    static void keepFaultsCatchable(MemorySegment segment, long from, long to) {
        if (from < to) {
            byte ignored = segment.get(JAVA_BYTE, from);
        }
    }
}
