import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import lib.chapter.NeedleSearch;
import lib.harness.Harness;
import lib.haystack.Haystack;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The plain command lines the harness reads without picocli ({@code lib/harness/PlainCommandLine})
 * set exactly the options picocli sets for them, every option the harness declares compared; every
 * other command line is left to picocli, untouched. The two are reached through reflection: neither
 * is an API of the harness, and nothing in lib/ exists for this test.
 */
class PlainCommandLineTest {

    /** Command lines the plain reader reads: each must set what picocli sets. */
    private static final String[][] PLAIN = {
            {},
            {"haystack.bin"},
            {"haystack.bin", "--runs", "1", "--warmup", "0"},
            {"--runs=3", "other.bin"},
            {"--warmup", "0", "data/file with spaces.bin"},
            {"--workers", "1,2,4", "--chunk", "64k,1m"},
            {"--workers=4096", "--chunk=8"},
            {"--size", "64m", "new.bin"},
            {"--size=4g"},
            {"--runs", "0"}, // read alike; the harness refuses it after, whichever read it
            {"--runs", "999999999"},
            {"--chunk", "1073741824"},
    };

    /** Command lines it leaves to picocli: help, mistakes, any other option, anything twice. */
    private static final String[][] LEFT_TO_PICOCLI = {
            {"--help"}, {"-h"}, {"-V"}, {"--version", "x.bin"},
            {"--runs"}, {"--runs", "x"}, {"--runs", "010"}, {"--runs", "-1"}, {"--runs", "+1"}, {"--runs", "1e3"},
            {"--runs", "9999999999"}, {"--runs=", "5"}, {"--runs", "1", "--runs", "2"},
            {"--workers", "1,"}, {"--workers", ",1"}, {"--workers", "1,,2"}, {"--workers", "1", "--workers", "2"},
            {"--chunk", "1q"}, {"--size", "-5"}, {"--size", ""},
            {"a.bin", "b.bin"}, {"--"}, {"-"}, {"-x"}, {"--cold"}, {"--perf"}, {"--profile"}, {"--budgeted"},
            {"--page-cache", "huge"}, {"--csv", "x.csv"}, {"--flamegraphs", "dir"}, {"--Runs", "1"}, {"--run", "1"},
            {"haystack.bin", "--runs", "1", "--cold"},
    };

    @TempDir
    Path dir;

    @Test
    void everyPlainCommandLineSetsWhatPicocliSets() throws Exception {
        for (String[] args : PLAIN) {
            Harness plain = newHarness();
            assertTrue(readPlainly(args, plain), "not read plainly: " + Arrays.toString(args));
            Harness parsed = newHarness();
            commandLine(parsed).parseArgs(args);
            Map<String, Object> expected = options(parsed);
            assertEquals(expected, options(plain), Arrays.toString(args));
            assertTrue(expected.size() >= 13, "compared only " + expected.keySet());
        }
    }

    @Test
    void everyOtherCommandLineIsLeftToPicocliUntouched() throws Exception {
        Map<String, Object> untouched = options(newHarness());
        for (String[] args : LEFT_TO_PICOCLI) {
            Harness harness = newHarness();
            assertFalse(readPlainly(args, harness), "read plainly: " + Arrays.toString(args));
            assertEquals(untouched, options(harness), Arrays.toString(args));
        }
    }

    @Test
    void aPlainCommandLineSearchesAndARefusalReadsAsPicoclisPathWouldSayIt() throws IOException {
        Path file = dir.resolve("haystack.bin");
        Haystack.create(file, 1 << 20);
        var found = InProcess.run(new V13PreadVector(), file.toString(), "--runs", "1", "--warmup", "0");
        assertEquals(Harness.FOUND, found.exitCode(), found::toString);
        assertTrue(found.stdout().contains("offset=" + Haystack.needleOffset(1 << 20)), found::toString);

        var plainly = InProcess.run(new V13PreadVector(), file.toString(), "--runs", "0");
        var throughPicocli = InProcess.run(new V13PreadVector(), file.toString(), "--runs", "0", "--page-cache", "as-is");
        assertEquals(Harness.ERROR, plainly.exitCode(), plainly::toString);
        assertEquals(throughPicocli.exitCode(), plainly.exitCode());
        assertEquals(throughPicocli.stderr(), plainly.stderr());
        assertEquals(1, plainly.errorLines().size(), plainly::toString);
    }

    /** Every option and parameter field the harness declares, its mixins' included, by its name in the code. */
    private static Map<String, Object> options(Object command) throws IllegalAccessException {
        Map<String, Object> values = new LinkedHashMap<>();
        for (Class<?> type = command.getClass(); type != null; type = type.getSuperclass()) {
            for (Field field : type.getDeclaredFields()) {
                field.setAccessible(true);
                if (field.isAnnotationPresent(CommandLine.Mixin.class)) {
                    options(field.get(command)).forEach((name, value) -> values.put(field.getName() + "." + name, value));
                } else if (field.isAnnotationPresent(CommandLine.Option.class) || field.isAnnotationPresent(CommandLine.Parameters.class)) {
                    values.put(field.getName(), field.get(command));
                }
            }
        }
        return values;
    }

    private static Harness newHarness() throws ReflectiveOperationException {
        Constructor<Harness> constructor = Harness.class.getDeclaredConstructor(NeedleSearch.class, PrintStream.class, PrintStream.class);
        constructor.setAccessible(true);
        PrintStream discard = new PrintStream(new ByteArrayOutputStream());
        return constructor.newInstance(new V13PreadVector(), discard, discard);
    }

    private static boolean readPlainly(String[] args, Harness harness) throws ReflectiveOperationException {
        Method read = Class.forName("lib.harness.PlainCommandLine").getDeclaredMethod("read", String[].class, Harness.class);
        read.setAccessible(true);
        return (boolean) read.invoke(null, args, harness);
    }

    private static CommandLine commandLine(Harness harness) throws ReflectiveOperationException {
        Method commandLine = Harness.class.getDeclaredMethod("commandLine");
        commandLine.setAccessible(true);
        return (CommandLine) commandLine.invoke(harness);
    }
}
