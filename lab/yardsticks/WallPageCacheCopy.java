package lab.yardsticks;

import lib.chapter.ChunkedSearch;
import lib.cli.UserMistakeException;
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

    @Override
    public long search(Path file, int workers, long chunkBytes) throws IOException {
        if (!Haystack.endsWithNeedle(file)) {
            throw new UserMistakeException(file + " is not a haystack: the copy probe only looks at the last word, so it needs the needle there");
        }
        return WallMemoryRead.searchShards(Files.size(file), workers,
                (shard, lowestHit) -> copyShard(file, shard.start(), shard.end(), chunkBytes, lowestHit));
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
