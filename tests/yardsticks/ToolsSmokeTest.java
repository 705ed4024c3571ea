import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import lib.chapter.NeedleSearch;
import lib.harness.Harness;
import lib.harness.ResultsCsv;
import lab.yardsticks.WallMemoryRead;
import lab.yardsticks.WallPageCacheCopy;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The measuring tools run end to end on tiny files: the wall probes, --chunk and --profile. */
class ToolsSmokeTest {

    @TempDir
    Path directory;

    /** What one command line printed, and how it ended. */
    record Outcome(int status, String out, String err) {}

    static Outcome run(NeedleSearch search, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int status = Harness.execute(search, args,
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Outcome(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void wallProbesFindTheNeedleAndRecordRowsNamedAfterThemselves() throws IOException {
        Path haystack = directory.resolve("haystack.bin");
        Path csv = directory.resolve("wall.csv");
        for (NeedleSearch probe : List.of(new WallMemoryRead(), new WallPageCacheCopy())) {
            String name = probe.getClass().getSimpleName();
            Outcome outcome = run(probe, haystack.toString(), "--size", "1m", "--runs", "1", "--workers", "1,2",
                    "--csv", csv.toString());
            assertEquals(Harness.FOUND, outcome.status(), outcome.err());
            long needle = (1L << 20) - Long.BYTES;
            assertTrue(outcome.out().contains("variant=" + name + " workers=1 offset=" + needle), outcome.out());
            assertTrue(outcome.out().contains("variant=" + name + " workers=2 offset=" + needle), outcome.out());
        }
        List<String> lines = Files.readAllLines(csv);
        assertEquals(ResultsCsv.headerLine(), lines.getFirst());
        assertEquals(4, lines.size() - 1, "one row per probe and worker count");
        assertEquals(2, lines.stream().filter(line -> line.contains(",WallMemoryRead,")).count());
        assertEquals(2, lines.stream().filter(line -> line.contains(",WallPageCacheCopy,")).count());
    }

    /** A first word that is no probe, followed by FILE, is refused naming the word and the probes, not blaming FILE. */
    @Test
    void anUnknownProbeIsNamedWithTheProbesThereAre() {
        Path haystack = directory.resolve("haystack.bin");
        for (String probes : List.of("bogus", "memory,cpy")) {
            ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
            int status = WallProbe.execute(new String[] {probes, haystack.toString(), "--size", "64k", "--runs", "1"},
                    new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
            assertEquals(Harness.ERROR, status, err.toString(StandardCharsets.UTF_8));
            assertEquals(List.of("WallProbe: '" + probes + "' is no probe: name memory, memory-huge, memory-widest, copy or several joined "
                    + "by commas, before FILE (or none, for all four)"), err.toString(StandardCharsets.UTF_8).lines().toList());
            assertFalse(Files.exists(haystack), "nothing is created for a refused command");
        }
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = WallProbe.execute(new String[] {"copy", haystack.toString(), "--size", "64k", "--runs", "1", "--warmup", "0"},
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(Harness.FOUND, status, "a probe named runs: " + err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void copyProbeRefusesAFileWithoutTheNeedleAtTheEnd() throws IOException {
        Path zeros = Files.write(directory.resolve("zeros.bin"), new byte[64 * 1024]);
        Outcome outcome = run(new WallPageCacheCopy(), zeros.toString(), "--runs", "1");
        assertEquals(Harness.ERROR, outcome.status());
        assertEquals(1, outcome.err().strip().lines().count(), outcome.err());
    }

    @Test
    void smallChunksGiveTheSameAnswerAndAreRecorded() throws IOException {
        Path haystack = directory.resolve("haystack.bin");
        long bytes = (1L << 20) + 24; // not a whole number of chunks: the last read is short
        for (NeedleSearch chapter : List.of(new V03ChunkedLong(), new V07PreadParallel(),
                new V11PreadParallelVector256(), new V13PreadVector())) {
            Path csv = directory.resolve(chapter.getClass().getSimpleName() + ".csv");
            Outcome outcome = run(chapter, haystack.toString(), "--size", Long.toString(bytes), "--runs", "1",
                    "--warmup", "0", "--workers", "2", "--chunk", "4k", "--csv", csv.toString());
            assertEquals(Harness.FOUND, outcome.status(), outcome.err());
            assertTrue(outcome.out().contains("offset=" + (bytes - Long.BYTES)), outcome.out());
            assertTrue(outcome.out().contains("chunk_bytes=4096"), outcome.out());
            int column = ResultsCsv.COLUMNS.indexOf("chunk_bytes");
            assertEquals("4096", Files.readAllLines(csv).get(1).split(",")[column]);
        }
    }

    @Test
    void chunkIsRefusedWhereItMeansNothingOrCannotWork() throws IOException {
        Path haystack = directory.resolve("haystack.bin");
        for (String[] args : List.of(
                new String[] {"--chunk", "4k"},          // V04 maps the file: no chunks to size
                new String[] {"--chunk", "12"})) {       // not a multiple of 8
            NeedleSearch chapter = args[1].equals("4k") ? new V04Mmap() : new V03ChunkedLong();
            Outcome outcome = run(chapter, haystack.toString(), "--size", "64k", args[0], args[1]);
            assertEquals(Harness.ERROR, outcome.status(), outcome.out());
            assertEquals(1, outcome.err().strip().lines().count(), outcome.err());
        }
    }

    @Test
    void profileWritesAFlameGraphOfTheTimedRuns() throws IOException {
        Path haystack = directory.resolve("haystack.bin");
        Path graphs = Files.createDirectory(directory.resolve("flamegraphs"));
        // 64 MiB, 20 runs. The profiler times each thread's own CPU time (perf events, or async-profiler's
        // ctimer where those are refused) and samples it every 1 ms of it, and a chapter starts its
        // workers afresh each run: a worker that scans 16 MiB can end before its first millisecond on a
        // fast machine (0.8 ms at 20 GB/s), and then no sample lands in it at all. 64 MiB keeps each
        // one busy for milliseconds.
        Outcome outcome = run(new V13PreadVector(), haystack.toString(), "--size", "64m", "--runs", "20",
                "--workers", "1", "--profile", "--flamegraphs", graphs.toString());
        Assumptions.assumeFalse(outcome.status() == Harness.ERROR && outcome.err().contains("cannot load async-profiler"),
                "async-profiler cannot load on this machine: " + outcome.err().strip());
        assertEquals(Harness.FOUND, outcome.status(), outcome.err());
        Path html = graphs.resolve("V13PreadVector.html");
        assertTrue(Files.size(html) > 0, html + " is empty");
        String graph = Files.readString(html);
        assertTrue(graph.contains("cpool"), "no flame graph frames in " + html);
        // The graph's names share prefixes ("V13PreadVector.readAndScan", then "/scanShard": the first 15 characters again).
        assertTrue(graph.contains("V13PreadVector") && graph.contains("scanShard"), "the workers' frames are missing from " + html);

        Outcome again = run(new V13PreadVector(), haystack.toString(), "--runs", "2", "--workers", "1",
                "--profile", "--flamegraphs", graphs.toString());
        assertEquals(Harness.FOUND, again.status(), again.err());
        assertEquals(graph, Files.readString(html), "a second profile must not overwrite the first");
        assertTrue(Files.exists(graphs.resolve("V13PreadVector-2.html")));
    }
}
