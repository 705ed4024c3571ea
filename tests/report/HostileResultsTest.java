import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import lab.results.*;
import lib.counters.KernelBill;
import lib.harness.Machine;
import lib.harness.Measurement;
import lib.harness.ResultsCsv;
import lab.tools.Chromium;
import notebooks.*;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A results folder from someone else is untrusted input: markup and script in its CSVs and its
 * machine.json must never run in the report or in a chart page. Each page is loaded in headless
 * Chromium and its DOM, as the browser built it, is checked (skipped, visibly, without Chromium).
 */
class HostileResultsTest {

    static final long GIB = 1L << 30;
    static final String SCRIPT_CHAPTER = "<script>document.title='PWNED'</script>";
    static final String IMG_PMD = "<img src=x onerror=\"document.body.setAttribute('data-pwned','1')\">";
    static final String GO_CHAPTER = "Go <img/src=x/onerror=document.body.id='gopwn'>";
    static final String CLOSING_CHAPTER = "V77</script><script>document.documentElement.setAttribute('data-pwned','1')</script>";

    @TempDir
    static Path root;
    static Path folder;

    @BeforeAll
    static void hostileFolder() throws IOException {
        System.setProperty("report.quit", "throw");
        folder = Files.createDirectories(root.resolve("results").resolve(Machine.current().name()));
        Map<String, Object> description = new LinkedHashMap<>(Machine.current().description(folder, Instant.now(), false));
        description.put("kernel", "<script>document.title='PWNED'</script>");
        description.put("jdk", IMG_PMD);
        Files.writeString(folder.resolve("machine.json"), Machine.json(description));
        for (String chapter : List.of("V00Cmp", "V01ReadAll", "V03ChunkedLong", "V04Mmap", "V13PreadVector")) {
            append("scoreboard", row(chapter, 2, "warm", 2.0 / (Math.floorMod(chapter.hashCode(), 7) + 2), null, Map.of()));
        }
        append("scoreboard", with(row("V04Mmap", 2, "warm", 0.5, null, Map.of()), "chapter", SCRIPT_CHAPTER));
        append("scoreboard", with(row("V04Mmap", 2, "warm", 0.5, null, Map.of()), "chapter", CLOSING_CHAPTER));
        for (int workers : List.of(1, 2)) {
            append("scaling", row("V13PreadVector", workers, "warm", 0.5 / workers, null, Map.of()));
        }
        append("cold", row("V13PreadVector", 2, "cold", 1.5, null, Map.of()));
        append("fio", row("V14DirectIo", 2, "cold", 2.0, 1L << 20, Map.of()));
        append("fio", row("fio psync O_DIRECT 2MiB-pages", 2, "cold", 1.5, 1L << 20, Map.of()));
        append("fio", with(row("fio psync O_DIRECT 2MiB-pages", 2, "cold", 1.0, 1L << 20, Map.of()), "chapter", "fio " + IMG_PMD));
        // fio checking every byte: one job as FioBeside names it, one named with markup that ends as a checking job's name does
        append("fio", row("fio psync O_DIRECT 2MiB-pages checking", 2, "cold", 1.6, 1L << 20, Map.of()));
        append("fio", with(row("fio psync O_DIRECT 2MiB-pages checking", 2, "cold", 0.5, 1L << 20, Map.of()), "chapter",
                "fio " + IMG_PMD + " O_DIRECT checking"));
        append("cold", row("V14DirectIo", 2, "cold", 2.0, null, Map.of())); // so the cold chart labels chapter 14 with its fractions
        // The bill is text from the file too: markup in one figure of it, a script-closing tag in another
        append("scoreboard", with(row("V07PreadParallel", 2, "warm", 0.5, null, Map.of()), "read_calls_per_gib", IMG_PMD));
        append("cold", with(row("V03ChunkedLong", 1, "cold", 2.5, null, Map.of()), "device_bytes_per_gib", CLOSING_CHAPTER));
        append("wall", row("WallMemoryRead", 2, "warm", 0.2, null, Map.of()));
        for (long chunk : List.of(4096L, 1L << 20)) {
            append("chunks", row("V03ChunkedLong", 1, "warm", chunk == 4096 ? 1.0 : 0.4, chunk, Map.of()));
        }
        append("chunks", with(row("V03ChunkedLong", 1, "warm", 0.3, 1L << 22, Map.of()), "read_calls_per_gib", SCRIPT_CHAPTER));
        append("pagecache", row("V04Mmap", 1, "warm", 0.4, null, Map.of("page_cache", "small", "pmd_mapped_pct", "0.0")));
        append("pagecache", with(row("V04Mmap", 1, "warm", 0.3, null, Map.of("page_cache", "huge", "pmd_mapped_pct", "99.0")),
                "pmd_mapped_pct", IMG_PMD));
        append("versus-go", row("Go v1", 1, "warm", 5.0, null, Map.of()));
        append("versus-go", row("V01ReadAll", 1, "warm", 2.0, null, Map.of()));
        append("versus-go", with(row("Go v1", 1, "warm", 5.0, null, Map.of()), "chapter", GO_CHAPTER));
        // The answer round's own file: Go one-shots, one named with markup, one dated with it, one numbered past any int.
        List<String> markupName = new ArrayList<>(AnswerRound.goRow("Go v3", List.of(0.4)));
        markupName.set(1, GO_CHAPTER);
        List<String> markupDate = new ArrayList<>(AnswerRound.goRow("Go v11", List.of(0.3)));
        markupDate.set(0, SCRIPT_CHAPTER);
        AnswerRound.append(folder.resolve("answer.csv"), List.of(AnswerRound.goRow("Go v2", List.of(20.0)),
                AnswerRound.goRow("Go v10", List.of(0.2)), AnswerRound.goRow("Go v99999999999999999999", List.of(0.1)), markupName, markupDate));
    }

    static List<Object> row(String chapter, int workers, String cache, double seconds, Long chunk, Map<String, String> extra) {
        java.util.Optional<lib.harness.PageCache.Folios> pageCache = java.util.Optional.ofNullable(extra.get("page_cache"))
                .map(name -> lib.harness.PageCache.Folios.valueOf(name.toUpperCase(java.util.Locale.ROOT).replace('-', '_')));
        java.util.OptionalDouble pmd = extra.containsKey("pmd_mapped_pct")
                ? java.util.OptionalDouble.of(Double.parseDouble(extra.get("pmd_mapped_pct"))) : java.util.OptionalDouble.empty();
        return new ArrayList<>(ResultsCsv.row(new Measurement.Result(chapter, workers, cache, 4 * GIB,
                chunk == null ? OptionalLong.empty() : OptionalLong.of(chunk), 4 * GIB - 8, new double[] {seconds * 3},
                new double[] {seconds, seconds, seconds, seconds, seconds}, pageCache, pmd, java.util.Optional.empty(),
                java.util.Optional.of(bill(chunk == null ? 1L << 20 : chunk, cache)))));
    }

    /** A plausible bill: one read call per chunk, the file copied once, a fault per 64 KiB, from the device only when cold. */
    static KernelBill bill(long chunk, String cache) {
        Map<KernelBill.Item, Double> perGiB = new java.util.EnumMap<>(KernelBill.Item.class);
        perGiB.put(KernelBill.Item.READ_CALLS, (double) GIB / chunk);
        perGiB.put(KernelBill.Item.RETURNED_BYTES, (double) GIB);
        perGiB.put(KernelBill.Item.DEVICE_BYTES, cache.equals("cold") ? (double) GIB : 0.0);
        perGiB.put(KernelBill.Item.MINOR_FAULTS, 16_384.0);
        perGiB.put(KernelBill.Item.MAJOR_FAULTS, 0.3);
        perGiB.put(KernelBill.Item.VOLUNTARY_SWITCHES, 250.0);
        perGiB.put(KernelBill.Item.INVOLUNTARY_SWITCHES, 40.0);
        return new KernelBill(perGiB);
    }

    static List<Object> with(List<Object> row, String column, String value) {
        List<Object> changed = new ArrayList<>(row);
        changed.set(ResultsCsv.COLUMNS.indexOf(column), value);
        return changed;
    }

    static void append(String table, List<Object> row) throws IOException {
        ResultsCsv.append(folder.resolve(table + ".csv"), List.of(row));
    }

    static Path chromium() {
        Optional<Path> chromium = Chromium.find();
        Assumptions.assumeTrue(chromium.isPresent(), "no Chromium here (lab/setup/setup-chromium installs it): the DOM is not checked");
        return chromium.get();
    }

    /** The page's DOM as Chromium built it, after its scripts ran. */
    static String dom(Path chromium, Path page) throws IOException, InterruptedException {
        Path profile = Files.createTempDirectory(root, "chromium-");
        List<String> command = new ArrayList<>(Chromium.headless(chromium, profile));
        command.addAll(List.of("--dump-dom", page.toAbsolutePath().toUri().toString()));
        Path out = root.resolve(page.getFileName() + ".dom");
        Process process = new ProcessBuilder(command).redirectOutput(out.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        assertTrue(process.waitFor(Subprocess.PATIENCE_SECONDS, TimeUnit.SECONDS), "Chromium did not finish with " + page);
        assertEquals(0, process.exitValue(), "Chromium on " + page);
        return Files.readString(out);
    }

    static void assertNothingRan(String dom, Path page) {
        assertTrue(dom.contains("<body"), "a DOM was dumped for " + page + ": " + dom);
        assertFalse(dom.contains("<title>PWNED"), "the title was rewritten in " + page);
        assertFalse(dom.contains("data-pwned=\"1\""), "an injected handler ran in " + page);
        assertFalse(dom.contains("id=\"gopwn\""), "an injected handler ran in " + page);
        assertFalse(dom.contains("data-script-error=\""), "a script error in " + page); // the attribute, not the handler's own text
    }

    @Test
    void theReportShowsHostileTextAsTextAndLeavesOutRowsThatAreNoChapter() throws Exception {
        Path chromium = chromium();
        Path index = StudyReport.write(folder);
        String page = Files.readString(index);
        assertFalse(page.contains("<script"), "no script element in the report");
        assertFalse(page.contains("<img src=x") || page.contains("<img/src"), "no element from a CSV or machine.json");
        assertTrue(page.contains("not a chapter&#39;s name"), "the hostile chapters are listed as left out");
        assertTrue(page.contains("fio psync O_DIRECT 2MiB-pages") && page.contains("0.75"),
                "fio's rows reach the report: chapter 14 at 0.75 of fio's best");
        assertTrue(page.contains("fio &lt;img src=x"), "the hostile fio job is listed as left out, as text");
        assertTrue(page.contains("fio psync O_DIRECT 2MiB-pages checking") && page.contains("<td>0.80</td>"),
                "fio's checking job reaches the report, the hostile one does not: chapter 14 at 0.80 of it");
        String dom = dom(chromium, index);
        assertNothingRan(dom, index);
        assertFalse(dom.contains("<img src=\"x\""), "no image element made from the data");
        assertTrue(dom.contains("&lt;script&gt;document.title='PWNED'&lt;/script&gt;") || dom.contains("&lt;script&gt;document.title=&#39;PWNED&#39;"),
                "machine.json's hostile kernel is shown as text: " + dom);
    }

    /**
     * The book judged on a hostile folder (issue 69): chapter 4 slower than chapter 3, then newer rows
     * that would turn the lesson round were any of them read (a NaN, 1e308, a run at 0.0000001 s,
     * markup for a name), a byte-order mark, a table that is no CSV and a machine.json with markup.
     * Chapter 4's lesson still does not hold, on the true rows; a lesson on the broken table cannot
     * be told; the command and the report say so, and nothing from the folder runs as markup.
     */
    @Test
    void theBookOnAHostileFolderGivesNoWrongVerdictAndRunsNoMarkup() throws Exception {
        Path hostile = Files.createDirectories(root.resolve("results").resolve("hostile-book"));
        Path scoreboard = hostile.resolve("scoreboard.csv");
        ResultsCsv.append(scoreboard, List.of(row("V02BufferedByte", 2, "warm", 0.5, null, Map.of()), row("V03ChunkedLong", 2, "warm", 0.25, null, Map.of())));
        List<Object> fast = row("V03ChunkedLong", 2, "warm", 0.01, null, Map.of());
        ResultsCsv.append(scoreboard, List.of(with(fast, "mean_s", "NaN"), with(fast, "mbps", "1e308"), with(fast, "median_s", "1e308"),
                with(fast, "run_s", "0.0000001 0.010000 0.010000 0.010000 0.010000"), with(fast, "chapter", "V03ChunkedLong" + SCRIPT_CHAPTER)));
        Files.write(scoreboard, concat(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, Files.readAllBytes(scoreboard)));
        Files.writeString(hostile.resolve("pagecache.csv"), "\uFEFF" + SCRIPT_CHAPTER + ",x\n1,2\n");
        Map<String, Object> description = new LinkedHashMap<>(Machine.current().description(hostile, Instant.now(), false));
        description.put("avx512", false);
        description.put(MachineDescription.NOT_ON_THIS_CPU, "V12Vector512: " + IMG_PMD);
        Files.writeString(hostile.resolve("machine.json"), Machine.json(description));

        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(), err = new java.io.ByteArrayOutputStream();
        int status = CheckBook.run(new String[] {"--judge", hostile.toString()}, new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8),
                new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
        List<String> said = out.toString(java.nio.charset.StandardCharsets.UTF_8).lines().toList();
        String chapter3 = "does not hold: scoreboard:V03ChunkedLong = 17,180 MB/s is not > 6.00 × scoreboard:V02BufferedByte = 8,590 MB/s (each with its spread)";
        int lesson = said.indexOf(said.stream().filter(line -> line.startsWith("does not hold: README.md \"Chapter 3: 1 MiB reads")).findFirst()
                .orElseThrow(() -> new AssertionError(String.join("\n", said))));
        assertEquals("    " + chapter3, said.get(lesson + 1), "judged on the true rows, not the newer hostile ones");
        assertEquals(1, status);
        List<String> leftOut = err.toString(java.nio.charset.StandardCharsets.UTF_8).lines().toList();
        for (int line = 4; line <= 8; line++) {
            String prefix = scoreboard + " line " + line + ": left out, ";
            assertTrue(leftOut.stream().anyMatch(each -> each.startsWith(prefix)), prefix + "\n" + leftOut);
        }
        assertTrue(said.stream().anyMatch(line -> line.contains("cannot tell") && line.contains(hostile.resolve("pagecache.csv") + " has no column date")),
                "a lesson on the broken table cannot be told: " + said);
        assertTrue(said.stream().filter(line -> line.contains("pagecache:")).noneMatch(line -> line.startsWith("    holds") || line.startsWith("    does not hold")),
                "no verdict rests on the broken table");

        Path index = StudyReport.write(hostile);
        String page = Files.readString(index);
        assertTrue(page.contains("<li>" + chapter3.replace(">", "&gt;") + "</li>"), page);
        assertTrue(page.contains("V12Vector512: &lt;img src=x"), "machine.json's reason is shown as text");
        assertFalse(page.contains("<script") || page.contains("<img src=x"), "no element from the folder in the report");
        Optional<Path> chromium = Chromium.find();
        if (chromium.isPresent()) {
            assertNothingRan(dom(chromium.get(), index), index);
        }
    }

    private static byte[] concat(byte[] first, byte[] second) {
        byte[] both = java.util.Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        return both;
    }

    /** The bill reaches the report in words; a figure of it that is not a number leaves its row out, said as text. */
    @Test
    void theBillIsShownAndAHostileBillLeavesItsRowOutAsText() throws Exception {
        String page = Files.readString(StudyReport.write(folder));
        assertTrue(page.contains("<td>1,024 reads</td>") && page.contains("<td>16,384 faults</td>"), "the scoreboard's bill in words");
        assertTrue(page.contains("<td>4.0 GiB</td>") || page.contains("<td>1 GiB</td>"), "bytes per GiB in binary units");
        assertTrue(page.contains("read_calls_per_gib is &quot;&lt;img src=x"), "the hostile read_calls_per_gib is said, as text");
        assertTrue(page.contains("device_bytes_per_gib is &quot;V77&lt;/script&gt;"), "the hostile device_bytes_per_gib is said, as text");
        assertFalse(page.contains("<img src=x") || page.contains("</script><script>document"), "no element from a bill");
    }

    /** Every notebook on the hostile folder: each draws (pages only), and no page runs what the data holds. */
    @Test
    void everyNotebookDrawsPagesInWhichNoHostileTextRuns() throws Exception {
        Path chromium = chromium();
        List<String> failures = new ArrayList<>();
        Files.writeString(folder.resolve("model.csv"), "chapter,workers,page_cache,cache,measured_s,predicted_s,bound\n"
                + "V13PreadVector,2,as-is,warm,0.16,0.12,page-cache copy\n"
                + "\"V13<img src=x onerror=document.title='PWNED'>\",2,as-is,warm,0.16,0.12,memory\n"
                + "V09MmapParallelVector,2,as-is,warm,0.16,0.12,</script><script>document.title='PWNED'</script>\n");
        for (String notebook : List.of("scoreboard", "scaling", "warm-vs-cold", "vs-article", "chunks", "warmup", "machines", "answer", "model")) {
            Subprocess.Result result = Subprocess.run(List.of("./jbang", "-Dresults=" + folder.getParent(), "-Dmachine=" + folder.getFileName(),
                    "-Dchromium=none", "notebooks/" + notebook + ".jsh"), root.resolve("logs-" + notebook));
            if (result.exitCode() != 0 || result.stdout().contains("Error:") || result.stdout().contains("Exception")) {
                failures.add(notebook + ": " + result);
            }
        }
        assertEquals(List.of(), failures);
        List<Path> pages;
        try (var files = Files.list(folder.resolve("charts"))) {
            pages = files.filter(file -> file.toString().endsWith(".html")).sorted().toList();
        }
        assertTrue(pages.size() >= 8, "a page per chart: " + pages);
        assertTrue(pages.stream().anyMatch(page -> page.getFileName().toString().equals("cold.html")), "the cold chart: " + pages);
        for (Path page : pages) {
            String dom = dom(chromium, page);
            assertNothingRan(dom, page);
            assertTrue(dom.contains("main-svg"), "the plot was drawn in " + page);
            if (page.getFileName().toString().equals("cold.html")) {
                assertTrue(dom.contains("0.75 × fio · 0.80 × fio checking"), "chapter 14's label carries both fractions, drawn as text: " + dom);
            }
        }
    }

    /** The script escaping itself, with text that no reader would let through: it stays a string. */
    @Test
    void textInsideAChartsScriptCannotCloseIt() throws Exception {
        Path chromium = chromium();
        tech.tablesaw.api.StringColumn names = tech.tablesaw.api.StringColumn.create("name", List.of(CLOSING_CHAPTER, "V01 read all"));
        tech.tablesaw.api.DoubleColumn mbps = tech.tablesaw.api.DoubleColumn.create("mbps", new double[] {1000, 2000});
        tech.tablesaw.plotly.components.Figure figure = new tech.tablesaw.plotly.components.Figure(
                tech.tablesaw.plotly.components.Layout.builder().title("hostile").build(),
                tech.tablesaw.plotly.traces.BarTrace.builder(names, mbps).orientation(tech.tablesaw.plotly.traces.BarTrace.Orientation.HORIZONTAL).build());
        String script = ChartPage.figureScript(figure);
        assertFalse(script.contains("</script") || script.contains("<"), script);
        Path page = Files.createDirectories(root.resolve("escaped")).resolve("hostile.html");
        Files.writeString(page, ChartPage.page("hostile", figure, List.of(), ChartPage.Extras.NONE));
        String dom = dom(chromium, page);
        assertNothingRan(dom, page);
        assertTrue(dom.contains("main-svg"), "the plot was drawn");
    }
}
