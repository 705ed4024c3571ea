import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import lib.chapter.NeedleSearch;
import lib.harness.Harness;

/** Runs the harness's whole command line inside the test's JVM, capturing what it prints. */
final class InProcess {

    private InProcess() {}

    static Subprocess.Result run(NeedleSearch search, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit;
        try (PrintStream outStream = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            exit = Harness.execute(search, args, outStream, errStream);
        }
        return new Subprocess.Result(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
