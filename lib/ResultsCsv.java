package lib;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/**
 * Appends one row per chapter and worker count to a results CSV (the schema is documented in
 * {@code results/README.md}). A row is written only after every run behind it succeeded, in one
 * write, so a failed or interrupted search never leaves a row. An existing file is appended to
 * only if its header is this schema's: a mistyped {@code --csv} path never damages another file.
 */
public final class ResultsCsv {

    public static final List<String> COLUMNS = List.of(
            "date", "chapter", "workers", "cache", "file_bytes", "chunk_bytes", "offset",
            "warmup_runs", "runs", "mean_s", "median_s", "min_s", "max_s", "mbps",
            "run_s", "warmup_s",
            "cpu_model", "logical_cores", "memory_bytes", "kernel", "jdk", "vector_bits");

    private static final CSVFormat FORMAT = CSVFormat.DEFAULT.builder().setRecordSeparator("\n").get();

    private ResultsCsv() {}

    public static String headerLine() {
        return String.join(",", COLUMNS);
    }

    /** Fails, before any search runs, if {@code csv} exists and is not a results CSV. */
    public static void checkWritable(Path csv) throws IOException {
        if (Files.isDirectory(csv)) {
            throw new UserError("--csv " + csv + " is a directory");
        }
        if (Files.exists(csv, LinkOption.NOFOLLOW_LINKS)) {
            if (!Files.isRegularFile(csv)) {
                throw new UserError("--csv " + csv + " is not a regular file");
            }
            String first;
            try (var lines = Files.lines(csv)) {
                first = lines.findFirst().orElse("");
            }
            if (!first.equals(headerLine())) {
                throw new UserError("--csv " + csv + " exists and is not a results CSV of this project (its first line differs); left it alone");
            }
        } else if (csv.toAbsolutePath().getParent() == null || !Files.isDirectory(csv.toAbsolutePath().getParent())) {
            throw new UserError("--csv " + csv + ": its directory does not exist");
        }
    }

    public static void append(Path csv, List<?> values) throws IOException {
        if (values.size() != COLUMNS.size()) {
            throw new IllegalArgumentException(values.size() + " values for " + COLUMNS.size() + " columns");
        }
        checkWritable(csv);
        StringWriter text = new StringWriter();
        try (CSVPrinter printer = new CSVPrinter(text, FORMAT)) {
            if (!Files.exists(csv)) {
                printer.printRecord(COLUMNS);
            }
            printer.printRecord(values);
        }
        Files.writeString(csv, text.toString(), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }
}
