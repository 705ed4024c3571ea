import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The book's lessons hold on the committed CSVs, and a CSV changed so that one no longer holds fails it, by name. */
class CheckBookTest {

    /** A committed folder whose exact figures some tests quote. */
    static final String REFERENCE = "amd-epyc-f26m2-2c-avx512";
    /** README's reference machine, whose figures its lessons claim: the machine its scoreboard block names. */
    static final String BOOK_REFERENCE = bookReference();

    static String bookReference() {
        try {
            return ReferenceStudyTest.referenceMachine();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @TempDir
    Path folder;

    @Test
    void everyClaimOfTheBookHoldsOnTheCommittedCsvs() throws IOException {
        List<String> failures = CheckBook.failingClaims(ReadmeTables.RESULTS, ReadmeResults.bookPages());
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
        long claims = BookClaims.CLAIM.matcher(readme).results().count();
        assertTrue(claims >= 20, "README.md has " + claims + " claims");
    }

    @Test
    void chapterSixteensFigureDoubledFailsItsLesson() throws IOException {
        Path clone = cloneOfTheBook();
        scale(clone.resolve("results").resolve(BOOK_REFERENCE).resolve("pagecache.csv"),
                row -> row.get("chapter").equals("V16MmapHugePages") && row.get("page_cache").equals("huge"), 0.5);
        List<String> failures = CheckBook.failingClaims(clone.resolve("results"), List.of(clone.resolve("README.md")));
        assertTrue(failures.stream().anyMatch(line -> line.contains("advice shapes only what is read next")
                && line.contains("pagecache:V16MmapHugePages")), String.join("\n", failures));
    }

    @Test
    void aMemoryWallDoubledFailsTheSentencesThatFindTheWallsLevel() throws IOException {
        Path clone = cloneOfTheBook();
        scale(clone.resolve("results").resolve(BOOK_REFERENCE).resolve("wall.csv"),
                row -> row.get("chapter").equals("WallMemoryReadWidest") && row.get("workers").equals("2"), 0.5);
        List<String> failures = CheckBook.failingClaims(clone.resolve("results"), List.of(clone.resolve("README.md")));
        assertTrue(failures.stream().anyMatch(line -> line.contains("\"The scoreboard\"") && line.contains("wall:WallMemoryReadWidest;workers=2")),
                String.join("\n", failures));
        assertTrue(failures.stream().anyMatch(line -> line.contains("A wall is a ceiling only for the kernel it ran")), String.join("\n", failures));
    }

    @Test
    void aGoPairTurnedAroundFailsTheLessonsOnJavaAgainstGo() throws IOException {
        Path clone = cloneOfTheBook();
        // Go's v3 runs made four times as fast: Java now loses every round of pair 3.
        scale(clone.resolve("results").resolve(BOOK_REFERENCE).resolve("versus-go.csv"), row -> row.get("chapter").equals("Go v3"), 0.25);
        List<String> failures = CheckBook.failingClaims(clone.resolve("results"), List.of(clone.resolve("README.md")));
        assertTrue(failures.stream().anyMatch(line -> line.contains("\"Java beside Go\"") && line.contains("versus-go:3")),
                String.join("\n", failures));
        assertTrue(failures.stream().anyMatch(line -> line.contains("Measure beside a tool that does the same work")), String.join("\n", failures));
    }

    @Test
    void aClaimThatNamesNoRowIsAFailureNotASkip() throws IOException {
        Path clone = cloneOfTheBook();
        Path page = clone.resolve("page.md");
        Files.writeString(page, """
                # A page

                **A lesson.** Words.
                <!-- claim on amd-epyc-f26m2-2c-avx512: cold:V02BufferedByte > 1 -->
                <!-- claim on amd-epyc-f26m2-2c-avx512: scoreboard:V13PreadVector > 1 -->
                """);
        List<String> failures = CheckBook.failingClaims(clone.resolve("results"), List.of(page));
        assertEquals(1, failures.size(), String.join("\n", failures));
        assertTrue(failures.get(0).contains("page.md:4: \"A page › A lesson\""), failures.get(0));
        assertTrue(failures.get(0).contains("no row 'V02BufferedByte'"), failures.get(0));
    }

    /** A claim narrowed by warmup_runs reads only the rows with that many warm-up runs: none here has seven. */
    @Test
    void aClaimNarrowedByWarmUpRunsReadsOnlyThoseRows() throws IOException {
        Path clone = cloneOfTheBook();
        Path page = Files.writeString(clone.resolve("page.md"), """
                # A page

                **A lesson.** Words.
                <!-- claim on amd-epyc-f26m2-2c-avx512: scoreboard:V13PreadVector;warmup_runs=1 > 1 -->
                <!-- claim on amd-epyc-f26m2-2c-avx512: scoreboard:V13PreadVector;warmup_runs=7 > 1 -->
                """);
        List<String> failures = CheckBook.failingClaims(clone.resolve("results"), List.of(page));
        assertEquals(1, failures.size(), String.join("\n", failures));
        assertTrue(failures.get(0).contains("page.md:5:") && failures.get(0).contains("no row 'V13PreadVector;warmup_runs=7'"), failures.get(0));
    }

    /**
     * Issue 71: a copy of chapter 2's newest row with its first run at 0.0000001 s (42,949,672,960 MB/s,
     * and below the row's own min_s) made a false tie of chapters 2 and 9 hold. The row is refused,
     * by its file and line, before any claim is judged on it.
     */
    @Test
    void aRowWithARunFasterThanTenTerabytesASecondIsRefusedAndMakesNoFalseClaimHold() throws IOException {
        Path clone = cloneOfTheBook();
        Path page = Files.writeString(clone.resolve("page.md"), """
                # A page

                **A false tie.** Chapter 2 is not chapter 9.
                <!-- claim on amd-epyc-f26m2-2c-avx512: scoreboard:V02BufferedByte ≈ scoreboard:V09MmapParallelVector -->
                """);
        List<String> failures = CheckBook.failingClaims(clone.resolve("results"), List.of(page));
        assertEquals(1, failures.size(), "the tie is false: " + failures);

        Path scoreboard = clone.resolve("results").resolve(REFERENCE).resolve("scoreboard.csv");
        List<String> lines = Files.readAllLines(scoreboard);
        int runs = List.of(lines.getFirst().split(",")).indexOf("run_s");
        String newest = lines.stream().filter(line -> line.contains(",V02BufferedByte,")).reduce((first, second) -> second).orElseThrow();
        List<String> fields = new ArrayList<>(List.of(newest.split(",", -1)));
        fields.set(runs, fields.get(runs).replaceFirst("^[0-9.]+", "0.0000001"));
        Files.writeString(scoreboard, String.join(",", fields) + "\n", java.nio.file.StandardOpenOption.APPEND);

        lib.cli.UserMistakeException refused = org.junit.jupiter.api.Assertions.assertThrows(lib.cli.UserMistakeException.class,
                () -> CheckBook.failingClaims(clone.resolve("results"), List.of(page)));
        assertTrue(refused.getMessage().startsWith(scoreboard + " line " + (lines.size() + 1) + ": run_s holds 0.0000001 s"), refused.getMessage());
        assertTrue(refused.getMessage().contains("faster than the 10 TB/s"), refused.getMessage());
    }

    /** Issue 71: each of these threw an exception out of the check (exit 1, a stack trace); each is now one line, and the check exits 2. */
    @Test
    void everyMalformedClaimIsRefusedInOneLineNamingItsFileLineAndWhatIsWrong() throws IOException {
        Path clone = cloneOfTheBook();
        Map<String, String> malformed = new LinkedHashMap<>(); // the claim, and what its line must say
        malformed.put("versus-go:abc > 1", "a Go pair is versus-go:N");
        malformed.put("versus-go: > 1", "names nothing after 'versus-go:'");
        malformed.put("versus-go:99999999999999 > 1", "a Go pair is versus-go:N");
        malformed.put("scoreboard:; > 1", "'scoreboard:;' names no chapter");
        malformed.put("answer:; > 1", "a one-shot's figure is its seconds");
        malformed.put("model:; > 1", "'model:;' names no chapter");
        malformed.put("> 1", "it compares nothing");
        malformed.put("scoreboard:V13PreadVector >", "it compares nothing");
        malformed.put("scoreboard:V13PreadVector is fast", "it compares nothing");
        malformed.put("scoreboard:V13PreadVector > 1 > 2", "it holds 2 comparisons");
        malformed.put("nosuch:V13PreadVector > 1", "names table 'nosuch'");
        malformed.put("scoreboard:V99Nothing > 1", "no chapter 'V99Nothing' in variants/");
        malformed.put("scoreboard:<b>x</b> > 1", "'<b>x</b>' is no chapter's name");
        malformed.put("scoreboard:V13PreadVector;colour=red > 1", "not 'colour'");
        malformed.put("scoreboard:V13PreadVector;workers=99999999999 > 1", "workers='99999999999' is no value of workers");
        malformed.put("scoreboard:V13PreadVector;cache= > 1", "cache='' is no value of cache");
        malformed.put("scoreboard:V13PreadVector;warmup_runs=-1 > 1", "warmup_runs='-1' is no value of warmup_runs");
        malformed.put("scoreboard:V13PreadVector;workers=2;workers=2 > 1", "narrows by workers twice");
        malformed.put("scoreboard:V13PreadVector.mpbs > 1", ".mpbs is no figure of a row");
        malformed.put("scoreboard:V13PreadVector@all@all > 1", "@all goes once");
        malformed.put("scoreboard:V13PreadVector > 1e308", "'1e308' is neither a number");
        malformed.put("scoreboard:V13PreadVector > 99999999999999999999", "more digits than any figure");
        malformed.put("scoreboard:V13PreadVector > 0 × scoreboard:V03ChunkedLong", "a factor of 0");
        malformed.put("2 × scoreboard:V13PreadVector > 1", "a factor is k × B");
        malformed.put("answer:V13PreadVector > 1", "answer:CHAPTER.s");
        malformed.put("model:V13PreadVector.s > 1", "a model figure is model:CHAPTER");
        malformed.put("costs:Unmap-Entry > 1", "a unit cost is costs:NAME");
        malformed.put("2 > 1", "it compares two numbers");
        StringBuilder page = new StringBuilder("# A page\n\n**Malformed claims.** Each is one line.\n");
        malformed.keySet().forEach(claim -> page.append("<!-- claim on amd-epyc-f26m2-2c-avx512: ").append(claim).append(" -->\n"));
        page.append("<!-- claim on nosuch-machine: 1 > 0 -->\n<!-- claim on every machine: scoreboard:V13PreadVector > 1\n-->\n");
        Path document = Files.writeString(clone.resolve("page.md"), page);

        lib.cli.UserMistakeException refused = org.junit.jupiter.api.Assertions.assertThrows(lib.cli.UserMistakeException.class,
                () -> CheckBook.failingClaims(clone.resolve("results"), List.of(document)));
        List<String> lines = refused.getMessage().lines().toList();
        assertEquals(malformed.size() + 2, lines.size(), refused.getMessage());
        int line = 4;
        for (Map.Entry<String, String> claim : malformed.entrySet()) {
            String said = lines.get(line - 4);
            assertTrue(said.startsWith(document + ":" + line + ": \"A page › Malformed claims\": ") && said.contains(claim.getValue()),
                    claim.getKey() + " → " + said);
            line++;
        }
        assertTrue(lines.get(line - 4).startsWith(document + ":" + line + ": ") && lines.get(line - 4).contains("machine 'nosuch-machine'"),
                lines.get(line - 4));
        assertTrue(lines.get(line - 3).contains("is not a claim"), "a claim cut over two lines is refused, not skipped: " + lines.get(line - 3));

        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(), err = new java.io.ByteArrayOutputStream();
        int status = CheckBook.checkClaims(clone.resolve("results"), List.of(document), new java.io.PrintStream(out, true, StandardCharsets.UTF_8),
                new java.io.PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(2, status, "a claim that is no claim is a usage error, not a claim that fails");
        assertEquals(lines, err.toString(StandardCharsets.UTF_8).lines().toList());
    }

    /** Issue 71: a claim on a machine without a committed folder held when both its sides were numbers. */
    @Test
    void aClaimOnAMachineWithoutACommittedFolderIsRefused() throws IOException {
        Path clone = cloneOfTheBook();
        Path page = Files.writeString(clone.resolve("page.md"), """
                # A page

                <!-- claim on nosuch-machine: scoreboard:V13PreadVector > 1 -->
                """);
        lib.cli.UserMistakeException refused = org.junit.jupiter.api.Assertions.assertThrows(lib.cli.UserMistakeException.class,
                () -> CheckBook.failingClaims(clone.resolve("results"), List.of(page)));
        assertEquals(page + ":3: \"A page\": the claim is on machine 'nosuch-machine', which has no committed folder (those are "
                + "amd-epyc-2c-avx512, amd-epyc-f23m1-2c-avx2, amd-epyc-f25m17-2c-avx512, amd-epyc-f26m2-2c-avx512, intel-xeon-f6m167-2c-avx512, intel-xeon-f6m207-2c-avx512)", refused.getMessage());
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

    /** A claim on a unit cost reads costs.csv: the median of its sittings, spread from their lowest round to their highest. */
    @Test
    void aClaimOnAUnitCostReadsTheMedianOfItsSittingsAndTheirWholeSpread() throws IOException {
        Path clone = cloneOfTheBook();
        Files.writeString(clone.resolve("results").resolve(REFERENCE).resolve("costs.csv"), """
                date,machine,cost,unit,value,low,high,rounds,spread,stable
                2026-01-01T00:00:00Z,m,unmap_entry,ns,100,90,110,5,0.2,stable
                2026-01-01T00:00:00Z,m,unmap_entry_all,ns,60,55,65,5,0.17,stable
                2026-01-01T01:00:00Z,m,unmap_entry,ns,120,100,180,5,0.67,unstable
                2026-01-01T01:00:00Z,m,unmap_entry_all,us,0.07,0.066,0.075,5,0.13,stable
                2026-01-01T02:00:00Z,m,unmap_entry,ns,110,105,115,5,0.09,stable
                """);
        Path page = Files.writeString(clone.resolve("costs.md"), """
                # The costs

                **The teardown.** Shared out, it is cheaper; it is not dearer.
                <!-- claim on amd-epyc-f26m2-2c-avx512: costs:unmap_entry_all < costs:unmap_entry -->
                <!-- claim on amd-epyc-f26m2-2c-avx512: costs:unmap_entry_all ≥ costs:unmap_entry -->
                <!-- claim on amd-epyc-f26m2-2c-avx512: costs:no_such_cost > 1 -->
                """);
        List<String> failures = CheckBook.failingClaims(clone.resolve("results"), List.of(page));
        assertEquals(2, failures.size(), String.join("\n", failures));
        assertTrue(failures.getFirst().contains("costs.md:5") && failures.getFirst().contains("costs:unmap_entry_all = 65.00 ns (55.00–75.00)")
                && failures.getFirst().contains("costs:unmap_entry = 110 ns (90.00–180)"), failures.getFirst());
        assertTrue(failures.get(1).contains("costs.md:6") && failures.get(1).contains("no cost 'no_such_cost'"), failures.get(1));
    }

    @Test
    void aComparisonHoldsOnlyBeyondTheSpreadAndATieOnlyWhereTheSpreadsMeet() {
        ReadmeResults results = new ReadmeResults(ReadmeTables.RESULTS, Path.of("").toAbsolutePath());
        assertTrue(compare(results, 2, ">", 1.5, 1) instanceof ClaimEvaluator.Holds);
        assertTrue(compare(results, 2, ">", 2.5, 1) instanceof ClaimEvaluator.Fails);
        assertTrue(compare(results, 1, "≈", 1, 1) instanceof ClaimEvaluator.Holds);
        assertTrue(compare(results, 1, "≈", 1, 2) instanceof ClaimEvaluator.Fails);
        ClaimEvaluator.Figure runs = ClaimEvaluator.spread(1.0, new double[] {0.5, 0.95, 1.0, 1.05, 9.0}, "");
        assertEquals(0.95, runs.low(), "the fastest and the slowest of five runs are left out of the spread");
        assertEquals(1.05, runs.high());
        ClaimEvaluator.Figure three = ClaimEvaluator.spread(1.0, new double[] {0.5, 1.0, 9.0}, "");
        assertEquals(0.5, three.low(), "with fewer than five runs, every run counts");
        assertEquals(9.0, three.high());
    }

    private static ClaimEvaluator.Outcome compare(ReadmeResults results, double left, String operator, double factor, double right) {
        return ClaimEvaluator.evaluate(results, REFERENCE, new BookClaims.Comparison(new BookClaims.Constant(String.valueOf(left), left), operator,
                factor, new BookClaims.Constant(String.valueOf(right), right)));
    }

    // ---- Groups: a sentence about several chapters is checked on each

    /** A claim on {reading} is one claim per member; the member that fails is named by its figure, the others hold. */
    @Test
    void aClaimOnAGroupIsCheckedOnEachMemberAndAFailingMemberIsNamed() throws IOException {
        Path clone = cloneOfTheBook();
        Path page = Files.writeString(clone.resolve("page.md"), """
                # A page

                <!-- group reading: V03ChunkedLong V13PreadVector -->
                **The reading chapters.** Each beats 5,000 MB/s; each beats 15,000 MB/s.
                <!-- claim on amd-epyc-f26m2-2c-avx512: scoreboard:{reading} > 5000 -->
                <!-- claim on amd-epyc-f26m2-2c-avx512: scoreboard:{reading} > 15000 -->
                <!-- claim on every machine: scoreboard:{reading} ≈ scoreboard:{reading} -->
                """);
        BookClaims.Book book = BookClaims.read(List.of(page), java.util.Set.of(REFERENCE));
        assertEquals(List.of(), book.refusals());
        assertEquals(List.of("scoreboard:V03ChunkedLong > 5000", "scoreboard:V13PreadVector > 5000", "scoreboard:V03ChunkedLong > 15000",
                "scoreboard:V13PreadVector > 15000", "scoreboard:V03ChunkedLong ≈ scoreboard:V03ChunkedLong",
                "scoreboard:V13PreadVector ≈ scoreboard:V13PreadVector"), book.claims().stream().map(BookClaims.Claim::text).toList());
        assertTrue(book.claims().stream().allMatch(claim -> claim.lesson().equals("\"A page › The reading chapters\"")), book.claims().toString());

        List<String> failures = CheckBook.failingClaims(clone.resolve("results"), List.of(page));
        assertEquals(1, failures.size(), String.join("\n", failures));
        assertTrue(failures.getFirst().startsWith(page + ":6: \"A page › The reading chapters\": on " + REFERENCE + ": scoreboard:V03ChunkedLong = "),
                failures.getFirst());
        assertTrue(failures.getFirst().contains(" is not > 15000"), failures.getFirst());
    }

    /** A group that names nothing, or a claim on a group the page does not give, is refused in one line each: never checked as nothing. */
    @Test
    void anUnknownOrEmptyGroupIsRefusedInOneLine() throws IOException {
        Path clone = cloneOfTheBook();
        Map<String, String> malformed = new LinkedHashMap<>(); // a line of the page, and what its refusal must say
        malformed.put("<!-- group empty: -->", "group 'empty' has no member");
        malformed.put("<!-- group Reading: V03ChunkedLong -->", "is not a group: one is <!-- group NAME: MEMBER MEMBER… -->");
        malformed.put("<!-- group twice: V03ChunkedLong V03ChunkedLong -->", "names a member twice");
        malformed.put("<!-- group reading: V03ChunkedLong V13PreadVector -->", null);
        malformed.put("<!-- group reading: V07PreadParallel -->", "group 'reading' is given twice on this page");
        malformed.put("<!-- group mapped: V04Mmap -->", null);
        malformed.put("<!-- claim on every machine: scoreboard:{writing} > 1 -->", "no <!-- group writing: … --> on this page gives {writing} (its groups: reading, mapped)");
        malformed.put("<!-- claim on every machine: scoreboard:{empty} > 1 -->", "no <!-- group empty: … -->");
        malformed.put("<!-- claim on every machine: scoreboard:{reading} > scoreboard:{mapped} -->", "it names groups mapped and reading: a claim speaks of one group");
        malformed.put("<!-- claim on every machine: scoreboard:{Reading} > 1 -->", "'{Reading}' is no group's name");
        malformed.put("<!-- claim on every machine: scoreboard:{reading > 1 -->", "a brace that opens or closes no group");
        malformed.put("<!-- claim on every machine: answer:{reading} > 1 -->", "for 'answer:V03ChunkedLong > 1': 'answer:V03ChunkedLong': a one-shot's figure is its seconds");
        StringBuilder text = new StringBuilder("# A page\n\n");
        malformed.keySet().forEach(line -> text.append(line).append("\n"));
        Path page = Files.writeString(clone.resolve("page.md"), text);
        BookClaims.Book book = BookClaims.read(List.of(page), java.util.Set.of(REFERENCE));
        List<String> expected = malformed.values().stream().filter(java.util.Objects::nonNull).toList();
        assertEquals(expected.size(), book.refusals().size(), String.join("\n", book.refusals()));
        int line = 3;
        for (Map.Entry<String, String> each : malformed.entrySet()) {
            int at = line++;
            if (each.getValue() != null) {
                assertTrue(book.refusals().stream().anyMatch(refusal -> refusal.startsWith(page + ":" + at + ": ") && refusal.contains(each.getValue())),
                        each.getKey() + " → " + book.refusals());
            }
        }
        assertEquals(List.of(), book.claims(), "no claim of a page whose groups are wrong is judged as fewer claims than it says");
    }

    // ---- The pages' blocks: filled, and each of one machine

    /**
     * A figure still naming model=, a block whose text names a second machine, and an empty block
     * are each one line naming the page and the block's line, status 1; the tables across machines
     * name several and pass. --write still writes such a page, and the check then refuses it.
     */
    @Test
    void aBlockOfTwoMachinesOrEmptyIsRefusedAndTablesAcrossMachinesAreNot() throws IOException {
        Path clone = cloneOfTheBook();
        Files.writeString(clone.resolve("jbang-catalog.json"), "{\"aliases\": {}}");
        String other = "amd-epyc-f25m17-2c-avx512";
        Path page = Files.writeString(clone.resolve("page.md"), "# A page\n\n"
                + "<!-- generated:figure chapter=V13PreadVector machine=" + REFERENCE + " model=" + other + " -->\n<!-- /generated -->\n"
                + "<!-- generated:scoreboard machine=" + REFERENCE + " -->\nas on `" + other + "`\n<!-- /generated -->\n"
                + "<!-- generated:scoreboard machine=" + REFERENCE + " -->\n<!-- /generated -->\n"
                + "<!-- generated:machines -->\n<!-- /generated -->\n"
                + "<!-- generated:versus-go-machines -->\n<!-- /generated -->\n");
        assertEquals(0, ReadmeTables.run(new String[] {"--results", clone.resolve("results").toString(), page.toString()},
                new java.io.PrintStream(java.io.OutputStream.nullOutputStream()), new java.io.PrintStream(java.io.OutputStream.nullOutputStream())));
        String written = Files.readString(page);
        assertTrue(written.contains(other) && written.contains("amd-epyc-2c-avx512"), "the tables across machines name them all: " + written);
        assertTrue(!written.contains("Cost model"), REFERENCE + " has no model.csv, and the figure reads no other machine's: " + written);

        Files.writeString(page, "# A page\n\n"
                + "<!-- generated:figure chapter=V13PreadVector machine=" + REFERENCE + " model=" + other + " -->\n"
                + "Measured: 1 s. Cost model on `" + other + "`: 2 s.\n<!-- /generated -->\n"
                + "<!-- generated:scoreboard machine=" + REFERENCE + " -->\nas on `" + other + "`\n<!-- /generated -->\n"
                + "<!-- generated:scoreboard machine=" + REFERENCE + " -->\n<!-- /generated -->\n"
                + "<!-- generated:machines -->\n| `" + REFERENCE + "` | `" + other + "` |\n<!-- /generated -->\n"
                + "<!-- generated:versus-go-machines -->\n| `" + REFERENCE + "` | `" + other + "` |\n<!-- /generated -->\n"
                + "<!-- generated:cold machine=" + REFERENCE + " -->\n`results/" + REFERENCE + "/cold.csv`, like " + other + "-local\n<!-- /generated -->\n");
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(), err = new java.io.ByteArrayOutputStream();
        int status = CheckBook.checkPages(clone, List.of(page), clone.resolve("results"), new java.io.PrintStream(out, true, StandardCharsets.UTF_8),
                new java.io.PrintStream(err, true, StandardCharsets.UTF_8));
        List<String> lines = err.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(1, status, String.join("\n", lines));
        assertEquals(4, lines.size(), String.join("\n", lines));
        assertTrue(lines.get(0).startsWith(page + ":3: block generated:figure ") && lines.get(0).contains("names model=" + other), lines.get(0));
        assertTrue(lines.get(1).startsWith(page + ":6: block generated:scoreboard machine=" + REFERENCE + " names machines " + other + " and " + REFERENCE),
                lines.get(1));
        assertTrue(lines.get(2).startsWith(page + ":9: block generated:scoreboard machine=" + REFERENCE + " is empty"), lines.get(2));
    }

    // ---- Your machine against the book (issue 69): the same check, told which folder to judge

    /**
     * On every committed machine, the verdict --judge gives each claim written for that machine or
     * for every machine is CheckBook's: it holds where the check finds it holding, does not where
     * the check fails it, and cannot be told only where the machine lacks its figures. Run on the
     * committed CSVs, and again with chapter 9 halved, so that some claims fail.
     */
    @Test
    void onEveryCommittedMachineTheJudgedVerdictsAreTheChecks() throws IOException {
        Path clone = cloneOfTheBook();
        agreeOnEveryMachine(clone.resolve("results"));
        scale(clone.resolve("results").resolve(BOOK_REFERENCE).resolve("scoreboard.csv"), row -> row.get("chapter").equals("V09MmapParallelVector"), 2.0);
        assertTrue(agreeOnEveryMachine(clone.resolve("results")) > 0, "chapter 9 halved fails a claim on " + BOOK_REFERENCE);
    }

    /** Asserts that the judged and the checked verdicts agree for every claim and committed machine; returns how many do not hold. */
    private static int agreeOnEveryMachine(Path root) throws IOException {
        ReadmeResults committed = new ReadmeResults(root, root.toAbsolutePath());
        BookClaims.Book book = BookClaims.read(ReadmeResults.bookPages(), java.util.Set.copyOf(committed.machines()));
        int failing = 0;
        for (String machine : committed.machines()) {
            BookVerdicts.Judgement judgement = BookVerdicts.judge(root.resolve(machine), book.claims());
            assertEquals(List.of(), judgement.leftOut(), "a committed folder reads whole");
            for (BookVerdicts.Lesson lesson : judgement.lessons()) {
                for (BookVerdicts.ClaimVerdict judged : lesson.claims()) {
                    BookClaims.Claim claim = judged.claim();
                    if (!claim.onEveryMachine() && !claim.machine().equals(machine)) {
                        continue;
                    }
                    BookClaims.Claim onThisMachine = new BookClaims.Claim(claim.document(), claim.line(), claim.lesson(), machine,
                            claim.text(), claim.comparison());
                    List<String> checked = CheckBook.check(committed, onThisMachine);
                    BookVerdicts.Verdict expected = checked.isEmpty() ? BookVerdicts.Verdict.HOLDS
                            : checked.getFirst().contains(" is not ") ? BookVerdicts.Verdict.DOES_NOT_HOLD : BookVerdicts.Verdict.CANNOT_TELL;
                    assertEquals(expected, judged.verdict(), machine + ", " + claim.where() + ": " + claim.text() + "\n" + checked + "\n" + judged.said());
                    if (expected == BookVerdicts.Verdict.CANNOT_TELL) {
                        assertTrue(claim.onEveryMachine(), "a claim written for " + machine + " can be told there: " + checked);
                    }
                    failing += expected == BookVerdicts.Verdict.DOES_NOT_HOLD ? 1 : 0;
                }
            }
        }
        return failing;
    }

    /**
     * One CSV changed so that a lesson fails (chapter 3 at a quarter of its speed, under six times chapter 2): the
     * command says "does not hold" for that lesson with both figures and their spreads, exits 1, and the report's
     * section says the same.
     */
    @Test
    void aLessonMadeToFailOnALearnersFolderDoesNotHoldInTheCommandAndTheReport() throws IOException {
        Path mine = learnersCopyOfTheReference();
        scale(mine.resolve("scoreboard.csv"), row -> row.get("chapter").equals("V03ChunkedLong"), 4.0);
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(), err = new java.io.ByteArrayOutputStream();
        int status = CheckBook.run(new String[] {"--judge", mine.toString()}, new java.io.PrintStream(out, true, StandardCharsets.UTF_8),
                new java.io.PrintStream(err, true, StandardCharsets.UTF_8));
        String said = out.toString(StandardCharsets.UTF_8);
        assertEquals(1, status, said + err.toString(StandardCharsets.UTF_8));
        assertTrue(said.lines().findFirst().orElseThrow().matches("The book on .*: \\d+ of \\d+ lessons hold here: [1-9]\\d* do not hold, \\d+ cannot tell\\."),
                said.lines().findFirst().orElseThrow());
        List<String> lines = said.lines().toList();
        int lesson = lines.indexOf(lines.stream().filter(line -> line.startsWith("does not hold: README.md \"Chapter 3: 1 MiB reads")).findFirst()
                .orElseThrow(() -> new AssertionError("chapter 3's lesson does not fail:\n" + said)));
        String figures = lines.get(lesson + 1);
        assertTrue(figures.matches("    does not hold: scoreboard:V03ChunkedLong = [\\d,]+ MB/s \\([\\d,]+–[\\d,]+\\) is not > 6\\.00 × "
                + "scoreboard:V02BufferedByte = [\\d,]+ MB/s \\([\\d,]+–[\\d,]+\\) \\(each with its spread\\)"), figures);

        String page = Files.readString(StudyReport.write(mine));
        assertTrue(page.contains("<li class=\"does-not-hold\">does not hold: README.md &quot;Chapter 3: 1 MiB reads"), page);
        assertTrue(page.contains("<li>" + figures.strip().replace(">", "&gt;") + "</li>"), page);
    }

    /** --judge without a machine's folder is a usage error: one line saying what is wrong, status 2. */
    @Test
    void judgingAFolderThatIsNoneIsAUsageError() throws IOException {
        Path empty = Files.createDirectories(folder.resolve("empty"));
        Map<List<String>, String> said = new LinkedHashMap<>();
        said.put(List.of("--judge"), "--judge takes one machine's results folder");
        said.put(List.of("--judge", ""), "--judge takes one machine's results folder");
        said.put(List.of("--judge", folder.resolve("none").toString()), "no results folder '" + folder.resolve("none") + "'");
        said.put(List.of("--judge", empty.toString()), "'" + empty + "' holds no results");
        said.put(List.of("--judge", REFERENCE, "--write"), "it does not go with --write");
        for (Map.Entry<List<String>, String> usage : said.entrySet()) {
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(), err = new java.io.ByteArrayOutputStream();
            int status = CheckBook.run(usage.getKey().toArray(String[]::new), new java.io.PrintStream(out, true, StandardCharsets.UTF_8),
                    new java.io.PrintStream(err, true, StandardCharsets.UTF_8));
            List<String> lines = err.toString(StandardCharsets.UTF_8).lines().toList();
            assertEquals(2, status, usage.getKey().toString());
            assertEquals(1, lines.size(), usage.getKey() + ": " + lines);
            assertTrue(lines.getFirst().contains(usage.getValue()), usage.getKey() + ": " + lines);
        }
    }

    /** "./jbang lessons --help" runs "CheckBook --judge --help": the help wins, as it does alone, with status 0. */
    @Test
    void helpAfterJudgeAsTheLessonsAliasPassesItPrintsTheUsage() {
        for (List<String> asked : List.of(List.of("--help"), List.of("-h"), List.of("--judge", "--help"), List.of("--judge", "-h"),
                List.of("--judge", REFERENCE, "--help"))) {
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(), err = new java.io.ByteArrayOutputStream();
            int status = CheckBook.run(asked.toArray(String[]::new), new java.io.PrintStream(out, true, StandardCharsets.UTF_8),
                    new java.io.PrintStream(err, true, StandardCharsets.UTF_8));
            assertEquals(0, status, asked + ": " + err.toString(StandardCharsets.UTF_8));
            assertTrue(out.toString(StandardCharsets.UTF_8).startsWith("Usage: ./jbang check-book")
                    && out.toString(StandardCharsets.UTF_8).contains("./jbang lessons results/MACHINE"), asked + ": " + out);
            assertEquals("", err.toString(StandardCharsets.UTF_8), asked.toString());
        }
    }

    /** The reference machine's folder, its CSVs and machine.json, as a learner's own study under another name. */
    private Path learnersCopyOfTheReference() throws IOException {
        Path mine = Files.createDirectories(folder.resolve("results").resolve("my-machine"));
        try (Stream<Path> files = Files.list(ReadmeTables.RESULTS.resolve(REFERENCE))) {
            for (Path file : files.filter(file -> file.toString().endsWith(".csv") || file.getFileName().toString().equals("machine.json")).toList()) {
                Files.copy(file, mine.resolve(file.getFileName()));
            }
        }
        return mine;
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
