import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import lib.Harness;
import lib.Haystack;
import lib.NeedleSearch;
import lib.ResultsCsv;
import lib.Stats;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line every chapter shares: exit statuses, summary lines, the results CSV, the figures. */
class HarnessTest {

    private static final long HAYSTACK_BYTES = 1 << 20;

    @TempDir
    Path dir;

    private Path haystack() throws IOException {
        Path file = dir.resolve("haystack.bin");
        Haystack.create(file, HAYSTACK_BYTES);
        return file;
    }

    @Test
    void exitsZeroWhenTheNeedleIsFound() throws IOException {
        var result = InProcess.run(new V04Mmap(), haystack().toString(), "--runs", "2", "--warmup", "1", "--workers", "1");
        assertEquals(Harness.FOUND, result.exitCode(), result::toString);
        assertEquals(String.valueOf(Haystack.needleOffset(HAYSTACK_BYTES)), summaries(result).getLast().get("offset"));
    }

    @Test
    void exitsOneWhenTheFileIsAllZeros() throws IOException {
        Path zeros = Files.write(dir.resolve("zeros.bin"), new byte[64 * 1024]);
        var result = InProcess.run(new V03ChunkedLong(), zeros.toString(), "--runs", "2", "--workers", "1");
        assertEquals(Harness.ALL_ZEROS, result.exitCode(), result::toString);
        assertEquals("-1", summaries(result).getLast().get("offset"));
    }

    @Test
    void exitsTwoWithOneLineOnError() {
        var result = InProcess.run(new V04Mmap(), dir.resolve("no-such-dir/file.bin").toString(), "--size", "64k");
        assertEquals(Harness.ERROR, result.exitCode(), result::toString);
        assertEquals(1, result.errorLines().size(), result::toString);
        assertEquals("", result.stdout());
    }

    @Test
    void lastLinesOfStdoutAreOneSummaryPerWorkerCount() throws IOException {
        var result = InProcess.run(new V06MmapParallel(), haystack().toString(),
                "--runs", "2", "--warmup", "0", "--workers", "1,2");
        assertEquals(Harness.FOUND, result.exitCode(), result::toString);
        List<Map<String, String>> summaries = summaries(result);
        assertEquals(2, summaries.size(), result::toString);
        assertEquals("1", summaries.get(0).get("workers"));
        assertEquals("2", summaries.get(1).get("workers"));
        for (Map<String, String> summary : summaries) {
            assertEquals("V06MmapParallel", summary.get("variant"));
            assertEquals("2", summary.get("runs"));
            assertEquals(String.valueOf(HAYSTACK_BYTES), summary.get("bytes"));
            assertEquals("warm", summary.get("cache"));
        }
    }

    @Test
    void csvGetsTheDocumentedColumnsAndOneRowPerWorkerCountPerCommand() throws IOException {
        Path file = haystack();
        Path csv = dir.resolve("results.csv");
        for (int command = 0; command < 2; command++) {
            var result = InProcess.run(new V07PreadParallel(), file.toString(),
                    "--runs", "2", "--warmup", "0", "--workers", "1,2", "--csv", csv.toString());
            assertEquals(Harness.FOUND, result.exitCode(), result::toString);
        }
        List<String> lines = Files.readAllLines(csv);
        assertEquals(ResultsCsv.headerLine(), lines.getFirst());
        List<CSVRecord> rows = rows(csv);
        assertEquals(4, rows.size());
        for (CSVRecord row : rows) {
            assertEquals(ResultsCsv.COLUMNS.size(), row.size());
            assertEquals("V07PreadParallel", row.get("chapter"));
            assertEquals("warm", row.get("cache"));
            assertEquals(String.valueOf(HAYSTACK_BYTES), row.get("file_bytes"));
            assertEquals(String.valueOf(Haystack.needleOffset(HAYSTACK_BYTES)), row.get("offset"));
            assertEquals(2, row.get("run_s").split(" ").length);
        }
        assertEquals(List.of("1", "2", "1", "2"), rows.stream().map(row -> row.get("workers")).toList());
    }

    @Test
    void csvWithAnotherHeaderIsRefusedBeforeAnySearch() throws IOException {
        Path file = haystack();
        Path csv = Files.writeString(dir.resolve("other.csv"), "name,score\nada,10\n");
        String before = DiskState.describe(csv);
        AtomicInteger searches = new AtomicInteger();
        NeedleSearch counting = (path, workers) -> {
            searches.incrementAndGet();
            return new V04Mmap().search(path, workers);
        };
        var result = InProcess.run(counting, file.toString(), "--runs", "1", "--csv", csv.toString());
        assertEquals(Harness.ERROR, result.exitCode(), result::toString);
        assertEquals(1, result.errorLines().size(), result::toString);
        assertTrue(result.stderr().contains("not a results CSV"), result::toString);
        assertEquals(0, searches.get());
        assertEquals(before, DiskState.describe(csv));
    }

    @Test
    void printedMeanAndMedianAreWhatStatsComputesFromTheRuns() throws IOException {
        Path csv = dir.resolve("results.csv");
        var result = InProcess.run(new V03ChunkedLong(), haystack().toString(),
                "--runs", "6", "--warmup", "1", "--workers", "1", "--csv", csv.toString());
        assertEquals(Harness.FOUND, result.exitCode(), result::toString);
        CSVRecord row = rows(csv).getFirst();
        double[] runs = Arrays.stream(row.get("run_s").split(" ")).mapToDouble(Double::parseDouble).toArray();
        assertEquals(6, runs.length);
        // The CSV keeps 6 decimals of each figure, stdout 4: equal up to that rounding.
        assertEquals(Stats.trimmedMean(runs), Double.parseDouble(row.get("mean_s")), 2e-6);
        assertEquals(Stats.median(runs), Double.parseDouble(row.get("median_s")), 2e-6);
        Map<String, String> summary = summaries(result).getLast();
        assertEquals(Stats.trimmedMean(runs), Double.parseDouble(summary.get("mean_s")), 1e-4);
        assertEquals(Stats.median(runs), Double.parseDouble(summary.get("median_s")), 1e-4);
    }

    /** The trailing {@code key=value} lines of stdout, one map per line. */
    static List<Map<String, String>> summaries(Subprocess.Result result) {
        return result.stdout().lines().filter(line -> line.startsWith("variant=")).map(line -> {
            Map<String, String> pairs = new HashMap<>();
            for (String pair : line.split(" ")) {
                int equals = pair.indexOf('=');
                assertTrue(equals > 0, () -> "not key=value: " + pair + " in " + line);
                pairs.put(pair.substring(0, equals), pair.substring(equals + 1));
            }
            return pairs;
        }).toList();
    }

    static List<CSVRecord> rows(Path csv) throws IOException {
        try (Reader reader = Files.newBufferedReader(csv)) {
            return CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get().parse(reader).getRecords();
        }
    }
}
