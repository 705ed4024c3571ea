package lab.yardsticks;

import lib.chapter.NeedleSearch;
import lib.chapter.Shard;
import lib.cli.UserMistakeException;
import lib.counters.PmdMapping;
import lib.harness.AvailableMemory;
import lib.harness.PageCache;
import lib.haystack.Haystack;
import lib.linux.Native;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The first wall: how fast can a vector kernel read memory that is already ours?
 *
 * <p>Not a chapter but a yardstick, run by {@code lab/yardsticks/WallProbe.java}. It builds, once, an
 * off-heap copy of a haystack, the same size with the needle in the same place, and then "searches"
 * that with chapter 9's 256-bit kernel, divided among workers as chapter 9 divides its mapping:
 * one shard per worker, 1 MiB between looks at the lowest hit (a copy of its loops, as each chapter
 * keeps its own). No system call, no page fault, no copy: only loads from RAM.
 *
 * <p>A wall is a ceiling only for the kernel it ran. Which width streams memory fastest is the
 * CPU's: on an AMD EPYC 512-bit loads from RAM scanned 21 bytes/ns against 27 for 256-bit, on an
 * Intel Xeon 15.6 against 12.2 ({@code lab/yardsticks/KernelBench.java}, one thread, 1 GiB). So
 * {@link WallMemoryReadWidest} runs the widest kernel, chapter 12's, for the chapters that scan
 * with it.
 *
 * <p>There are two memory walls, one per page size, because a mapped chapter meets one or the other
 * depending on the page cache (see {@link PmdMapping}). This one is in 4 KiB pages
 * ({@code MADV_NOHUGEPAGE}), like a mapping of a page cache in small folios; {@link WallMemoryReadHuge}
 * is in 2 MiB pages, like a mapping of 2 MiB folios. Each checks, in {@code /proc/self/smaps}, that
 * its memory really got the pages it asked for, and records the 2 MiB share of every run.
 */
public class WallMemoryRead implements NeedleSearch, AutoCloseable {

    private final boolean hugePages, widest;
    private Arena arena;
    private MemorySegment memory;

    public WallMemoryRead() {
        this(false, false);
    }

    protected WallMemoryRead(boolean hugePages, boolean widest) {
        this.hugePages = hugePages;
        this.widest = widest;
    }

    @Override
    public long search(Path file, int workers) throws IOException {
        MemorySegment haystack = inMemory(Files.size(file));
        long hit = searchShards(haystack, workers, widest);
        PmdMapping.recordAfterScan(haystack);
        return hit;
    }

    private static final long CHECK_EVERY_BYTES = 1L << 20;
    private static final VectorSpecies<Long> SPECIES_256 = LongVector.SPECIES_256;
    private static final int BLOCK_BYTES_256 = 4 * 32;

    /** Chapter 9's worker over its shard of {@code memory}, scanned with the 256-bit kernel or the widest. */
    private static long searchShards(MemorySegment memory, int workers, boolean widest) throws IOException {
        return searchShards(memory.byteSize(), workers, (shard, lowestHit) -> {
            for (long from = shard.start(); from < shard.end() && from < lowestHit.get(); from += CHECK_EVERY_BYTES) {
                long to = Math.min(from + CHECK_EVERY_BYTES, shard.end());
                long hit = widest ? firstNonZeroWordWidest(memory, from, to) : firstNonZeroWord256(memory, from, to);
                if (hit >= 0) {
                    lowestHit.accumulateAndGet(hit, Math::min);
                    break;
                }
            }
        });
    }

    /** One worker's loop over its shard: it lowers {@code lowestHit} when it finds a non-zero word. */
    interface ShardWorker { void scan(Shard shard, AtomicLong lowestHit) throws IOException; }

    /**
     * The chapters' shards and threads, shared by the walls: {@code worker} over each shard of {@code bytes}
     * ({@link Shard#split}) on a platform thread of its own, and the lowest hit of any worker.
     */
    static long searchShards(long bytes, int workers, ShardWorker worker) throws IOException {
        AtomicLong lowestHit = new AtomicLong(Long.MAX_VALUE);
        List<Future<?>> results = new ArrayList<>();
        try (ExecutorService threads = Executors.newThreadPerTaskExecutor(Thread.ofPlatform().name("worker-", 0).factory())) {
            for (Shard shard : Shard.split(bytes, workers)) {
                results.add(threads.submit(() -> {
                    worker.scan(shard, lowestHit);
                    return null;
                }));
            }
        }
        for (Future<?> result : results) {
            PageCache.await(result, "a worker");
        }
        long hit = lowestHit.get();
        return hit == Long.MAX_VALUE ? NOT_FOUND : hit;
    }

    /** Chapter 9's kernel: 128 bytes per step, then the block that hit, word by word. */
    private static long firstNonZeroWord256(MemorySegment segment, long from, long to) {
        long offset = from;
        for (; offset <= to - BLOCK_BYTES_256; offset += BLOCK_BYTES_256) {
            LongVector a = LongVector.fromMemorySegment(SPECIES_256, segment, offset, ByteOrder.LITTLE_ENDIAN);
            LongVector b = LongVector.fromMemorySegment(SPECIES_256, segment, offset + 32, ByteOrder.LITTLE_ENDIAN);
            LongVector c = LongVector.fromMemorySegment(SPECIES_256, segment, offset + 64, ByteOrder.LITTLE_ENDIAN);
            LongVector d = LongVector.fromMemorySegment(SPECIES_256, segment, offset + 96, ByteOrder.LITTLE_ENDIAN);
            if (!a.or(b).or(c.or(d)).reinterpretAsInts().eq(0).allTrue()) {
                break;
            }
        }
        return firstNonZeroWordFrom(segment, offset, to);
    }

    /** The block that hit, or the tail: its first non-zero byte's word. */
    private static long firstNonZeroWordFrom(MemorySegment segment, long offset, long to) {
        for (; offset < to; offset++) {
            if (segment.get(ValueLayout.JAVA_BYTE, offset) != 0) {
                return NeedleSearch.wordContaining(offset);
            }
        }
        return NOT_FOUND;
    }

    /** The widest vectors C2 will use on this CPU, in bits; 512 with AVX-512. */
    private static final int WIDEST_BITS = LongVector.SPECIES_PREFERRED.vectorBitSize();
    private static final VectorSpecies<Long> SPECIES_512 = LongVector.SPECIES_512;
    private static final int BLOCK_BYTES_512 = 4 * 64;

    /** Chapter 16's choice: chapter 12's 512-bit kernel where the CPU has it, else the 256-bit one. */
    private static long firstNonZeroWordWidest(MemorySegment segment, long from, long to) {
        return WIDEST_BITS >= 512 ? firstNonZeroWord512(segment, from, to) : firstNonZeroWord256(segment, from, to);
    }

    /** Chapter 12's kernel: 256 bytes per step, then the block that hit, word by word. */
    private static long firstNonZeroWord512(MemorySegment segment, long from, long to) {
        long offset = from;
        for (; offset <= to - BLOCK_BYTES_512; offset += BLOCK_BYTES_512) {
            LongVector a = LongVector.fromMemorySegment(SPECIES_512, segment, offset, ByteOrder.LITTLE_ENDIAN);
            LongVector b = LongVector.fromMemorySegment(SPECIES_512, segment, offset + 64, ByteOrder.LITTLE_ENDIAN);
            LongVector c = LongVector.fromMemorySegment(SPECIES_512, segment, offset + 128, ByteOrder.LITTLE_ENDIAN);
            LongVector d = LongVector.fromMemorySegment(SPECIES_512, segment, offset + 192, ByteOrder.LITTLE_ENDIAN);
            if (!a.or(b).or(c.or(d)).reinterpretAsInts().eq(0).allTrue()) {
                break;
            }
        }
        return firstNonZeroWordFrom(segment, offset, to);
    }

    /**
     * The in-memory haystack, made on the first call (a warm-up run) and kept for the rest: an
     * anonymous mapping on a 2 MiB boundary, advised before its first touch, then written through
     * so every page is really there (untouched memory reads as the kernel's one shared zero page).
     */
    private synchronized MemorySegment inMemory(long bytes) throws IOException {
        if (memory == null || memory.byteSize() != bytes) {
            close();
            arena = Arena.ofShared();
            long rounded = Math.max(PmdMapping.PMD_BYTES, Math.ceilDiv(bytes, PmdMapping.PMD_BYTES) * PmdMapping.PMD_BYTES);
            AvailableMemory.require(rounded + PmdMapping.PMD_BYTES, "the memory wall's copy of the haystack");
            MemorySegment mapping = Native.mapAnonymous(rounded + PmdMapping.PMD_BYTES, arena);
            long skip = Math.ceilDiv(mapping.address(), PmdMapping.PMD_BYTES) * PmdMapping.PMD_BYTES - mapping.address();
            MemorySegment aligned = mapping.asSlice(skip, rounded);
            Native.madvise(aligned, hugePages ? Native.MADV_HUGEPAGE : Native.MADV_NOHUGEPAGE);
            aligned.fill((byte) 0);
            memory = aligned.asSlice(0, bytes);
            if (bytes >= Long.BYTES) {
                memory.set(ValueLayout.JAVA_LONG_UNALIGNED, Haystack.needleOffset(bytes), Haystack.NEEDLE);
            }
            checkPages(PmdMapping.of(aligned));
        }
        return memory;
    }

    private void checkPages(PmdMapping pages) {
        if (hugePages && pages.anonHugePagesBytes() == 0) {
            throw new UserMistakeException("the kernel gave the memory wall no 2 MiB page (AnonHugePages 0 of " + pages.rssBytes()
                    + " bytes resident; see /sys/kernel/mm/transparent_hugepage/enabled): no 2 MiB-page wall measured");
        }
        if (!hugePages && pages.anonHugePagesBytes() > 0) {
            throw new UserMistakeException("the kernel put the 4 KiB-page memory wall in 2 MiB pages despite MADV_NOHUGEPAGE ("
                    + pages.anonHugePagesBytes() + " bytes): no 4 KiB-page wall measured");
        }
    }

    /** Gives the memory back now, not at the next garbage collection. */
    @Override
    public synchronized void close() {
        if (arena != null) {
            arena.close();
            arena = null;
            memory = null;
        }
    }
}
