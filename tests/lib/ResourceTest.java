import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import lib.chapter.NeedleSearch;
import lib.cli.UserMistakeException;
import lib.harness.Harness;
import lib.haystack.Haystack;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nothing a search takes outlives it: threads, file descriptors, mappings, native memory. A leak
 * of one descriptor or one mapping per search would pass any single run and sink a long sweep,
 * so each chapter searches a small file a thousand times in this one JVM.
 */
class ResourceTest {

    private static final int SEARCHES_PER_CHAPTER = 1000;
    /** Enough words for every worker count below to get a shard of its own. */
    private static final long FILE_BYTES = 96 * 1024;
    /** The JVM and the test runner open and close a few files of their own (class files, jars). */
    private static final int DESCRIPTOR_SLACK = 8;
    private static final long NATIVE_SLACK_BYTES = 16L << 20;

    @TempDir
    Path dir;

    @Test
    void thousandsOfSearchesOfEveryChapterLeaveNothingBehind() throws IOException {
        Path file = dir.resolve("haystack.bin");
        Haystack.create(file, FILE_BYTES);
        long needle = Haystack.needleOffset(FILE_BYTES);
        for (NeedleSearch chapter : Chapters.all()) { // once first, so the JVM's own one-off resources are in place
            search(chapter, file, 2);
        }
        int descriptors = openDescriptors();
        int threads = Thread.activeCount();
        long nativeBytes = directMemoryBytes();

        for (NeedleSearch chapter : Chapters.all()) {
            for (int i = 0; i < SEARCHES_PER_CHAPTER; i++) {
                long answer = search(chapter, file, 1 + i % 4);
                if (answer != needle && answer != Long.MIN_VALUE) {
                    throw new AssertionError(Chapters.name(chapter) + " answered " + answer);
                }
            }
        }

        assertEquals(List.of(), mappingsOf(file), "mappings of the file outlived their search");
        assertTrue(openDescriptors() <= descriptors + DESCRIPTOR_SLACK,
                "open descriptors grew from " + descriptors + " to " + openDescriptors());
        assertFalse(Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().startsWith("worker-")),
                "a worker thread outlived its search");
        assertTrue(Thread.activeCount() <= threads + 2, "threads grew from " + threads + " to " + Thread.activeCount());
        assertTrue(directMemoryBytes() <= nativeBytes + NATIVE_SLACK_BYTES,
                "native memory grew from " + nativeBytes + " to " + directMemoryBytes() + " bytes");
    }

    /** The chapter's answer, or {@code Long.MIN_VALUE} where it refuses this machine (chapter 12 without AVX-512). */
    private static long search(NeedleSearch chapter, Path file, int workers) throws IOException {
        try {
            return chapter.search(file, workers);
        } catch (UserMistakeException refusedHere) {
            return Long.MIN_VALUE;
        }
    }

    /**
     * Chapter 1 allocates the whole file off-heap. Where it cannot, it must say so in one line.
     * A limit on the child's address space ({@code ulimit -v}) stands in for a machine without
     * the memory: the JVM starts in well under the limit, the file does not fit in what is left.
     * ({@code -XX:MaxDirectMemorySize} would not do: arena allocations are not counted against it.)
     */
    @Test
    void chapter1RefusesClearlyWhenTheFileDoesNotFitInMemory() throws Exception {
        Path file = dir.resolve("haystack.bin");
        Haystack.create(file, 512L << 20);
        Path logs = Files.createDirectory(dir.resolve("logs"));
        List<String> smallJvm = List.of("-Xmx64m", "-XX:ReservedCodeCacheSize=32m", "-XX:CompressedClassSpaceSize=64m");
        var result = Subprocess.run(Subprocess.afterShell("export MALLOC_ARENA_MAX=2; ulimit -v 800000", // KiB
                Subprocess.javaCommand(smallJvm, "V01ReadAll", file.toString(), "--runs", "1", "--warmup", "0")), logs);
        assertEquals(Harness.ERROR, result.exitCode(), result::toString);
        assertEquals(1, result.errorLines().size(), result::toString);
        assertTrue(result.stderr().contains("memory"), result::toString);
        assertFalse(result.stderr().contains("\tat "), result::toString);
    }

    private static int openDescriptors() throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return (int) fds.count();
        }
    }

    private static List<String> mappingsOf(Path file) throws IOException {
        String name = file.toRealPath().toString();
        return Files.readAllLines(Path.of("/proc/self/maps")).stream().filter(line -> line.endsWith(name)).toList();
    }

    /** Native memory the JDK accounts for: direct buffers and memory segments from arenas. */
    private static long directMemoryBytes() {
        return ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
                .filter(pool -> pool.getName().equals("direct"))
                .mapToLong(BufferPoolMXBean::getMemoryUsed).sum();
    }
}
