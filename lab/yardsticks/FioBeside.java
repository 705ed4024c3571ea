///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
//SOURCES ../LabWithChapters.java
//COMPILE_OPTIONS --add-modules jdk.incubator.vector
//RUNTIME_OPTIONS --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import lab.results.*;
import lib.chapter.NeedleSearch;
import lib.cli.SizeConverter;
import lab.tools.ToolCommand;
import lib.cli.UserMistakeException;
import lib.harness.Measurement;
import lib.harness.PageCache;
import lib.harness.ProjectVersion;
import lib.harness.ResultsCsv;
import lib.harness.RunOptions;
import lib.counters.Stats;
import lib.haystack.Haystack;
import lab.tools.ChapterCall;
import lab.tools.ChildProcess;
import lab.tools.HeldLines;
import lab.tools.ResultsOutput;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The cold chapters beside fio, the yardstick for what this disk can do: fio reads the same file
 * with the chapters' block size and job count, each job its own contiguous half (or third...), as
 * the chapters' workers do, interleaved with chapters 14 and 15 over several rounds; each chapter
 * makes {@link #CHAPTER_RUNS} timed runs a round, after a warm-up, and counts by their median.
 *
 * <p>fio's jobs: O_DIRECT with psync (one read at a time per job, like chapter 14), libaio and
 * io_uring (a queue of reads per job, like chapter 15) at depths from 2 to 32, around chapter 15's
 * 4 of 1 MiB (so fio's best is not held to the chapter's choice), each with its buffers in 4 KiB pages
 * ({@code --iomem=malloc}) and in 2 MiB pages ({@code --iomem=shmhuge}, which needs 2 MiB pages
 * reserved: {@code vm.nr_hugepages}); then buffered reads and mmap, each after the file is evicted.
 * O_DIRECT pins the buffer's pages for every read, so their size can decide the speed.
 *
 * <p>fio reads and never looks at what it read; a chapter scans every byte. So the O_DIRECT jobs
 * run once more, on the larger pages available, <em>checking</em> each block as it lands: fio's
 * {@code --verify=pattern --verify_pattern=0} compares it with zeros, which is this project's
 * search. fio reports the first byte that is not zero and counts it as an error; here that byte,
 * in the word that holds it, must be the chapters' answer, or the sitting fails.
 *
 * <p>Every row goes to {@code fio.csv} in the results schema: the chapters' rows written by the
 * chapters themselves ({@code --csv}), fio's with the job's name in the {@code chapter} column. At
 * the end each chapter's median is printed as a fraction of fio's best O_DIRECT job that only reads,
 * and of its best that checks.
 *
 * <pre>
 * How to run:   ./jbang lab/yardsticks/FioBeside.java haystack.bin --rounds 3
 * </pre>
 */
@Command(name = "FioBeside", mixinStandardHelpOptions = true, versionProvider = ProjectVersion.class,
        sortOptions = false, usageHelpAutoWidth = true,
        description = "Runs fio on FILE beside the cold chapters 14 and 15, interleaved over rounds, into results/MACHINE/fio.csv.",
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:every run ran", "2:a run failed, fio is missing, or an error (one line on stderr)"})
public class FioBeside implements Callable<Integer> {

    static final String CSV_NAME = "fio.csv";
    /**
     * fio's reads in flight per job for libaio and io_uring: powers of two from 2 to 32, shallower and
     * deeper than chapter 15's at 1 MiB reads (a literal, for picocli's default; FioBesideTest holds
     * it to the chapter's). On a virtual disk fio's best reading job can be one of the shallowest.
     */
    static final String QUEUE_DEPTHS = "2,4,8,16,32";
    /** fio's terse output, version 3: the fields used here, counted from 0 (see fio's HOWTO, "Terse output"). */
    static final int TERSE_READ_KIB = 5, TERSE_READ_RUNTIME_MS = 8;

    @Mixin
    RunOptions.HaystackFile haystack;

    @Option(names = "--rounds", paramLabel = "N", defaultValue = "3", description = "Rounds of every run (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--workers", paramLabel = "N", description = "Chapter workers and fio jobs (default: the number of processors, the chapters' own).")
    Integer workers;

    @Option(names = "--chunk", paramLabel = "SIZE", converter = SizeConverter.class, defaultValue = "1m",
            description = "The chapters' bytes per read and fio's block size (default: ${DEFAULT-VALUE}, the chapters' own).")
    long chunkBytes;

    @Option(names = "--queue-depth", paramLabel = "N[,N...]", split = ",", hideParamSyntax = true, defaultValue = QUEUE_DEPTHS,
            description = "fio's reads in flight per job for libaio and io_uring, each a job of its own (default: ${DEFAULT-VALUE}: around chapter 15's 4).")
    List<Integer> queueDepths;

    @Option(names = "--results", paramLabel = "DIR", defaultValue = "results",
            description = "The results root (default: ${DEFAULT-VALUE}): rows go to DIR/MACHINE/" + CSV_NAME + ".")
    Path results;

    @Option(names = "--dry-run", description = "Print the commands of one round, run nothing.")
    boolean dryRun;

    /** The last word of a job's name when it checks what it reads (StudyResults keeps such jobs apart too). */
    static final String CHECKING = "checking";

    /** One fio job: its engine, reads in flight, O_DIRECT or not, where its buffers live, and whether it checks every byte is zero. */
    record FioJob(String engine, int depth, boolean direct, String iomem, boolean checking) {

        FioJob(String engine, int depth, boolean direct, String iomem) {
            this(engine, depth, direct, iomem, false);
        }

        /** As the chapter column names it: "fio io_uring qd16 O_DIRECT 2MiB-pages", "… 2MiB-pages checking". */
        String name() {
            return "fio " + engine + (depth > 1 ? " qd" + depth : "") + (direct ? " O_DIRECT" : " buffered")
                    + (iomem.equals("shmhuge") ? " 2MiB-pages" : direct ? " 4KiB-pages" : "") + (checking ? " " + CHECKING : "");
        }

        /**
         * fio's command: the options every job shares, then one job per worker, each with its own
         * contiguous share of the file's whole blocks ({@link #shares}), so that together they read
         * all of it, whatever the worker count.
         */
        List<String> command(Path file, long fileBytes, int jobs, long blockBytes) {
            List<String> command = new ArrayList<>(List.of("fio", "--filename=" + file,
                    "--readonly", "--rw=read", "--bs=" + blockBytes, "--ioengine=" + engine, "--iodepth=" + depth,
                    "--direct=" + (direct ? 1 : 0), "--iomem=" + iomem, "--group_reporting", "--output-format=terse", "--terse-version=3"));
            if (checking) {
                command.addAll(List.of("--verify=pattern", "--verify_pattern=0")); // every block compared with zeros as it lands
            }
            for (long[] share : shares(fileBytes, jobs, blockBytes)) { // each --name starts a job; the options above are global
                command.addAll(List.of("--name=" + name().replace(' ', '-'), "--offset=" + share[0], "--size=" + share[1]));
            }
            return List.copyOf(command);
        }
    }

    /**
     * Each job's {offset, bytes}: the file's whole blocks dealt out in contiguous shares, the first
     * {@code blocks % jobs} shares one block longer, so the shares cover every block (three jobs on
     * 64 blocks read 22, 21 and 21). Never an empty share: fio reads a job of size 0 as "the whole
     * file", so a file of fewer blocks than jobs gets one job a block.
     */
    static List<long[]> shares(long fileBytes, int jobs, long blockBytes) {
        long blocks = fileBytes / blockBytes;
        int used = (int) Math.max(1, Math.min(jobs, blocks));
        List<long[]> shares = new ArrayList<>();
        long offset = 0;
        for (int job = 0; job < used; job++) {
            long bytes = (blocks / used + (job < blocks % used ? 1 : 0)) * blockBytes;
            shares.add(new long[] {offset, bytes});
            offset += bytes;
        }
        return shares;
    }

    /**
     * Every fio job of a round: the O_DIRECT ones on each page size (2 MiB only where the kernel has
     * 2 MiB pages reserved), the same again checking, on the larger pages, then buffered and mmap.
     */
    static List<FioJob> jobs(List<Integer> queueDepths, boolean hugePages) {
        List<FioJob> jobs = new ArrayList<>();
        for (String iomem : hugePages ? List.of("malloc", "shmhuge") : List.of("malloc")) {
            jobs.addAll(directJobs(queueDepths, iomem, false));
        }
        jobs.addAll(directJobs(queueDepths, hugePages ? "shmhuge" : "malloc", true));
        jobs.add(new FioJob("psync", 1, false, "malloc"));
        jobs.add(new FioJob("mmap", 1, false, "malloc"));
        return jobs;
    }

    private static List<FioJob> directJobs(List<Integer> queueDepths, String iomem, boolean checking) {
        List<FioJob> jobs = new ArrayList<>(List.of(new FioJob("psync", 1, true, iomem, checking)));
        for (int depth : queueDepths) {
            jobs.add(new FioJob("libaio", depth, true, iomem, checking));
            jobs.add(new FioJob("io_uring", depth, true, iomem, checking));
        }
        return jobs;
    }

    /** fio's report of a block that is not all zeros: where the block starts, and the first bad byte in it. */
    private static final Pattern BAD_BLOCK = Pattern.compile("verify failed at file .* offset (\\d+), length"),
            BAD_BYTE_IN_BLOCK = Pattern.compile("bad pattern block offset (\\d+)");

    /**
     * The offset of the first word a checking job found not zero, from fio's own report of the
     * failed check ("bad pattern block offset" within the block of "verify failed at … offset");
     * empty when it reports none.
     */
    static OptionalLong nonZeroWordFound(String output) {
        Matcher block = BAD_BLOCK.matcher(output), byteInBlock = BAD_BYTE_IN_BLOCK.matcher(output);
        if (!block.find() || !byteInBlock.find()) {
            return OptionalLong.empty();
        }
        try {
            long badByte = Math.addExact(Long.parseLong(block.group(1)), Long.parseLong(byteInBlock.group(1)));
            return OptionalLong.of(NeedleSearch.wordContaining(badByte)); // the chapters' answer is a word's offset
        } catch (ArithmeticException | NumberFormatException notAnOffset) {
            return OptionalLong.empty();
        }
    }

    /**
     * Bytes and seconds of one fio run, from its one line of terse output (with --group_reporting).
     * Output of another shape (another fio version, a short or garbled line) is the environment's
     * fault: one line naming what was expected, never a stack trace.
     */
    static double[] bytesAndSeconds(String terse) {
        String line = terse.lines().filter(text -> text.startsWith("3;")).findFirst()
                .orElseThrow(() -> new UserMistakeException("fio's output has no terse version 3 line: " + firstLine(terse)));
        String[] fields = line.split(";", -1);
        double bytes, seconds;
        try {
            bytes = Long.parseLong(fields[TERSE_READ_KIB]) * 1024.0;
            seconds = Long.parseLong(fields[TERSE_READ_RUNTIME_MS]) / 1000.0;
        } catch (ArrayIndexOutOfBoundsException | NumberFormatException e) {
            throw new UserMistakeException("fio's terse line has no whole numbers in fields " + TERSE_READ_KIB + " (KiB read) and "
                    + TERSE_READ_RUNTIME_MS + " (ms): " + firstLine(line));
        }
        if (bytes <= 0 || seconds <= 0) {
            throw new UserMistakeException("fio read nothing: " + firstLine(line));
        }
        return new double[] {bytes, seconds};
    }

    /** The first line of fio's output, cut short: enough to recognise it in a one-line message. */
    private static String firstLine(String output) {
        String first = output.strip().lines().findFirst().orElse("(no output)");
        return first.length() > 200 ? first.substring(0, 200) + "…" : first;
    }

    /** 2 MiB pages the kernel holds free for {@code --iomem=shmhuge}, from /proc/meminfo's HugePages_Free. */
    static long freeHugePages(String meminfo) {
        return meminfo.lines().filter(line -> line.startsWith("HugePages_Free:"))
                .mapToLong(line -> Long.parseLong(line.replaceAll("\\D", ""))).findFirst().orElse(0);
    }

    /**
     * The 2 MiB pages shmhuge needs: each job's buffers, reads in flight × block size, plus the
     * 4 KiB page fio adds to align them for O_DIRECT, rounded up to 2 MiB, and one page more per
     * job. That last page is measured, not derived: fio 3.33's 2 jobs of 32 × 1 MiB failed in
     * shmget with 34 pages free and ran with 36; of 16 × 1 MiB, failed with 19 and ran with 20.
     */
    static long hugePagesNeeded(int jobs, int queueDepth, long blockBytes) {
        return jobs * (Math.ceilDiv(queueDepth * blockBytes + O_DIRECT_ALIGNMENT_BYTES, 2L << 20) + 1);
    }

    static final long O_DIRECT_ALIGNMENT_BYTES = 4096;

    public static void main(String[] args) {
        ToolCommand.run("FioBeside", new FioBeside(), args);
    }

    /** The command line as a method, for tests: returns the exit status. */
    static int execute(String[] args, PrintStream out, PrintStream err) {
        return ToolCommand.execute("FioBeside", new FioBeside(), args, out, err);
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        haystack.check();
        if (queueDepths.isEmpty()) { // "--queue-depth ," is an empty list to picocli: no libaio or io_uring job
            throw new UserMistakeException("--queue-depth needs at least one depth, such as 16 or " + QUEUE_DEPTHS);
        }
        if (rounds < 1 || queueDepths.stream().anyMatch(depth -> depth < 1 || depth > 4096) || (workers != null && workers < 1)) {
            throw new UserMistakeException("--rounds and --workers must be at least 1, --queue-depth between 1 and 4096");
        }
        if (chunkBytes < 4096 || chunkBytes % 4096 != 0) {
            throw new UserMistakeException("--chunk must be a multiple of 4 KiB, O_DIRECT's block, not " + chunkBytes);
        }
        ChildProcess.requireProjectRoot();
        if (ChildProcess.onPath("fio").isEmpty()) {
            throw new UserMistakeException("fio is not installed: lab/setup/setup-fio installs it (apt-get install fio)");
        }
        int jobCount = workers != null ? workers : Runtime.getRuntime().availableProcessors();
        long freePages = freeHugePages(Files.readString(Path.of("/proc/meminfo")));
        int deepest = queueDepths.stream().mapToInt(Integer::intValue).max().orElseThrow();
        long needed = hugePagesNeeded(jobCount, deepest, chunkBytes);
        boolean hugePages = freePages >= needed;
        HeldLines notes = new HeldLines();
        if (!hugePages) {
            notes.stream().println("fio: only " + freePages + " free 2 MiB pages reserved, " + needed
                    + " needed: no --iomem=shmhuge runs (sysctl vm.nr_hugepages=" + needed + " reserves them, with none in use)");
        }
        List<FioJob> jobs = jobs(queueDepths, hugePages);
        // the chapters that read around the page cache, as their classes declare (lib/chapter/BypassesPageCache)
        List<String> chapters = Contents.declaring(lib.chapter.ChapterTrait.BYPASSES_PAGE_CACHE);
        Path csv = CommittedMachines.ownFolder(results, "fio", notes.stream()).resolve(CSV_NAME);
        if (dryRun) {
            notes.sayTo(System.err);
            for (String chapter : chapters) {
                System.out.println(String.join(" ", chapterChild(chapter, jobCount, csv).command()));
            }
            for (FioJob job : jobs) {
                System.out.println(String.join(" ", job.command(haystack.file(), haystack.size().orElse(Haystack.DEFAULT_BYTES), jobCount, chunkBytes)));
            }
            return 0;
        }
        ResultsOutput.check(csv, haystack.file());
        Path file = haystack.findOrCreateFile(System.err);
        long fileBytes = Files.size(file);
        if (fileBytes < chunkBytes || fileBytes % chunkBytes != 0) {
            throw new UserMistakeException(lib.cli.Quote.name(file) + " holds " + fileBytes + " bytes, not a whole number of --chunk blocks of "
                    + chunkBytes + ": fio's O_DIRECT jobs read whole blocks, so they would leave its tail unread (give a --chunk that divides it)");
        }
        ResultsOutput.create(csv, file);
        notes.sayTo(System.err);
        Map<String, Map<Integer, Double>> mbps = new LinkedHashMap<>(); // name -> round -> MB/s
        int failures = 0;
        OptionalLong answer = OptionalLong.empty(); // the chapters' answer, which fio's checking jobs must find too
        for (int round = 1; round <= rounds; round++) {
            System.err.println("fio: round " + round + " of " + rounds);
            for (String chapter : chapters) {
                ChildProcess child = chapterChild(chapter, jobCount, csv).timeLimit(ChildProcess.JBANG_START_UP, fileBytes * (CHAPTER_RUNS + 1))
                        .relayOut(System.out::println).relayErr(System.err::println);
                ChapterCall call = ChapterCall.run(child, csv, chapter, System.err::println);
                if (!call.ran()) {
                    System.err.println("fio: " + call.failure());
                    failures++;
                    continue;
                }
                for (Map<String, String> row : call.appended()) { // what the chapter found
                    mbps.computeIfAbsent(chapter, c -> new TreeMap<>()).put(round, Double.parseDouble(row.get("mbps")));
                    answer = OptionalLong.of(Long.parseLong(row.get("offset")));
                }
            }
            for (FioJob job : jobs) {
                PageCache.evict(file); // buffered and mmap start cold; O_DIRECT never looks
                ChildProcess.Ended ran = ChildProcess.of(job.command(file, fileBytes, jobCount, chunkBytes))
                        .timeLimit(ChildProcess.PROGRAM_START_UP, fileBytes).run("fio " + job.name(), System.err::println);
                String out = ran.timedOut() ? ran.timeOutLine() : String.join("\n", ran.stdout()) + "\n" + String.join("\n", ran.stderr());
                int status = ran.timedOut() ? -1 : ran.status();
                OptionalLong found = job.checking() ? nonZeroWordFound(out) : OptionalLong.empty();
                if (status != 0 && found.isEmpty()) { // a checking job that found the needle says so as a failed check
                    System.err.println("fio: " + job.name() + " failed: " + out.strip().lines().findFirst().orElse(""));
                    failures++;
                    continue;
                }
                if (job.checking() && !found.equals(answer)) {
                    System.err.println("fio: " + job.name() + " found " + (found.isPresent() ? "a non-zero word at " + found.getAsLong()
                            : "only zeros") + ", where the chapters found " + (answer.isPresent() ? "one at " + answer.getAsLong() : "none"));
                    failures++;
                    continue;
                }
                double[] figures = bytesAndSeconds(out);
                if (!job.checking() && (long) figures[0] != fileBytes) { // a checking job stops at the needle; one that only reads must read all
                    System.err.println("fio: " + job.name() + " read " + (long) figures[0] + " of the file's " + fileBytes + " bytes; not recorded");
                    failures++;
                    continue;
                }
                Measurement.Result result = new Measurement.Result(job.name(), jobCount, "cold", (long) figures[0],
                        OptionalLong.of(chunkBytes), found.orElse(-1), new double[0], new double[] {figures[1]});
                System.out.println(result.summaryLine());
                ResultsCsv.append(csv, List.of(ResultsCsv.row(result)));
                mbps.computeIfAbsent(job.name(), name -> new TreeMap<>()).put(round, result.megabytesPerSecond());
            }
        }
        summary(jobCount, chunkBytes, mbps).forEach(System.out::println);
        System.err.println("fio: rows appended to " + csv);
        return failures == 0 ? 0 : 2;
    }

    /**
     * A chapter's timed runs in each round, after one warm-up; its figure for the round is their median.
     * One run straight after the warm-up caught a JVM still compiling: chapter 14 read at 2.0, 2.4 and
     * 2.6 GB/s in its first three timed runs on an AVX2-only EPYC (docs/cold.md).
     */
    static final int CHAPTER_RUNS = 3;

    private ChildProcess chapterChild(String chapter, int jobCount, Path csv) {
        return ChildProcess.chapter(chapter, List.of(haystack.file().toString(), "--cold", "--runs", Integer.toString(CHAPTER_RUNS), "--warmup", "1",
                "--workers", Integer.toString(jobCount), "--chunk", Long.toString(chunkBytes), "--csv", csv.toString()));
    }

    /**
     * Each run's median MB/s over the rounds, and each chapter's as a fraction of fio's best
     * O_DIRECT job that only reads, and of its best that checks what it reads: the results' own
     * reading of fio.csv ({@link FioBesideResults#fractions}), here from the rounds just run.
     */
    static List<String> summary(int jobCount, long chunkBytes, Map<String, Map<Integer, Double>> mbps) {
        List<String> lines = new ArrayList<>();
        mbps.forEach((name, rounds) -> lines.add(String.format(Locale.ROOT, "median %-48s %,8.0f MB/s (%d rounds)", name,
                Stats.median(rounds.values().stream().mapToDouble(Double::doubleValue).toArray()), rounds.size())));
        FioBesideResults.fractions(jobCount, chunkBytes, mbps).forEach(fraction -> lines.add(FioBesideResults.describe(fraction) + "."));
        return lines;
    }
}
