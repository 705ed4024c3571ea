package lib.harness;

import lib.cli.OutputCheck;
import lib.counters.Stats;
import lib.cli.Quote;
import lib.cli.UserMistakeException;
import lib.counters.KernelBill;
import lib.counters.PmdMapping;
import java.io.IOException;
import java.io.Reader;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVPrinter;
import org.apache.commons.csv.CSVRecord;

/**
 * Appends one row per chapter and worker count to a results CSV (the schema is documented in
 * {@code results/README.md}), and reads a chapter's rows back ({@link #rows}). A row is written only after every run behind it succeeded, in one
 * write, so a failed or interrupted search never leaves a row. An existing file is appended to
 * only if its header is this schema's: a mistyped {@code --csv} path never damages another file.
 */
public final class ResultsCsv {

    public static final List<String> COLUMNS = java.util.stream.Stream.concat(java.util.stream.Stream.of(
            "date", "chapter", "workers", "cache", "file_bytes", "chunk_bytes", "offset",
            "warmup_runs", "runs", "mean_s", "median_s", "min_s", "max_s", "mbps",
            "run_s", "warmup_s",
            "cpu_model", "logical_cores", "memory_bytes", "kernel", "jdk", "vector_bits", "machine",
            "page_cache", "pmd_mapped_pct", "read_mode"),
            KernelBill.keys().stream()).toList(); // the bill: read_calls_per_gib … system_us_per_gib

    private static final CSVFormat FORMAT = CSVFormat.DEFAULT.builder().setRecordSeparator("\n").build();

    private ResultsCsv() {}

    public static String headerLine() {
        return String.join(",", COLUMNS);
    }

    /**
     * The columns of the first schema. Later columns are only ever added at the end, so the header
     * of every results CSV written since is a prefix of {@link #COLUMNS} at least this long.
     */
    private static final int OLDEST_SCHEMA_COLUMNS = COLUMNS.indexOf("vector_bits") + 1;

    /**
     * As {@link #checkWritable(Path)}, and fails too when {@code csv} names {@code searched}, the file
     * a command is about to search (or create), whether either exists yet or not: a row must never
     * be appended to the haystack, nor a results CSV searched and then written to.
     */
    public static void checkWritable(Path csv, Path searched) throws IOException {
        boolean same = Files.exists(csv) && Files.exists(searched) ? Files.isSameFile(csv, searched)
                : csv.toAbsolutePath().normalize().equals(searched.toAbsolutePath().normalize());
        if (same) {
            throw new UserMistakeException("--csv " + Quote.name(csv) + " is FILE, the file to search; give the results a file of their own");
        }
        checkWritable(csv);
    }

    /** Fails, before any search runs, if {@code csv} exists and is not a results CSV, or cannot be written. */
    public static void checkWritable(Path csv) throws IOException {
        OutputCheck.requireWritableFile("--csv", csv);
        if (Files.exists(csv) && Files.size(csv) > 0 && columnsOf(firstLine(csv)) == null) {
            throw new UserMistakeException("--csv " + Quote.name(csv) + " exists and is not a results CSV of this project (its first line differs); left it alone");
        }
    }

    /**
     * The columns a results CSV's first line names: this schema's, or an older one's (a shorter
     * prefix of it). Null when it is no results header.
     */
    static List<String> columnsOf(String header) {
        List<String> names = List.of(header.split(",", -1));
        boolean olderOrThisSchema = names.size() >= OLDEST_SCHEMA_COLUMNS && names.size() <= COLUMNS.size()
                && COLUMNS.subList(0, names.size()).equals(names);
        return olderOrThisSchema ? names : null;
    }

    /**
     * The rows of the results CSV {@code csv}, each value by the name its header gives its column;
     * none when there is no such file. How a tool that started a chapter with {@code --csv} reads
     * what the chapter found: its summary line on stdout is for people to read.
     */
    public static List<Map<String, String>> rows(Path csv) throws IOException {
        if (!Files.exists(csv)) {
            return List.of();
        }
        CSVFormat withHeader = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).build();
        try (Reader in = Files.newBufferedReader(csv, StandardCharsets.UTF_8); CSVParser parser = withHeader.parse(in)) {
            return parser.stream().map(CSVRecord::toMap).toList();
        } catch (java.io.UncheckedIOException | IllegalArgumentException | IllegalStateException unreadable) {
            throw new IOException(Quote.name(csv) + " cannot be read as a results CSV: " + unreadable.getMessage(), unreadable);
        }
    }

    /**
     * One row of figures: a measurement's runs at one worker count and cache mode, summarised the
     * project's way ({@link Stats}), with the machine they were measured on. {@code chunk_bytes} is
     * empty for anything that does not read in chunks; a bill's figure ({@link KernelBill}) is empty
     * where it was not counted.
     */
    public static List<Object> row(Measurement.Result result) {
        double[] seconds = result.seconds();
        Machine machine = Machine.current();
        List<Object> values = new java.util.ArrayList<>(List.of(
                Instant.now().truncatedTo(ChronoUnit.SECONDS), result.variant(), result.workers(), result.cache(),
                result.bytes(), result.chunkBytes().isPresent() ? result.chunkBytes().getAsLong() : "", result.offset(),
                result.warmupSeconds().length, seconds.length,
                fixed(result.meanSeconds()), fixed(result.medianSeconds()),
                fixed(Arrays.stream(seconds).min().orElseThrow()), fixed(Arrays.stream(seconds).max().orElseThrow()),
                Math.round(result.megabytesPerSecond()),
                joined(seconds), joined(result.warmupSeconds()),
                machine.cpuModel(), machine.logicalCores(), machine.memoryBytes(), machine.kernel(),
                machine.jdk(), machine.vectorBits(), machine.name(),
                result.pageCache().map(folios -> folios.label).orElse(""),
                result.pmdMappedPercent().isPresent() ? PmdMapping.percent(result.pmdMappedPercent().getAsDouble()) : "",
                result.readMode().orElse("")));
        for (KernelBill.Item item : KernelBill.Item.values()) {
            values.add(result.bill().map(bill -> bill.field(item)).orElse(""));
        }
        return java.util.Collections.unmodifiableList(values);
    }

    private static String fixed(double seconds) {
        return String.format(Locale.ROOT, "%.6f", seconds);
    }

    /** Every run's seconds, in order, space-separated: the warm-up chart reads them back. */
    private static String joined(double[] seconds) {
        return Arrays.stream(seconds).mapToObj(ResultsCsv::fixed).collect(Collectors.joining(" "));
    }

    /**
     * Appends {@code rows} (each one value per column of {@link #COLUMNS}), with the header if the
     * file is new or empty. A file written under an older schema gets its own columns only, so that
     * every row of it stays in line with its header. The rows go in whole or not at all
     * ({@link #appendWhole}).
     */
    public static void append(Path csv, List<? extends List<?>> rows) throws IOException {
        for (List<?> values : rows) {
            if (values.size() != COLUMNS.size()) {
                throw new IllegalArgumentException(values.size() + " values for " + COLUMNS.size() + " columns");
            }
        }
        checkWritable(csv);
        appendWhole(csv, headerLine(), header -> {
            List<String> columns = columnsOf(header);
            if (columns == null) {
                throw new UserMistakeException("--csv " + Quote.name(csv) + " exists and is not a results CSV of this project (its first line differs); left it alone");
            }
            StringWriter text = new StringWriter();
            try (CSVPrinter printer = new CSVPrinter(text, FORMAT)) {
                for (List<?> values : rows) {
                    printer.printRecord(values.subList(0, columns.size()));
                }
            } catch (IOException cannotHappen) { // a StringWriter does not fail
                throw new java.io.UncheckedIOException(cannotHappen);
            }
            return text.toString();
        });
    }

    /**
     * Appends to the CSV {@code csv} the text {@code rowsUnder} gives for the file's header line (its
     * {@code header} when the file is new or empty, which is then written first), whole or not at all,
     * holding an {@code fcntl} lock on the file from reading its header to the end of the write: several
     * processes appending at once each see the header the others wrote, and never write it twice. A
     * write that fails part-way (a full disk, a file-size limit) is cut back to the length the file had
     * under the lock, which holds only what this call wrote, and a file left empty so is removed (a
     * writer waiting for the lock finds the name gone, or another file under it, and starts again).
     * {@code rowsUnder} may refuse a header with a {@link UserMistakeException}; then nothing is written.
     */
    public static void appendWhole(Path csv, String header, java.util.function.Function<String, String> rowsUnder) throws IOException {
        while (true) {
            try (FileChannel channel = FileChannel.open(csv, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                Object opened = fileKey(csv);
                try (java.nio.channels.FileLock ignored = channel.lock()) {
                    if (opened == null || !opened.equals(fileKey(csv))) {
                        continue; // removed or replaced while this call waited: the file it has open is no longer the CSV
                    }
                    appendLocked(csv, channel, header, rowsUnder);
                    return;
                }
            }
        }
    }

    private static Object fileKey(Path file) {
        try {
            return Files.readAttributes(file, java.nio.file.attribute.BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
        } catch (IOException gone) {
            return null;
        }
    }

    private static void appendLocked(Path csv, FileChannel channel, String header, java.util.function.Function<String, String> rowsUnder)
            throws IOException {
        long oldBytes = channel.size();
        StringBuilder text = new StringBuilder();
        if (oldBytes == 0) {
            text.append(header).append('\n');
        } else if (!endsWithNewline(channel)) {
            text.append('\n'); // someone edited it by hand: never glue a row onto their last line
        }
        text.append(rowsUnder.apply(oldBytes == 0 ? header : firstLine(channel)));
        ByteBuffer bytes = ByteBuffer.wrap(text.toString().getBytes(StandardCharsets.UTF_8));
        try {
            while (bytes.hasRemaining()) {
                channel.write(bytes, oldBytes + bytes.position()); // at the end, which every writer reaches only under the lock
            }
        } catch (IOException e) {
            String undone = oldBytes > 0 ? "it is left as it was" : "it was removed";
            try {
                channel.truncate(oldBytes);
                if (oldBytes == 0) {
                    Files.delete(csv);
                }
            } catch (IOException again) {
                undone = "cutting it back failed too (" + again.getMessage() + "), so its last line is incomplete";
            }
            throw new IOException("could not append to " + Quote.name(csv) + " (" + e.getMessage() + "); " + undone, e);
        }
    }

    /**
     * The first line of the CSV {@code csv}, as {@link #firstLine(SeekableByteChannel)} reads it (a
     * header's worth of bytes at most, a byte order mark left out); empty for an empty file.
     */
    public static String firstLine(Path csv) throws IOException {
        try (SeekableByteChannel channel = Files.newByteChannel(csv)) {
            return firstLine(channel);
        }
    }

    /**
     * The first line of the file open in {@code channel}, reading no more than a header's worth of
     * bytes: a mistyped {@code --csv} may name a 4 GiB binary file, which must be neither loaded nor
     * misdecoded. A UTF-8 byte order mark before it is not part of it. Read through the channel that
     * holds the file's lock: closing any other descriptor of the file would release that lock.
     */
    private static String firstLine(SeekableByteChannel channel) throws IOException {
        ByteBuffer start = ByteBuffer.allocate(headerLine().length() + 5);
        channel.position(0);
        while (start.hasRemaining() && channel.read(start) > 0) {
            // until the buffer is full or the file ends
        }
        String text = new String(start.array(), 0, start.position(), StandardCharsets.UTF_8); // malformed bytes become U+FFFD
        int end = text.indexOf('\n');
        return (end >= 0 ? text.substring(0, end) : text).replaceFirst("^\uFEFF", "").replaceFirst("\r$", "");
    }

    private static boolean endsWithNewline(SeekableByteChannel channel) throws IOException {
        if (channel.size() == 0) {
            return true;
        }
        ByteBuffer last = ByteBuffer.allocate(1);
        channel.position(channel.size() - 1).read(last);
        return last.get(0) == '\n';
    }
}
