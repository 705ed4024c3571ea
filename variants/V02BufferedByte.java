///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
//SOURCES ../lib/**/*.java
//COMPILE_OPTIONS --add-modules jdk.incubator.vector
//RUNTIME_OPTIONS --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import lib.Harness;
import lib.NeedleSearch;
import lib.SingleThreaded;

/**
 * Chapter 2: the textbook answer, a BufferedInputStream and one {@code read()} per byte.
 *
 * <p>Chapter 1 without its file-sized buffer: a 64 KiB buffer refills from the file and
 * {@code read()} hands out one byte per call. The JIT inlines the call, but each byte still pays
 * for a bounds check, a position update and the stream's lock, four billion times.
 *
 * <pre>
 * How to run:   ./jbang variants/V02BufferedByte.java haystack.bin
 *
 * What you should see: each run's line on stderr, then on stdout one summary line per worker count:
 *   variant=V02BufferedByte workers=1 offset=4294967288 runs=5 mean_s=… median_s=… mbps=… cache=warm bytes=4294967296 page_cache=as-is
 * Expect the slowest chapter by far, tens of seconds per run on 4 GiB: a method call per byte.
 * Its bill per GiB: 16,384 read calls (one per 64 KiB buffer), 1 GiB returned: as few calls as chapter
 *   3 reading 64 KiB at a time, so its cost is per byte, not per call.
 * Measured figures, each with its machine, are in README.md and results/.
 * </pre>
 */
public class V02BufferedByte implements NeedleSearch, SingleThreaded {

    static final int BUFFER_BYTES = 64 * 1024;

    public static void main(String[] args) {
        Harness.run(new V02BufferedByte(), args);
    }

    @Override
    public long search(Path file, int workers) throws IOException {
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file), BUFFER_BYTES)) {
            long offset = 0;
            for (int b; (b = in.read()) >= 0; offset++) {
                if (b != 0) {
                    return NeedleSearch.wordContaining(offset);
                }
            }
            return NOT_FOUND;
        }
    }
}
