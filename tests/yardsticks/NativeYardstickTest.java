import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import lib.counters.KernelBill;
import lib.harness.Measurement;
import lib.harness.PageCache;
import lib.haystack.Haystack;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The native yardstick: lab/yardsticks/native-yardstick.c built with the machine's cc, run in its four
 * modes on a small haystack, its rows in the results schema; and its output read strictly.
 */
class NativeYardstickTest {

    static final long FILE_BYTES = 8L << 20;

    @TempDir
    static Path dir;
    static Path haystack;

    @BeforeAll
    static void createHaystack() throws IOException {
        haystack = dir.resolve("haystack.bin");
        Haystack.create(haystack, FILE_BYTES);
    }

    @Test
    void eachModeFindsTheNeedleAndRecordsARow() throws Exception {
        assumeTrue(NativeYardstick.compiler().isPresent(), "no C compiler (cc) on PATH: the study skips the yardstick in one line");
        Path csv = dir.resolve("native.csv");
        NativeYardstick yardstick = new NativeYardstick("study");
        List<String> said = new ArrayList<>();
        for (String chapter : NativeYardstick.MODES.sequencedKeySet()) {
            Optional<Measurement.Result> measured = yardstick.measure(chapter, haystack, 2, 2, 1, OptionalLong.empty(), csv, said::add);
            if (measured.isEmpty() && chapter.equals("NativeMemoryReadHuge")) {
                assertTrue(said.stream().anyMatch(line -> line.contains("no 2 MiB page")), said::toString);
                continue; // a kernel without transparent huge pages: said so, recorded nothing
            }
            assertTrue(measured.isPresent(), () -> chapter + ": " + said);
            assertEquals(Haystack.needleOffset(FILE_BYTES), measured.get().offset(), "what it measured is returned, answer and all");
        }
        List<CSVRecord> rows = HarnessTest.rows(csv);
        assertFalse(rows.isEmpty());
        for (CSVRecord row : rows) {
            assertTrue(NativeYardstick.MODES.containsKey(row.get("chapter")), row::toString);
            assertEquals(Long.toString(Haystack.needleOffset(FILE_BYTES)), row.get("offset"), row::toString);
            assertEquals("2", row.get("workers"));
            assertEquals("2", row.get("runs"));
            assertTrue(Double.parseDouble(row.get("mbps")) > 0, row::toString);
            assertTrue(row.get("jdk").contains("-O2"), () -> "the compiler and its flags, not a JDK: " + row);
            assertEquals(row.get("chapter").equals("NativePread"), row.get("pmd_mapped_pct").isEmpty(), row::toString);
            assertTrue(Double.parseDouble(row.get("user_us_per_gib")) + Double.parseDouble(row.get("system_us_per_gib")) > 0,
                    () -> "a search takes CPU time: " + row);
        }
        assertTrue(rows.stream().filter(row -> row.get("chapter").equals("NativeMemoryRead"))
                .allMatch(row -> row.get("pmd_mapped_pct").equals("0.0")), "the 4 KiB-page copy is on 4 KiB pages");
    }

    @Test
    void readsItsOutputLine() {
        Measurement.Result result = NativeYardstick.parse("NativeMmap",
                "mode=mmap workers=2 offset=8388600 warmup_s=0.5 run_s=0.25,0.5,0.75 pmd_mapped_pct=99.5", 1 << 20, OptionalLong.empty());
        assertEquals(8388600, result.offset());
        assertEquals(3, result.seconds().length);
        assertEquals(1, result.warmupSeconds().length);
        assertEquals(99.5, result.pmdMappedPercent().orElseThrow());
        assertEquals(Optional.of(PageCache.Folios.AS_IS), result.pageCache());
        assertTrue(NativeYardstick.parse("NativePread", "mode=pread workers=1 offset=-1 warmup_s= run_s=1.0 pmd_mapped_pct=", 8, OptionalLong.empty())
                .pmdMappedPercent().isEmpty());
        assertTrue(result.bill().isEmpty(), "no CPU times given, no bill");
    }

    @Test
    void readsEachRunsCpuTimeIntoTheBillAndCountsNothingElse() {
        // 1 MiB searched: the median run's 300 µs in user space and 2,000 in the kernel are 1,024 times that per GiB
        Measurement.Result result = NativeYardstick.parse("NativePread",
                "mode=pread workers=2 offset=8 warmup_s=0.5 run_s=0.25,0.5,0.75 user_us=100,300,500 system_us=2000,1000,3000 pmd_mapped_pct=",
                1 << 20, OptionalLong.of(1 << 20));
        KernelBill bill = result.bill().orElseThrow();
        assertEquals(300 * 1024.0, bill.get(KernelBill.Item.USER_TIME).orElseThrow());
        assertEquals(2000 * 1024.0, bill.get(KernelBill.Item.SYSTEM_TIME).orElseThrow());
        assertTrue(bill.get(KernelBill.Item.READ_CALLS).isEmpty(), "C's reads are not counted: empty, never zero");
    }

    @Test
    void refusesOutputThatIsNotFigures() {
        for (String line : List.of("", "Segmentation fault",
                "mode=ram workers=2 offset=8 warmup_s= run_s=0.5 pmd_mapped_pct=1", // another mode than asked
                "mode=mmap workers=2 offset=8 warmup_s= run_s= pmd_mapped_pct=1",
                "mode=mmap workers=2 offset=8 warmup_s= run_s=NaN pmd_mapped_pct=1",
                "mode=mmap workers=2 offset=8 warmup_s= run_s=-1 pmd_mapped_pct=1",
                "mode=mmap workers=2 offset=8 warmup_s= run_s=0.5 pmd_mapped_pct=250",
                "mode=mmap workers=two offset=8 warmup_s= run_s=0.5 pmd_mapped_pct=1",
                "mode=mmap workers=2 offset=8 warmup_s= run_s=0.5,0.6 user_us=1 system_us=1,2 pmd_mapped_pct=1", // a time for one run of two
                "mode=mmap workers=2 offset=8 warmup_s= run_s=0.5 user_us=-1 system_us=1 pmd_mapped_pct=1",
                "mode=mmap workers=2 offset=8 warmup_s= run_s=0.5 user_us=1.5 system_us=1 pmd_mapped_pct=1")) {
            assertThrows(IllegalArgumentException.class, () -> NativeYardstick.parse("NativeMmap", line, 64, OptionalLong.empty()), line);
        }
    }

    @Test
    void theProgramRefusesBadArgumentsInOneLine() throws Exception {
        assumeTrue(NativeYardstick.compiler().isPresent(), "no C compiler (cc) on PATH");
        Path binary = dir.resolve("native-yardstick");
        var built = Subprocess.run(List.of(NativeYardstick.compiler().get().toString(), "-O2", "-pthread", "-o", binary.toString(),
                NativeYardstick.SOURCE.toString()), dir.resolve("build"));
        assertEquals(0, built.exitCode(), built::toString);
        for (List<String> args : List.of(List.of("bogus", haystack.toString(), "1", "1", "0"), List.of("ram", haystack.toString(), "0", "1", "0"),
                List.of("pread", dir.resolve("missing.bin").toString(), "1", "1", "0"), List.of("mmap"),
                List.of("pread", haystack.toString(), "1", "1", "0", "64q"), List.of("pread", haystack.toString(), "1", "1", "0", "100"),
                List.of("pread", haystack.toString(), "1", "1", "0", "99999999999999999999m"))) {
            List<String> command = new ArrayList<>(List.of(binary.toString()));
            command.addAll(args);
            var result = Subprocess.run(command, dir.resolve("logs"));
            assertEquals(2, result.exitCode(), result::toString);
            assertEquals(1, result.errorLines().size(), result::toString);
            assertEquals("", result.stdout(), result::toString);
        }
        for (String readBytes : List.of("4k", "64k", "3m")) { // reads of another size than 1 MiB find the same word
            var read = Subprocess.run(List.of(binary.toString(), "pread", haystack.toString(), "2", "1", "0", readBytes), dir.resolve("read-" + readBytes));
            assertEquals(0, read.exitCode(), read::toString);
            assertTrue(read.stdout().contains("offset=" + Haystack.needleOffset(FILE_BYTES) + " "), read::toString);
        }
        Path zeros = Files.write(dir.resolve("zeros.bin"), new byte[4096]);
        var allZeros = Subprocess.run(List.of(binary.toString(), "pread", zeros.toString(), "1", "1", "0"), dir.resolve("zeros"));
        assertEquals(1, allZeros.exitCode(), allZeros::toString);
        assertTrue(allZeros.stdout().contains("offset=-1"), allZeros::toString);
    }
}
