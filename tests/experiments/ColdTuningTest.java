import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import lib.cli.UserMistakeException;
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
}
