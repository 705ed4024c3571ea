import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import lib.harness.Harness;
import lib.harness.ResultsCsv;
import lib.haystack.Haystack;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --csv} with other writers about: chapters that append to one new CSV at once write its
 * header once, a writer waits for the lock another holds, an empty file is a new one, and the
 * CSV is never the file searched.
 */
class CsvAppendTest {

    private static final long BYTES = 256 * 1024;

    @TempDir
    Path dir;

    @TempDir
    Path logsRoot;

    private int logCount;

    private Path logs() {
        return logsRoot.resolve(Integer.toString(logCount++));
    }

    private Path haystack() throws IOException {
        Path file = dir.resolve("haystack.bin");
        if (!Files.exists(file)) {
            Haystack.create(file, BYTES);
        }
        return file;
    }

    private List<String> chapterAppendingTo(Path csv) throws IOException {
        return Subprocess.javaCommand(List.of(), "V04Mmap", haystack().toString(), "--runs", "1", "--warmup", "0", "--csv", csv.toString());
    }

    private static List<String> lines(Path csv) throws IOException {
        return Files.readAllLines(csv, StandardCharsets.UTF_8);
    }

    @Test
    void chaptersThatCreateOneCsvAtOnceWriteItsHeaderOnce() throws Exception {
        Path csv = dir.resolve("new.csv");
        List<Process> chapters = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            chapters.add(Subprocess.start(chapterAppendingTo(csv), logs()));
        }
        for (Process chapter : chapters) {
            assertTrue(chapter.waitFor(Subprocess.PATIENCE_SECONDS, TimeUnit.SECONDS));
            assertEquals(Harness.FOUND, chapter.exitValue());
        }
        List<String> lines = lines(csv);
        assertEquals(1, lines.stream().filter(ResultsCsv.headerLine()::equals).count(), String.join("\n", lines));
        assertEquals(ResultsCsv.headerLine(), lines.getFirst());
        assertEquals(7, lines.size(), String.join("\n", lines));
    }

    /**
     * A writer that finds the file locked waits, and then sees what the holder wrote; here the test
     * holds the lock on an empty file, as a chapter that has just created it does, and writes the
     * header itself before letting go.
     */
    @Test
    void aChapterWaitsForTheCsvsLockAndTakesAnEmptyFileForANewOne() throws Exception {
        Path csv = Files.createFile(dir.resolve("empty.csv"));
        Path logs = logs();
        Process chapter;
        try (FileChannel channel = FileChannel.open(csv, StandardOpenOption.WRITE, StandardOpenOption.APPEND); FileLock lock = channel.lock()) {
            chapter = Subprocess.start(chapterAppendingTo(csv), logs);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Subprocess.PATIENCE_SECONDS);
            while (!Files.readString(logs.resolve("stdout")).contains("variant=") && chapter.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertTrue(chapter.isAlive(), "the chapter measured, then did not wait for the lock: " + Files.readString(logs.resolve("stderr")));
            Thread.sleep(500);
            assertEquals(0, Files.size(csv), "the chapter wrote while the test held the lock");
            channel.write(java.nio.ByteBuffer.wrap((ResultsCsv.headerLine() + "\n").getBytes(StandardCharsets.UTF_8)));
        }
        assertTrue(chapter.waitFor(Subprocess.PATIENCE_SECONDS, TimeUnit.SECONDS));
        assertEquals(Harness.FOUND, chapter.exitValue(), Files.readString(logs.resolve("stderr")));
        List<String> lines = lines(csv);
        assertEquals(2, lines.size(), String.join("\n", lines));
        assertEquals(ResultsCsv.headerLine(), lines.getFirst());
    }

    @Test
    void aCsvThatIsTheFileToSearchIsRefusedBeforeAnythingIsMade() throws Exception {
        Path missing = dir.resolve("both.bin");
        var result = InProcess.run(new V04Mmap(), missing.toString(), "--size", "64k", "--csv", missing.toString());
        assertEquals(Harness.ERROR, result.exitCode(), result::toString);
        assertEquals(1, result.errorLines().size(), result::toString);
        assertTrue(result.stderr().contains("is FILE"), result::toString);
        assertFalse(Files.exists(missing), "the haystack was made");

        Path results = Files.writeString(dir.resolve("results.csv"), ResultsCsv.headerLine() + "\n");
        String before = Files.readString(results);
        var searched = InProcess.run(new V04Mmap(), results.toString(), "--csv", dir.resolve(".").resolve("results.csv").toString());
        assertEquals(Harness.ERROR, searched.exitCode(), searched::toString);
        assertEquals(1, searched.errorLines().size(), searched::toString);
        assertTrue(searched.stderr().contains("is FILE"), searched::toString);
        assertEquals(before, Files.readString(results));
    }

    /** An empty file has no needle and no speed: the chapter answers, and says why its CSV gets no row of 0 MB/s. */
    @Test
    void anEmptyFileIsSearchedButWritesNoRow() throws Exception {
        Path empty = Files.createFile(dir.resolve("empty.bin"));
        Path csv = dir.resolve("empty.csv");
        var result = InProcess.run(new V04Mmap(), empty.toString(), "--runs", "1", "--warmup", "0", "--csv", csv.toString());
        assertEquals(Harness.ALL_ZEROS, result.exitCode(), result::toString);
        assertTrue(result.stderr().contains("no row written to " + csv), result::toString);
        assertFalse(Files.exists(csv) && lines(csv).size() > 1, "a row was written for an empty file");
    }
}
