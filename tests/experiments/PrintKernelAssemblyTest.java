import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * lab/experiments/print-kernel-assembly: started from another folder, it finds the project's launcher from its own
 * place, and prints C2's compilation of the kernel on stdout (as instructions with a disassembler plug-in, else as hex).
 */
class PrintKernelAssemblyTest {

    @TempDir
    Path directory;

    @Test
    void fromAnotherFolderItPrintsC2sCompilationOfTheKernel() throws Exception {
        String script = Path.of("lab", "experiments", "print-kernel-assembly").toAbsolutePath().toString();
        Subprocess.Result result = Subprocess.run(Subprocess.afterShell("cd " + directory, List.of(script, "--kernel", "word", "--size", "64k")),
                directory.resolve("logs"));
        assertEquals(0, result.exitCode(), result.toString());
        assertTrue(result.stdout().startsWith("Compiled method (c2)"), result.toString());
    }
}
