package lib.counters;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import lib.linux.DiesWithThisProcess;

/**
 * The CPU's own counters over the timed runs, for {@code --perf}: instructions, cycles, cache
 * misses and dTLB misses, counted by {@code perf stat} attached to this process. Instructions per
 * byte searched is the figure to compare: chapters 1 to 3 spend many on each byte, the vector
 * chapters a fraction of one.
 *
 * <p>Many virtual machines hide the hardware counters, and {@code perf_event_paranoid} may forbid
 * them: then {@link #whyNot} says so in one line, and the harness counts nothing. Nothing else depends on it,
 * and it is approximate: perf counts the whole process (the JIT's threads too) from shortly after
 * it starts, including the harness's work between the timed runs.
 */
public final class PerfStat {

    static final List<String> EVENTS = List.of("instructions", "cycles", "cache-misses", "dTLB-load-misses");
    /** perf needs a moment to attach before the first counted run. */
    private static final long ATTACH_MILLIS = 300;

    private final Process perf;
    private final Path output;

    private PerfStat(Process perf, Path output) {
        this.perf = perf;
        this.output = output;
    }

    /** Attaches {@code perf stat} to this process: ask {@link #whyNot} first. */
    public static PerfStat start() throws IOException {
        Path output = Files.createTempFile("perf-stat-", ".csv");
        Process perf = DiesWithThisProcess.start(new ProcessBuilder("perf", "stat", "-x,", "-e", String.join(",", EVENTS),
                "-p", Long.toString(ProcessHandle.current().pid()), "-o", output.toString())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD));
        try {
            Thread.sleep(ATTACH_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return new PerfStat(perf, output);
    }

    /** Why perf cannot count instructions for this process here, or null where it can. */
    public static String whyNot() {
        try {
            Process probe = DiesWithThisProcess.start(new ProcessBuilder("perf", "stat", "-x,", "-e", "instructions", "true").redirectErrorStream(true));
            String said = new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!probe.waitFor(30, TimeUnit.SECONDS)) {
                probe.destroyForcibly();
                return "perf stat did not finish in 30 s";
            }
            String firstField = said.lines().filter(line -> line.contains("instructions")).findFirst()
                    .map(line -> line.split(",", -1)[0]).orElse("");
            if (probe.exitValue() != 0 || !firstField.matches("\\d+")) {
                return "perf cannot count instructions here (it says " + (firstField.isEmpty() ? "\"" + firstLine(said) + "\"" : firstField)
                        + "): a virtual machine that hides the CPU's counters, or kernel.perf_event_paranoid forbids them";
            }
            return null;
        } catch (IOException e) {
            return "cannot start perf here (" + e.getMessage() + "); linux-perf or linux-tools installs it";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    private static String firstLine(String text) {
        return text.lines().findFirst().orElse("nothing");
    }

    /**
     * Stops counting (perf prints its counts on SIGINT) and returns one line: each event per GiB of
     * {@code bytesSearched}, and instructions per byte; an event perf could not count says so.
     */
    public String stop(long bytesSearched) throws IOException, InterruptedException {
        DiesWithThisProcess.start(new ProcessBuilder("kill", "-INT", Long.toString(perf.pid()))).waitFor(10, TimeUnit.SECONDS);
        if (!perf.waitFor(30, TimeUnit.SECONDS)) {
            perf.destroyForcibly();
        }
        Map<String, String> counts = new LinkedHashMap<>();
        for (String line : Files.readAllLines(output)) {
            String[] fields = line.split(",", -1);
            if (fields.length > 2 && EVENTS.contains(fields[2])) {
                counts.put(fields[2], fields[0]);
            }
        }
        Files.deleteIfExists(output);
        List<String> parts = new ArrayList<>();
        for (String event : EVENTS) {
            String count = counts.getOrDefault(event, "<not counted>");
            parts.add(event + "=" + (count.matches("\\d+") ? KernelBill.figure(Long.parseLong(count) * (double) (1L << 30) / bytesSearched) : count));
        }
        String instructions = counts.getOrDefault("instructions", "");
        String perByte = instructions.matches("\\d+")
                ? String.format(Locale.ROOT, "; %.2f instructions per byte", Long.parseLong(instructions) / (double) bytesSearched) : "";
        return "perf, the timed runs, per GiB searched: " + String.join(" ", parts) + perByte;
    }
}
