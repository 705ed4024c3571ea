import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import lib.harness.Machine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The machine's name is the folder its results go to: short, readable, and different where the hardware is. */
class MachineTest {

    @TempDir
    Path directory;

    @Test
    void slugKeepsTheWordsThatNameThePart() {
        assertEquals("intel-xeon-platinum-8375c", Machine.slug("Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz"));
        assertEquals("amd-epyc-7b13", Machine.slug("AMD EPYC 7B13 64-Core Processor"));
        assertEquals("amd-ryzen-5-9600x", Machine.slug("AMD Ryzen 5 9600X 6-Core Processor"));
        assertEquals("11th-gen-intel-core-i7-1165g7", Machine.slug("11th Gen Intel(R) Core(TM) i7-1165G7 @ 2.80GHz"));
        assertEquals("amd-ryzen-7-pro-7840u", Machine.slug("AMD Ryzen 7 PRO 7840U w/ Radeon 780M Graphics"));
        assertEquals("amd-epyc", Machine.slug("AMD EPYC"));
    }

    @Test
    void slugIsNeverEmptyNorLongNorOddlySpelled() {
        assertEquals("cpu", Machine.slug(""));
        assertEquals("cpu", Machine.slug(null));
        assertEquals("cpu", Machine.slug("(R) (TM) @ 3GHz"));
        String long_ = Machine.slug("A Very Long Model Name With Many Many Words In It That Goes On And On");
        assertTrue(long_.length() <= 40, long_);
        assertTrue(long_.matches("[a-z0-9]+(-[a-z0-9]+)*"), long_);
        assertTrue(Machine.slug("Ünïcode/../Name;rm -rf").matches("[a-z0-9]+(-[a-z0-9]+)*"));
    }

    @Test
    void nameCarriesModelFamilyCoresAndVectorWidth() throws IOException {
        Machine avx512 = Machine.fromCpuinfo(cpuinfo("AMD EPYC", "26", "2", "fpu avx avx2 avx512f avx512bw"));
        int cores = Runtime.getRuntime().availableProcessors();
        assertEquals("amd-epyc-f26m2-" + cores + "c-avx512", avx512.name());
        assertEquals(512, avx512.vectorBits());
        assertTrue(avx512.avx2() && avx512.avx512());

        Machine avx2 = Machine.fromCpuinfo(cpuinfo("AMD EPYC", "26", "2", "fpu avx avx2"));
        assertEquals("amd-epyc-f26m2-" + cores + "c-avx2", avx2.name(), "another vector width is another machine");
        assertFalse(avx2.avx512());

        Machine plain = Machine.fromCpuinfo(cpuinfo("Some CPU", "6", "85", "fpu sse2 sse4_2"));
        assertEquals(128, plain.vectorBits());
        assertTrue(plain.name().endsWith("-v128"), plain.name());
    }

    @Test
    void familyAndModelAreLeftOutWhereUnknown() throws IOException {
        Path noNumbers = Files.writeString(directory.resolve("cpuinfo"), "processor\t: 0\nmodel name\t: AMD EPYC\nflags\t: avx2 avx512f\n");
        Machine machine = Machine.fromCpuinfo(noNumbers);
        assertNull(machine.cpuFamily());
        assertEquals("amd-epyc-" + Runtime.getRuntime().availableProcessors() + "c-avx512", machine.name());
    }

    @Test
    void onlyTheFirstProcessorCounts() throws IOException {
        Path two = Files.writeString(directory.resolve("cpuinfo"), """
                processor\t: 0
                model name\t: First CPU
                flags\t\t: avx2

                processor\t: 1
                model name\t: Second CPU
                flags\t\t: avx2 avx512f
                """);
        Machine machine = Machine.fromCpuinfo(two);
        assertEquals("First CPU", machine.cpuModel());
        assertEquals(256, machine.vectorBits());
    }

    @Test
    void descriptionIsJsonWithEveryAgreedField() throws IOException {
        Map<String, Object> fields = Machine.current().description(directory.resolve("not-yet.bin"), Instant.parse("2026-01-02T03:04:05.678Z"), true);
        for (String key : new String[] {"name", "cpu_model", "cpu_family", "cpu_model_number", "logical_cores", "memory_bytes",
                "kernel", "jdk", "vector_bits", "avx2", "avx512", "filesystem", "thp_enabled", "thp_shmem", "read_ahead_kb",
                "date", "trial"}) {
            assertTrue(fields.containsKey(key), key);
        }
        assertEquals("2026-01-02T03:04:05Z", fields.get("date"));
        assertEquals(true, fields.get("trial"));
        assertEquals(Machine.current().name(), fields.get("name"));
    }

    @Test
    void jsonEscapesWhatWouldBreakIt() {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("text", "a \"quoted\" back\\slash\nnew line");
        fields.put("missing", null);
        fields.put("number", 42L);
        fields.put("flag", false);
        assertEquals("""
                {
                  "text": "a \\"quoted\\" back\\\\slash\\u000anew line",
                  "missing": null,
                  "number": 42,
                  "flag": false
                }
                """, Machine.json(fields));
    }

    private Path cpuinfo(String model, String family, String modelNumber, String flags) throws IOException {
        return Files.writeString(directory.resolve("cpuinfo-" + flags.hashCode()), """
                processor\t: 0
                vendor_id\t: Test
                cpu family\t: %s
                model\t\t: %s
                model name\t: %s
                flags\t\t: %s
                """.formatted(family, modelNumber, model, flags));
    }
}
