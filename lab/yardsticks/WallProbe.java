///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
//SOURCES ../Lab.java WallMemoryRead.java WallMemoryReadHuge.java WallMemoryReadWidest.java WallPageCacheCopy.java
//COMPILE_OPTIONS --add-modules jdk.incubator.vector
//RUNTIME_OPTIONS --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED

import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import lib.chapter.NeedleSearch;
import lib.cli.Quote;
import lib.harness.Harness;
import lab.yardsticks.WallMemoryRead;
import lab.yardsticks.WallMemoryReadHuge;
import lab.yardsticks.WallMemoryReadWidest;
import lab.yardsticks.WallPageCacheCopy;

/**
 * Measures this machine's walls, the figures no chapter can beat, with the chapters' own harness:
 *
 * <ul>
 *   <li>{@code WallMemoryRead}: the 256-bit vector kernel over an in-memory copy of the haystack,
 *       in 4 KiB pages. Pure memory-read bandwidth, the ceiling for a mapping of small folios.
 *   <li>{@code WallMemoryReadHuge}: the same in 2 MiB pages, checked in {@code /proc/self/smaps}
 *       ({@code AnonHugePages}): the ceiling for a mapping of a page cache in 2 MiB folios. Where the
 *       kernel gives no 2 MiB page it says so (exit 2) and records nothing.
 *   <li>{@code WallMemoryReadWidest}: the first, with the widest vectors the CPU has (chapter 12's
 *       512-bit kernel with AVX-512): the ceiling for the chapters that scan with them.
 *   <li>{@code WallPageCacheCopy}: parallel positional reads of the cached file with no scan. The
 *       kernel's copy rate, the ceiling for the pread chapters.
 * </ul>
 *
 * Every option is the chapters' (FILE, --workers, --runs, --warmup, --csv, ...; {@code --chunk} for
 * the copy probe only, since the memory probe reads nothing), and the output is theirs: a
 * {@code variant=… workers=… mbps=…} line per worker count and, with {@code --csv}, a row with
 * the chapter column set to the probe's name.
 *
 * <pre>
 * How to run:   ./jbang lab/yardsticks/WallProbe.java [memory|memory-huge|memory-widest|copy] haystack.bin --workers 1,2 --csv results/wall.csv
 * </pre>
 *
 * Without a first argument all four run, in that order; {@code memory,copy} runs those two. Each memory probe allocates a copy of the
 * file in RAM (4 GiB for the default haystack) during its first warm-up run, so keep
 * {@code --warmup} at 1 or more; it gives the memory back before the next probe starts.
 */
public class WallProbe {

    /** The probes, by the names the first argument gives them, in the order they run without one. */
    static final List<String> PROBES = List.of("memory", "memory-huge", "memory-widest", "copy");

    public static void main(String[] args) {
        System.exit(execute(args, System.out, System.err));
    }

    /** The command line as a method, for tests: returns the exit status. */
    static int execute(String[] args, PrintStream out, PrintStream err) {
        if (List.of(args).contains("--help") || List.of(args).contains("-h")) { // once, not once per probe
            out.println("Usage: ./jbang lab/yardsticks/WallProbe.java [memory|memory-huge|memory-widest|copy[,...]] [FILE] [a chapter's options]");
            out.println("Measures this machine's walls: memory scans an in-memory copy of FILE in 4 KiB pages, memory-huge in 2 MiB pages,");
            out.println("memory-widest in 4 KiB pages with the CPU's widest vectors; copy reads the cached file in parallel with no scan;");
            out.println("without a first argument all four run, in that order.");
            out.println("Each probe takes a chapter's options and prints a chapter's output, its chapter column the probe's name:");
            out.println();
            return Harness.execute(new WallPageCacheCopy(), new String[] {"--help"}, out, err);
        }
        List<String> which = PROBES;
        if (args.length > 0 && isProbeList(args[0])) {
            which = List.of(args[0].split(","));
            args = Arrays.copyOfRange(args, 1, args.length);
        } else if (meantAsProbes(args)) {
            err.println("WallProbe: " + Quote.name(args[0]) + " is no probe: name " + String.join(", ", PROBES)
                    + " or several joined by commas, before FILE (or none, for all four)");
            return Harness.ERROR;
        }
        int status = Harness.FOUND, worst = Harness.FOUND;
        for (String wall : which) {
            NeedleSearch probe = switch (wall) {
                case "memory" -> new WallMemoryRead();
                case "memory-huge" -> new WallMemoryReadHuge();
                case "memory-widest" -> new WallMemoryReadWidest();
                default -> new WallPageCacheCopy();
            };
            try {
                status = Harness.execute(probe, args, out, err);
            } finally {
                if (probe instanceof WallMemoryRead memory) {
                    memory.close(); // its copy of the file goes back before the next probe allocates its own
                }
            }
            if (status != Harness.FOUND && !wall.equals("memory-huge")) {
                break; // a bad option or a failed run: one error line is enough
            }
            worst = Math.max(worst, status); // no 2 MiB page here is no reason to leave out the copy wall
        }
        return Math.max(worst, status);
    }

    private static boolean isProbeList(String word) {
        List<String> names = List.of(word.split(","));
        return !names.isEmpty() && PROBES.containsAll(names);
    }

    /**
     * Whether the first argument, no probe list, was meant as one: a word followed by a second word
     * (a chapter takes one FILE, so two can only be the probes and FILE), or a list of which some are
     * probes ("memory,cpy").
     */
    private static boolean meantAsProbes(String[] args) {
        if (args.length == 0 || args[0].startsWith("-")) {
            return false;
        }
        boolean fileFollows = args.length > 1 && !args[1].startsWith("-");
        return fileFollows || List.of(args[0].split(",")).stream().anyMatch(PROBES::contains);
    }
}
