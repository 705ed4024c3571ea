///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
//SOURCES ../lib/Library.java
//COMPILE_OPTIONS --add-modules jdk.incubator.vector
//RUNTIME_OPTIONS --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import lib.chapter.ExternalProgram;
import lib.chapter.NeedleSearch;
import lib.chapter.SingleThreaded;
import lib.harness.Harness;
import lib.linux.DiesWithThisProcess;

/**
 * Chapter 0: {@code cmp haystack.bin /dev/zero} — before writing any Java, ask the shell.
 *
 * <p>GNU cmp compares the file with an endless stream of zeros and stops at the first byte that
 * differs: plain buffered reads and a byte compare, in C, one thread. No Java takes part in the
 * search; the harness only starts cmp for each run, times it from start to exit (a millisecond or
 * so of that is starting the process), and turns its answer, a byte counted from 1, into ours.
 *
 * <pre>
 * How to run:   ./jbang variants/V00Cmp.java haystack.bin
 * What you should see, last line of stdout (the figures depend on the machine; README and results/ hold measured ones):
 *   variant=V00Cmp workers=1 offset=4294967288 runs=5 mean_s=… median_s=… mbps=… cache=warm bytes=4294967296 page_cache=as-is
 * A yardstick, a plain single-threaded reader in C: well ahead of chapter 2, a figure for the Java chapters to beat.
 * Its bill per GiB: about 524,288 read calls (4 KiB at a time, of the file and of /dev/zero), 2 GiB
 *   returned.
 * </pre>
 */
public class V00Cmp implements NeedleSearch, SingleThreaded, ExternalProgram {

    public static void main(String[] args) {
        Harness.run(new V00Cmp(), args);
    }

    /** cmp's one line when a byte differs: "FILE /dev/zero differ: byte N, line 1" ("char" in older versions). */
    private static final Pattern DIFFERS = Pattern.compile("differ: (?:byte|char) (\\d+)");
    /** More than cmp ever says about one comparison; what is beyond it is not read. */
    private static final int MAX_OUTPUT_BYTES = 64 << 10;

    @Override
    public long search(Path file, int workers) throws IOException {
        ProcessBuilder builder = new ProcessBuilder("cmp", "--", file.toString(), "/dev/zero")
                .redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        builder.environment().put("LC_ALL", "C"); // its message in English, to be read below
        Process process = DiesWithThisProcess.start(builder); // under the parent-death signal: a JVM killed outright takes cmp with it
        String output;
        int status;
        try (InputStream out = process.getInputStream()) {
            output = new String(out.readNBytes(MAX_OUTPUT_BYTES), StandardCharsets.UTF_8);
            out.transferTo(OutputStream.nullOutputStream()); // never leave cmp blocked on a full pipe
            status = process.waitFor();
        } catch (InterruptedException e) {
            process.destroy();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while cmp was comparing");
        }
        Matcher differs = DIFFERS.matcher(output);
        if (status == 1 && differs.find()) {
            return NeedleSearch.wordContaining(Long.parseLong(differs.group(1)) - 1);
        }
        if (status == 1 && output.contains("EOF on " + file)) {
            return NOT_FOUND; // the file ended before any byte differed from zero
        }
        throw new IOException("cmp failed (status " + status + "): " + output.strip());
    }
}
