import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import lab.results.*;
import lib.cli.UserMistakeException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** README's tables are what the committed CSVs give, and a table that drifts from them is named. */
class ReadmeTablesTest {

    static final String MACHINE = "amd-epyc-f26m2-2c-avx512";
    static final String HEADER = "date,chapter,workers,cache,file_bytes,chunk_bytes,offset,warmup_runs,runs,mean_s,median_s,min_s,max_s,mbps,run_s,warmup_s,cpu_model,logical_cores,vector_bits\n";

    @TempDir
    Path folder;

    /** One table, three formats: each writer escapes every cell, whatever it is set as, and sets figures flush right. */
    @Test
    void aTableEscapesEveryCellInEachFormat() {
        String hostile = "x|`*_[a](b)<img src=x onerror=alert(1)>&";
        Table table = new Table("name", Table.code("MB/s")).row(Table.strong(true, Table.code(hostile)), "1,234")
                .row(Table.link(hostile + "\u001b[2J", "a\" onclick=\"b"), "–");
        String markdown = table.markdown();
        assertEquals("| name | `MB/s` |\n|---|--:|\n", markdown.lines().limit(2).map(line -> line + "\n").collect(Collectors.joining()));
        assertTrue(markdown.contains("**`x\\|'*_[a](b)<img src=x onerror=alert(1)>&`**"), markdown);
        assertTrue(markdown.contains("[x\\|\\`\\*\\_\\[a\\](b)&lt;img src=x onerror=alert(1)&gt;&amp; \\[2J](a\"%20onclick=\"b)"), markdown);
        String html = table.html();
        assertFalse(html.contains("<img") || html.contains("\" onclick"), html);
        assertTrue(html.contains("<td><strong><code>x|`*_[a](b)&lt;img src=x onerror=alert(1)&gt;&amp;</code></strong></td><td>1,234</td>"), html);
        assertTrue(html.contains("<td><a href=\"a&quot; onclick=&quot;b\">x|`*_[a](b)&lt;img"), html);
        String text = table.text();
        assertFalse(text.contains("\u001b"), text);
        int width = (hostile + " [2J").length(); // the escape character shown as a space
        assertEquals(List.of("name" + " ".repeat(width - 4) + "   MB/s", hostile + "    " + "  1,234"), text.lines().limit(2).toList(), text);
    }

    @Test
    void everyGeneratedBlockOfTheReadmesIsWhatTheCommittedCsvsGive() throws IOException {
        for (Path document : ReadmeResults.bookPages()) {
            String text = Files.readString(document);
            List<String> differences = ReadmeTables.differences(document.toString(), text,
                    new ReadmeResults(ReadmeTables.RESULTS, document.toAbsolutePath().getParent()));
            assertTrue(differences.isEmpty(), String.join("\n", differences) + "\n(./jbang check-book --write rewrites them)");
        }
    }

    @Test
    void theReadmesTablesAreGeneratedNotTypedByHand() throws IOException {
        Set<String> kinds = ReadmeTables.blocks("README.md", Files.readString(Path.of("README.md"))).stream()
                .map(ReadmeTables.Block::kind).collect(Collectors.toSet());
        for (String table : List.of("scoreboard", "scaling", "cold", "pagecache", "versus-go", "machines", "figure")) {
            assertTrue(kinds.contains(table), "README.md has no generated " + table + " block");
        }
        assertTrue(ReadmeTables.blocks("results/README.md", Files.readString(Path.of("results", "README.md"))).stream()
                .anyMatch(block -> block.kind().equals("machines")), "results/README.md lists the machines from their machine.json");
    }

    /**
     * A reader's study writes results/THEIR-MACHINE/ beside the committed folders: the README's blocks,
     * generated from the committed folders alone (results/committed-machines.txt), are still what
     * the check finds, in a copy of the project's documents and results.
     */
    @Test
    void aReadersOwnFolderInResultsChangesNoBlockOfTheReadmes() throws IOException {
        Path clone = folder.resolve("clone");
        Path results = Files.createDirectories(clone.resolve("results"));
        Files.copy(Path.of("README.md"), clone.resolve("README.md"));
        Files.copy(ReadmeTables.RESULTS.resolve("README.md"), results.resolve("README.md"));
        Files.copy(ReadmeTables.RESULTS.resolve(CommittedMachines.FILE_NAME), results.resolve(CommittedMachines.FILE_NAME));
        try (java.util.stream.Stream<Path> files = Files.walk(ReadmeTables.RESULTS)) {
            for (Path file : files.filter(Files::isRegularFile).filter(file -> file.toString().endsWith(".csv")
                    || file.getFileName().toString().equals("machine.json")).toList()) {
                Path copy = results.resolve(ReadmeTables.RESULTS.relativize(file).toString());
                Files.createDirectories(copy.getParent());
                Files.copy(file, copy);
            }
        }
        Path own = Files.createDirectories(results.resolve("a-readers-machine-4c-avx2"));
        Files.writeString(own.resolve("machine.json"), "{\"name\": \"a-readers-machine-4c-avx2\", \"cpu_model\": \"Reader CPU\", \"logical_cores\": 4}");
        Files.writeString(own.resolve("scoreboard.csv"), HEADER + row("V01ReadAll", 1, 2.0));

        for (Path document : List.of(clone.resolve("README.md"), results.resolve("README.md"))) {
            List<String> differences = ReadmeTables.differences(document.toString(), Files.readString(document),
                    new ReadmeResults(results, document.getParent()));
            assertTrue(differences.isEmpty(), String.join("\n", differences));
        }
    }

    /** Each folder results/committed-machines.txt names is there, with its machine.json: a typo would drop a machine from the tables. */
    @Test
    void everyCommittedFolderIsThere() {
        java.util.Set<String> committed = CommittedMachines.of(ReadmeTables.RESULTS).orElseThrow();
        assertFalse(committed.isEmpty());
        for (String machine : committed) {
            assertTrue(Files.isRegularFile(ReadmeTables.RESULTS.resolve(machine).resolve("machine.json")), machine);
        }
        assertEquals("amd-epyc-f26m2-2c-avx512-local", CommittedMachines.studyFolder(ReadmeTables.RESULTS, "amd-epyc-f26m2-2c-avx512"), "a committed name gets a folder of its own");
        assertEquals("a-machine-of-its-own", CommittedMachines.studyFolder(ReadmeTables.RESULTS, "a-machine-of-its-own"));
    }

    /** Where the results root names its committed folders, a block can name no other. */
    @Test
    void aBlockNamingAFolderThatIsNotCommittedIsRefused() throws IOException {
        Path results = results(0.25);
        Files.writeString(results.resolve(CommittedMachines.FILE_NAME), "# committed\nm0\n");
        UserMistakeException refused = assertThrows(UserMistakeException.class, () -> ReadmeTables.differences("book.md", DOCUMENT, source(results)));
        assertTrue(refused.getMessage().contains("'m1' is not one of the folders committed with the project"), refused.getMessage());
        String machines = ReadmeBlocks.machines(source(results), null);
        assertFalse(machines.contains("m1"), "only committed folders are listed: " + machines);
    }

    /** A results root with one machine whose scoreboard has chapter 1 and chapter 13. */
    private Path results(double chapterThirteenSeconds) throws IOException {
        Path machine = Files.createDirectories(folder.resolve("results").resolve("m1"));
        Files.writeString(machine.resolve("scoreboard.csv"), HEADER
                + row("V01ReadAll", 1, 4.0) + row("V13PreadVector", 2, chapterThirteenSeconds));
        Files.writeString(machine.resolve("machine.json"), "{\"cpu_model\": \"Test <b>CPU</b> | x\", \"logical_cores\": 2}");
        return folder.resolve("results");
    }

    private static String row(String chapter, int workers, double seconds) {
        long bytes = 4L << 30;
        return String.format(java.util.Locale.ROOT, "2026-01-01T00:00:00Z,%s,%d,warm,%d,,%d,0,1,%.6f,%.6f,%.6f,%.6f,%.0f,%.6f,,Test CPU,2,512\n",
                chapter, workers, bytes, bytes - 8, seconds, seconds, seconds, seconds, bytes / seconds / 1e6, seconds);
    }

    private static final String DOCUMENT = """
            # A book
            <!-- generated:scoreboard machine=m1 -->
            a table typed by hand
            <!-- /generated -->
            prose stays as it is
            """;

    private ReadmeResults source(Path results) {
        return new ReadmeResults(results, folder);
    }

    @Test
    void aBlockThatDiffersFromTheCsvsIsNamedAndRewritten() throws IOException {
        Path results = results(0.25);
        List<String> differences = ReadmeTables.differences("book.md", DOCUMENT, source(results));
        assertEquals(1, differences.size());
        assertTrue(differences.getFirst().contains("book.md:2: block generated:scoreboard machine=m1"), differences.getFirst());

        String rewritten = ReadmeTables.regenerate("book.md", DOCUMENT, source(results));
        assertTrue(rewritten.contains("| 13 | `V13PreadVector` | 2 | 0.250 | 17,180 | 16.0 |"), rewritten);
        assertTrue(rewritten.startsWith("# A book\n") && rewritten.endsWith("<!-- /generated -->\nprose stays as it is\n"), rewritten);
        assertTrue(ReadmeTables.differences("book.md", rewritten, source(results)).isEmpty());

        // the same page against a CSV whose figure changed: the table no longer matches
        Path other = results(0.5); // the same folder, chapter 13 now twice as slow
        assertFalse(ReadmeTables.differences("book.md", rewritten, source(other)).isEmpty(), "a new figure in the CSV must show");
    }

    /**
     * A refill is headed by what its rows held, the KiB a minor fault mapped, never by the folios it
     * asked for: small rows of about 1,040 faults per GiB held folios near 1 MiB, and huge rows with
     * no fault count but PMD-mapped whole held 2 MiB ones. Where the rows disagree (a cache left in
     * folios of two sizes), each cell says its own, in the book's table and in the report's.
     */
    @Test
    void aRefillIsHeadedByTheFoliosItsFaultsShowNotByWhatItAskedFor() throws IOException {
        Path results = results(0.25);
        Path pageCache = results.resolve("m1").resolve("pagecache.csv");
        String header = HEADER.strip() + ",page_cache,pmd_mapped_pct,minor_faults_per_gib\n";
        String huge = refill("V04Mmap", "huge", 0.1, "100.0", "") + refill("V08Vector256", "huge", 0.1, "100.0", "");
        Files.writeString(pageCache, header + refill("V04Mmap", "small", 0.2, "0.0", "1037") + refill("V08Vector256", "small", 0.2, "0.0", "1045") + huge);
        String page = "<!-- generated:pagecache machine=m1 -->\n<!-- /generated -->\n";
        List<String> lines = ReadmeTables.regenerate("book.md", page, source(results)).lines().toList();
        assertEquals("| chapter | as found, MB/s | faults per GiB | PMD-mapped | refilled `small` (about 1,007 KiB a fault), MB/s | faults per GiB "
                + "| refilled `huge` (about 2,048 KiB a fault), MB/s | faults per GiB | PMD-mapped |", lines.get(1));
        assertEquals("| `V04Mmap` | – | – | – | 21,475 | 1,037 | 42,950 | – | 100.0 % |", lines.get(3));

        Files.writeString(pageCache, header + refill("V04Mmap", "small", 0.2, "0.0", "1037") + refill("V08Vector256", "small", 0.4, "0.0", "16390") + huge);
        lines = ReadmeTables.regenerate("book.md", page, source(results)).lines().toList();
        assertTrue(lines.get(1).contains("| refilled `small` (KiB a fault in each cell), MB/s |"), lines.get(1));
        assertEquals("| `V04Mmap` | – | – | – | 21,475 (1,011 KiB a fault) | 1,037 | 42,950 | – | 100.0 % |", lines.get(3));
        assertEquals("| `V08Vector256` | – | – | – | 10,737 (64 KiB a fault) | 16,390 | 42,950 | – | 100.0 % |", lines.get(4));

        String html = ReportTables.pageCache(List.of(), StudyResults.readEveryRow(pageCache).rows(), ReportTables.Audience.REPORT,
                java.util.Optional.empty()).html();
        assertTrue(html.contains("<th>refilled <code>small</code> (KiB a fault in each cell), MB/s</th><th>PMD-mapped</th>"
                + "<th>refilled <code>huge</code> (about 2,048 KiB a fault), MB/s</th>"), html);
        assertTrue(html.contains("<td>10,737 (64 KiB a fault)</td><td>0.0 %</td><td>42,950</td>"), html);
    }

    /** A row of the page-cache round: {@code faults} minor faults per GiB, or none counted where empty. */
    private static String refill(String chapter, String pageCache, double seconds, String pmdMapped, String faults) {
        return row(chapter, 1, seconds).strip() + "," + pageCache + "," + pmdMapped + "," + faults + "\n";
    }

    /** The one-shot's phases beside Go's whole process, from answer.csv; without its Go row the block says so in one line. */
    @Test
    void anAnswerBlockShowsEachPhaseBesideGosWholeProcessAndNeedsItsGoRow() throws IOException {
        Path results = results(0.25);
        String header = String.join(",", AnswerResults.ANSWER_COLUMNS) + "\n";
        String java = "2026-01-01,V13PreadVector,3,0.4000,0.4100,0.3900,0.4300,0.0100,0.0400,0.0500,0.0200,0.2500,0.0100,0.0200,0,0.39;0.40;0.43\n";
        String page = "# Start-up\n<!-- generated:answer chapter=V13PreadVector go=v11 machine=m1 -->\n<!-- /generated -->\n";
        Files.writeString(results.resolve("m1").resolve("answer.csv"), header + java);
        UserMistakeException refused = assertThrows(UserMistakeException.class, () -> ReadmeTables.regenerate("start.md", page, source(results)));
        assertTrue(refused.getMessage().contains("start.md:2") && refused.getMessage().contains("has no row of Go v11"), refused.getMessage());

        Files.writeString(results.resolve("m1").resolve("answer.csv"), header + java + "2026-01-01,Go v11,3,0.2000,0.2000,0.1900,0.2100,,,,,,,,,0.19;0.20;0.21\n");
        String rewritten = ReadmeTables.regenerate("start.md", page, source(results));
        assertTrue(rewritten.contains("| the first search | 0.250 s | – |"), rewritten);
        assertTrue(rewritten.contains("| **the whole process** | **0.400 s** | **0.200 s** |"), rewritten);
    }

    /** The one-shots of every machine in one table: a row per machine with both sides, the ratio Java over Go. */
    @Test
    void anAnswerTableAcrossMachinesHasARowForEachMachineWithBothSides() throws IOException {
        Path results = results(0.25);
        String header = String.join(",", AnswerResults.ANSWER_COLUMNS) + "\n";
        Files.writeString(results.resolve("m1").resolve("answer.csv"), header
                + "2026-01-01,V13PreadVector,3,0.4000,0.4100,0.3900,0.4300,0.0100,0.0400,0.0500,0.0200,0.2500,0.0100,0.0200,0,0.39;0.40;0.43\n"
                + "2026-01-01,Go v11,3,0.2000,0.2000,0.1900,0.2100,,,,,,,,,0.19;0.20;0.21\n");
        String page = "# Start-up\n<!-- generated:answer-machines chapter=V13PreadVector go=v11 -->\n<!-- /generated -->\n";
        String rewritten = ReadmeTables.regenerate("start.md", page, source(results));
        assertTrue(rewritten.contains("| `m1` | 0.400 | 0.200 | 2.00 | 3 |"), rewritten);
    }

    /**
     * A chapter's figures name the bound the cost model gives it on the same machine, warm and as
     * found; an unknown bound is escaped. Another machine's model.csv is never read, even where the
     * block still names it with model=, and a machine without one gets no word of the model.
     */
    @Test
    void aChaptersFiguresNameTheBoundOfTheCostModelOnTheirOwnMachineOnly() throws IOException {
        Path results = results(0.25);
        Path other = Files.createDirectories(results.resolve("m2"));
        Files.writeString(other.resolve("model.csv"), CostModel.HEADER + "\n" + "V13PreadVector,2,as-is,warm,0.3000,0.1000,memory,2.40\n");
        String page = "<!-- generated:figure chapter=V13PreadVector machine=m1 -->\n<!-- /generated -->\n";
        String withoutModel = ReadmeTables.regenerate("book.md", page, source(results));
        assertTrue(withoutModel.contains("Measured: 0.250 s, 17,180 MB/s with 2 workers."), withoutModel);
        assertFalse(withoutModel.contains("Model:"), "m1 has no model.csv, and m2's is not m1's: " + withoutModel);

        Files.writeString(results.resolve("m1").resolve("model.csv"), CostModel.HEADER + "\n"
                + "V13PreadVector,2,as-is,cold,2.0000,1.0000,device,0.20\n"
                + "V13PreadVector,2,as-is,warm,0.2000,0.1500,core: copy,2.40\n");
        String rewritten = ReadmeTables.regenerate("book.md", page, source(results));
        assertTrue(rewritten.contains(" Model: 0.150 s, bound by one core's copy (0.75 of the measured time).\n"), rewritten);
        assertFalse(rewritten.contains("m2"), rewritten);
        String namingTheOther = "<!-- generated:figure chapter=V13PreadVector machine=m1 model=m2 -->\n<!-- /generated -->\n";
        assertEquals(rewritten.replace("machine=m1 -->", "machine=m1 model=m2 -->"), ReadmeTables.regenerate("book.md", namingTheOther, source(results)),
                "a leftover model= is refused by the book's check, not followed: --write still writes the block from its own machine");

        Files.writeString(results.resolve("m1").resolve("model.csv"), CostModel.HEADER + "\n" + "V13PreadVector,2,as-is,warm,0.2000,0.1500,<b>x</b>,2.40\n");
        UserMistakeException refused = assertThrows(UserMistakeException.class, () -> ReadmeTables.regenerate("book.md", page, source(results)),
                "a bound the model never writes reaches no page");
        assertTrue(refused.getMessage().contains("line 2: not a row the cost model writes"), refused.getMessage());
    }

    /** The worked example adds up one worker's bill at the machine's unit costs and walls, term by term, against what it measured. */
    @Test
    void aWorkedExampleAddsUpOneWorkersBillAtTheUnitCosts() throws IOException {
        Path results = results(0.25);
        Path machine = results.resolve("m1");
        String bill = ",Test CPU,2,25000000000,Linux,JDK,512,m1,as-is,,,";
        // 1 GiB in 0.5 s by one worker: 1,024 read calls and all of it copied
        Files.writeString(machine.resolve("scaling.csv"), CostModelTest.HEADER + "2026-01-01T00:00:00Z,V13PreadVector,1,warm,1073741824,,1073741816,1,5,"
                + "0.5,0.5,0.5,0.5,2147,0.5 0.5 0.5 0.5 0.5,0.5" + bill + "1024,1073741824,0,0,0,0,0\n");
        // a call 1,000 ns, a byte scanned in the cache 0.1 ns; one thread copies at 4,000 MB/s (0.25 ns a byte), two at 8,000
        Files.writeString(machine.resolve("costs.csv"), UnitCosts.HEADER + "\n"
                + "2026-01-01T00:00:00Z,m1,read_call,ns,1000,1000,1000,1\n2026-01-01T00:00:00Z,m1,minor_fault,ns,1000,1000,1000,1\n"
                + "2026-01-01T00:00:00Z,m1,wake_up,ns,1000,1000,1000,1\n2026-01-01T00:00:00Z,m1,scan_in_cache,ns,0.1,0.1,0.1,1\n");
        StringBuilder walls = new StringBuilder(CostModelTest.HEADER);
        for (String[] wall : new String[][] {{"WallMemoryRead", "1", "10000"}, {"WallMemoryRead", "2", "20000"},
                {"WallPageCacheCopy", "1", "4000"}, {"WallPageCacheCopy", "2", "8000"}}) {
            double seconds = (1L << 30) / (Double.parseDouble(wall[2]) * 1e6);
            walls.append(String.format(java.util.Locale.ROOT, "2026-01-01T00:00:00Z,%s,%s,warm,1073741824,,1073741816,0,1,%.6f,%.6f,%.6f,%.6f,%s,%.6f,%s0,0,0,0,0,0,0%n",
                    wall[0], wall[1], seconds, seconds, seconds, seconds, wall[2], seconds, bill));
        }
        Files.writeString(machine.resolve("wall.csv"), walls);
        String page = "<!-- generated:model-example chapter=V13PreadVector machine=m1 -->\n<!-- /generated -->\n";
        String rewritten = ReadmeTables.regenerate("book.md", page, source(results));
        // one core: 1.02 ms of calls, 0.268 s of copy at 0.25 ns a byte, 0.107 s of scan at 0.1; the shared copy at 0.125 ns
        // a byte, 0.134 s, and the one worker's scan after it
        assertTrue(rewritten.contains("its bill per GiB 1,024 read calls and 1.00 GiB copied. One core: read calls 0.001 s, copy 0.268 s, "
                + "scan in cache 0.107 s; 0.377 s in all. The largest shared term, the page cache's copy with each worker's scan after it, 0.242 s. "
                + "Predicted 0.377 s, 2,849 MB/s; "
                + "measured 0.500 s, 2,147 MB/s"), rewritten);
        assertTrue(rewritten.contains("): 0.75 of it."), rewritten);
    }

    /** The Go pairs of every machine side by side: each pair's ratio with its rounds' range, a dash where a machine lacks it. */
    @Test
    void aGoTableAcrossMachinesShowsEachPairsRatioAndRange() throws IOException {
        Path results = results(0.25);
        Path other = Files.createDirectories(results.resolve("m2"));
        Files.writeString(other.resolve("machine.json"), "{\"cpu_model\": \"Other\"}");
        Files.writeString(results.resolve("m1").resolve("versus-go.csv"), HEADER + row("Go v3", 2, 0.5) + row("V03ChunkedLong", 2, 0.25)
                + row("V03ChunkedLong", 2, 0.4) + row("Go v3", 2, 0.6));
        String page = "<!-- generated:versus-go-machines -->\n<!-- /generated -->\n";
        String rewritten = ReadmeTables.regenerate("go.md", page, source(results));
        assertTrue(rewritten.contains("| pair | `m1` |"), rewritten); // m2 has no versus-go.csv: no column
        assertTrue(rewritten.contains("| 3 `V03ChunkedLong` | 1.75 (1.500–2.000) |"), rewritten);
    }

    @Test
    void checkExitsOneNamingTheBlockAndRewritesNothing() throws IOException {
        Path results = results(0.25);
        Path document = Files.writeString(folder.resolve("book.md"), DOCUMENT);
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int exit = ReadmeTables.run(new String[] {"--check", "--results", results.toString(), document.toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(1, exit);
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("block generated:scoreboard machine=m1 differs"), err.toString(StandardCharsets.UTF_8));
        assertEquals(DOCUMENT, Files.readString(document), "--check writes nothing");

        exit = ReadmeTables.run(new String[] {"--results", results.toString(), document.toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, exit);
        assertTrue(Files.readString(document).contains("`V13PreadVector`"));
        assertEquals(0, ReadmeTables.run(new String[] {"--check", "--results", results.toString(), document.toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8)));
    }

    /** A rewritten document keeps its permissions, and a symlinked one stays a link: its target is rewritten. */
    @Test
    void aRewrittenDocumentKeepsItsModeAndASymlinkStaysALink() throws IOException {
        Path results = results(0.25);
        Path document = Files.writeString(Files.createDirectories(folder.resolve("docs")).resolve("book.md"), DOCUMENT);
        var readableByAll = java.nio.file.attribute.PosixFilePermissions.fromString("rw-rw-r--");
        Files.setPosixFilePermissions(document, readableByAll);
        Path link = Files.createSymbolicLink(folder.resolve("link.md"), Path.of("docs", "book.md"));
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int exit = ReadmeTables.run(new String[] {"--results", results.toString(), link.toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, exit, err.toString(StandardCharsets.UTF_8));
        assertTrue(Files.isSymbolicLink(link), "the link is still a link");
        assertTrue(Files.readString(document).contains("`V13PreadVector`"), "its target is rewritten");
        assertEquals(readableByAll, Files.getPosixFilePermissions(document), "with its mode kept");
        try (var left = Files.list(document.getParent())) {
            assertEquals(List.of(document), left.toList(), "no temporary file left");
        }
    }

    @Test
    void untrustedMachineFieldsCannotActAsMarkup() throws IOException {
        Path results = results(0.25);
        String table = ReadmeTables.regenerate("book.md", "<!-- generated:machines -->\n<!-- /generated -->\n", source(results));
        assertTrue(table.contains("Test &lt;b&gt;CPU&lt;/b&gt; \\| x"), table);
        assertTrue(table.contains("[`m1`](results/m1/index.html)"), table);
    }

    @Test
    void unknownBlocksBadRowsAndMissingMachinesAreRefusedInOneLine() throws IOException {
        Path results = results(0.25);
        UserMistakeException unknown = assertThrows(UserMistakeException.class, () -> ReadmeTables.differences("book.md",
                "<!-- generated:nonsense machine=m1 -->\n<!-- /generated -->\n", source(results)));
        assertTrue(unknown.getMessage().startsWith("book.md:1: no kind of generated block is called 'nonsense'"), unknown.getMessage());

        UserMistakeException missing = assertThrows(UserMistakeException.class, () -> ReadmeTables.differences("book.md",
                "<!-- generated:scoreboard machine=m2 -->\n<!-- /generated -->\n", source(results)));
        assertTrue(missing.getMessage().contains("no results folder"), missing.getMessage());

        UserMistakeException unclosed = assertThrows(UserMistakeException.class, () -> ReadmeTables.differences("book.md",
                "<!-- generated:scoreboard machine=m1 -->\nno end\n", source(results)));
        assertTrue(unclosed.getMessage().startsWith("book.md:1: a generated block"), unclosed.getMessage());

        Path scoreboard = results.resolve("m1").resolve("scoreboard.csv");
        Files.writeString(scoreboard, HEADER + row("V01ReadAll", 1, 4.0).replace(",4.000000,", ",NaN,"));
        UserMistakeException bad = assertThrows(UserMistakeException.class, () -> ReadmeTables.differences("book.md", DOCUMENT, source(results)));
        assertTrue(bad.getMessage().contains(scoreboard + " line 2: mean_s is \"NaN\", not a number"), bad.getMessage());
        assertFalse(bad.getMessage().contains("\n"), "one line");
    }

    /** A figure that cannot be true, anywhere in the CSV, stops the tool: one line naming file and line, exit status 2. */
    @Test
    void aFigureThatCannotBeTrueIsRefusedInOneLineWithExitStatus2() throws IOException {
        Path results = results(0.25);
        Path document = Files.writeString(folder.resolve("book.md"), DOCUMENT);
        Path scoreboard = results.resolve("m1").resolve("scoreboard.csv");
        String good = Files.readString(scoreboard);
        for (String bad : List.of("Infinity", "-0.25", "0.25f", "0x1p-2", "a quarter")) {
            Files.writeString(scoreboard, good.replace(",0.250000,0.250000,", "," + bad + ",0.250000,"));
            ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
            int exit = ReadmeTables.run(new String[] {"--results", results.toString(), document.toString()},
                    new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
            List<String> said = err.toString(StandardCharsets.UTF_8).lines().toList();
            assertEquals(2, exit, bad + ": " + said);
            assertEquals(1, said.size(), bad + ": " + said);
            assertTrue(said.getFirst().contains(scoreboard + " line 3: mean_s is \"" + bad + "\""), said.getFirst());
            assertEquals(DOCUMENT, Files.readString(document), "nothing written");
        }
    }
}
