import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The book's lessons hold on the committed CSVs, and a CSV changed so that one no longer holds fails it, by name. */
class CheckBookTest {

    static final String REFERENCE = "amd-epyc-f26m2-2c-avx512";

    @TempDir
    Path folder;

    @Test
    void everyClaimOfTheBookHoldsOnTheCommittedCsvs() throws IOException {
        List<String> failures = CheckBook.failingClaims(ReadmeTables.RESULTS, CheckBook.documents());
        assertTrue(failures.isEmpty(), String.join("\n", failures));
    }

    /** The command itself, as docs/commands.md gives it: every block current and every claim holding. */
    @Test
    void theCheckExitsZeroOnTheCommittedBook() {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(), err = new java.io.ByteArrayOutputStream();
        int status = CheckBook.run(new String[0], new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8),
                new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
        assertEquals(0, status, err.toString(java.nio.charset.StandardCharsets.UTF_8));
    }

    @Test
    void theBookHasClaimsUnderItsLessons() throws IOException {
        String readme = Files.readString(Path.of("README.md"));
        long claims = CheckBook.CLAIM.matcher(readme).results().count();
        assertTrue(claims >= 20, "README.md has " + claims + " claims");
    }

    @Test
    void chapterNinesFigureHalvedFailsTheLessonOnWalls() throws IOException {
        Path clone = cloneOfTheBook();
        scale(clone.resolve("results").resolve(REFERENCE).resolve("scoreboard.csv"), row -> row.get("chapter").equals("V09MmapParallelVector"), 2.0);
        List<String> failures = CheckBook.failingClaims(clone.resolve("results"), List.of(clone.resolve("README.md")));
        assertTrue(failures.stream().anyMatch(line -> line.contains("A wall measured apart is a reference, not a ceiling")
                && line.contains("scoreboard:V09MmapParallelVector")), String.join("\n", failures));
    }

    @Test
    void aMemoryWallDoubledFailsTheVerdictOnHowCloseTheChaptersCome() throws IOException {
        Path clone = cloneOfTheBook();
        scale(clone.resolve("results").resolve(REFERENCE).resolve("wall.csv"),
                row -> row.get("chapter").equals("WallMemoryReadHuge") && row.get("workers").equals("2"), 0.5);
        List<String> failures = CheckBook.failingClaims(clone.resolve("results"), List.of(clone.resolve("README.md")));
        assertTrue(failures.stream().anyMatch(line -> line.contains("Three verdicts › How close to the wall")), String.join("\n", failures));
    }

    @Test
    void aGoPairTurnedAroundFailsTheVerdictOnJavaAgainstGo() throws IOException {
        Path clone = cloneOfTheBook();
        // Go's v3 runs made four times as fast: Java now loses every round of pair 3.
        scale(clone.resolve("results").resolve(REFERENCE).resolve("versus-go.csv"), row -> row.get("chapter").equals("Go v3"), 0.25);
        List<String> failures = CheckBook.failingClaims(clone.resolve("results"), List.of(clone.resolve("README.md")));
        assertTrue(failures.stream().anyMatch(line -> line.contains("Three verdicts › Java against Go") && line.contains("versus-go:3")),
                String.join("\n", failures));
        assertTrue(failures.stream().anyMatch(line -> line.contains("Java ties Go at the search")), String.join("\n", failures));
    }

    @Test
    void aClaimThatDoesNotParseOrNamesNoRowIsAFailureNotASkip() throws IOException {
        Path clone = cloneOfTheBook();
        Path page = clone.resolve("page.md");
        Files.writeString(page, """
                # A page

                **A lesson.** Words.
                <!-- claim on amd-epyc-f26m2-2c-avx512: scoreboard:V13PreadVector is fast -->
                <!-- claim on amd-epyc-f26m2-2c-avx512: scoreboard:V99Nothing > 1 -->
                <!-- claim on amd-epyc-f26m2-2c-avx512: scoreboard:V13PreadVector > 1 -->
                """);
        List<String> failures = CheckBook.failingClaims(clone.resolve("results"), List.of(page));
        assertEquals(2, failures.size(), String.join("\n", failures));
        assertTrue(failures.get(0).contains("page.md:4: \"A page › A lesson\""), failures.get(0));
        assertTrue(failures.get(1).contains("no row 'V99Nothing'"), failures.get(1));
    }

    /** A claim on the cost model reads its predicted ÷ measured time, for the row its filters name. */
    @Test
    void aClaimOnTheCostModelReadsItsPredictedOverMeasuredTime() throws IOException {
        Path clone = cloneOfTheBook();
        Files.writeString(clone.resolve("results").resolve(REFERENCE).resolve("model.csv"),
                "chapter,workers,page_cache,cache,measured_s,predicted_s,bound\n"
                        + "V13PreadVector,2,as-is,warm,0.2000,0.1000,page-cache copy\nV13PreadVector,2,as-is,cold,2.0,1.9,device\n");
        Path page = Files.writeString(clone.resolve("model.md"), """
                # The model

                **Warm.** The copy wall's pace, and a gap.
                <!-- claim on amd-epyc-f26m2-2c-avx512: model:V13PreadVector;cache=warm < 0.6 -->
                <!-- claim on amd-epyc-f26m2-2c-avx512: model:V13PreadVector;cache=warm > 0.9 -->
                <!-- claim on amd-epyc-f26m2-2c-avx512: model:V13PreadVector;cache=cold > 0.9 -->
                """);
        List<String> failures = CheckBook.failingClaims(clone.resolve("results"), List.of(page));
        assertEquals(1, failures.size(), String.join("\n", failures));
        assertTrue(failures.getFirst().contains("model.md:5") && failures.getFirst().contains("0.500 (predicted ÷ measured)"), failures.getFirst());
    }

    @Test
    void aComparisonHoldsOnlyBeyondTheSpreadAndATieOnlyWhereTheSpreadsMeet() {
        ReadmeResults results = new ReadmeResults(ReadmeTables.RESULTS, Path.of("").toAbsolutePath());
        List<String> machine = List.of(REFERENCE);
        assertEquals(List.of(), CheckBook.check(results, machine, "2 > 1.5 × 1", false));
        assertEquals(1, CheckBook.check(results, machine, "2 > 2.5 × 1", false).size());
        assertEquals(List.of(), CheckBook.check(results, machine, "1 ≈ 1", false));
        assertEquals(1, CheckBook.check(results, machine, "1 ≈ 2", false).size());
        CheckBook.Figure runs = CheckBook.spread(1.0, new double[] {0.5, 0.95, 1.0, 1.05, 9.0}, "");
        assertEquals(0.95, runs.low(), "the fastest and the slowest of five runs are left out of the spread");
        assertEquals(1.05, runs.high());
        CheckBook.Figure three = CheckBook.spread(1.0, new double[] {0.5, 1.0, 9.0}, "");
        assertEquals(0.5, three.low(), "with fewer than five runs, every run counts");
        assertEquals(9.0, three.high());
    }

    /** README.md, docs/ and every CSV and machine.json under results/, copied. */
    private Path cloneOfTheBook() throws IOException {
        Path clone = folder.resolve("clone");
        Files.createDirectories(clone);
        Files.copy(Path.of("README.md"), clone.resolve("README.md"));
        try (Stream<Path> files = Files.walk(ReadmeTables.RESULTS)) {
            for (Path file : files.filter(Files::isRegularFile).filter(file -> file.toString().endsWith(".csv")
                    || file.toString().endsWith(".txt") || file.getFileName().toString().equals("machine.json")).toList()) {
                Path copy = clone.resolve(file.toString());
                Files.createDirectories(copy.getParent());
                Files.copy(file, copy);
            }
        }
        return clone;
    }

    /** Multiplies every time of the rows {@code chosen} picks by {@code factor}, and divides their MB/s by it. */
    private static void scale(Path csv, Predicate<CSVRecord> chosen, double factor) throws IOException {
        CSVFormat format = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).build();
        List<String> header;
        List<List<String>> rows = new ArrayList<>();
        int changed = 0;
        try (Reader reader = Files.newBufferedReader(csv)) {
            var parser = format.parse(reader);
            header = parser.getHeaderNames();
            for (CSVRecord row : parser) {
                List<String> values = new ArrayList<>(row.toList());
                if (chosen.test(row)) {
                    changed++;
                    for (String column : List.of("mean_s", "median_s", "min_s", "max_s", "run_s")) {
                        int at = header.indexOf(column);
                        values.set(at, Stream.of(values.get(at).split(" ")).filter(s -> !s.isEmpty())
                                .map(s -> String.format(Locale.ROOT, "%.6f", Double.parseDouble(s) * factor))
                                .reduce((a, b) -> a + " " + b).orElse(""));
                    }
                    int mbps = header.indexOf("mbps");
                    values.set(mbps, String.valueOf(Math.round(Double.parseDouble(values.get(mbps)) / factor)));
                }
                rows.add(values);
            }
        }
        assertTrue(changed > 0, "no row of " + csv + " was chosen");
        try (Writer writer = Files.newBufferedWriter(csv); CSVPrinter printer = new CSVPrinter(writer, CSVFormat.DEFAULT)) {
            printer.printRecord(header);
            for (List<String> row : rows) {
                printer.printRecord(row);
            }
        }
    }
}
