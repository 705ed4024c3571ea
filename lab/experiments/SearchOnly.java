///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
//SOURCES ../LabWithChapters.java
//COMPILE_OPTIONS --add-modules jdk.incubator.vector
//RUNTIME_OPTIONS --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import lib.harness.Phases;

/**
 * A one-shot without the harness: a JVM that does nothing but chapter 13's search, once. No
 * options, no checks, no warm-up, no early compile (lib/chapter/EarlyCompile.java), no figures;
 * only the JVM's start, the chapter's classes, a search the JIT has not compiled yet, and the exit.
 *
 * <p>Timed as a whole process beside the chapter's own one-shot and Go's, it tells apart what the
 * harness costs (its options and checks) from what the JIT costs (a first search that starts in
 * the interpreter), and shows what the early compile earns. Its {@code phases:} line on stderr has
 * {@code main_s} and {@code first_search_s}, read as in docs/startup.md.
 *
 * <pre>
 * How to run:   hyperfine -N --warmup 1 './jbang lab/experiments/SearchOnly.java haystack.bin' \
 *                   './jbang variants/V13PreadVector.java haystack.bin --runs 1 --warmup 0'
 *
 * What you should see: the needle's offset on stdout, such as 4294967288, and the phases line on
 * stderr. docs/startup.md gives the figures, with their machine.
 * </pre>
 */
public class SearchOnly {

    public static void main(String[] args) throws IOException {
        System.exit(execute(args, System.out, System.err));
    }

    /** The command line as a method, for tests: returns the exit status. */
    static int execute(String[] args, PrintStream out, PrintStream err) throws IOException {
        if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
            out.println("Usage: ./jbang lab/experiments/SearchOnly.java FILE");
            out.println("Chapter 13's search alone, once, in a JVM that does nothing else (no options, checks, warm-up or early compile):");
            out.println("prints the offset of FILE's first non-zero word, and the phases line on stderr (docs/startup.md).");
            return 0;
        }
        if (args.length != 1 || !Files.isRegularFile(Path.of(args[0]))) {
            err.println("usage: SearchOnly FILE (an existing haystack, such as one a chapter made; --help says more)");
            return 2;
        }
        Phases.end("main");
        Phases.end("checked"); // there is nothing to check: the search starts at once
        long offset = new V13PreadVector().search(Path.of(args[0]), Runtime.getRuntime().availableProcessors()); // 1 MiB reads, the chapters' default
        Phases.end("first_search");
        out.println(offset);
        Phases.print(err);
        return 0;
    }
}
