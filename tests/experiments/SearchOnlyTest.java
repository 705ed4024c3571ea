import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** lab/experiments/SearchOnly: the needle's offset, as the planted byte says, its phases line, and one line for a FILE that is not there. */
class SearchOnlyTest {

    private static final long KIB = 1024, MIB = 1024 * KIB;

    @TempDir
    Path directory;

    @Test
    void printsTheNeedlesOffsetAndItsPhases() throws Exception {
        TestFiles.Layout layout = TestFiles.Layout.zeros("needle", 3 * MIB + 4 * KIB).plant(2 * MIB + 5, (byte) 1);
        Path file = TestFiles.write(directory.resolve("haystack.bin"), layout);
        Subprocess.Result result = Subprocess.run(Subprocess.javaCommand(List.of(), "SearchOnly", file.toString()), directory.resolve("logs"));
        assertEquals(0, result.exitCode(), result.toString());
        assertEquals(layout.expectedOffset() + "\n", result.stdout(), result.toString());
        assertTrue(result.errorLines().stream().anyMatch(line -> line.startsWith("phases: ") && line.contains(" first_search_s=")),
                result.toString());
    }

    @Test
    void aFileThatIsNotThereIsOneLineAndStatusTwo() throws Exception {
        Subprocess.Result result = Subprocess.run(Subprocess.javaCommand(List.of(), "SearchOnly", directory.resolve("absent.bin").toString()),
                directory.resolve("logs"));
        assertEquals(2, result.exitCode(), result.toString());
        assertEquals(1, result.errorLines().size(), result.toString());
        assertTrue(result.errorLines().getFirst().startsWith("usage: SearchOnly FILE"), result.toString());
    }
}
