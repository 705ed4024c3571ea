package lib.chapter;

import java.util.ArrayList;
import java.util.List;

/**
 * One worker's contiguous part of the file, {@code [start, end)}.
 *
 * <p>The file is cut into at most {@code workers} equal parts. Every cut falls on a multiple of
 * {@link #ALIGN_BYTES}, so a shard never splits a word or a vector block and a mapped shard starts
 * on its own cache line. When there are more workers than {@code ALIGN_BYTES} pieces (a tiny file),
 * the surplus workers get no shard rather than an empty one.
 */
public record Shard(long start, long end) {

    public static final long ALIGN_BYTES = 4096;

    public long length() {
        return end - start;
    }

    /** The length of the longest shard {@link #split} makes: no worker ever reads more than this. */
    public static long largestBytes(long fileBytes, int workers) {
        long perWorker = Math.ceilDiv(fileBytes, workers);
        return Math.max(ALIGN_BYTES, Math.ceilDiv(perWorker, ALIGN_BYTES) * ALIGN_BYTES);
    }

    public static List<Shard> split(long fileBytes, int workers) {
        if (workers < 1) {
            throw new IllegalArgumentException("workers must be at least 1, not " + workers);
        }
        long step = largestBytes(fileBytes, workers);
        List<Shard> shards = new ArrayList<>();
        for (long start = 0; start < fileBytes; start += step) {
            shards.add(new Shard(start, Math.min(fileBytes, start + step)));
        }
        return shards;
    }
}
