///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
//SOURCES ../LabWithChapters.java
//COMPILE_OPTIONS --add-modules jdk.incubator.vector
//RUNTIME_OPTIONS --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import lab.results.*;
import lib.cli.Quote;
import lib.cli.SizeConverter;
import lib.cli.Sizes;
import lab.tools.ToolCommand;
import lib.cli.UserMistakeException;
import lib.harness.Machine;
import lib.harness.ProjectVersion;
import lib.harness.ResultsCsv;
import lib.haystack.Haystack;
import lab.tools.ChildProcess;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The size sweep: a few chapters on haystacks from small to larger than the machine's memory, to
 * show where reading stops being a memory benchmark and becomes a disk benchmark.
 *
 * <p>Each size gets a haystack of its own ({@code sizes-BYTES.bin} in {@code --haystacks}), made
 * once for all the chapters and removed after them unless {@code --keep-haystacks}; the free
 * space for the largest one (for all of them, when kept) is checked before anything is written.
 * Each chapter runs in its own JVM with {@code --csv sizes.csv}. A file that fits in memory is timed
 * warm, as on the scoreboard; past memory no run can start warm, so it is timed cold (evicted
 * first), and the O_DIRECT chapters, which never use the cache, always are.
 *
 * <pre>
 * How to run:   ./jbang lab/study/SizeSweep.java                     (256m, 1g, 4g, half of memory, 1.5 × memory)
 * A quick try:  ./jbang lab/study/SizeSweep.java --sizes 64m,256m --memory 128m --runs 1 --results /tmp/sweep
 * </pre>
 * Study runs the same round with {@code --sizes}.
 */
@Command(name = "SizeSweep", mixinStandardHelpOptions = true, versionProvider = ProjectVersion.class,
        sortOptions = false, usageHelpAutoWidth = true,
        description = "Times chapters 3, 9, 13, 14, 15 and 17 on haystacks from 256 MiB to 1.5 × memory, into results/MACHINE/sizes.csv.",
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:every chapter ran at every size", "2:a step failed (the others still ran) or an error (one line on stderr)"})
public class SizeSweep implements Callable<Integer> {

    /** The study's choice: one of each way of reading, and the two written for a cold cache and the one that leaves it alone. */
    static final List<String> SIZE_ROUND_CHOICE = List.of("V03ChunkedLong", "V09MmapParallelVector", "V13PreadVector",
            "V14DirectIo", "V15IoUring", "V17ReadDontCache");
    static final String CSV_NAME = "sizes.csv";
    /** Past memory each run is a pass over the disk, a minute for 36 GiB: two, not five. */
    static final int DEFAULT_RUNS_PAST_MEMORY = 2;
    private static final long MIB = 1L << 20;

    @Option(names = "--sizes", paramLabel = "SIZE[,SIZE...]", split = ",", hideParamSyntax = true, converter = SizeConverter.class,
            description = "Haystack sizes (default: 256m, 1g and 4g where not past 1.5 × --memory, half of --memory and 1.5 × --memory).")
    List<Long> sizes;

    @Option(names = "--memory", paramLabel = "SIZE", converter = SizeConverter.class,
            description = "The memory the sizes are measured against (default: this machine's installed memory).")
    Long memory;

    @Option(names = "--chapters", paramLabel = "VNN[,VNN...]", split = ",", hideParamSyntax = true,
            description = "The chapters (default: V03, V09, V13, V14, V15, V17).")
    List<String> chapters;

    @Option(names = "--haystacks", paramLabel = "DIR", defaultValue = ".",
            description = "Where the haystacks are made (default: the current directory); keep them out of git.")
    Path haystacks;

    @Option(names = "--keep-haystacks", description = "Leave the haystacks this round made, for another round or tool.")
    boolean keepHaystacks;

    @Option(names = "--runs", paramLabel = "N", defaultValue = "3", description = "Timed runs per chapter and size (default: ${DEFAULT-VALUE}).")
    int runs;

    @Option(names = "--warmup", paramLabel = "N", defaultValue = "1", description = "Untimed runs first (default: ${DEFAULT-VALUE}).")
    int warmup;

    @Option(names = "--runs-past-memory", paramLabel = "N", defaultValue = "" + DEFAULT_RUNS_PAST_MEMORY,
            description = "Timed runs for a file larger than --memory, with no warm-up: each is a pass over the disk (default: ${DEFAULT-VALUE}).")
    int runsPastMemory;

    @Option(names = "--results", paramLabel = "DIR", defaultValue = "results",
            description = "The results root (default: ${DEFAULT-VALUE}): rows go to DIR/MACHINE/" + CSV_NAME + ".")
    Path results;

    @Option(names = "--dry-run", description = "Print the sizes and the commands, run nothing.")
    boolean dryRun;

    /** One chapter at one size: the command and whether it is timed cold. */
    record Step(long bytes, String chapter, boolean cold, List<String> command) {}

    public static void main(String[] args) {
        ToolCommand.run("SizeSweep", new SizeSweep(System.out, System.err), args);
    }

    /** The command line as a method, for tests: returns the exit status. */
    static int execute(String[] args, java.io.PrintStream out, java.io.PrintStream err) {
        return ToolCommand.execute("SizeSweep", new SizeSweep(out, err), args, out, err);
    }

    private final PrintStream out;
    private final PrintStream err;

    SizeSweep(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        ChildProcess.requireProjectRoot();
        long memoryBytes = memory != null ? memory : Machine.current().memoryBytes();
        return run(chosenSizes(sizes, memoryBytes), memoryBytes, chapters != null ? chapters : SIZE_ROUND_CHOICE, haystacks,
                keepHaystacks, runs, warmup, runsPastMemory, CommittedMachines.ownFolder(results, "sizes-sweep", err).resolve(CSV_NAME),
                dryRun, out, err);
    }

    /**
     * The whole round, as the tool and Study run it: checks, then each size's haystack, every chapter
     * on it, and its removal. Returns 0, or 2 if a chapter failed (the others still ran).
     */
    static int run(List<Long> sizes, long memoryBytes, List<String> chapters, Path haystacks, boolean keep, int runs,
                   int warmup, int runsPastMemory, Path csv, boolean dryRun, PrintStream out, PrintStream err)
            throws IOException, InterruptedException {
        if (runs < 1 || runsPastMemory < 1 || warmup < 0) {
            throw new UserMistakeException("--runs and --runs-past-memory must be at least 1, --warmup at least 0");
        }
        List<String> names = chapterNames(chapters);
        if (names.isEmpty()) {
            err.println("sizes: no chapter of this round was asked for (it times " + String.join(", ", SIZE_ROUND_CHOICE) + "); no haystack made");
            return 0;
        }
        List<Step> steps = plan(sizes, memoryBytes, names, haystacks, runs, warmup, runsPastMemory, csv);
        if (dryRun) {
            steps.forEach(step -> out.println(String.join(" ", step.command())));
            return 0;
        }
        checkSpace(sizes, haystacks, keep);
        Files.createDirectories(csv.toAbsolutePath().getParent());
        ResultsCsv.checkWritable(csv);
        describeMachineIfUndescribed(csv.toAbsolutePath().getParent(), haystacks, runs, warmup);
        List<String> failed = new ArrayList<>();
        for (long bytes : new TreeSet<>(sizes)) {
            Path haystack = haystackFor(haystacks, bytes);
            boolean made = !Files.exists(haystack);
            Haystack.findOrCreate(haystack, OptionalLong.of(bytes), err); // a line, then progress lines, while it writes
            try {
                for (Step step : steps.stream().filter(step -> step.bytes() == bytes).toList()) {
                    err.println("sizes: " + step.chapter() + " on " + Sizes.human(bytes) + (step.cold() ? ", cold" : ", warm")
                            + " (memory: " + Sizes.human(memoryBytes) + ")");
                    ChildProcess.Ended ended = ChildProcess.of(step.command())
                            .timeLimit(ChildProcess.JBANG_START_UP, bytes * (1 + Math.max(runs + warmup, runsPastMemory)))
                            .relayOut(out::println).relayErr(err::println).run(step.chapter() + " on " + Sizes.human(bytes), err::println);
                    int status = ended.status();
                    if (ended.timedOut()) {
                        failed.add(step.chapter() + " on " + Sizes.human(bytes));
                        err.println("sizes: " + ended.timeOutLine() + "; going on");
                    } else if (status != 0 && status != 1) { // 1: all zeros, which is a result too
                        failed.add(step.chapter() + " on " + Sizes.human(bytes));
                        err.println("sizes: " + step.chapter() + " ended with status " + status + " (its message is above); going on");
                    }
                }
            } finally {
                if (made && !keep) {
                    Files.deleteIfExists(haystack);
                    err.println("sizes: removed " + Quote.name(haystack));
                }
            }
        }
        failed.forEach(step -> err.println("  failed: " + step));
        err.println("sizes: rows appended to " + csv);
        return failed.isEmpty() ? 0 : 2;
    }

    /**
     * machine.json for a results folder that has none yet, so that the notebooks find the folder:
     * this machine, and the file system the haystacks are on. A study rewrites it with its own;
     * one that is there already is left alone. A trial, as a study counts one: fewer than 5 runs or no warm-up.
     */
    static void describeMachineIfUndescribed(Path folder, Path haystacks, int runs, int warmup) throws IOException {
        Path json = folder.resolve("machine.json");
        if (!Files.exists(json)) {
            try {
                Files.writeString(json, Machine.json(Machine.current().description(haystacks.toAbsolutePath(), Instant.now(), runs < 5 || warmup == 0)));
            } catch (IOException e) {
                throw lib.cli.IoMessage.naming(json, e); // a full disk's message names no file
            }
        }
    }

    /** The sizes asked for, or the default ones for {@code memoryBytes}; each a positive multiple of 8 bytes. */
    static List<Long> chosenSizes(List<Long> asked, long memoryBytes) {
        if (asked != null) {
            for (long bytes : asked) {
                if (bytes < Long.BYTES || bytes % Long.BYTES != 0) {
                    throw new UserMistakeException("--sizes must be positive multiples of 8 bytes, not " + bytes);
                }
            }
            return List.copyOf(new TreeSet<>(asked));
        }
        if (memoryBytes < MIB) {
            throw new UserMistakeException("--memory " + memoryBytes + " is less than 1 MiB: give the machine's memory, e.g. 24g");
        }
        // Half of memory and 1.5 × memory, rounded down to whole MiB: a haystack's size is a multiple of 8.
        // The fixed sizes only up to 1.5 × memory: the sweep ends there, as its help says, on a small machine too.
        long half = memoryBytes / 2 / MIB * MIB, pastMemory = memoryBytes / 2 * 3 / MIB * MIB;
        TreeSet<Long> sizes = new TreeSet<>(List.of(256 * MIB, 1024 * MIB, 4096 * MIB));
        sizes.removeIf(bytes -> bytes > pastMemory);
        sizes.addAll(List.of(half, pastMemory));
        return List.copyOf(sizes);
    }

    /** "256m,1g" as byte counts, or one line naming the size that is not one. */
    static List<Long> parseSizes(String text) {
        List<Long> bytes = new ArrayList<>();
        for (String size : text.split(",", -1)) {
            try {
                bytes.add(Sizes.parse(size));
            } catch (IllegalArgumentException e) {
                throw new UserMistakeException("--sizes: " + e.getMessage());
            }
        }
        return bytes;
    }

    /** "V13", "v13" or "V13PreadVector" as the chapter's script name, checked against variants/Contents.java. */
    static List<String> chapterNames(List<String> asked) {
        List<String> scripts = List.copyOf(Contents.traits().sequencedKeySet());
        List<String> names = new ArrayList<>();
        for (String name : asked) {
            String number = name.trim().matches("[vV]\\d{1,2}.*")
                    ? String.format(Locale.ROOT, "V%02d", Integer.parseInt(name.trim().replaceAll("^[vV](\\d{1,2}).*", "$1"))) : "?";
            names.add(scripts.stream().filter(script -> script.startsWith(number)).findFirst().orElseThrow(
                    () -> new UserMistakeException("--chapters " + name + ": no such chapter in variants/")));
        }
        return names;
    }

    static Path haystackFor(Path directory, long bytes) {
        return directory.resolve("sizes-" + bytes + ".bin");
    }

    /** Every chapter at every size, smallest size first. */
    static List<Step> plan(List<Long> sizes, long memoryBytes, List<String> chapters, Path haystacks, int runs, int warmup,
                           int runsPastMemory, Path csv) {
        List<Step> steps = new ArrayList<>();
        // The chapters that read around the page cache, as their classes declare (lib/chapter/BypassesPageCache):
        // they never consult the page cache, so warming it for them would only cost a pass over the file.
        List<String> alwaysCold = Contents.declaring(lib.chapter.ChapterTrait.BYPASSES_PAGE_CACHE);
        for (long bytes : new TreeSet<>(sizes)) {
            Path haystack = haystackFor(haystacks, bytes);
            boolean pastMemory = bytes > memoryBytes;
            for (String chapter : chapters) {
                boolean cold = pastMemory || alwaysCold.contains(chapter);
                List<String> command = new ArrayList<>(List.of("./jbang", "variants/" + chapter + ".java", haystack.toString(),
                        "--runs", Integer.toString(pastMemory ? runsPastMemory : runs),
                        "--warmup", Integer.toString(pastMemory ? 0 : warmup), "--csv", csv.toString()));
                if (cold) {
                    command.add("--cold");
                }
                steps.add(new Step(bytes, chapter, cold, command));
            }
        }
        return steps;
    }

    /**
     * Refuses, in one line and before a byte is written, sizes the disk cannot hold: the largest new
     * haystack (each is removed before the next is made), or all of them with {@code keep}.
     */
    static void checkSpace(List<Long> sizes, Path haystacks, boolean keep) throws IOException {
        if (!Files.isDirectory(haystacks)) {
            throw new UserMistakeException("--haystacks " + Quote.name(haystacks) + " is not an existing directory");
        }
        long needed = 0;
        for (long bytes : new TreeSet<>(sizes)) {
            if (!Files.exists(haystackFor(haystacks, bytes))) {
                needed = keep ? Math.min(Long.MAX_VALUE - bytes, needed) + bytes : Math.max(needed, bytes); // no overflow
            }
        }
        long usable = Files.getFileStore(haystacks).getUsableSpace();
        if (needed > usable - Haystack.SPARE_DISK_BYTES) {
            throw new UserMistakeException("the sizes need " + Sizes.human(needed) + " on the disk of " + Quote.name(haystacks)
                    + (keep ? " (all of them, with --keep-haystacks)" : " (the largest; each is removed before the next)")
                    + ", and only " + Sizes.human(usable) + " is free; ask for smaller --sizes or free some space");
        }
    }
}
