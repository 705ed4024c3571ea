package lab.yardsticks;

import lib.chapter.ChunkedSearch;
import lib.cli.UserMistakeException;
import lib.harness.PageCache;
import lib.haystack.FileChangedException;
import lib.haystack.Haystack;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The second wall: how fast can the kernel copy a cached file into our buffers?
 *
 * <p>Not a chapter but a yardstick, run by {@code lab/yardsticks/WallProbe.java}. It is chapter 13 without
 * the scan: the same parallel positional reads into per-worker buffers (a copy of its loops, as
 * each chapter keeps its own), but after each read it looks at one word, the chunk's last, and
 * nothing else. That is enough to find a haystack's needle, which sits in the file's last word, and
 * costs nothing next to the copy. A pread chapter can only approach this figure.
 */
public final class WallPageCacheCopy implements ChunkedSearch {

    private static final long SHARD_ALIGN_BYTES = 4096;

    @Override
    public long search(Path file, int workers, long chunkBytes) throws IOException {
        if (!Haystack.endsWithNeedle(file)) {
            throw new UserMistakeException(file + " is not a haystack: the copy probe only looks at the last word, so it needs the needle there");
        }
        long fileBytes = Files.size(file);
        long shardBytes = Math.max(SHARD_ALIGN_BYTES, Math.ceilDiv(Math.ceilDiv(fileBytes, workers), SHARD_ALIGN_BYTES) * SHARD_ALIGN_BYTES);
        AtomicLong lowestHit = new AtomicLong(Long.MAX_VALUE);
        List<Future<?>> results = new ArrayList<>();
        try (ExecutorService threads = Executors.newThreadPerTaskExecutor(Thread.ofPlatform().name("worker-", 0).factory())) {
            for (long start = 0; start < fileBytes; start += shardBytes) {
                long shardStart = start, shardEnd = Math.min(fileBytes, start + shardBytes);
                results.add(threads.submit(() -> {
                    copyShard(file, shardStart, shardEnd, chunkBytes, lowestHit);
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

    /** Chapter 13's worker, its chunk's last word for a scan. */
    private static void copyShard(Path file, long shardStart, long shardEnd, long chunkBytes, AtomicLong lowestHit) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ); Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = arena.allocate(chunkBytes, 4096);
            ByteBuffer bufferView = buffer.asByteBuffer();
            for (long from = shardStart; from < shardEnd && from < lowestHit.get(); from += chunkBytes) {
                int length = Math.toIntExact(Math.min(from + chunkBytes, shardEnd) - from);
                bufferView.clear().limit(length);
                while (bufferView.hasRemaining()) {
                    long position = from + bufferView.position();
                    if (channel.read(bufferView, position) < 0) {
                        throw new FileChangedException("the file ended at " + position + " bytes, shorter than when the search began");
                    }
                }
                long last = length - Long.BYTES;
                if (last >= 0 && buffer.get(JAVA_LONG_UNALIGNED, last) != 0) {
                    lowestHit.accumulateAndGet(from + last, Math::min);
                    return;
                }
            }
        }
    }
}
