import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import lab.results.*;
import lab.tools.ChildProcess;
import lib.chapter.ChunkedSearch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * lab/yardsticks/FioBeside.java's logic: the jobs it runs, fio's terse line read back, the 2 MiB pages
 * shmhuge needs, the chapters as a fraction of fio's best; and, where fio is installed, one real
 * fio run of each job on a small file (skipped, saying so, without fio).
 */
class FioBesideTest {

    private static final long MIB = 1L << 20;

    @TempDir
    Path directory;

    @Test
    void aRoundHasEachEngineWithBothPageSizesWhereThereAreHugePagesAndBufferedAndMmap() {
        List<String> names = FioBeside.jobs(List.of(16), true).stream().map(FioBeside.FioJob::name).toList();
        assertEquals(List.of("fio psync O_DIRECT 4KiB-pages", "fio libaio qd16 O_DIRECT 4KiB-pages", "fio io_uring qd16 O_DIRECT 4KiB-pages",
                "fio psync O_DIRECT 2MiB-pages", "fio libaio qd16 O_DIRECT 2MiB-pages", "fio io_uring qd16 O_DIRECT 2MiB-pages",
                "fio psync O_DIRECT 2MiB-pages checking", "fio libaio qd16 O_DIRECT 2MiB-pages checking",
                "fio io_uring qd16 O_DIRECT 2MiB-pages checking", "fio psync buffered", "fio mmap buffered"), names);
        assertTrue(FioBeside.jobs(List.of(16), false).stream().noneMatch(job -> job.iomem().equals("shmhuge")));
    }

    @Test
    void aCheckingJobComparesEveryBlockWithZerosAndTheOthersDoNot() {
        for (FioBeside.FioJob job : FioBeside.jobs(List.of(4), false)) {
            List<String> command = job.command(Path.of("h.bin"), 8 * MIB, 2, MIB);
            assertEquals(job.checking(), command.containsAll(List.of("--verify=pattern", "--verify_pattern=0")), job.name() + ": " + command);
            assertEquals(job.checking(), job.name().endsWith(" " + FioBeside.CHECKING), job.name());
            assertEquals(FioBeside.CHECKING, FioBesideResults.FIO_CHECKING, "StudyResults tells them apart by the same word");
        }
        assertEquals(3, FioBeside.jobs(List.of(4), false).stream().filter(FioBeside.FioJob::checking).count(), "psync, libaio, io_uring");
    }

    @Test
    void theWordACheckingJobFoundIsReadFromFiosReportOfTheFailedCheck() {
        // fio 3.33's own words, for a 4 GiB haystack whose one non-zero word is its last
        String report = """
                fio: got pattern '21', wanted '00'. Bad bits 2
                fio: bad pattern block offset 1048568
                pattern: verify failed at file /tmp/h;x offset 4293918720, length 0 (requested block: offset=4293918720, length=1048576, flags=8)
                fio: verify type mismatch (0 media, 18 given)
                3;fio-3.33;x;0;84;4194304;1411273;1378;2972;0;0
                """;
        assertEquals(java.util.OptionalLong.of(4294967288L), FioBeside.nonZeroWordFound(report));
        // a byte in the middle of a word gives the word that holds it, as the chapters answer
        assertEquals(java.util.OptionalLong.of(4096), FioBeside.nonZeroWordFound(report.replace("offset 4293918720,", "offset 0,")
                .replace("block offset 1048568", "block offset 4101")));
        assertTrue(FioBeside.nonZeroWordFound("3;fio-3.33;x;0;0;4194304;1411273;1378;2972;0;0\n").isEmpty(), "a clean run found nothing");
        assertTrue(FioBeside.nonZeroWordFound(report.replace("1048568", "99999999999999999999")).isEmpty(), "no offset past a long");
    }

    @Test
    void eachQueueDepthIsAJobOfItsOwnAndTheDefaultsSurroundChapter15s() {
        List<String> names = FioBeside.jobs(List.of(2, 4, 8), false).stream().map(FioBeside.FioJob::name).toList();
        assertEquals(List.of("fio psync O_DIRECT 4KiB-pages", "fio libaio qd2 O_DIRECT 4KiB-pages", "fio io_uring qd2 O_DIRECT 4KiB-pages",
                "fio libaio qd4 O_DIRECT 4KiB-pages", "fio io_uring qd4 O_DIRECT 4KiB-pages", "fio libaio qd8 O_DIRECT 4KiB-pages",
                "fio io_uring qd8 O_DIRECT 4KiB-pages", "fio psync O_DIRECT 4KiB-pages checking", "fio libaio qd2 O_DIRECT 4KiB-pages checking",
                "fio io_uring qd2 O_DIRECT 4KiB-pages checking", "fio libaio qd4 O_DIRECT 4KiB-pages checking",
                "fio io_uring qd4 O_DIRECT 4KiB-pages checking", "fio libaio qd8 O_DIRECT 4KiB-pages checking",
                "fio io_uring qd8 O_DIRECT 4KiB-pages checking", "fio psync buffered", "fio mmap buffered"), names);
        List<Integer> defaults = Arrays.stream(FioBeside.QUEUE_DEPTHS.split(",")).map(Integer::valueOf).toList();
        int chapters = V15IoUring.queueDepth(ChunkedSearch.DEFAULT_CHUNK_BYTES);
        assertTrue(defaults.contains(chapters), "fio runs at chapter 15's own depth at its 1 MiB reads: " + defaults);
        assertTrue(defaults.stream().anyMatch(depth -> depth < chapters), "and shallower: " + defaults);
        assertTrue(defaults.stream().anyMatch(depth -> depth >= 4 * chapters), "and four times deeper or more: " + defaults);
    }

    @Test
    void eachJobReadsItsOwnShareInWholeBlocksLikeAWorker() {
        List<String> command = new FioBeside.FioJob("io_uring", 16, true, "shmhuge").command(Path.of("h.bin"), 10 * MIB, 3, MIB);
        assertTrue(command.containsAll(List.of("--readonly", "--bs=1048576", "--ioengine=io_uring", "--iodepth=16", "--direct=1",
                "--iomem=shmhuge")), command::toString);
        String jobs = String.join(" ", command.subList(command.indexOf("--name=fio-io_uring-qd16-O_DIRECT-2MiB-pages"), command.size()));
        assertEquals("--name=fio-io_uring-qd16-O_DIRECT-2MiB-pages --offset=0 --size=" + 4 * MIB
                + " --name=fio-io_uring-qd16-O_DIRECT-2MiB-pages --offset=" + 4 * MIB + " --size=" + 3 * MIB
                + " --name=fio-io_uring-qd16-O_DIRECT-2MiB-pages --offset=" + 7 * MIB + " --size=" + 3 * MIB, jobs);
    }

    /** Whatever the worker count, the jobs' shares are contiguous, never empty, and cover every block of the file. */
    @Test
    void theJobsSharesCoverTheWholeFileWhateverTheWorkerCount() {
        for (int workers : List.of(1, 2, 3, 5, 6, 7, 64, 100)) {
            for (long blocks : List.of(1L, 3L, 64L, 4096L)) {
                List<long[]> shares = FioBeside.shares(blocks * MIB, workers, MIB);
                long next = 0;
                for (long[] share : shares) {
                    assertEquals(next, share[0], workers + " workers, " + blocks + " blocks: contiguous");
                    assertTrue(share[1] > 0 && share[1] % MIB == 0, workers + " workers, " + blocks + " blocks: whole blocks, never none");
                    next += share[1];
                }
                assertEquals(blocks * MIB, next, workers + " workers, " + blocks + " blocks: the whole file");
                assertEquals(Math.min(workers, blocks), shares.size());
            }
        }
    }

    /** Three workers on 64 MiB, the needle in the last block: fio's jobs read all 64 MiB, and the checking ones find it. */
    @Test
    void whereFioIsInstalledThreeJobsReadTheWholeFileAndFindANeedleInItsTail() throws Exception {
        assumeTrue(ChildProcess.onPath("fio").isPresent(), "fio is not installed (lab/setup/setup-fio installs it): no real fio run");
        TestFiles.Layout layout = TestFiles.Layout.zeros("64 MiB, one byte in the last block", 64 * MIB).plant(64 * MIB - 100, (byte) 0x21);
        Path file = TestFiles.write(directory.resolve("tail.bin"), layout);
        for (FioBeside.FioJob job : List.of(new FioBeside.FioJob("psync", 1, true, "malloc"), new FioBeside.FioJob("psync", 1, true, "malloc", true))) {
            Process fio = new ProcessBuilder(job.command(file, 64 * MIB, 3, MIB)).redirectErrorStream(true).start();
            String out = new String(fio.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            fio.waitFor();
            if (job.checking()) {
                assertEquals(java.util.OptionalLong.of(layout.expectedOffset()), FioBeside.nonZeroWordFound(out), job.name() + ": " + out);
            } else {
                assertEquals(64 * MIB, (long) FioBeside.bytesAndSeconds(out)[0], job.name() + ": " + out);
            }
        }
    }

    @Test
    void fiosTerseLineGivesBytesAndSecondsAndAnythingElseIsRefused() {
        String terse = "3;fio-3.33;fio-io_uring;0;0;4194304;2097152;2048;2000;0;0;0\n";
        double[] figures = FioBeside.bytesAndSeconds("some warning\n" + terse);
        assertEquals(4L << 30, (long) figures[0]);
        assertEquals(2.0, figures[1], 1e-9);
        // Output of another shape is the environment's fault: one line (the tools print it with status 2), no stack trace.
        for (String unexpected : List.of("fio: no such file\n", "3;fio-3.33;x;0;0;0;0;0;0;0\n", "3;fio-3.33;x;0;0\n",
                "3;fio-3.33;x;0;0;many;2097152;2048;2000\n", "")) {
            lib.cli.UserMistakeException refused = assertThrows(lib.cli.UserMistakeException.class, () -> FioBeside.bytesAndSeconds(unexpected),
                    unexpected);
            assertFalse(refused.getMessage().contains("\n"), refused.getMessage());
        }
    }

    @Test
    void shmhugeNeedsEachJobsBuffersIn2MiBPages() {
        assertEquals(20, FioBeside.hugePagesNeeded(2, 16, MIB)); // 16 MiB and fio's alignment page: 9 pages, and fio's one more: 10 a job
        assertEquals(36, FioBeside.hugePagesNeeded(2, 32, MIB));
        assertEquals(4, FioBeside.hugePagesNeeded(2, 1, MIB)); // half a page is a whole one
        assertEquals(37, FioBeside.freeHugePages("MemTotal: 1 kB\nHugePages_Total:      40\nHugePages_Free:       37\n"));
        assertEquals(0, FioBeside.freeHugePages("MemTotal: 1 kB\n"));
    }

    /**
     * --help needs nothing of the project's folders: FioBeside and SizeSweep answer it from any
     * directory; a run from elsewhere is refused in one line, status 2.
     */
    @Test
    void fioBesideAndSizeSweepAnswerHelpFromAnotherDirectory() throws Exception {
        for (String tool : List.of("FioBeside", "SizeSweep")) {
            String[] help = fromAnotherDirectory(tool, "--help");
            assertEquals("0", help[0], tool + ":\n" + help[1] + help[2]);
            assertTrue(help[1].contains("Usage:"), tool + ": " + help[1]);
            assertFalse(help[2].contains("Exception"), tool + ": " + help[2]);

            String[] run = fromAnotherDirectory(tool, "--dry-run");
            List<String> lines = run[2].lines().filter(line -> !line.startsWith("WARNING: Using incubator modules")).toList();
            assertEquals("2", run[0], tool + ":\n" + run[1] + run[2]);
            assertEquals(List.of(tool + ": run it from the project's root directory (where ./jbang and variants/ are)"), lines);
        }
    }

    /** {exit status, stdout, stderr} of {@code tool args} run in the test's temporary directory. */
    private String[] fromAnotherDirectory(String tool, String... args) throws Exception {
        Path logs = java.nio.file.Files.createTempDirectory(directory, tool + "-logs");
        Process process = new ProcessBuilder(Subprocess.javaCommand(List.of(), tool, args))
                .directory(directory.toFile())
                .redirectOutput(logs.resolve("stdout").toFile()).redirectError(logs.resolve("stderr").toFile()).start();
        assertTrue(process.waitFor(120, java.util.concurrent.TimeUnit.SECONDS), tool + " still running");
        return new String[] {Integer.toString(process.exitValue()), java.nio.file.Files.readString(logs.resolve("stdout")),
                java.nio.file.Files.readString(logs.resolve("stderr"))};
    }

    /** Rounds 1, 2, 3 of a run's MB/s, as FioBeside gathers them. */
    static Map<Integer, Double> rounds(double... mbps) {
        Map<Integer, Double> rounds = new TreeMap<>();
        for (int round = 0; round < mbps.length; round++) {
            rounds.put(round + 1, mbps[round]);
        }
        return rounds;
    }

    @Test
    void eachChapterIsAFractionOfFiosBestDirectJob() {
        Map<String, Map<Integer, Double>> mbps = new LinkedHashMap<>();
        mbps.put("V14DirectIo", rounds(900.0, 1000.0, 1100.0));
        mbps.put("fio psync O_DIRECT 4KiB-pages", rounds(1000.0, 1000.0, 1000.0));
        mbps.put("fio io_uring qd16 O_DIRECT 2MiB-pages", rounds(2000.0, 1900.0, 2100.0));
        mbps.put("fio mmap buffered", rounds(5000.0)); // not O_DIRECT: not the yardstick
        mbps.put("fio psync O_DIRECT 2MiB-pages checking", rounds(1250.0, 1300.0, 1200.0));
        List<String> lines = FioBeside.summary(2, MIB, mbps);
        String all = String.join("\n", lines);
        assertTrue(lines.stream().anyMatch(line -> line.startsWith("median V14DirectIo ") && line.endsWith(" 1,000 MB/s (3 rounds)")), all);
        // held out: 900 ÷ 2,000, 1,000 ÷ 1,900, 1,100 ÷ 2,100, fio's best picked each time from the other two rounds
        assertTrue(all.contains("V14DirectIo 0.50 × fio's best (io_uring qd16 O_DIRECT 2MiB-pages, 2,000 MB/s; 0.52 in rounds it was not chosen in)"), all);
        assertTrue(all.contains("0.80 × its best checking every byte (psync O_DIRECT 2MiB-pages checking, 1,250 MB/s; 0.77 in rounds"), all);
    }

    @Test
    void whereFioIsInstalledEveryJobReadsASmallFile() throws Exception {
        assumeTrue(ChildProcess.onPath("fio").isPresent(), "fio is not installed (lab/setup/setup-fio installs it): no real fio run");
        Path file = TestFiles.write(directory.resolve("small.bin"), TestFiles.Layout.zeros("8 MiB", 8 * MIB));
        for (FioBeside.FioJob job : FioBeside.jobs(List.of(4), false)) {
            Process fio = new ProcessBuilder(job.command(file, 8 * MIB, 2, MIB)).redirectErrorStream(true).start();
            String out = new String(fio.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(0, fio.waitFor(), out);
            assertEquals(8 * MIB, (long) FioBeside.bytesAndSeconds(out)[0], job.name() + ": " + out);
            assertTrue(FioBeside.nonZeroWordFound(out).isEmpty(), job.name() + " found nothing in zeros: " + out);
        }
    }

    @Test
    void whereFioIsInstalledACheckingJobFindsTheWordTheChaptersFind() throws Exception {
        assumeTrue(ChildProcess.onPath("fio").isPresent(), "fio is not installed (lab/setup/setup-fio installs it): no real fio run");
        TestFiles.Layout layout = TestFiles.Layout.zeros("8 MiB, one byte in the second half", 8 * MIB).plant(6 * MIB + 4101, (byte) 0x21);
        Path file = TestFiles.write(directory.resolve("needle.bin"), layout);
        for (FioBeside.FioJob job : FioBeside.jobs(List.of(4), false).stream().filter(FioBeside.FioJob::checking).toList()) {
            Process fio = new ProcessBuilder(job.command(file, 8 * MIB, 2, MIB)).redirectErrorStream(true).start();
            String out = new String(fio.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            fio.waitFor();
            assertEquals(java.util.OptionalLong.of(layout.expectedOffset()), FioBeside.nonZeroWordFound(out), job.name() + ": " + out);
            assertTrue(FioBeside.bytesAndSeconds(out)[0] > 0, job.name() + " still reports what it read: " + out);
        }
    }

    record Ran(int status, String out, String err) {}

    private static Ran fioBeside(String... args) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(), err = new java.io.ByteArrayOutputStream();
        int status = FioBeside.execute(args, new java.io.PrintStream(out, true, StandardCharsets.UTF_8),
                new java.io.PrintStream(err, true, StandardCharsets.UTF_8));
        return new Ran(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** "--queue-depth ," is an empty list to picocli: refused in one line, even for a dry run, which prints no command. */
    @Test
    void anEmptyListOfQueueDepthsIsRefusedInOneLine() {
        Ran ran = fioBeside(directory.resolve("small.bin").toString(), "--size", "64k", "--dry-run", "--queue-depth", ",");
        assertEquals(2, ran.status(), ran::toString);
        assertEquals(List.of("FioBeside: --queue-depth needs at least one depth, such as 16 or " + FioBeside.QUEUE_DEPTHS),
                ran.err().lines().toList());
        assertEquals("", ran.out());
    }

    /** A FILE refused (a directory) leaves nothing behind: no machine folder in the results root. */
    @Test
    void aRefusedFileLeavesNoResultsFolderBehind() throws Exception {
        assumeTrue(ChildProcess.onPath("fio").isPresent(), "fio is not installed: fio-beside refuses that first");
        Path results = directory.resolve("results");
        Ran ran = fioBeside(java.nio.file.Files.createDirectory(directory.resolve("a-folder")).toString(), "--results", results.toString());
        assertEquals(2, ran.status(), ran::toString);
        assertEquals(1, ran.err().lines().count(), ran::toString);
        assertTrue(ran.err().contains("is a directory"), ran::toString);
        assertFalse(java.nio.file.Files.exists(results), "a refused command made " + results);
    }
}
