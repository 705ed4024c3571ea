import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import lab.results.*;
import lib.harness.Machine;
import lib.harness.ResultsCsv;
import lib.haystack.Haystack;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * lab/yardsticks/VersusGo.java against a stand-in for the Go article's benchmark (tests/support/go-bench-stand-in.sh,
 * which speaks its interface and searches with cmp), on 1 MiB haystacks: no Go, no 4 GiB file.
 */
class VersusGoTest {

    static final Path STAND_IN = Path.of("tests", "support", "go-bench-stand-in.sh");
    static final long BYTES = 1L << 20; // the stand-in is "built for" 1 MiB, as the real one is for 4 GiB
    static final long NEEDLE_AT = BYTES - Long.BYTES;

    @TempDir
    Path directory;

    record Outcome(int status, String out, String err) {}

    Outcome versusGo(Path bench, Path haystack, String... more) {
        List<String> args = new ArrayList<>(List.of("--go-bench", bench.toString(), "--haystack", haystack.toString(),
                "--results", directory.resolve("results").toString(), "--warmup", "0"));
        if (!List.of(more).contains("--runs")) {
            args.addAll(List.of("--runs", "1"));
        }
        args.addAll(List.of(more));
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int status = VersusGo.execute(args.toArray(String[]::new),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Outcome(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /**
     * A copy of the stand-in with some settings changed, and a log line per call (to {@code calls.log}),
     * so a test can tell whether the binary was called at all.
     */
    Path standIn(String... settings) throws IOException {
        String script = Files.readString(STAND_IN);
        for (int i = 0; i < settings.length; i += 2) {
            String setting = settings[i] + "=";
            int at = script.indexOf("\n" + setting) + 1;
            assertTrue(at > 0, "no setting " + settings[i] + " in the stand-in");
            int end = script.indexOf('\n', at);
            script = script.substring(0, at) + setting + settings[i + 1] + script.substring(end);
        }
        Path log = directory.resolve("calls.log");
        // (raising the soft file size limit a probe runs under, for this log only)
        script = script.replaceFirst("\nset -euo pipefail\n", "\nset -euo pipefail\n(ulimit -S -f unlimited; echo \"\\$*\" >>'" + log + "')\n");
        Path copy = directory.resolve("bench-" + System.nanoTime() + ".sh");
        Files.writeString(copy, script);
        Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("rwx------"));
        return copy;
    }

    List<String> calls() throws IOException {
        Path log = directory.resolve("calls.log");
        return Files.exists(log) ? Files.readAllLines(log) : List.of();
    }

    /** Where a sitting with {@code --results DIR} puts its rows: DIR/MACHINE/versus-go.csv. */
    Path csvPath() {
        return directory.resolve("results").resolve(Machine.current().name()).resolve("versus-go.csv");
    }

    List<CSVRecord> csvRows() throws IOException {
        Path csv = csvPath();
        assertEquals(ResultsCsv.headerLine(), Files.readAllLines(csv).getFirst());
        return CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).build()
                .parse(new StringReader(Files.readString(csv))).getRecords();
    }

    @Test
    void eachPairRunsBothSidesAlternatelyOnTheSameHaystackAndRecordsBoth() throws IOException {
        Path haystack = directory.resolve("go-haystack.bin");
        Outcome outcome = versusGo(standIn(), haystack, "--rounds", "2", "--workers", "3", "--only", "1,v06");
        assertEquals(0, outcome.status(), outcome.err());

        List<String> order = outcome.err().lines().filter(line -> line.startsWith("[round")).toList();
        assertEquals(List.of(
                "[round 1/2] Go v1 (v1-naive-readall)", "[round 1/2] V01ReadAll",
                "[round 1/2] Go v6 (v6-mmap-parallel)", "[round 1/2] V06MmapParallel",
                "[round 2/2] V01ReadAll", "[round 2/2] Go v1 (v1-naive-readall)",
                "[round 2/2] V06MmapParallel", "[round 2/2] Go v6 (v6-mmap-parallel)"), order);
        assertEquals(List.of("stand-in: WORKERS=1, 1 shards", "stand-in: WORKERS=3, 3 shards",
                        "stand-in: WORKERS=1, 1 shards", "stand-in: WORKERS=3, 3 shards"),
                outcome.err().lines().filter(line -> line.contains("stand-in: WORKERS")).map(line -> line.replaceFirst("^.*go\\| ", "")).toList(),
                "WORKERS reaches the Go side: 1 for chapter 1's pair, which runs on one thread on both sides, 3 for chapter 6's");
        List<String> calls = calls();
        assertEquals(6, calls.size(), "one call for its size, one to list the variants, then one per Go turn: " + calls);
        assertTrue(calls.subList(0, 2).stream().noneMatch(call -> call.contains("-file=" + haystack)),
                "the two probes get throwaway files, never the haystack: " + calls);
        assertTrue(calls.subList(2, 6).stream().allMatch(call -> call.contains("-file=" + haystack)), calls.toString());

        assertTrue(outcome.err().lines().anyMatch(line -> line.startsWith("versus-go: waiting for ./jbang variants/V06MmapParallel.java "
                + haystack)), "the Java side starts each chapter as a user does, with its header's JVM options: " + outcome.err());
        List<CSVRecord> rows = csvRows();
        assertEquals(List.of("Go v1", "V01ReadAll", "Go v6", "V06MmapParallel", "V01ReadAll", "Go v1", "V06MmapParallel", "Go v6"),
                rows.stream().map(row -> row.get("chapter")).toList());
        for (CSVRecord row : rows) {
            // Chapter 1 searches on one thread, and so does Go's v1: both record 1, whatever --workers asked.
            assertEquals(List.of("Go v1", "V01ReadAll").contains(row.get("chapter")) ? "1" : "3",
                    row.get("workers"), row.toString());
            assertEquals(Long.toString(BYTES), row.get("file_bytes"));
            assertEquals(Long.toString(NEEDLE_AT), row.get("offset"));
            assertEquals("1", row.get("runs"));
            assertTrue(Double.parseDouble(row.get("median_s")) > 0, row.toString());
            if (row.get("chapter").startsWith("Go ")) {
                assertTrue(row.get("jdk").startsWith("go (version unknown); variants: v1 v2 v3 v4 v5 v6 v7 v8 v9 v10 v11"),
                        "the Go release and the binary's variants: " + row.get("jdk"));
            } else {
                assertTrue(row.get("jdk").contains(Integer.toString(Runtime.version().feature())), row.get("jdk"));
            }
        }

        List<String> table = outcome.out().lines().filter(line -> line.matches("\\d+ V\\d\\d.*")).toList();
        assertEquals(2, table.size(), outcome.out());
        // The summary is the CSV read back as README and the report read it: the same figures, pair by pair.
        List<VersusGoPairs.GoPair> read = VersusGoPairs.pairs(StudyResults.read(csvPath()).rows());
        assertEquals(List.of(1, 6), read.stream().map(VersusGoPairs.GoPair::number).toList());
        for (int i = 0; i < 2; i++) { // pair, Go MB/s, Java MB/s, Java ÷ Go, the rounds' range, the mark, rounds
            String[] cells = table.get(i).strip().split("\\s+");
            VersusGoPairs.GoPair pair = read.get(i);
            assertEquals(List.of(pair.number() + "", pair.javaChapter()), List.of(cells).subList(0, 2), table.get(i));
            assertEquals(List.of(pair.ratioText(), pair.rangeText(), pair.verdict().word, "2"), List.of(cells).subList(4, 8), table.get(i));
            assertTrue(Double.parseDouble(cells[4]) > 0, table.get(i));
        }
        assertTrue(Haystack.endsWithNeedle(haystack), "the tool made a haystack and the Go side left it alone");
    }

    /** Pair 2, a byte per call, is the slowest by far: it runs, with fewer runs than --runs asks, on both sides. */
    @Test
    void pairTwoRunsWithFewerRunsNeverNone() throws IOException {
        Path haystack = directory.resolve("go-haystack.bin");
        int asked = VersusGo.BYTE_PER_CALL_MOST_RUNS + 1;
        Outcome outcome = versusGo(standIn(), haystack, "--rounds", "1", "--runs", Integer.toString(asked), "--only", "1,2");
        assertEquals(0, outcome.status(), outcome.err());
        List<String> goCalls = calls().stream().filter(call -> call.contains("-file=" + haystack)).toList();
        assertEquals(2, goCalls.size(), goCalls.toString());
        assertTrue(goCalls.get(0).contains("-runs=" + asked) && goCalls.get(0).contains("-only=v1-naive-readall"), goCalls.get(0));
        assertTrue(goCalls.get(1).contains("-runs=" + VersusGo.BYTE_PER_CALL_MOST_RUNS) && goCalls.get(1).contains("-only=v2-bufio-byte"),
                goCalls.get(1));
        for (CSVRecord row : csvRows()) {
            boolean pairTwo = List.of("Go v2", "V02BufferedByte").contains(row.get("chapter"));
            assertEquals(Integer.toString(pairTwo ? VersusGo.BYTE_PER_CALL_MOST_RUNS : asked), row.get("runs"), row.toString());
            if (row.get("chapter").equals("V02BufferedByte")) {
                assertEquals("plain", row.get("read_mode"), "pair 2 runs the chapter's default reader, which takes no lock, as Go's");
            }
        }
        assertTrue(outcome.out().contains("(v2 / V02BufferedByte: " + VersusGo.BYTE_PER_CALL_MOST_RUNS + " runs per call"), outcome.out());
        assertEquals(1, outcome.out().lines().filter(line -> line.contains("runs per call")).count(), outcome.out());
    }

    @Test
    void pairsTheBinaryLacksAreSkippedWithOneLineEach() throws IOException {
        Path bench = standIn("VARIANTS", "\"v1-naive-readall v3-chunked-uint64\"");
        Outcome outcome = versusGo(bench, directory.resolve("go-haystack.bin"), "--rounds", "1", "--only", "2,3,12");
        assertEquals(0, outcome.status(), outcome.err());
        List<String> skipped = outcome.err().lines().filter(line -> line.contains("skipped")).toList();
        assertEquals(2, skipped.size(), outcome.err());
        assertTrue(skipped.get(0).contains("v2 / V02BufferedByte") && skipped.get(0).contains("v2-bufio-byte"), skipped.get(0));
        assertTrue(skipped.get(1).contains("v12 / V12Vector512") && skipped.get(1).contains("Go 1.26"), skipped.get(1));
        assertEquals(List.of("Go v3", "V03ChunkedLong"), csvRows().stream().map(row -> row.get("chapter")).toList());
    }

    @Test
    void aWrongAnswerFromGoIsOneFailureLineAndTheOtherPairsStillRun() throws IOException {
        Path bench = standIn("WRONG_ANSWER_FROM", "v4-mmap");
        Outcome outcome = versusGo(bench, directory.resolve("go-haystack.bin"), "--rounds", "1", "--only", "3,4");
        assertEquals(2, outcome.status(), outcome.err());
        List<String> failures = outcome.err().lines().filter(line -> line.startsWith("  failed:")).toList();
        assertEquals(1, failures.size(), outcome.err());
        assertTrue(failures.getFirst().contains("Go v4-mmap failed (status 1): ERROR: v4-mmap: wrong offset"), failures.getFirst());
        assertEquals(List.of("Go v3", "V03ChunkedLong", "V04Mmap"), csvRows().stream().map(row -> row.get("chapter")).toList());
        assertTrue(outcome.out().contains("v4 / V04Mmap") && outcome.out().contains("no figure"), outcome.out());
    }

    /** Files the Go benchmark would write to: each refused in one line, before any call, and left as it was. */
    @Test
    void aFileThatIsNotExactlyAHaystackIsRefusedBeforeAnyCall() throws IOException {
        byte[] needle = ByteBuffer.allocate(Long.BYTES).order(ByteOrder.LITTLE_ENDIAN).putLong(Haystack.NEEDLE).array();
        byte[] haystack = new byte[(int) BYTES];
        System.arraycopy(needle, 0, haystack, (int) NEEDLE_AT, Long.BYTES);
        byte[] strayByte = haystack.clone();
        strayByte[4096] = 7;
        List<byte[]> contents = List.of(
                new byte[64 * 1024],                                    // another size: Go would truncate and rewrite it
                Arrays.copyOf(haystack, (int) BYTES + Long.BYTES),      // a haystack's bytes, 8 too many
                new byte[(int) BYTES],                                  // the size, no needle: Go would plant one
                strayByte);                                             // the size and the needle, not all zeros
        Path bench = standIn();
        for (int i = 0; i < contents.size(); i++) {
            Path file = Files.write(directory.resolve("user-file-" + i + ".bin"), contents.get(i));
            Outcome outcome = versusGo(bench, file, "--only", "4");
            assertEquals(2, outcome.status(), outcome.err());
            List<String> lines = outcome.err().lines()
                    .filter(line -> !line.contains("checking that every byte") && !line.contains("waiting for")).toList();
            assertEquals(1, lines.size(), outcome.err());
            assertTrue(lines.getFirst().contains(file.toString()) && lines.getFirst().contains("left alone"), lines.getFirst());
            assertArrayEquals(contents.get(i), Files.readAllBytes(file), "the file is untouched");
            assertTrue(calls().stream().noneMatch(call -> call.contains(file.toString())), "the binary was never called with " + file);
        }

        Path link = Files.createSymbolicLink(directory.resolve("link.bin"), Files.write(directory.resolve("real.bin"), haystack));
        Outcome outcome = versusGo(bench, link, "--only", "4");
        assertEquals(2, outcome.status(), outcome.err());
        assertTrue(outcome.err().contains("not a regular file"), outcome.err());
        assertTrue(calls().stream().noneMatch(call -> call.contains("link.bin") || call.contains("real.bin")), calls().toString());
    }

    @Test
    void anExistingHaystackIsUsedOnceEveryByteIsChecked() throws IOException {
        byte[] haystack = new byte[(int) BYTES];
        ByteBuffer.wrap(haystack).order(ByteOrder.LITTLE_ENDIAN).putLong((int) NEEDLE_AT, Haystack.NEEDLE);
        Path file = Files.write(directory.resolve("made-elsewhere.bin"), haystack);
        Outcome outcome = versusGo(standIn(), file, "--rounds", "1", "--only", "3");
        assertEquals(0, outcome.status(), outcome.err());
        assertTrue(outcome.err().contains("checking that every byte but the needle is zero"), outcome.err());
        assertArrayEquals(haystack, Files.readAllBytes(file));
    }

    @Test
    void aHaystackChangedByTheBinaryStopsEverythingBeforeTheNextCall() throws IOException {
        Outcome outcome = versusGo(standIn("WRITES_TO_HAYSTACK", "yes"), directory.resolve("go-haystack.bin"),
                "--rounds", "2", "--only", "3,4");
        assertEquals(2, outcome.status(), outcome.err());
        String last = outcome.err().strip().lines().toList().getLast();
        assertTrue(last.contains("was written to since it was checked") && !last.contains("left alone"), outcome.err());
        assertEquals(3, calls().size(), "the size, the variant list, then the first call, which wrote: " + calls());
    }

    @Test
    void mistakesAreOneLineAndCallNothing() throws IOException {
        Path bench = standIn();
        List<String[]> mistakes = List.of(
                new String[] {"--only", "14"},
                new String[] {"--only", "v"},
                new String[] {"--only", ","},   // an empty list to picocli: a sitting of no pair
                new String[] {"--rounds", "0"},
                new String[] {"--workers", "0"});
        for (String[] mistake : mistakes) {
            Outcome outcome = versusGo(bench, directory.resolve("go-haystack.bin"), mistake);
            assertEquals(2, outcome.status(), outcome.err());
            assertEquals(1, outcome.err().strip().lines().count(), outcome.err());
            assertTrue(outcome.err().contains(mistake[0]), outcome.err());
            assertFalse(Files.exists(directory.resolve("results")), "a refused command made the results folder: " + outcome.err());
        }
        Path csv = csvPath();
        Files.createDirectories(csv.getParent());
        Files.writeString(csv, "somebody's notes\n");
        Outcome foreignCsv = versusGo(bench, directory.resolve("go-haystack.bin"), "--only", "3");
        assertEquals(2, foreignCsv.status(), foreignCsv.err());
        assertEquals(1, foreignCsv.err().strip().lines().count(), foreignCsv.err());
        assertEquals("somebody's notes\n", Files.readString(csv));
        assertFalse(Files.exists(directory.resolve("go-haystack.bin")), "no haystack for a command that cannot run");
        assertEquals(List.of(), calls());

        Outcome notABinary = versusGo(directory.resolve("no-such-bench"), directory.resolve("go-haystack.bin"));
        assertEquals(2, notABinary.status());
        assertTrue(notABinary.err().contains("not an executable file"), notABinary.err());
    }

    /**
     * The binary rewrites, with O_TRUNC, any file whose size is not the one it was built for. It
     * names that size on a throwaway file of our own, under a file size limit of zero; a haystack of
     * another size is then refused in one line and never handed to it, whatever the user says.
     */
    @Test
    void aHaystackOfAnotherSizeThanTheBinarysIsNeverHandedToIt() throws IOException {
        Path bench = standIn("TRUNCATES_LIKE_THE_ARTICLE", "yes");
        long smaller = 64 * 1024;
        byte[] haystack = new byte[(int) smaller];
        ByteBuffer.wrap(haystack).order(ByteOrder.LITTLE_ENDIAN).putLong((int) (smaller - Long.BYTES), Haystack.NEEDLE);
        Path file = Files.write(directory.resolve("h.bin"), haystack);
        for (String[] more : List.of(new String[] {"--only", "1"}, new String[] {"--only", "1", "--haystack-bytes", "64k"})) {
            Outcome outcome = versusGo(bench, file, more);
            assertEquals(2, outcome.status(), outcome.err());
            assertArrayEquals(haystack, Files.readAllBytes(file), "the haystack is untouched: " + outcome.err());
            assertTrue(calls().stream().noneMatch(call -> call.contains(file.toString())), "never handed over: " + calls());
            String last = outcome.err().strip().lines().toList().getLast();
            assertTrue(more.length > 2 || last.contains(file.toString()) && last.contains("not the " + BYTES),
                    "names the file and the binary's own size: " + last);
        }
        assertFalse(Files.exists(directory.resolve("results")), "a refused sitting made the results folder");
        for (String call : calls()) { // the probes' throwaway files, and their directories, are gone
            String probed = call.replaceFirst("^.*-file=(\\S+).*$", "$1");
            assertFalse(probed.contains("versus-go-probe-") && Files.exists(Path.of(probed).getParent()), probed);
        }

        byte[] exact = new byte[(int) BYTES];
        ByteBuffer.wrap(exact).order(ByteOrder.LITTLE_ENDIAN).putLong((int) NEEDLE_AT, Haystack.NEEDLE);
        Path good = Files.write(directory.resolve("good.bin"), exact);
        Outcome ran = versusGo(bench, good, "--rounds", "1", "--only", "3");
        assertEquals(0, ran.status(), ran.err());
        assertArrayEquals(exact, Files.readAllBytes(good), "a haystack of the binary's own size is left as it was");
    }

    /** A benchmark that fails before the sitting starts: one line, status 2, and no results folder or haystack left behind. */
    @Test
    void aBenchmarkThatFailsAtOnceLeavesNothingBehind() throws IOException {
        Path failing = directory.resolve("failing-bench.sh");
        Files.writeString(failing, "#!/bin/sh\necho 'ERROR: cannot open the file' >&2\nexit 1\n");
        Files.setPosixFilePermissions(failing, PosixFilePermissions.fromString("rwx------"));
        Outcome outcome = versusGo(failing, directory.resolve("go-haystack.bin"), "--only", "3");
        assertEquals(2, outcome.status(), outcome.err());
        assertTrue(outcome.err().strip().lines().toList().getLast().startsWith("VersusGo: "), outcome.err());
        assertFalse(Files.exists(directory.resolve("results")), "a failed benchmark made the results folder: " + outcome.err());
        assertFalse(Files.exists(directory.resolve("go-haystack.bin")), "a failed benchmark left a haystack");

        Outcome noVariant = versusGo(standIn("VARIANTS", "\"v1-naive-readall\""), directory.resolve("go-haystack.bin"), "--only", "3");
        assertEquals(2, noVariant.status(), noVariant.err());
        assertTrue(noVariant.err().contains("nothing to run"), noVariant.err());
        assertFalse(Files.exists(directory.resolve("results")), "a sitting of nothing made the results folder: " + noVariant.err());
    }

    /** A Go run faster than any memory can be read is no figure: one line names the binary's output, nothing is recorded. */
    @Test
    void anImpossibleGoTimingIsRefusedInOneLine() throws IOException {
        Outcome outcome = versusGo(standIn("RUN_SECONDS", "1e-15"), directory.resolve("go-haystack.bin"), "--rounds", "1", "--only", "3");
        assertEquals(2, outcome.status(), outcome.err());
        String last = outcome.err().strip().lines().toList().getLast();
        assertTrue(last.contains("Go benchmark's JSON") && last.contains("1.0E-15") && last.contains("faster than any memory"), last);
        Path csv = csvPath();
        assertTrue(!Files.exists(csv) || csvRows().stream().noneMatch(row -> row.get("chapter").startsWith("Go ")), "no Go row");
    }

    @Test
    void theBenchmarksJsonIsReadStrictly() throws IOException {
        List<GoBench.Result> results = GoBench.parse("""
                [{"variant": "v4-mmap", "runs_seconds": [0.5, 0.25], "mean_seconds": 0.375, "mb_per_second": 11453.2, "extra": 1}]""", BYTES);
        assertEquals(1, results.size());
        assertEquals("v4-mmap", results.getFirst().variant());
        assertArrayEquals(new double[] {0.5, 0.25}, results.getFirst().runsSeconds());
        assertEquals(List.of(), GoBench.parse("[]", BYTES));
        for (String broken : List.of("", "{}", "[{\"variant\": \"v4-mmap\"}]", "[{\"runs_seconds\": [1.0]}]",
                "[{\"variant\": \"v4-mmap\", \"runs_seconds\": [0.0]}]", "[{\"variant\": \"v4-mmap\", \"runs_seconds\": [-1]}]",
                "[null]", "not json", "[{\"variant\": \"v4-mmap\", \"runs_seconds\": [1e-300]}]")) {
            assertThrows(IOException.class, () -> GoBench.parse(broken, BYTES), broken);
        }
    }

    @Test
    void theGoReleaseIsReadFromTheBinarysBuildInformation() throws IOException {
        ByteBuffer image = ByteBuffer.allocate(4096);
        image.position(1000).put("\u00ff Go buildinf:".getBytes(StandardCharsets.ISO_8859_1)).put((byte) 8).put((byte) 2);
        image.position(1000 + 32).put((byte) 8).put("go1.19.8".getBytes(StandardCharsets.US_ASCII));
        Path binary = Files.write(directory.resolve("bench"), image.array());
        Files.setPosixFilePermissions(binary, PosixFilePermissions.fromString("rwx------"));
        assertEquals("go1.19.8", new GoBench(binary).goVersion());
        assertEquals("go (version unknown)", new GoBench(STAND_IN).goVersion());
    }
}
