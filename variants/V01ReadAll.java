///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
//SOURCES ../lib/Library.java
//COMPILE_OPTIONS --add-modules jdk.incubator.vector
//RUNTIME_OPTIONS --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import lib.chapter.NeedleSearch;
import lib.chapter.SingleThreaded;
import lib.cli.Sizes;
import lib.cli.UserMistakeException;
import lib.harness.AvailableMemory;
import lib.harness.Harness;
import lib.linux.HugePageBuffer;

/**
 * Chapter 1: read it all, then loop over bytes — the whole file into memory, then a look at every byte.
 *
 * <p>Chapter 0's search (the shell's {@code cmp}) in Java, the obvious way, and the baseline. In
 * Java the obvious call, {@code Files.readAllBytes}, cannot even start on the 4 GiB haystack: a
 * {@code byte[]} holds at most 2^31-1 bytes, so it throws {@code OutOfMemoryError: Required array
 * size too large}. The honest equivalent is one off-heap buffer the size of the file, filled by
 * reads, then the same byte loop. It pays twice: a copy of every byte, then a slow scan.
 *
 * <p>Which buffer matters. {@code Arena.allocate(size)} writes zeros over all of it first: a page
 * fault for every 4 KiB page, and a second pass over 4 GiB. {@link HugePageBuffer} asks, as Go's
 * heap does, for memory the kernel hands over already zero as the read first touches it, in 2 MiB
 * pages where it can. It needs the file's size in free memory, beside the page cache's copy.
 *
 * <pre>
 * How to run:   ./jbang variants/V01ReadAll.java haystack.bin
 * What you should see: each run's line on stderr, then on stdout one summary line per worker count:
 *   variant=V01ReadAll workers=1 offset=4294967288 runs=5 mean_s=… median_s=… mbps=… cache=warm bytes=4294967296 page_cache=as-is
 * Expect one of the slower chapters: every byte is copied, then looked at alone.
 * Its bill per GiB: a handful of read calls, 1 GiB returned (one copy of every byte).
 * </pre>
 */
public class V01ReadAll implements NeedleSearch, SingleThreaded {

    public static void main(String[] args) {
        Harness.run(new V01ReadAll(), args);
    }

    @Override
    public long search(Path file, int workers) throws IOException {
        try (FileChannel channel = FileChannel.open(file); Arena arena = Arena.ofConfined()) {
            long size = channel.size();
            MemorySegment wholeFile = allocateFileSized(arena, size);
            readFully(channel, wholeFile);
            for (long i = 0; i < size; i++) {
                if (wholeFile.get(JAVA_BYTE, i) != 0) {
                    return NeedleSearch.wordContaining(i);
                }
            }
            return NOT_FOUND;
        }
    }

    /** A ByteBuffer, which FileChannel reads into, is int-indexed: the file goes in 1 GiB at a time. */
    static final long READ_BYTES = 1L << 30;

    static void readFully(FileChannel channel, MemorySegment target) throws IOException {
        for (long done = 0; done < target.byteSize(); ) {
            var window = target.asSlice(done, Math.min(READ_BYTES, target.byteSize() - done)).asByteBuffer();
            while (window.hasRemaining()) {
                if (channel.read(window) < 0) {
                    throw new IOException("the file ended early: it changed during the search");
                }
            }
            done += window.capacity();
        }
    }

    /** Refuses clearly, rather than letting the JVM die, when the file cannot fit in memory. */
    static MemorySegment allocateFileSized(Arena arena, long size) {
        AvailableMemory.require(size, "reading it all"); // the machine's memory, or a memory cgroup's if that is less
        try {
            return HugePageBuffer.allocate(size, arena);
        } catch (IOException e) {
            throw new UserMistakeException("reading it all needs " + Sizes.human(size) + " of memory, and the kernel would not map it ("
                    + e.getMessage() + ")");
        }
    }
}
