import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Stream;
import lib.chapter.ChunkedSearch;
import lib.chapter.NeedleSearch;
import lib.cli.Quote;
import lib.cli.UserMistakeException;
import lib.harness.Harness;
import lib.harness.ResultsCsv;
import lib.haystack.FileChangedException;
import lib.haystack.Haystack;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * "Never lose a file, never lie": bad input is refused in one line with nothing changed on disk,
 * existing files are never written, creations that die leave no file under the real name, and a
 * run whose answer cannot be trusted fails and records nothing.
 */
class SafetyTest {

    private static final long BYTES = 256 * 1024;

    @TempDir
    Path dir;

    @TempDir
    Path logsRoot; // outside dir, so a subprocess's output never shows up as a change there

    /** A search that counts its calls, to show that refused input never reaches a search. */
    static final class Counting implements NeedleSearch {
        final AtomicInteger calls = new AtomicInteger();
        private final NeedleSearch delegate;

        Counting(NeedleSearch delegate) {
            this.delegate = delegate;
        }

        @Override
        public long search(Path file, int workers) throws IOException {
            calls.incrementAndGet();
            return delegate.search(file, workers);
        }
    }

    private Path haystack(String name, long bytes) throws IOException {
        Path file = dir.resolve(name);
        Haystack.create(file, bytes);
        return file;
    }

    /** Exit 2, exactly one line on stderr that contains {@code fragment}, no search, no change under the temp dir. */
    private void assertRefused(String fragment, String... args) throws IOException {
        Map<String, String> before = DiskState.of(dir);
        Counting search = new Counting(new V04Mmap());
        var result = assertTimeoutPreemptively(Duration.ofSeconds(Subprocess.PATIENCE_SECONDS),
                () -> InProcess.run(search, args), "a refusal must never wait (on a pipe, say)");
        assertEquals(Harness.ERROR, result.exitCode(), result::toString);
        assertEquals(1, result.errorLines().size(), result::toString);
        assertTrue(result.stderr().contains(fragment), () -> "expected '" + fragment + "' in\n" + result);
        assertEquals("", result.stdout());
        assertEquals(0, search.calls.get(), "the search ran");
        assertEquals(before, DiskState.of(dir));
    }

    // ---- A. Bad input: one line, exit 2, nothing changed ----

    @Test
    void missingDirectoryIsNotCreated() throws IOException {
        assertRefused("not an existing directory", dir.resolve("no/such/dir/haystack.bin").toString(), "--size", "64k");
    }

    @Test
    void directoryIsRefused() throws IOException {
        assertRefused("is a directory", dir.toString());
    }

    @Test
    void pipeIsRefusedWithoutOpeningIt() throws Exception {
        Path fifo = dir.resolve("pipe");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start().waitFor());
        assertRefused("not a regular file", fifo.toString());
        assertRefused("not a regular file", fifo.toString(), "--cold");
    }

    @Test
    void deviceIsRefused() throws IOException {
        assertRefused("not a regular file", "/dev/zero");
    }

    @Test
    void danglingSymbolicLinkIsNotFollowedToCreateAFile() throws IOException {
        Path link = Files.createSymbolicLink(dir.resolve("link.bin"), dir.resolve("nowhere.bin"));
        assertRefused("symbolic link to nothing", link.toString(), "--size", "64k");
        assertFalse(Files.exists(dir.resolve("nowhere.bin")));
    }

    @Test
    void pathThroughADanglingSymbolicLinkIsRefused() throws IOException {
        Path link = Files.createSymbolicLink(dir.resolve("gone"), dir.resolve("missing-directory"));
        assertRefused("not an existing directory", link.resolve("haystack.bin").toString(), "--size", "64k");
    }

    @ParameterizedTest
    @ValueSource(strings = {"--runs 0", "--runs -3", "--runs many", "--warmup -1", "--workers 0", "--workers -1",
            "--workers abc", "--workers 1,x", "--workers 5000", "--frobnicate", "--size big", "--size 12", "--size 0",
            "--runs"})
    void badOptionIsOneLineAndNoSearch(String options) throws IOException {
        Path file = haystack("haystack.bin", BYTES);
        List<String> args = new ArrayList<>(List.of(file.toString()));
        args.addAll(List.of(options.split(" ")));
        assertRefused("", args.toArray(String[]::new));
    }

    /** An empty list runs nothing; exit 1 would claim the file is all zeros. */
    @ParameterizedTest
    @ValueSource(strings = {"--workers", "--chunk"})
    void anEmptyListIsAUsageError(String option) throws IOException {
        Path file = haystack("haystack.bin", BYTES);
        assertRefused("at least one", file.toString(), option, ",", "--csv", dir.resolve("results.csv").toString());
    }

    /** A shell hands the JVM bytes; what is not valid UTF-8 becomes U+FFFD, the name of another file. */
    @Test
    void aFileNameThatIsNotValidUtf8IsRefusedNotReplaced() throws Exception {
        Map<String, String> before = DiskState.of(dir);
        List<String> command = Subprocess.afterShell("set -- \"$@\" \"$(printf '" + dir + "/bad\\377.bin')\"",
                Subprocess.javaCommand(List.of(), "V04Mmap", "--size", "64k", "--runs", "1"));
        var result = Subprocess.run(command, logs());
        assertEquals(Harness.ERROR, result.exitCode(), result::toString);
        assertEquals(1, result.errorLines().size(), result::toString);
        assertTrue(result.stderr().contains("not valid"), result::toString);
        assertEquals(before, DiskState.of(dir), "a file of another name was created");
    }

    @Test
    void anEmptyArgumentIsRefused() throws Exception {
        assertRefused("empty", "", "--runs", "1");
        // through the launcher too, where the shell would otherwise drop it on the way
        var result = Subprocess.run(List.of("./jbang", "variants/V04Mmap.java", "", "--runs", "1"), logs());
        assertEquals(Harness.ERROR, result.exitCode(), result::toString);
        assertTrue(result.stderr().contains("empty argument"), result::toString);
    }

    /** A name may hold a newline; the message about it is still one line. */
    /** A list that ends in a comma has an empty last value, as one that starts with one has a first. */
    @Test
    void aListEndingInACommaIsRefused() throws IOException {
        Path file = haystack("haystack.bin", BYTES);
        assertRefused("ends in a comma", file.toString(), "--workers", "2,");
        assertRefused("ends in a comma", file.toString(), "--chunk=4k,");
        assertRefused("not a whole number", file.toString(), "--workers", ",2");
    }

    /** Java reads other scripts' digits as numbers; a count is written in 0 to 9. */
    @Test
    void aCountInDigitsOtherThanZeroToNineIsRefused() throws IOException {
        Path file = haystack("haystack.bin", BYTES);
        assertRefused("digits 0 to 9", file.toString(), "--workers", "\uFF12");
        assertRefused("digits 0 to 9", file.toString(), "--runs", "\u0661");
    }

    /** --flamegraphs names a directory that exists, for --profile: a missing one is never made, and alone it is a mistake. */
    @Test
    void flameGraphsGoOnlyIntoADirectoryThatExistsAndOnlyWithProfile() throws IOException {
        Path file = haystack("haystack.bin", BYTES);
        assertRefused("no such directory", file.toString(), "--profile", "--flamegraphs", dir.resolve("a/b/c").toString());
        assertRefused("add --profile", file.toString(), "--flamegraphs", dir.toString());
    }

    @Test
    void aNewlineInAFileNameDoesNotBreakTheLine() throws IOException {
        assertRefused("not an existing directory", dir.resolve("no\nsuch/haystack.bin").toString(), "--size", "64k");
        assertRefused("is a directory", Files.createDirectory(dir.resolve("two\nlines")).toString());
    }

    /** procfs and sysfs files are generated as they are read; their size (0, 4096) is not their content's. */
    @Test
    void filesWhoseSizeTheKernelMakesUpAreRefusedByEveryChapter() throws IOException {
        List<Path> made = List.of(Path.of("/proc/self/status"), Path.of("/sys/kernel/mm/transparent_hugepage/enabled"));
        for (Path file : made) {
            assumeTrue(Files.isRegularFile(file), "needs Linux procfs and sysfs");
            for (NeedleSearch chapter : Chapters.all()) {
                var result = InProcess.run(chapter, file.toString(), "--runs", "1", "--warmup", "0");
                assertEquals(Harness.ERROR, result.exitCode(), () -> Chapters.name(chapter) + " " + file + "\n" + result);
                assertEquals(1, result.errorLines().size(), result::toString);
                assertTrue(result.stderr().contains("true size"), result::toString);
            }
        }
    }

    /** Its line about the vector width comes only once the command is known to run. */
    @Test
    void chapter13SaysNothingBeforeARefusal() throws Exception {
        var result = Subprocess.run(Subprocess.javaCommand(List.of(), "V13PreadVector", dir.toString()), logs());
        assertEquals(Harness.ERROR, result.exitCode(), result::toString);
        assertEquals(1, result.errorLines().size(), result::toString);
        assertTrue(result.stderr().contains("is a directory"), result::toString);
    }

    @Test
    void aReadOnlyCsvIsRefusedBeforeTheFirstRun() throws Exception {
        Path file = haystack("haystack.bin", BYTES);
        Path csv = Files.writeString(dir.resolve("results.csv"), ResultsCsv.headerLine() + "\n");
        Files.setPosixFilePermissions(csv, PosixFilePermissions.fromString("r--r--r--"));
        var result = Subprocess.run(obeyingPermissions(Subprocess.javaCommand(List.of(), "V04Mmap", file.toString(),
                "--runs", "1", "--csv", csv.toString())), logs());
        assertEquals(Harness.ERROR, result.exitCode(), result::toString);
        assertEquals(List.of(), result.errorLines().stream().filter(line -> line.startsWith("  ")).toList(), "a run happened");
        assertEquals(1, result.errorLines().size(), result::toString);
        assertTrue(result.stderr().contains("read-only"), result::toString);
        assertEquals("", result.stdout());
    }

    @Test
    void anUnwritableFlameGraphDirectoryIsRefusedBeforeTheFirstRun() throws Exception {
        Path file = haystack("haystack.bin", BYTES);
        Path locked = Files.createDirectory(dir.resolve("locked"));
        Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("r-xr-xr-x"));
        try {
            var result = Subprocess.run(obeyingPermissions(Subprocess.javaCommand(List.of(), "V04Mmap", file.toString(),
                    "--runs", "1", "--profile", "--flamegraphs", locked.toString())), logs());
            assertEquals(Harness.ERROR, result.exitCode(), result::toString);
            assertEquals(1, result.errorLines().size(), result::toString);
            assertTrue(result.stderr().contains("permission denied"), result::toString);
            assertTrue(result.stderr().contains("'" + locked + "'"), result::toString);
            assertEquals("", result.stdout());
        } finally {
            Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }

    /** tmpfs accepts the eviction request and keeps every page: such a run is not cold, and is refused before it starts. */
    @Test
    void coldWhereThePagesStayInMemoryIsRefused() throws IOException {
        Path memoryOnly = tmpfsDirectory("cold");
        try {
            Path file = memoryOnly.resolve("haystack.bin");
            Haystack.create(file, BYTES);
            var result = InProcess.run(new V04Mmap(), file.toString(), "--cold", "--runs", "1", "--warmup", "0");
            assertEquals(Harness.ERROR, result.exitCode(), result::toString);
            assertEquals(1, result.errorLines().size(), result::toString);
            assertTrue(result.stderr().contains("is on tmpfs or ramfs"), result::toString);
            assertEquals("", result.stdout(), "a figure labelled cold");
        } finally {
            deleteWithItsFiles(memoryOnly);
        }
    }

    /** Chapter 16's refusal on tmpfs (no 2 MiB folios to read back there) names the file quoted, so a newline cannot split it. */
    @Test
    void chapter16OnTmpfsIsRefusedInOneLineThatQuotesTheName() throws IOException {
        assumeTrue(Files.isDirectory(Path.of("/sys/kernel/mm/transparent_hugepage")), "chapter 16 refuses first for want of huge pages");
        Path memoryOnly = tmpfsDirectory("huge");
        try {
            Path file = memoryOnly.resolve("two\nlines.bin");
            Haystack.create(file, BYTES);
            var result = InProcess.run(new V16MmapHugePages(), file.toString(), "--runs", "1", "--warmup", "0");
            assertEquals(Harness.ERROR, result.exitCode(), result::toString);
            assertEquals(1, result.errorLines().size(), result::toString);
            assertTrue(result.stderr().contains(Quote.name(file) + " is on tmpfs or ramfs"), result::toString);
        } finally {
            deleteWithItsFiles(memoryOnly);
        }
    }

    /** Chapter 17 with --cold on tmpfs says the --cold refusal alone: the options are checked before it probes RWF_DONTCACHE. */
    @Test
    void chapter17ColdOnTmpfsIsRefusedBeforeItsProbeSaysALine() throws IOException {
        Path memoryOnly = tmpfsDirectory("dontcache");
        try {
            Path file = memoryOnly.resolve("haystack.bin");
            Haystack.create(file, BYTES);
            var result = InProcess.run(new V17ReadDontCache(), file.toString(), "--cold", "--runs", "1", "--warmup", "0");
            assertEquals(Harness.ERROR, result.exitCode(), result::toString);
            assertEquals(1, result.errorLines().size(), result::toString);
            assertTrue(result.errorLines().get(0).startsWith("V17ReadDontCache: --cold: " + Quote.name(file) + " is on tmpfs"), result::toString);
            assertEquals("", result.stdout(), "a figure labelled cold");
        } finally {
            deleteWithItsFiles(memoryOnly);
        }
    }

    /** A new directory on the tmpfs at /dev/shm; the test is skipped where there is none. */
    private static Path tmpfsDirectory(String prefix) throws IOException {
        Path shm = Path.of("/dev/shm");
        assumeTrue(Files.isDirectory(shm) && lib.linux.Native.fileSystemMagic(shm) == lib.linux.Native.TMPFS_MAGIC, "needs a tmpfs at /dev/shm");
        return Files.createTempDirectory(shm, prefix);
    }

    /** Deletes {@code directory} and the files a test made in it, nothing else. */
    private static void deleteWithItsFiles(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            for (Path file : files.toList()) {
                Files.delete(file);
            }
        }
        Files.delete(directory);
    }

    /** A worker never reads more than its shard, so a buffer bigger than that is never allocated. */
    @Test
    void aChunkBiggerThanAShardIsClampedToIt() throws IOException {
        Path file = haystack("haystack.bin", BYTES);
        var result = InProcess.run(new V07PreadParallel(), file.toString(), "--chunk", "1g", "--workers", "2",
                "--runs", "1", "--warmup", "0");
        assertEquals(Harness.FOUND, result.exitCode(), result::toString);
        assertTrue(result.stdout().contains("chunk_bytes=" + lib.chapter.Shard.largestBytes(BYTES, 2)), result::toString);
        assertTrue(result.stderr().contains("more than a worker's share"), result::toString);
    }

    /** Buffers for every worker must fit in memory, or the command is refused before it allocates them. */
    @Test
    void chunkBuffersThatCannotFitInMemoryAreRefused() throws IOException {
        long available = lib.harness.Machine.availableMemoryBytes();
        assumeTrue(available > 0, "needs MemAvailable in /proc/meminfo");
        long workers = Math.min(4096, available / (1L << 30) + 8); // 1 GiB buffers, more of them than fit
        assumeTrue(workers < 4096, "more memory than 4095 GiB");
        Path sparse = TestFiles.writeSparse(dir.resolve("sparse.bin"),
                TestFiles.Layout.zeros("sparse", workers << 30).plant((workers << 30) - 1, (byte) 1));
        var result = InProcess.run(new V07PreadParallel(), sparse.toString(), "--chunk", "1g", "--workers",
                Long.toString(workers), "--runs", "1", "--warmup", "0");
        assertEquals(Harness.ERROR, result.exitCode(), result::toString);
        assertEquals(1, result.errorLines().size(), result::toString);
        assertTrue(result.stderr().contains("of memory is available"), result::toString);
    }

    /**
     * A chapter that reads in chunks (chapter 7's reads), counting its searches, with the limits of
     * another: the smallest chunk it reads (O_DIRECT's block, for chapters 14 and 15) and the buffers
     * each worker holds (reads in flight, for chapter 15). A stand-in, so that no test of the
     * harness's checks needs O_DIRECT or io_uring.
     */
    static final class CountingChunked implements ChunkedSearch {
        final AtomicInteger calls = new AtomicInteger();
        private final long smallestBytes;
        private final int buffers;

        CountingChunked(long smallestBytes, int buffers) {
            this.smallestBytes = smallestBytes;
            this.buffers = buffers;
        }

        @Override
        public long search(Path file, int workers, long chunkBytes) throws IOException {
            calls.incrementAndGet();
            return new V07PreadParallel().search(file, workers, chunkBytes);
        }

        @Override
        public long smallestChunkBytes(Path file) {
            return smallestBytes;
        }

        @Override
        public int buffersPerWorker(long chunkBytes) {
            return buffers;
        }
    }

    /** A sweep whose last chunk is below the chapter's smallest is refused before its first is searched. */
    @Test
    void aChunkSweepIsRefusedBeforeItsFirstValueIsSearched() throws IOException {
        Path file = haystack("haystack.bin", BYTES);
        Path csv = dir.resolve("results.csv");
        CountingChunked search = new CountingChunked(4096, 1);
        var result = InProcess.run(search, file.toString(), "--chunk", "4k,512", "--runs", "1", "--warmup", "0", "--csv", csv.toString());
        assertEquals(Harness.ERROR, result.exitCode(), result::toString);
        assertEquals(List.of(search.getClass().getSimpleName() + ": --chunk 512 is less than the 4096 bytes " + search.getClass().getSimpleName()
                + " reads at a time on the file system of " + Quote.name(file) + "; use --chunk 4096 or more"), result.errorLines());
        assertEquals("", result.stdout());
        assertEquals(0, search.calls.get(), "the sweep's first chunk was searched");
        assertFalse(Files.exists(csv));
    }

    /**
     * A worker-count sweep whose last count's buffers cannot fit in memory is refused before its
     * first count is searched, and the line names the options that would make them fit.
     */
    @Test
    void aWorkerSweepIsRefusedBeforeItsFirstValueIsSearched() throws IOException {
        long available = lib.harness.Machine.availableMemoryBytes();
        assumeTrue(available > 2L << 30, "needs MemAvailable in /proc/meminfo, and 2 GiB of it");
        long workers = Math.min(4096, available / (1L << 30) + 8); // 1 GiB of buffers each, more than fit
        assumeTrue(workers < 4096, "more memory than 4095 GiB");
        long shardBytes = 16L << 20, fileBytes = workers * shardBytes; // a 16 MiB chunk is no more than a shard
        Path sparse = TestFiles.writeSparse(dir.resolve("sparse.bin"),
                TestFiles.Layout.zeros("sparse", fileBytes).plant(fileBytes - 1, (byte) 1));
        CountingChunked search = new CountingChunked(Long.BYTES, 64); // 64 buffers of 16 MiB: 1 GiB per worker
        var result = InProcess.run(search, sparse.toString(), "--chunk", "16m", "--workers", "1," + workers, "--runs", "1", "--warmup", "0");
        assertEquals(Harness.ERROR, result.exitCode(), result::toString);
        assertEquals(1, result.errorLines().size(), result::toString);
        assertTrue(result.stderr().contains(workers + " workers reading 16.0 MiB at a time need"), result::toString);
        assertTrue(result.stderr().contains("use a smaller --chunk or fewer --workers"), result::toString);
        assertEquals("", result.stdout());
        assertEquals(0, search.calls.get(), "the sweep's first worker count was searched");
    }

    /**
     * Only a worker with a shard holds buffers: 4096 workers on a file of 9 bytes are one reading
     * and 4095 idle, so a chapter with 64 reads in flight needs 64 chunks of buffers, not 4096 × 64
     * (256 GiB with the default 1 MiB chunk).
     */
    @Test
    void workersWithNoShardHoldNoBuffers() throws IOException {
        Path file = dir.resolve("nine.bin");
        Files.write(file, new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 1});
        CountingChunked search = new CountingChunked(Long.BYTES, 64);
        var result = InProcess.run(search, file.toString(), "--workers", "4096", "--runs", "1", "--warmup", "0");
        assertEquals(Harness.FOUND, result.exitCode(), result::toString);
        assertTrue(result.stdout().contains(" offset=8 "), result::toString);
        assertEquals(1, search.calls.get());
    }

    /** O_DIRECT reads whole blocks: a smaller chunk would read each block hundreds of times over. */
    @ParameterizedTest
    @ValueSource(strings = {"V14DirectIo", "V15IoUring"})
    void aChunkBelowTheDirectIoBlockIsRefused(String chapter) throws Exception {
        Path file = haystack("haystack.bin", BYTES);
        NeedleSearch search = (NeedleSearch) Class.forName(chapter).getDeclaredConstructor().newInstance();
        var result = InProcess.run(search, file.toString(), "--chunk", "8", "--runs", "1", "--warmup", "0");
        assertEquals(Harness.ERROR, result.exitCode(), result::toString);
        assertEquals(1, result.errorLines().size(), result::toString);
        assertTrue(result.stderr().contains("is less than the"), result::toString);
    }

    @Test
    void badSizeForANewFileCreatesNothing() throws IOException {
        assertRefused("size", dir.resolve("new.bin").toString(), "--size", "huge");
        assertRefused("multiple of 8", dir.resolve("new.bin").toString(), "--size", "100");
    }

    /**
     * No ordinary file system refuses fdatasync and posix_fadvise on a regular file, but procfs
     * does (EINVAL): its files are regular files whose pages are not in the page cache.
     */
    @Test
    void coldWhereTheFileSystemRefusesEvictionIsOneLine() throws IOException {
        Path procFile = Path.of("/proc/self/status");
        assumeTrue(Files.isRegularFile(procFile), "needs Linux procfs");
        assertThrows(IOException.class, () -> lib.linux.Native.evictFromPageCache(procFile));
        assertRefused("true size", procFile.toString(), "--cold", "--runs", "1"); // refused before eviction is tried
    }

    @Test
    void unreadableFileIsRefused() throws Exception {
        Path file = haystack("secret.bin", BYTES);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("---------"));
        Map<String, String> before = DiskState.of(dir);
        var result = Subprocess.run(obeyingPermissions(Subprocess.javaCommand(List.of(), "V04Mmap", file.toString(),
                "--runs", "1")), logs());
        assertEquals(Harness.ERROR, result.exitCode(), result::toString);
        assertEquals(1, result.errorLines().size(), result::toString);
        assertTrue(result.stderr().contains("permission denied"), result::toString);
        assertEquals(before, DiskState.of(dir));
    }

    @Test
    void creatingInADirectoryWithoutWritePermissionSaysSoAndNamesIt() throws Exception {
        Path readOnly = Files.createDirectory(dir.resolve("read-only"));
        Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("r-xr-xr-x"));
        try {
            var result = Subprocess.run(obeyingPermissions(Subprocess.javaCommand(List.of(), "V04Mmap",
                    readOnly.resolve("new.bin").toString(), "--size", "64k", "--runs", "1")), logs());
            assertEquals(Harness.ERROR, result.exitCode(), result::toString);
            assertEquals(1, result.errorLines().size(), result::toString);
            assertTrue(result.stderr().contains("permission denied"), result::toString);
            assertTrue(result.stderr().contains("'" + readOnly + "'"), "the directory is named\n" + result);
            try (Stream<Path> files = Files.list(readOnly)) {
                assertEquals(List.of(), files.toList());
            }
        } finally {
            Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }

    /** Whether FILE exists cannot be told without search permission: that is not "it does not exist". */
    @Test
    void aFileInADirectoryWithoutSearchPermissionIsNotAnnouncedAsACreation() throws Exception {
        Path unsearchable = Files.createDirectory(dir.resolve("no-search"));
        Haystack.create(unsearchable.resolve("haystack.bin"), BYTES);
        Files.setPosixFilePermissions(unsearchable, PosixFilePermissions.fromString("rw-rw-rw-"));
        try {
            var result = Subprocess.run(obeyingPermissions(Subprocess.javaCommand(List.of(), "V04Mmap",
                    unsearchable.resolve("haystack.bin").toString(), "--size", "64k", "--runs", "1")), logs());
            assertEquals(Harness.ERROR, result.exitCode(), result::toString);
            assertEquals(1, result.errorLines().size(), result::toString);
            assertTrue(result.stderr().contains("permission denied"), result::toString);
            assertTrue(result.stderr().contains("'" + unsearchable + "'"), "the directory is named\n" + result);
            assertFalse(result.stderr().contains("creating"), result::toString);
        } finally {
            Files.setPosixFilePermissions(unsearchable, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        assertEquals(BYTES, Files.size(unsearchable.resolve("haystack.bin")));
    }

    /**
     * {@code command} as a user whom file permissions bind. Root reads and writes anything through
     * two capabilities; without them it obeys the mode bits like anyone else, while still reading
     * the JDK and class path it owns.
     */
    private static List<String> obeyingPermissions(List<String> command) throws IOException {
        return Permissions.obeying(command);
    }

    @ParameterizedTest
    @ValueSource(strings = {"-XX:MaxVectorSize=32", "-XX:UseAVX=2"})
    void chapter12RefusesWithout512BitVectors(String jvmOption) throws Exception {
        String arch = System.getProperty("os.arch");
        assumeTrue(!jvmOption.contains("AVX") || arch.equals("amd64") || arch.equals("x86_64"), "UseAVX is an x86 option");
        Path file = haystack("haystack.bin", BYTES);
        Map<String, String> before = DiskState.of(dir);
        var result = Subprocess.run(Subprocess.javaCommand(List.of(jvmOption), "V12Vector512", file.toString(),
                "--runs", "1", "--warmup", "0"), logs());
        assertEquals(Harness.NOT_ON_THIS_CPU, result.exitCode(), result::toString);
        assertEquals(1, result.errorLines().size(), result::toString);
        assertTrue(result.stderr().contains("512"), result::toString);
        assertEquals(before, DiskState.of(dir));
    }

    // ---- B. No data loss ----

    /** Every chapter, every option, on a haystack and on a file that is not one: not a bit changes. */
    @Test
    void existingFilesAreNeverWrittenByAnyChapterOrOption() throws IOException {
        Path haystack = haystack("haystack.bin", BYTES);
        Path data = dir.resolve("data.bin");
        byte[] bytes = new byte[300_005];
        bytes[123_457] = 7;
        bytes[bytes.length - 1] = 1;
        Files.write(data, bytes, StandardOpenOption.CREATE_NEW);
        Path notResults = Files.writeString(dir.resolve("notes.csv"), "my,own,notes\n1,2,3\n");
        List<List<String>> optionSets = List.of(List.of(), List.of("--cold"), List.of("--workers", "1,2"),
                List.of("--size", "256k"), List.of("--size", "512k"), List.of("--csv", notResults.toString()));
        Map<String, String> before = DiskState.of(dir);
        for (NeedleSearch chapter : Chapters.all()) {
            for (Path file : List.of(haystack, data)) {
                for (List<String> options : optionSets) {
                    List<String> args = new ArrayList<>(List.of(file.toString(), "--runs", "1", "--warmup", "0"));
                    args.addAll(options);
                    var result = InProcess.run(chapter, args.toArray(String[]::new));
                    assertTrue(result.exitCode() == Harness.FOUND || result.errorLines().size() == 1,
                            () -> Chapters.name(chapter) + " " + args + "\n" + result);
                    assertEquals(before, DiskState.of(dir), () -> Chapters.name(chapter) + " " + args + " changed a file");
                }
            }
        }
    }

    @Test
    void creationKilledMidwayLeavesNothingUnderTheNameAndTheNextCreationTidiesUp() throws Exception {
        Path target = dir.resolve("big.bin");
        Process creation = Subprocess.start(Subprocess.javaCommand(List.of(), "V04Mmap", target.toString(),
                "--size", "2g", "--runs", "1"), logs());
        Path partial = Haystack.partialPath(target, creation.pid());
        try {
            long seen = -1;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Subprocess.PATIENCE_SECONDS);
            while (true) { // until the partial file exists and has grown since the last look
                assertTrue(creation.isAlive(), "the creation ended before it could be killed");
                assertTrue(System.nanoTime() < deadline, "no growing partial file appeared");
                long size = Files.exists(partial) ? Files.size(partial) : -1;
                if (seen > 0 && size > seen) {
                    break;
                }
                seen = size;
                Thread.sleep(20);
            }
        } finally {
            creation.destroyForcibly().waitFor(); // SIGKILL: no shutdown hook runs
        }
        assertFalse(Files.exists(target), "a half-written haystack under the real name");
        assertTrue(Files.exists(partial), "the killed process's partial file is left until the next creation");

        Haystack.create(target, BYTES);
        assertFalse(Files.exists(partial), "a later creation removes the partial file of a dead process");
        assertEquals(BYTES, Files.size(target));
        assertTrue(Haystack.endsWithNeedle(target));
    }

    @Test
    void fileSizeLimitGivesOneClearLineAndRemovesThePartialFile() throws Exception {
        Path target = dir.resolve("limited.bin");
        List<String> command = Subprocess.afterShell("ulimit -f 1024", // 1 MiB, in 1024-byte blocks
                Subprocess.javaCommand(List.of(), "V04Mmap", target.toString(), "--size", "64m", "--runs", "1"));
        var result = Subprocess.run(command, logs());
        assertEquals(Harness.ERROR, result.exitCode(), result::toString);
        assertTrue(result.errorLines().getLast().contains("File too large"), result::toString);
        assertFalse(result.stderr().contains("\tat "), result::toString);
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of(), files.toList(), "neither the haystack nor its partial file may remain");
        }
    }

    @Test
    void notEnoughDiskSpaceIsCheckedFirst() throws IOException {
        assertRefused("not enough disk space", dir.resolve("enormous.bin").toString(), "--size", "1000t");
    }

    /** {@code bytes + spare} would overflow to a negative number and pass a naive check. */
    @Test
    void aSizeNearTheLargestLongIsRefusedBeforeAByteIsWritten() throws IOException {
        long enormous = 9223372036854775800L;
        assertThrows(UserMistakeException.class, () -> Haystack.checkCreatable(dir.resolve("enormous.bin"), enormous));
        assertRefused("not enough disk space", dir.resolve("enormous.bin").toString(), "--size", Long.toString(enormous));
    }

    /** No process has this id here (Linux's largest is 4194304): a partial file's name proves nothing. */
    private static final long NO_SUCH_PID = 4_999_999;

    @Test
    void theSpaceCheckCountsAndNamesStalePartialFiles() throws IOException {
        Path target = dir.resolve("big.bin");
        Path stale = Files.write(Haystack.partialPath(target, NO_SUCH_PID), new byte[64 * 1024]);
        assertRefused("partial files of killed creations", target.toString(), "--size", "1000t");
        assertTrue(Files.exists(stale), "a refused creation removes nothing");
    }

    @Test
    void removingAStalePartialFileIsSaid() throws IOException {
        Path target = dir.resolve("new.bin");
        Path stale = Files.write(Haystack.partialPath(target, NO_SUCH_PID), new byte[64 * 1024]);
        var result = InProcess.run(new V04Mmap(), target.toString(), "--size", "64k", "--runs", "1", "--warmup", "0");
        assertEquals(Harness.FOUND, result.exitCode(), result::toString);
        assertFalse(Files.exists(stale));
        assertTrue(result.stderr().contains("removed '" + stale + "'"), result::toString);
    }

    /** Holds an exclusive lock on a file until killed, as a creation does on its partial file. */
    public static final class LockHolder {
        public static void main(String[] args) throws Exception {
            try (FileChannel channel = FileChannel.open(Path.of(args[0]), StandardOpenOption.WRITE);
                 var lock = channel.lock()) {
                System.out.println("locked");
                System.out.flush();
                Thread.sleep(Long.MAX_VALUE);
            }
        }
    }

    /**
     * A creation in a container has a process id that means nothing outside it: its partial file
     * is alive as long as it is locked, whatever its name says.
     */
    @Test
    void aLockedPartialFileIsLeftAloneWhateverItsName() throws Exception {
        Path target = dir.resolve("shared.bin");
        Path live = Files.write(Haystack.partialPath(target, NO_SUCH_PID), new byte[64 * 1024]);
        Path logs = logs();
        Process writer = Subprocess.start(Subprocess.javaCommand(List.of(), LockHolder.class.getName(), live.toString()), logs);
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Subprocess.PATIENCE_SECONDS);
            while (!Files.readString(logs.resolve("stdout")).contains("locked")) {
                assertTrue(writer.isAlive() && System.nanoTime() < deadline, "the lock was never taken");
                Thread.sleep(20);
            }
            Haystack.create(target, BYTES);
            assertTrue(Files.exists(live), "the partial file of a live creation was deleted");
        } finally {
            writer.destroyForcibly().waitFor();
        }
        Files.delete(target);
        Haystack.create(target, BYTES);
        assertFalse(Files.exists(live), "once its writer is gone, the partial file is stale and removed");
    }

    // ---- The results CSV ----

    /** A full disk or a file-size limit in the middle of a row: the file keeps every byte it had, and no more. */
    @Test
    void aCsvAppendThatFailsPartWayLeavesTheFileAsItWas() throws Exception {
        Path file = haystack("haystack.bin", BYTES);
        byte[] content = new byte[(1 << 20) - 20]; // 20 bytes short of the limit below: a row does not fit
        java.util.Arrays.fill(content, (byte) 'x');
        byte[] header = (ResultsCsv.headerLine() + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8);
        System.arraycopy(header, 0, content, 0, header.length);
        content[content.length - 1] = '\n';
        Path csv = Files.write(dir.resolve("results.csv"), content, StandardOpenOption.CREATE_NEW);
        List<String> command = Subprocess.afterShell("ulimit -f 1024", // 1 MiB, in 1024-byte blocks
                Subprocess.javaCommand(List.of(), "V04Mmap", file.toString(), "--runs", "1", "--warmup", "0",
                        "--csv", csv.toString()));
        var result = Subprocess.run(command, logs());
        assertEquals(Harness.ERROR, result.exitCode(), result::toString);
        assertTrue(result.stderr().contains("File too large"), result::toString);
        assertEquals(content.length, Files.size(csv), "half a row was left in the CSV");
        assertTrue(java.util.Arrays.equals(content, Files.readAllBytes(csv)));
    }

    /** New columns go at the end; a results folder from before them is still appended to, in its own columns. */
    @Test
    void aCsvOfAnOlderSchemaGetsRowsOfItsOwnColumns() throws IOException {
        Path file = haystack("haystack.bin", BYTES);
        List<String> older = ResultsCsv.COLUMNS.subList(0, ResultsCsv.COLUMNS.indexOf("vector_bits") + 1);
        Path csv = Files.writeString(dir.resolve("old.csv"), String.join(",", older) + "\n");
        var result = InProcess.run(new V04Mmap(), file.toString(), "--runs", "1", "--warmup", "0", "--csv", csv.toString());
        assertEquals(Harness.FOUND, result.exitCode(), result::toString);
        try (var parser = org.apache.commons.csv.CSVFormat.DEFAULT.parse(Files.newBufferedReader(csv))) {
            var records = parser.getRecords();
            assertEquals(2, records.size());
            assertEquals(older, records.get(0).toList(), "the header is left as it was");
            assertEquals(older.size(), records.get(1).size(), "a row as wide as its file's header");
        }
    }

    @Test
    void aCsvWhoseHeaderIsNotAnOlderSchemaIsRefused() throws IOException {
        Path file = haystack("haystack.bin", BYTES);
        List<String> shuffled = new ArrayList<>(ResultsCsv.COLUMNS);
        java.util.Collections.swap(shuffled, 0, 1);
        Path reordered = Files.writeString(dir.resolve("reordered.csv"), String.join(",", shuffled) + "\n");
        assertRefused("not a results CSV", file.toString(), "--csv", reordered.toString());
        Path tooShort = Files.writeString(dir.resolve("short.csv"), "date,chapter\n");
        assertRefused("not a results CSV", file.toString(), "--csv", tooShort.toString());
    }

    @Test
    void damagedHaystackIsReportedNotTimed() throws IOException {
        Path file = haystack("haystack.bin", BYTES);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) { // the test's own file
            channel.write(ByteBuffer.wrap(new byte[] {1}), 1001);
        }
        Map<String, String> before = DiskState.of(dir);
        var result = InProcess.run(new V04Mmap(), file.toString(), "--runs", "3", "--csv", dir.resolve("r.csv").toString());
        assertEquals(Harness.ERROR, result.exitCode(), result::toString);
        assertTrue(result.stderr().contains("damaged"), result::toString);
        assertEquals(1, result.errorLines().size(), result::toString);
        assertEquals(before, DiskState.of(dir), "no CSV, no change");
    }

    @Test
    void haystackOfTheWrongSizeIsReported() throws IOException {
        Path file = haystack("haystack.bin", BYTES);
        assertRefused("not the --size", file.toString(), "--size", "1m");
    }

    // ---- C. Never lie ----

    @Test
    void runsThatDisagreeFailAndRecordNothing() throws IOException {
        assertLies(() -> {
            AtomicInteger calls = new AtomicInteger();
            return (path, workers) -> Haystack.needleOffset(BYTES) - 8L * (calls.getAndIncrement() % 2);
        }, "disagree", "--runs", "3", "--warmup", "0");
    }

    @Test
    void anAnswerThatIsNotTheNeedleFails() throws IOException {
        assertLies(() -> (path, workers) -> 64, "plain scan finds", "--runs", "3");
        assertLies(() -> (path, workers) -> NeedleSearch.NOT_FOUND, "plain scan finds", "--runs", "3");
    }

    @Test
    void aFailureAtTheLastWorkerCountRecordsNoEarlierRow() throws IOException {
        assertLies(1, () -> (path, workers) -> workers == 2 ? 0 : new V04Mmap().search(path, workers),
                "plain scan finds", "--runs", "5", "--workers", "1,2"); // 5 runs: no small-run note beside the honest summary
    }

    @Test
    void fileThatGrowsDuringTheSearchIsReported() throws IOException {
        assertLies(() -> {
            AtomicInteger calls = new AtomicInteger();
            return (path, workers) -> {
                long answer = new V07PreadParallel().search(path, workers);
                if (calls.incrementAndGet() == 2) { // the test's own file, extended after the search read it
                    Files.write(path, new byte[8], StandardOpenOption.APPEND);
                }
                return answer;
            };
        }, "changed size", "--runs", "3", "--warmup", "0");
    }

    @Test
    void fileThatShrinksBeforeAPreadSearchIsReported() throws IOException {
        assertLies(() -> {
            AtomicInteger calls = new AtomicInteger();
            return (path, workers) -> {
                if (calls.incrementAndGet() == 2) { // the test's own file
                    try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE)) {
                        channel.truncate(BYTES / 2);
                    }
                }
                return new V13PreadVector().search(path, workers);
            };
        }, "changed size", "--runs", "3", "--warmup", "0");
    }

    /** A pread chapter's worker whose file shrank under it reports that, rather than reading past the end. */
    @Test
    void preadWorkerNeverReadsPastAShrunkEnd() throws IOException {
        Path file = haystack("haystack.bin", BYTES);
        try (FileChannel reader = FileChannel.open(file); Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = arena.allocate(64 * 1024, 4096);
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                channel.truncate(BYTES / 2);
            }
            assertThrows(FileChangedException.class,
                    () -> V07PreadParallel.readAndScan(reader, buffer, buffer.asByteBuffer(), BYTES - 64 * 1024, BYTES));
        }
    }

    /** Maps its file, then shrinks it before reading the end: what a mapped chapter meets when another program truncates the haystack. */
    public static final class ShrinkingMapSearch implements NeedleSearch {
        public static void main(String[] args) {
            Harness.run(new ShrinkingMapSearch(), args);
        }

        @Override
        public long search(Path file, int workers) throws IOException {
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
                 Arena arena = Arena.ofConfined()) {
                long size = channel.size();
                MemorySegment mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, size, arena);
                channel.truncate(size / 2);
                return mapped.get(ValueLayout.JAVA_LONG_UNALIGNED, size - 8) != 0 ? size - 8 : NOT_FOUND;
            }
        }
    }

    @Test
    void mappedFileThatShrinksIsOneLineNotACrash() throws Exception {
        Path file = haystack("haystack.bin", BYTES);
        Path csv = dir.resolve("results.csv");
        var result = Subprocess.run(Subprocess.javaCommand(List.of(), ShrinkingMapSearch.class.getName(),
                file.toString(), "--runs", "1", "--warmup", "0", "--csv", csv.toString()), logs());
        assertEquals(Harness.ERROR, result.exitCode(), result::toString);
        assertEquals(1, result.errorLines().size(), result::toString);
        assertTrue(result.stderr().contains("shrank"), result::toString);
        assertFalse(Files.exists(csv));
    }

    /** Completes every worker count but the last, then stalls until killed. */
    public static final class StallingSearch implements NeedleSearch {
        public static void main(String[] args) {
            Harness.run(new StallingSearch(), args);
        }

        @Override
        public long search(Path file, int workers) throws IOException {
            if (workers == 2) {
                Files.createFile(file.resolveSibling("stalled"));
                try {
                    Thread.sleep(Long.MAX_VALUE);
                } catch (InterruptedException e) {
                    throw new IOException(e);
                }
            }
            return new V04Mmap().search(file, workers);
        }
    }

    @Test
    void aKilledCommandRecordsNothing() throws Exception {
        Path file = haystack("haystack.bin", BYTES);
        Path csv = dir.resolve("results.csv");
        Process process = Subprocess.start(Subprocess.javaCommand(List.of(), StallingSearch.class.getName(),
                file.toString(), "--runs", "2", "--workers", "1,2", "--csv", csv.toString()), logs());
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Subprocess.PATIENCE_SECONDS);
            while (!Files.exists(dir.resolve("stalled"))) {
                assertTrue(process.isAlive() && System.nanoTime() < deadline, "the search never stalled");
                Thread.sleep(20);
            }
        } finally {
            process.destroyForcibly().waitFor();
        }
        assertFalse(Files.exists(csv), "the finished worker count of a killed command reached the CSV");
    }

    /**
     * Exit 2, one line containing {@code fragment}, no summary, and no CSV row, whether the CSV is
     * new or already holds rows. Each pass gets a fresh haystack and a fresh search, since some
     * searches change their file.
     */
    private void assertLies(Supplier<NeedleSearch> searches, String fragment, String... options) throws IOException {
        assertLies(0, searches, fragment, options);
    }

    /** As above, where the first {@code honestSummaries} worker counts were answered right and printed. */
    private void assertLies(int honestSummaries, Supplier<NeedleSearch> searches, String fragment, String... options)
            throws IOException {
        Path csv = dir.resolve("results.csv");
        for (boolean csvExists : new boolean[] {false, true}) {
            Path file = dir.resolve("haystack.bin");
            Files.deleteIfExists(file);
            Haystack.create(file, BYTES);
            if (csvExists) {
                Files.writeString(csv, ResultsCsv.headerLine() + "\n");
            }
            List<String> args = new ArrayList<>(List.of(file.toString(), "--csv", csv.toString()));
            args.addAll(List.of(options));
            String before = csvExists ? DiskState.describe(csv) : null;
            var result = InProcess.run(searches.get(), args.toArray(String[]::new));
            assertEquals(Harness.ERROR, result.exitCode(), result::toString);
            assertTrue(result.stderr().contains(fragment), () -> "expected '" + fragment + "' in\n" + result);
            assertEquals(1, result.errorLines().stream().filter(line -> !line.startsWith("  ")).count(), result::toString);
            assertEquals(honestSummaries, result.stdout().lines().count(), "a summary of figures that are not true");
            if (csvExists) {
                assertEquals(before, DiskState.describe(csv));
            } else {
                assertFalse(Files.exists(csv));
            }
        }
        Files.deleteIfExists(csv);
    }

    private Path logs() throws IOException {
        return Files.createTempDirectory(logsRoot, "subprocess");
    }

    private static boolean isRoot() throws IOException {
        return Files.readString(Path.of("/proc/self/status")).lines()
                .anyMatch(line -> line.matches("Uid:\\s+0\\s.*"));
    }

    private static boolean onPath(String program) {
        return Stream.of(System.getenv("PATH").split(":")).anyMatch(d -> Files.isExecutable(Path.of(d, program)));
    }
}
