///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
//SOURCES ../lib/*.java
//COMPILE_OPTIONS --add-modules jdk.incubator.vector
//RUNTIME_OPTIONS --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED

import java.util.Arrays;
import java.util.List;
import lib.Harness;
import lib.NeedleSearch;
import lib.WallMemoryRead;
import lib.WallPageCacheCopy;

/**
 * Measures this machine's two walls, the figures no chapter can beat, with the chapters' own harness:
 *
 * <ul>
 *   <li>{@code WallMemoryRead}: the 256-bit vector kernel over an in-memory copy of the haystack.
 *       Pure memory-read bandwidth, the ceiling for the mmap chapters.
 *   <li>{@code WallPageCacheCopy}: parallel positional reads of the cached file with no scan. The
 *       kernel's copy rate, the ceiling for the pread chapters.
 * </ul>
 *
 * Every option is the chapters' (FILE, --workers, --runs, --warmup, --csv, --chunk, ...), and the
 * output is theirs: a {@code variant=… workers=… mbps=…} line per worker count and, with
 * {@code --csv}, a row with the chapter column set to the probe's name.
 *
 * <pre>
 * How to run:   ./jbang tools/WallProbe.java [memory|copy] haystack.bin --workers 1,2 --csv results/wall.csv
 * </pre>
 *
 * The memory probe allocates a copy of the file in RAM (4 GiB for the default haystack) during its
 * first warm-up run, so keep {@code --warmup} at 1 or more.
 */
public class WallProbe {

    public static void main(String[] args) {
        List<String> which = List.of("memory", "copy");
        if (args.length > 0 && which.contains(args[0])) {
            which = List.of(args[0]);
            args = Arrays.copyOfRange(args, 1, args.length);
        }
        int status = Harness.FOUND;
        for (String wall : which) {
            NeedleSearch probe = wall.equals("memory") ? new WallMemoryRead() : new WallPageCacheCopy();
            status = Harness.execute(probe, args, System.out, System.err);
            if (status != Harness.FOUND) {
                break; // a bad option or a failed run: one error line is enough
            }
        }
        System.exit(status);
    }
}
