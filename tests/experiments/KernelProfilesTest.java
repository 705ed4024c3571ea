import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import lib.haystack.Haystack;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** lab/experiments/KernelProfiles: its one line of two figures and their ratio, and one line for a FILE that is not there. No timing is asserted. */
class KernelProfilesTest {

    @TempDir
    Path directory;

    @Test
    void printsBothCopiesFiguresAndHowManyTimesSlowerOneIs() throws Exception {
        Path file = directory.resolve("haystack.bin");
        Haystack.create(file, 8 << 20);
        Subprocess.Result result = Subprocess.run(Subprocess.javaCommand(List.of(), "KernelProfiles", file.toString()), directory.resolve("logs"));
        assertEquals(0, result.exitCode(), result.toString());
        assertTrue(result.stdout().matches("(?s)one kernel, two profiles: saw three kinds of segment [0-9,]+ MB/s, saw the mapping alone [0-9,]+ MB/s: "
                + "[0-9]+\\.[0-9] times slower\n"), result.toString());
    }

    @Test
    void aFileThatIsNotThereIsOneLineAndStatusTwo() throws Exception {
        Subprocess.Result result = Subprocess.run(Subprocess.javaCommand(List.of(), "KernelProfiles", directory.resolve("absent.bin").toString()),
                directory.resolve("logs"));
        assertEquals(2, result.exitCode(), result.toString());
        assertEquals(1, result.errorLines().size(), result.toString());
        assertTrue(result.errorLines().getFirst().startsWith("usage: KernelProfiles FILE"), result.toString());
    }
}
