import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import lab.results.StudyResults;
import lib.cli.UserMistakeException;
import lib.haystack.Haystack;
import lib.linux.IoUring;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The cold-tuning sweep's settings, and that every one of them finds the needle (where O_DIRECT and io_uring work). */
class ColdTuningTest {

    private static final long KIB = 1024, MIB = 1024 * KIB;

    @TempDir
    Path directory;

    @Test
    void chapter14ByBlockSizeThenWithReadAheadThenChapter15ByBlockSizeAndDepth() {
        List<String> names = ColdTuning.settings(List.of(256 * KIB, MIB), List.of(4, 16)).stream()
                .map(setting -> setting.name() + "@" + setting.chunkBytes()).toList();
        assertEquals(List.of("V14DirectIo@262144", "V14DirectIo@1048576",
                "V14DirectIo with read-ahead@262144", "V14DirectIo with read-ahead@1048576", "V15IoUring qd4@262144", "V15IoUring qd16@262144",
                "V15IoUring qd4@1048576", "V15IoUring qd16@1048576"), names);
    }

    /** The book names a setting in a claim as tuning.csv's chapter column does, and a name no sweep writes stays refused. */
    @Test
    void everySettingsNameIsOneTheBookCanClaim() {
        for (ColdTuning.Setting setting : ColdTuning.settings(List.of(256 * KIB, MIB), List.of(4, 16, 1024))) {
            assertTrue(StudyResults.CHAPTER_NAME.matcher(setting.name()).matches(), setting.name());
        }
        for (String name : List.of("V15IoUring qd", "V15IoUring qd4;x", "V15IoUring <b>qd4</b>", "V15IoUring with")) {
            assertFalse(StudyResults.CHAPTER_NAME.matcher(name).matches(), name);
        }
    }

    @Test
    void everySettingFindsTheNeedle() throws IOException {
        try (IoUring ignored = new IoUring(1)) {
            // the kernel gave us a ring
        } catch (UserMistakeException refused) {
            assumeTrue(false, refused.getMessage());
        }
        long size = 3 * MIB + 4 * KIB;
        TestFiles.Layout layout = TestFiles.Layout.zeros("needle", size).plant(2 * MIB + 5, (byte) 1);
        Path file = TestFiles.write(directory.resolve("tuning.bin"), layout);
        for (ColdTuning.Setting setting : ColdTuning.settings(List.of(64 * KIB, MIB), List.of(1, 3))) {
            for (int workers = 1; workers <= 3; workers++) {
                assertEquals(layout.expectedOffset(), setting.search().search(file, workers, setting.chunkBytes()),
                        setting.name() + " " + setting.chunkBytes() + ", " + workers + " workers");
            }
        }
    }

    record Ran(int status, String out, String err) {}

    private Ran coldTuning(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        String[] withResults = java.util.stream.Stream.concat(java.util.stream.Stream.of(args),
                java.util.stream.Stream.of("--results", directory.resolve("results").toString())).toArray(String[]::new);
        int status = ColdTuning.execute(withResults, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Ran(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /**
     * Each refusal is one line and status 2, before anything runs or is written: no results folder,
     * no tuning.csv, and no haystack made for a command that cannot run.
     */
    @Test
    void aRefusalIsOneLineAndLeavesNothingBehind() throws IOException {
        Path missing = directory.resolve("not-yet.bin");
        Path haystack = directory.resolve("small.bin");
        Haystack.create(haystack, 64 * KIB);
        Path empty = Files.createFile(directory.resolve("empty.bin"));
        Path folder = Files.createDirectory(directory.resolve("a-folder"));
        List<List<String>> refusals = List.of(
                List.of(missing.toString(), "--size", "64k", "--chunks", ","),   // a sweep of no block size
                List.of(missing.toString(), "--size", "64k", "--depths", ","),   // chapter 15 left out without a word
                List.of(folder.toString()),
                List.of(haystack.toString(), "--size", "128k"),                  // not the size the file has
                List.of(empty.toString()));
        List<String> said = new java.util.ArrayList<>();
        for (List<String> args : refusals) {
            Ran ran = coldTuning(args.toArray(String[]::new));
            assertEquals(2, ran.status(), args + ": " + ran);
            assertEquals(1, ran.err().lines().count(), args + ": " + ran);
            assertTrue(ran.err().startsWith("ColdTuning: "), args + ": " + ran);
            assertFalse(Files.exists(directory.resolve("results")), args + " made the results folder: " + ran);
            assertFalse(Files.exists(missing), args + " made a haystack for a command that cannot run");
            said.add(ran.err().strip());
        }
        assertTrue(said.get(0).contains("--chunks") && said.get(1).contains("--depths"), said.toString());
        assertTrue(said.get(2).contains("is a directory"), said.get(2));
        assertTrue(said.get(4).equals("ColdTuning: '" + empty + "' is empty: cold-tuning times reading a file, and there is nothing to read"),
                said.get(4));
    }
}
