///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
//SOURCES ../LabWithChapters.java
//COMPILE_OPTIONS --add-modules jdk.incubator.vector
//RUNTIME_OPTIONS --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED

import java.io.IOException;
import java.io.PrintStream;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import lib.chapter.NeedleSearch;
import lib.cli.Quote;
import lib.cli.SizeConverter;
import lab.tools.ToolCommand;
import lib.cli.UserMistakeException;
import lib.harness.Machine;
import lib.cli.OutputCheck;
import lib.harness.PageCache;
import lib.harness.ProjectVersion;
import lib.harness.ResultsCsv;
import lib.haystack.Haystack;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * What a scan does to the rest of the page cache: another file's residency (mincore) before and
 * after one scan of FILE, for chapter 13 (plain buffered reads) and chapter 17 (RWF_DONTCACHE).
 *
 * <p>For each chapter: FILE is evicted, the bystander file is read into the cache, the share of
 * it that is resident is taken, FILE is scanned once, and the share is taken again, with how much
 * of FILE itself the scan left cached. On a FILE larger than memory, chapter 13 has to evict the
 * bystander to make room for pages it will never read again; chapter 17 should keep it.
 *
 * <pre>
 * How to run:   ./jbang lab/experiments/CacheResidency.java big.bin --bystander other.bin --bystander-size 1g --csv results/MACHINE/residency.csv
 * </pre>
 */
@Command(name = "CacheResidency", mixinStandardHelpOptions = true, versionProvider = ProjectVersion.class,
        sortOptions = false, usageHelpAutoWidth = true,
        description = "Measures how much of another, cached file one scan of FILE leaves in the page cache, for chapters 13 and 17.",
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:every scan ran", "2:an error (one line on stderr)"})
public class CacheResidency implements Callable<Integer> {

    static final List<String> COLUMNS = List.of("date", "chapter", "workers", "file_bytes", "bystander_bytes",
            "bystander_before_pct", "bystander_after_pct", "kept_pct", "scanned_resident_pct", "seconds", "read_mode",
            "memory_bytes", "kernel", "machine");

    @Parameters(paramLabel = "FILE", description = "The file to scan; it must exist (a haystack, e.g. one the size sweep kept).")
    Path file;

    @Option(names = "--bystander", paramLabel = "PATH", required = true,
            description = "The other file, read into the cache before each scan; created as a haystack of --bystander-size if missing.")
    Path bystander;

    @Option(names = "--bystander-size", paramLabel = "SIZE", converter = SizeConverter.class, defaultValue = "1g",
            description = "The size of a bystander created here (default: ${DEFAULT-VALUE}).")
    long bystanderBytes;

    @Option(names = "--chapters", paramLabel = "V13|V17[,...]", split = ",", defaultValue = "V13,V17",
            description = "The scans, in order (default: ${DEFAULT-VALUE}).")
    List<String> chapters;

    @Option(names = "--workers", paramLabel = "N", description = "Worker threads of each scan (default: the number of processors).")
    Integer workers;

    @Option(names = "--csv", paramLabel = "PATH", description = "Append one row per scan to this CSV (created with its header).")
    Path csv;

    private final PrintStream out = System.out;
    private final PrintStream err = System.err;

    /** One scan's figures, percentages from 0 to 100. */
    record Row(String chapter, int workers, long fileBytes, long bystanderBytes, double bystanderBeforePct,
               double bystanderAfterPct, double scannedResidentPct, double seconds, String readMode) {

        double keptPct() {
            return bystanderBeforePct == 0 ? Double.NaN : 100 * bystanderAfterPct / bystanderBeforePct;
        }

        String line() {
            return String.format(Locale.ROOT, "chapter=%s workers=%d file_bytes=%d bystander_bytes=%d bystander_before_pct=%.1f "
                            + "bystander_after_pct=%.1f kept_pct=%.1f scanned_resident_pct=%.1f seconds=%.3f%s",
                    chapter, workers, fileBytes, bystanderBytes, bystanderBeforePct, bystanderAfterPct, keptPct(),
                    scannedResidentPct, seconds, readMode.isEmpty() ? "" : " read_mode=" + readMode);
        }

        List<Object> values(Machine machine) {
            return List.of(Instant.now().truncatedTo(ChronoUnit.SECONDS), chapter, workers, fileBytes, bystanderBytes,
                    pct(bystanderBeforePct), pct(bystanderAfterPct), pct(keptPct()), pct(scannedResidentPct),
                    String.format(Locale.ROOT, "%.3f", seconds), readMode, machine.memoryBytes(), machine.kernel(), machine.name());
        }

        private static String pct(double value) {
            return Double.isNaN(value) ? "" : String.format(Locale.ROOT, "%.1f", value);
        }
    }

    public static void main(String[] args) {
        ToolCommand.run("CacheResidency", new CacheResidency(), args);
    }

    /** The command line as a method, for tests: returns the exit status. */
    static int execute(String[] args, java.io.PrintStream out, java.io.PrintStream err) {
        return ToolCommand.execute("CacheResidency", new CacheResidency(), args, out, err);
    }

    @Override
    public Integer call() throws IOException {
        if (chapters.isEmpty()) { // "--chapters ," is an empty list to picocli: no scan, and a CSV of a header alone
            throw new UserMistakeException("--chapters needs at least one chapter, V13 or V17 or V13,V17");
        }
        List<NeedleSearch> scans = new ArrayList<>();
        for (String name : chapters) {
            scans.add(chapter(name));
        }
        if (workers != null && workers < 1) {
            throw new UserMistakeException("--workers must be at least 1, not " + workers);
        }
        if (!Files.isRegularFile(file)) {
            throw new UserMistakeException(Quote.name(file) + " is not an existing file (make one with the size sweep's --keep-haystacks, or any chapter's --size)");
        }
        if (csv != null) {
            checkCsv(csv);
        }
        Haystack.findOrCreate(bystander, OptionalLong.of(bystanderBytes), "--bystander-size", err);
        int workerCount = workers != null ? workers : Runtime.getRuntime().availableProcessors();
        List<Row> rows = new ArrayList<>();
        for (NeedleSearch scan : scans) {
            Row row = measure(scan, file, bystander, workerCount);
            out.println(row.line());
            rows.add(row);
        }
        if (csv != null) {
            append(csv, rows);
        }
        return 0;
    }

    /** V13 or V17, by any of the names Study takes ("V13", "v13", "V13PreadVector"). */
    static NeedleSearch chapter(String name) {
        return switch (name.trim().replaceFirst("^[vV]0*", "V").replaceFirst("^(V\\d+).*", "$1")) {
            case "V13" -> new V13PreadVector();
            case "V17" -> new V17ReadDontCache();
            default -> throw new UserMistakeException("--chapters " + name + ": only V13 and V17 are measured here");
        };
    }

    /** One scan of {@code file}, FILE evicted first, with {@code bystander} read into the cache just before. */
    static Row measure(NeedleSearch chapter, Path file, Path bystander, int workers) throws IOException {
        PageCache.evict(file);
        PageCache.warm(bystander);
        double before = PageCache.residentShare(bystander);
        long start = System.nanoTime();
        chapter.search(file, workers);
        double seconds = (System.nanoTime() - start) / 1e9;
        double after = PageCache.residentShare(bystander);
        double scanned = PageCache.residentShare(file);
        String readMode = chapter.readMode().orElse("");
        return new Row(chapter.getClass().getSimpleName(), workers, Files.size(file), Files.size(bystander),
                100 * before, 100 * after, 100 * scanned, seconds, readMode);
    }

    /** Refuses an existing CSV whose header is not this tool's, before anything is measured. */
    static void checkCsv(Path csv) throws IOException {
        OutputCheck.requireWritableFile("--csv", csv);
        if (Files.exists(csv)) {
            if (!Files.isRegularFile(csv) || Files.size(csv) > 0 && !ResultsCsv.firstLine(csv).equals(String.join(",", COLUMNS))) {
                throw new UserMistakeException("--csv " + Quote.name(csv) + " exists and is not a residency CSV (its first line differs); left it alone");
            }
        }
    }

    /** Appends the rows (with the header to a new or empty file) whole or not at all, as every results CSV is. */
    static void append(Path csv, List<Row> rows) throws IOException {
        StringWriter text = new StringWriter();
        try (CSVPrinter printer = new CSVPrinter(text, CSVFormat.DEFAULT.builder().setRecordSeparator("\n").build())) {
            for (Row row : rows) {
                printer.printRecord(row.values(Machine.current()));
            }
        }
        ResultsCsv.appendWhole(csv, String.join(",", COLUMNS), header -> text.toString());
    }
}
