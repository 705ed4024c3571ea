//DEPS com.fasterxml.jackson.core:jackson-databind:2.20.1

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import lib.UserMistakeException;

/**
 * The Go article's own benchmark binary ({@code cmd/bench}), driven through the interface its source
 * defines:
 * <pre>
 *   WORKERS=N bench -file=PATH -runs=N -only=NAME[,NAME] -json=OUT.json [-warm=true]
 * </pre>
 * It reads the file once to warm the page cache, runs each named variant {@code -runs} times, prints
 * one line per run on stderr and a table on stdout, and writes
 * {@code [{"variant", "runs_seconds": [...], "mean_seconds", "mb_per_second"}]} to the JSON file.
 * A wrong answer ends it with status 1 and a line starting {@code ERROR:}. An {@code -only} name it
 * does not know is silently left out, so every call here checks that each variant asked for ran.
 *
 * <p>It is only ever handed a {@link GoHaystack}, which is checked before every call.
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

    private static final ObjectMapper JSON = new ObjectMapper();
    /** The start of the build information every Go binary carries (Go 1.18 and later keep the version inline after it). */
    private static final byte[] BUILD_INFO_MAGIC = "\u00ff Go buildinf:".getBytes(StandardCharsets.ISO_8859_1);
    private static final int BUILD_INFO_HEADER_BYTES = 32, BUILD_INFO_VERSION_INLINE = 0x2;
    private static final long LARGEST_BINARY_BYTES = 256L << 20;

    private final Path binary;
    private volatile Process running;

    GoBench(Path binary) {
        if (!Files.isRegularFile(binary) || !Files.isExecutable(binary)) {
            throw new UserMistakeException("--go-bench " + binary + " is not an executable file (build it first: see README, \"Java beside Go\")");
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
        int at = indexOf(image, BUILD_INFO_MAGIC);
        if (at < 0 || at + BUILD_INFO_HEADER_BYTES >= image.length
                || (image[at + BUILD_INFO_MAGIC.length + 1] & BUILD_INFO_VERSION_INLINE) == 0) {
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
     * The variants this binary has, in its own order, found by asking it for zero runs of each name
     * it might know: it prints a table row per variant it has, and times nothing.
     */
    List<String> variants(GoHaystack haystack, List<String> candidates, PrintStream err) throws IOException, InterruptedException {
        haystack.checkUnchanged();
        Process process = start(List.of("-file=" + haystack.path(), "-runs=0", "-warm=false",
                "-only=" + String.join(",", candidates)), 1);
        AtomicReference<String> error = new AtomicReference<>();
        Thread relay = relayErrors(process.getErrorStream(), err, error, false);
        List<String> table;
        try (BufferedReader out = process.inputReader(StandardCharsets.UTF_8)) {
            table = out.lines().toList();
        }
        int status = process.waitFor();
        relay.join();
        running = null;
        haystack.checkUnchanged();
        if (status != 0) {
            throw new IOException("the Go benchmark " + binary + " failed when asked for its variants (status " + status + "): "
                    + Optional.ofNullable(error.get()).orElse("no ERROR line"));
        }
        List<String> present = new ArrayList<>();
        for (String line : table) {
            String first = line.strip().split("\\s+")[0];
            if (candidates.contains(first)) {
                present.add(first);
            }
        }
        return present;
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
            Process process = start(List.of("-file=" + haystack.path(), "-runs=" + runs, "-only=" + variant,
                    "-json=" + json, "-warm=true"), workers);
            AtomicReference<String> error = new AtomicReference<>();
            Thread relay = relayErrors(process.getErrorStream(), err, error, true);
            process.getInputStream().transferTo(java.io.OutputStream.nullOutputStream()); // the table: the JSON says it all
            int status = process.waitFor();
            relay.join();
            running = null;
            haystack.checkUnchanged(); // the binary must not have written to it
            if (status != 0) {
                return new Call(List.of(), "Go " + variant + " failed (status " + status + "): "
                        + Optional.ofNullable(error.get()).orElse("no ERROR line on its stderr"));
            }
            if (!Files.exists(json)) {
                return new Call(List.of(), "Go " + variant + ": the benchmark wrote no JSON");
            }
            List<Result> results = parse(Files.readString(json));
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

    /** The benchmark's JSON: a list of results; anything else is an error naming what was wrong. */
    static List<Result> parse(String json) throws IOException {
        try {
            Result[] results = JSON.readValue(json, Result[].class);
            for (Result result : results) {
                if (result == null || result.variant() == null || result.runsSeconds() == null) {
                    throw new IOException("the Go benchmark's JSON has an entry without variant or runs_seconds");
                }
                for (double seconds : result.runsSeconds()) {
                    if (!(seconds > 0) || Double.isInfinite(seconds)) {
                        throw new IOException("the Go benchmark's JSON has a run of " + seconds + " s for " + result.variant());
                    }
                }
            }
            return List.of(results);
        } catch (JacksonException e) {
            throw new IOException("the Go benchmark's JSON could not be read: " + e.getOriginalMessage());
        }
    }

    /** Stops the running benchmark, if any (Ctrl-C). */
    void stop() {
        Process process = running;
        if (process != null && process.isAlive()) {
            process.destroy();
        }
    }

    private Process start(List<String> flags, int workers) throws IOException {
        List<String> command = new ArrayList<>(List.of(binary.toString()));
        command.addAll(flags);
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("WORKERS", Integer.toString(workers));
        Process process = builder.start();
        running = process;
        return process;
    }

    /** Copies the binary's stderr to {@code err} as it comes (its per-run lines), keeping its first {@code ERROR:} line. */
    private static Thread relayErrors(InputStream stderr, PrintStream err, AtomicReference<String> error, boolean show) {
        return Thread.ofVirtual().start(() -> {
            try (BufferedReader lines = new BufferedReader(new java.io.InputStreamReader(stderr, StandardCharsets.UTF_8))) {
                for (String line; (line = lines.readLine()) != null; ) {
                    if (line.startsWith("ERROR:")) {
                        error.compareAndSet(null, line.strip());
                    }
                    if (show && !line.isBlank()) {
                        err.println("    go| " + line);
                    }
                }
            } catch (IOException ignored) {
                // the process is gone; what it said so far has been relayed
            }
        });
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
