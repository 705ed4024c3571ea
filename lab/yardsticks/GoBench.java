//DEPS com.fasterxml.jackson.core:jackson-databind:2.20.1

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import lib.cli.Quote;
import lib.cli.UserMistakeException;
import lib.haystack.Haystack;
import lab.tools.ChildProcess;

/**
 * The Go article's own benchmark binary ({@code cmd/bench}), driven through the interface its source
 * defines:
 * <pre>
 *   WORKERS=N bench -file=PATH -runs=N -only=NAME[,NAME] -json=OUT.json [-warm=true]
 * </pre>
 * It first prints {@code ensuring PATH (N bytes)...} on stderr, N being the haystack size it was
 * built for, and "ensures" that file: one of any other size, or a missing one, is opened with
 * {@code O_TRUNC} and rewritten with zeros to N bytes. It then reads the file once to warm the page
 * cache, runs each named variant {@code -runs} times, prints one line per run on stderr and a table
 * on stdout, and writes {@code [{"variant", "runs_seconds": [...], "mean_seconds", "mb_per_second"}]}
 * to the JSON file. A wrong answer ends it with status 1 and a line starting {@code ERROR:}. An
 * {@code -only} name it does not know is silently left out, so every call here checks that each
 * variant asked for ran.
 *
 * <p>So the binary is never handed a file it would write to. What it was built for, and which
 * variants it has, is asked on throwaway files in a temporary directory of our own, under a file
 * size limit of zero ({@code ulimit -f 0}), so that even a rewrite there writes nothing. Only then
 * is it handed the real haystack: a {@link GoHaystack} of exactly its size, checked before every call.
 */
final class GoBench {

    /** One variant's figures, as the JSON names them. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record Result(@JsonProperty(value = "variant", required = true) String variant,
                  @JsonProperty(value = "runs_seconds", required = true) double[] runsSeconds,
                  @JsonProperty("mean_seconds") double meanSeconds,
                  @JsonProperty("mb_per_second") double mbPerSecond) {}

    /** How one call ended: its results, or why there are none (one line). */
    record Call(List<Result> results, String failure) {
        boolean failed() {
            return failure != null;
        }
    }

    /**
     * No run reads its haystack faster than this: ten times the memory bandwidth of the largest
     * servers (a few hundred GB/s), 0.1 ms per GiB. A faster run is a broken clock or a broken
     * binary, not a figure.
     */
    static final double FASTEST_PLAUSIBLE_BYTES_PER_SECOND = 10e12;

    private static final ObjectMapper JSON = new ObjectMapper();
    /** The start of the build information every Go binary carries (Go 1.18 and later keep the version inline after it). */
    private static final String BUILD_INFO_MAGIC = "\u00ff Go buildinf:";
    private static final int BUILD_INFO_HEADER_BYTES = 32, BUILD_INFO_VERSION_INLINE = 0x2;
    private static final long LARGEST_BINARY_BYTES = 256L << 20;
    /** The binary's first line on stderr, naming the haystack size it was built for. */
    private static final Pattern ENSURING = Pattern.compile("^ensuring .* \\((\\d{1,19}) bytes\\)\\.\\.\\.$");

    private final Path binary;

    GoBench(Path binary) {
        if (!Files.isRegularFile(binary) || !Files.isExecutable(binary)) {
            throw new UserMistakeException("--go-bench " + Quote.name(binary) + " is not an executable file (build it first: see README, \"Java beside Go\")");
        }
        this.binary = binary;
    }

    Path binary() {
        return binary;
    }

    /**
     * The Go release that built the binary, read from the build information the Go linker writes
     * into every binary ({@code go version BINARY} prints the same), or "go (version unknown)".
     */
    String goVersion() throws IOException {
        if (Files.size(binary) > LARGEST_BINARY_BYTES) {
            return "go (version unknown)";
        }
        byte[] image = Files.readAllBytes(binary);
        // ISO-8859-1 maps each byte to one char, so an index in the text is the same index in the bytes.
        int at = new String(image, StandardCharsets.ISO_8859_1).indexOf(BUILD_INFO_MAGIC);
        if (at < 0 || at + BUILD_INFO_HEADER_BYTES >= image.length
                || (image[at + BUILD_INFO_MAGIC.length() + 1] & BUILD_INFO_VERSION_INLINE) == 0) {
            return "go (version unknown)";
        }
        int position = at + BUILD_INFO_HEADER_BYTES;
        long length = 0;
        for (int shift = 0; position < image.length; shift += 7) { // an unsigned varint, then the bytes
            int b = image[position++] & 0xff;
            length |= (long) (b & 0x7f) << shift;
            if (b < 0x80 || shift > 28) {
                break;
            }
        }
        if (length <= 0 || length > 64 || position + length > image.length) {
            return "go (version unknown)";
        }
        String version = new String(image, position, (int) length, StandardCharsets.ISO_8859_1);
        return version.matches("go[\\w.+-]+") ? version : "go (version unknown)";
    }

    /**
     * The haystack size the binary was built for, as its first line says. It is asked to "ensure" a
     * file that does not exist, in a temporary directory, under a file size limit of zero: it names
     * the size, then fails to write it.
     */
    long haystackBytes(PrintStream err) throws IOException, InterruptedException {
        ChildProcess.Ended ended = probe("name its haystack size", "size-probe.bin", OptionalLong.empty(), "none", err);
        for (String line : ended.stderr()) {
            Matcher size = ENSURING.matcher(line.strip());
            if (size.matches()) {
                long bytes = Long.parseLong(size.group(1));
                if (bytes < Long.BYTES || bytes % Long.BYTES != 0) {
                    throw new IOException("the Go benchmark " + Quote.name(binary) + " says it was built for a haystack of "
                            + bytes + " bytes, not a positive multiple of 8");
                }
                return bytes;
            }
        }
        throw new IOException("the Go benchmark " + Quote.name(binary) + " did not name its haystack size (no line "
                + "'ensuring FILE (N bytes)...' on stderr, status " + ended.status() + "); is it the article's cmd/bench?");
    }

    /**
     * The variants this binary has, in its own order, found by asking it for zero runs of each name
     * it might know, on a throwaway haystack of its own size: it prints a table row per variant it
     * has, and times nothing.
     */
    List<String> variants(long haystackBytes, List<String> candidates, PrintStream err) throws IOException, InterruptedException {
        ChildProcess.Ended ended = probe("list its variants", "variants-probe.bin", OptionalLong.of(haystackBytes), String.join(",", candidates), err);
        if (ended.status() != 0) {
            throw new IOException("the Go benchmark " + Quote.name(binary) + " failed when asked for its variants (status "
                    + ended.status() + "): " + ended.lastError(line -> line.startsWith("ERROR:")).orElse("no ERROR line"));
        }
        List<String> present = new ArrayList<>();
        for (String line : ended.stdout()) {
            String first = line.strip().split("\\s+")[0];
            if (candidates.contains(first) && !present.contains(first)) {
                present.add(first);
            }
        }
        return present;
    }

    /**
     * The binary asked for no run of {@code only}, to {@code purpose}, on {@code fileName} in a temporary
     * directory of our own, {@link #unableToWrite unable to write}; where {@code haystackBytes} is given,
     * that file is first a haystack of that size, sparse. The directory is removed after.
     */
    private ChildProcess.Ended probe(String purpose, String fileName, OptionalLong haystackBytes, String only, PrintStream err)
            throws IOException, InterruptedException {
        Path directory = Files.createTempDirectory("versus-go-probe-");
        Path throwaway = directory.resolve(fileName);
        try {
            if (haystackBytes.isPresent()) {
                try (FileChannel file = FileChannel.open(throwaway, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                    // Sparse: a hole of zeros that takes no disk, and the needle, so the binary has nothing to rewrite.
                    file.write(ByteBuffer.allocate(Long.BYTES).order(ByteOrder.LITTLE_ENDIAN).putLong(0, Haystack.NEEDLE),
                            Haystack.needleOffset(haystackBytes.getAsLong()));
                }
            }
            ChildProcess.Ended ended = unableToWrite(List.of("-file=" + throwaway, "-runs=0", "-warm=false", "-only=" + only))
                    .timeLimit(ChildProcess.PROGRAM_START_UP, 0)
                    .run("the Go benchmark " + Quote.name(binary) + " to " + purpose + " (on a throwaway file)", line -> err.println("versus-go: " + line));
            if (ended.timedOut()) {
                throw new IOException(ended.timeOutLine());
            }
            return ended;
        } finally {
            removeThrowaway(directory, throwaway);
        }
    }

    /**
     * The article's one-shot of {@code variant}: one run, no warm-up, as its reader types it. The
     * caller times the call and reads the variant's row from the table on stdout.
     */
    ChildProcess.Ended oneShot(GoHaystack haystack, String variant) throws IOException, InterruptedException {
        return ChildProcess.of(List.of(binary.toString(), "-file=" + haystack.path(), "-runs=1", "-warm=false", "-only=" + variant))
                .timeLimit(ChildProcess.PROGRAM_START_UP, haystack.bytes()).run("Go " + variant + "'s one-shot", line -> {});
    }

    /**
     * Runs {@code variant} {@code runs} times with {@code workers} in {@code WORKERS}; the binary's
     * stderr is relayed to {@code err}, indented. Never throws for the binary's own failure: that
     * comes back as {@link Call#failure()}.
     */
    Call run(GoHaystack haystack, String variant, int runs, int workers, PrintStream err)
            throws IOException, InterruptedException {
        haystack.checkUnchanged();
        Path directory = Files.createTempDirectory("versus-go-");
        Path json = directory.resolve("results.json"); // a fresh path of our own: the binary writes it whole
        try {
            List<String> command = new ArrayList<>(List.of(binary.toString(), "-file=" + haystack.path(), "-runs=" + runs,
                    "-only=" + variant, "-json=" + json, "-warm=true"));
            ChildProcess.Ended ended = ChildProcess.of(command)
                    .environment("WORKERS", Integer.toString(workers))
                    .timeLimit(ChildProcess.PROGRAM_START_UP, (runs + 1L) * haystack.bytes()) // and one pass to warm the cache
                    .relayErr(line -> {
                        if (!line.isBlank()) {
                            err.println("    go| " + line);
                        }
                    })
                    .run("Go " + variant + ", " + runs + (runs == 1 ? " run" : " runs"), line -> err.println("versus-go: " + line));
            haystack.checkUnchanged(); // the binary must not have written to it
            if (ended.timedOut()) {
                return new Call(List.of(), ended.timeOutLine());
            }
            if (ended.status() != 0) {
                return new Call(List.of(), "Go " + variant + " failed (status " + ended.status() + "): "
                        + ended.lastError(line -> line.startsWith("ERROR:")).orElse("no ERROR line on its stderr"));
            }
            if (!Files.exists(json)) {
                return new Call(List.of(), "Go " + variant + ": the benchmark wrote no JSON");
            }
            List<Result> results = parse(Files.readString(json), haystack.bytes());
            Optional<Result> ran = results.stream().filter(result -> result.variant().equals(variant)).findFirst();
            if (ran.isEmpty()) {
                return new Call(results, "Go " + variant + " did not run: the binary has no variant of that name");
            }
            if (ran.get().runsSeconds().length != runs) {
                return new Call(results, "Go " + variant + " reported " + ran.get().runsSeconds().length + " runs, not " + runs);
            }
            return new Call(results, null);
        } finally {
            Files.deleteIfExists(json);
            Files.deleteIfExists(directory);
        }
    }

    /**
     * The benchmark's JSON for a haystack of {@code haystackBytes}: a list of results; anything else,
     * or a run that is not a positive, finite time no faster than {@link #FASTEST_PLAUSIBLE_BYTES_PER_SECOND},
     * is an error naming what was wrong.
     */
    static List<Result> parse(String json, long haystackBytes) throws IOException {
        try {
            Result[] results = JSON.readValue(json, Result[].class);
            for (Result result : results) {
                if (result == null || result.variant() == null || result.runsSeconds() == null) {
                    throw new IOException("the Go benchmark's JSON has an entry without variant or runs_seconds");
                }
                for (double seconds : result.runsSeconds()) {
                    if (!(seconds > 0) || Double.isInfinite(seconds)) {
                        throw new IOException("the Go benchmark's JSON has a run of " + seconds + " s for " + Quote.name(result.variant()));
                    }
                    if (haystackBytes / seconds > FASTEST_PLAUSIBLE_BYTES_PER_SECOND) {
                        throw new IOException(String.format(Locale.ROOT, "the Go benchmark's JSON has a run of %s s for %s: "
                                + "%d bytes at %.3g MB/s, faster than any memory can be read (%.0f MB/s at most); refused",
                                seconds, Quote.name(result.variant()), haystackBytes, haystackBytes / seconds / 1e6,
                                FASTEST_PLAUSIBLE_BYTES_PER_SECOND / 1e6));
                    }
                }
            }
            return List.of(results);
        } catch (JacksonException e) {
            throw new IOException("the Go benchmark's JSON could not be read: " + e.getOriginalMessage());
        }
    }

    /**
     * The binary behind {@code sh -c 'ulimit -S -f 0 -c 0 && exec BINARY FLAGS'}: it may open, truncate
     * or create files, but cannot write a single byte into one (a soft limit: the article's code never
     * raises it, and a test's stand-in may, to log its calls), nor leave a core file when the limit
     * stops it.
     */
    private ChildProcess unableToWrite(List<String> flags) {
        List<String> command = new ArrayList<>(List.of("/bin/sh", "-c", "ulimit -S -f 0 && ulimit -S -c 0 && exec \"$0\" \"$@\"", binary.toString()));
        command.addAll(flags);
        return ChildProcess.of(command).environment("WORKERS", "1");
    }

    /** Removes a probe's directory and what the probe left in it: only the throwaway file, which it may have emptied. */
    private static void removeThrowaway(Path directory, Path throwaway) throws IOException {
        Files.deleteIfExists(throwaway);
        try (var left = Files.list(directory)) {
            if (left.findAny().isPresent()) {
                throw new IOException("the Go benchmark left files in " + Quote.name(directory) + "; look, then remove it");
            }
        }
        Files.delete(directory);
    }
}
