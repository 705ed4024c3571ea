// The kinds of README's generated blocks (lab/report/ReadmeTables.java): each reads rows through
// ReadmeResults and lays them out as a Table, written as Markdown.

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Collectors;
import lab.results.*;
import lib.cli.Quote;
import lib.cli.UserMistakeException;

/** Each kind of generated block, from the results and the block's parameters to Markdown. */
final class ReadmeBlocks {

    private ReadmeBlocks() {}

    /** Every machine with a machine.json, with a link to its report. */
    static String machines(ReadmeResults results, ReadmeTables.Block block) {
        Table table = new Table("machine (its report)", "CPU", "cores", "vectors", "memory", "kernel", "JDK", "file system", "THP", "study");
        for (String machine : results.machines()) {
            MachineDescription json = results.machineJson(machine);
            table.row(Table.link(Table.code(machine), results.link(machine + "/index.html")), text(json, "cpu_model") + family(json),
                    text(json, "logical_cores"), text(json, "vector_bits") + "-bit",
                    json.number("memory_bytes").map(bytes -> String.format(Locale.ROOT, "%.0f GiB", bytes / (double) (1L << 30)))
                            .orElse("not recorded"),
                    text(json, "kernel"), text(json, "jdk"), text(json, "filesystem"), text(json, "thp_enabled"),
                    text(json, "date").length() >= 10 ? text(json, "date").substring(0, 10) : text(json, "date"));
        }
        return table.markdown();
    }

    /** Every chapter, warm, as the study found the page cache, beside the article's figure. */
    static String scoreboard(ReadmeResults results, ReadmeTables.Block block) {
        return ReportTables.scoreboard(warmAsFound(results, block.parameter("machine")), ReportTables.Audience.BOOK,
                row -> results.article("scoreboard", row.chapter()), Optional.empty()).markdown() + "\n" + source(block, "scoreboard.csv")
                + "; s: the trimmed mean of the timed runs (the median of fewer than 5), MB/s the file's bytes over it; the article's, on its own machine.\n";
    }

    /** The newest warm row of each chapter in the machine's scoreboard, with the page cache as the study found it. */
    private static List<StudyResults.Row> warmAsFound(ReadmeResults results, String machine) {
        return ResultsFolder.newestOfEach(results.rows(machine, "scoreboard.csv").stream().filter(row -> row.cache().equals("warm") && asFound(row)).toList(),
                StudyResults.Row::chapter);
    }

    /**
     * One chapter's figures, for its section: warm, refilled {@code huge} (with the share it held
     * PMD-mapped) where measured, cold where measured, and the article's, or why this CPU ran none;
     * and, where the same machine's folder has a model.csv, the bound
     * the cost model names for it there (warm, as found). The model is never another machine's: its
     * "measured" would sit beside figures it was not measured with.
     */
    static String figure(ReadmeResults results, ReadmeTables.Block block) {
        String machine = block.parameter("machine");
        String chapter = block.parameter("chapter");
        List<String> parts = new ArrayList<>();
        ResultsFolder.newestOfEach(results.rows(machine, "scoreboard.csv").stream()
                .filter(row -> row.chapter().equals(chapter) && row.cache().equals("warm") && asFound(row)).toList(), StudyResults.Row::chapter)
                .forEach(row -> parts.add(Table.seconds(row.typicalSeconds()) + " s, " + Table.mbps(row.mbps()) + " MB/s" + workers(row)
                        + (row.pmdMappedPercent() == null ? "" : ", " + ReportTables.percent(row.pmdMappedPercent()) + " PMD-mapped")));
        if (results.has(machine, "pagecache.csv")) {
            results.rows(machine, "pagecache.csv").stream()
                    .filter(row -> row.chapter().equals(chapter) && row.pageCache().equals("huge")).reduce((a, b) -> b)
                    .ifPresent(row -> parts.add("refilled `huge` " + Table.mbps(row.mbps()) + " MB/s, "
                            + ReportTables.percent(row.pmdMappedPercent()) + " PMD-mapped"));
        }
        if (results.has(machine, "cold.csv")) {
            results.rows(machine, "cold.csv").stream().filter(row -> row.chapter().equals(chapter)).reduce((a, b) -> b)
                    .ifPresent(row -> parts.add("cold " + Table.mbps(row.mbps()) + " MB/s"));
        }
        if (parts.isEmpty()) {
            String notRun = results.description(machine).text(MachineDescription.NOT_ON_THIS_CPU).orElse("");
            if (notRun.contains(chapter)) {
                return "Not run on this CPU: " + Table.escapeMarkdown(notRun) + ".\n";
            }
            throw new UserMistakeException("no row of " + chapter + " in " + machine + "'s scoreboard, page-cache or cold round");
        }
        String article = results.article("scoreboard", chapter)
                .map(row -> " The article's Go: " + Table.mbps(row.mbps()) + " MB/s.")
                .orElse("");
        return "Measured: " + String.join("; ", parts) + "." + article + modelLine(results, machine, chapter) + "\n";
    }

    /** How a bound reads in a sentence: "bound by one core's copy". */
    private static final Map<String, String> BOUNDS = Map.ofEntries(Map.entry("core: copy", "one core's copy"),
            Map.entry("core: scan", "one core's scan"), Map.entry("core: faults", "one core's faults, each entry's first touch included"),
            Map.entry("faults on every thread", "faults on every thread at once, each entry's first touch included"),
            Map.entry("core: read calls", "one core's read calls"), Map.entry("core: wake-ups", "one core's wake-ups"),
            Map.entry("core: scan in cache", "one core's scan in its cache"),
            Map.entry("core: " + CostModel.FIRST_TOUCHES, "one core's first touches of its mapping's entries"),
            Map.entry("memory", "memory, shared"), Map.entry(CostModel.PAGE_CACHE_COPY, "the page cache's copy and each worker's scan after it"),
            Map.entry("device", "the device"));

    /** The cost model's line for a chapter, warm and as found, from {@code machine}'s model.csv; nothing where it has none. */
    private static String modelLine(ReadmeResults results, String machine, String chapter) {
        if (!results.has(machine, "model.csv")) {
            return "";
        }
        return modelRows(results, machine).stream()
                .filter(row -> row.chapter().equals(chapter) && row.pageCache().equals("as-is") && row.cache().equals("warm"))
                .reduce((first, last) -> last)
                .map(row -> " Model: " + Table.seconds(row.predictedSeconds()) + " s, bound by " + BOUNDS.getOrDefault(row.bound(), Table.escapeMarkdown(row.bound()))
                        + String.format(Locale.ROOT, " (%.2f of the measured time).", row.predictedSeconds() / row.measuredSeconds()))
                .orElse("");
    }

    /** The mapped chapters as found and refilled, each beside what was measured of its folios (lab/results/ReportTables.java). */
    static String pageCache(ReadmeResults results, ReadmeTables.Block block) {
        String machine = block.parameter("machine");
        return ReportTables.pageCache(warmAsFound(results, machine), results.rows(machine, "pagecache.csv"), ReportTables.Audience.BOOK, Optional.empty())
                .markdown() + "\n" + source(block, "scoreboard.csv` and `pagecache.csv") + "; refilled with "
                + "`--page-cache small` or `huge`; faults: minor faults per GiB; " + ReportTables.KIB_A_FAULT + ".\n";
    }

    /** The walls round: each probe at each worker count it ran. */
    static String walls(ReadmeResults results, ReadmeTables.Block block) {
        List<StudyResults.Row> rows = results.rows(block.parameter("machine"), "wall.csv");
        TreeSet<Integer> workerCounts = rows.stream().map(StudyResults.Row::workers).collect(Collectors.toCollection(TreeSet::new));
        List<String> header = new ArrayList<>(List.of("wall"));
        workerCounts.forEach(count -> header.add(count + (count == 1 ? " thread" : " threads") + ", MB/s"));
        Table table = new Table(header);
        for (String wall : rows.stream().map(StudyResults.Row::chapter).distinct().toList()) {
            List<Object> cells = new ArrayList<>(List.of(Table.code(wall)));
            for (int count : workerCounts) {
                cells.add(rows.stream().filter(row -> row.chapter().equals(wall) && row.workers() == count).reduce((a, b) -> b)
                        .map(row -> Table.mbps(row.mbps())).orElse("–"));
            }
            table.row(cells);
        }
        return table.markdown() + "\n" + source(block, "wall.csv") + ", the newest sitting of each wall.\n";
    }

    /** The worker sweep: one worker, the best and where, beside the article's. */
    static String scaling(ReadmeResults results, ReadmeTables.Block block) {
        List<StudyResults.Row> rows = results.rows(block.parameter("machine"), "scaling.csv");
        Table table = new Table("chapter", "1 worker", "best", "at", "Go: 1 worker", "Go: best", "at");
        for (String chapter : rows.stream().map(StudyResults.Row::chapter).collect(Collectors.toCollection(TreeSet::new))) {
            List<StudyResults.Row> sweep = ResultsFolder.newestOfEach(rows.stream().filter(row -> row.chapter().equals(chapter)).toList(), StudyResults.Row::workers);
            Optional<StudyResults.Row> one = sweep.stream().filter(row -> row.workers() == 1).findFirst();
            StudyResults.Row best = sweep.stream().max(Comparator.comparingDouble(StudyResults.Row::mbps)).orElseThrow();
            Optional<ArticleFigures.ArticleRow> article = results.article("scaling", chapter);
            table.row(Table.code(chapter), one.map(row -> Table.mbps(row.mbps())).orElse("–"), Table.mbps(best.mbps()), String.valueOf(best.workers()),
                    article.map(row -> Table.mbps(row.oneWorkerMbps())).orElse("–"), article.map(row -> Table.mbps(row.peakMbps())).orElse("–"),
                    article.map(row -> row.peakAt() == null ? "–" : String.valueOf(Math.round(row.peakAt()))).orElse("–"));
        }
        return table.markdown() + "\n" + source(block, "scaling.csv") + "; the Go columns are the article's, on its 12-thread machine.\n";
    }

    /** The cold round beside the same chapters warm, and the article's cold figures. */
    static String cold(ReadmeResults results, ReadmeTables.Block block) {
        String machine = block.parameter("machine");
        return ReportTables.cold(ResultsFolder.newestOfEach(results.rows(machine, "cold.csv"), StudyResults.Row::chapter), warmAsFound(results, machine),
                ReportTables.Audience.BOOK, row -> results.article("cold", row.chapter())).markdown() + "\n" + source(block, "cold.csv` and `scoreboard.csv") + ".\n";
    }

    /** The read-size round: MB/s of each chapter at each read size. */
    static String chunks(ReadmeResults results, ReadmeTables.Block block) {
        List<StudyResults.Row> rows = results.rows(block.parameter("machine"), "chunks.csv");
        TreeSet<Long> sizes = rows.stream().map(row -> Optional.ofNullable(row.chunkBytes()).orElseThrow(() -> new UserMistakeException(
                row.file() + " line " + row.line() + ": a row of the read-size round without chunk_bytes"))).collect(Collectors.toCollection(TreeSet::new));
        List<String> header = new ArrayList<>(List.of("chapter"));
        sizes.forEach(size -> header.add(size >= 1 << 20 ? (size >> 20) + " MiB" : (size >> 10) + " KiB"));
        Table table = new Table(header);
        for (String chapter : rows.stream().map(StudyResults.Row::chapter).collect(Collectors.toCollection(TreeSet::new))) {
            List<Object> cells = new ArrayList<>(List.of(Table.code(chapter)));
            for (long size : sizes) {
                cells.add(rows.stream().filter(row -> row.chapter().equals(chapter) && Objects.equals(row.chunkBytes(), size))
                        .reduce((a, b) -> b).map(row -> Table.mbps(row.mbps())).orElse("–"));
            }
            table.row(cells);
        }
        return table.markdown() + "\n" + source(block, "chunks.csv") + ", MB/s.\n";
    }

    /**
     * The article's Go benchmark and the chapters, alternately on one machine, read as every reader
     * reads versus-go.csv ({@link VersusGoPairs#pairs}): per pair, the median of its rounds' ratios,
     * the lowest and highest round, and the mark (ahead, behind, tie).
     */
    static String versusGo(ReadmeResults results, ReadmeTables.Block block) {
        List<StudyResults.Row> rows = results.rows(block.parameter("machine"), "versus-go.csv");
        return ReportTables.versusGoTable(VersusGoPairs.pairs(rows)).markdown() + "\n" + source(block, "versus-go.csv") + "; MB/s: the median over rounds of each call's median run. "
                + VersusGoPairs.RULE + ".\n";
    }

    /** Every committed machine's Go pairs side by side: each pair's Java ÷ Go and, in brackets, its rounds' range. */
    static String versusGoMachines(ReadmeResults results, ReadmeTables.Block block) {
        List<String> machines = results.machines().stream().filter(machine -> results.has(machine, "versus-go.csv")).toList();
        Map<Integer, Map<String, VersusGoPairs.GoPair>> byNumber = new java.util.TreeMap<>();
        Map<Integer, String> chapters = new java.util.HashMap<>();
        for (String machine : machines) {
            for (VersusGoPairs.GoPair pair : VersusGoPairs.pairs(results.rowsOfEverySize(machine, "versus-go.csv"))) {
                byNumber.computeIfAbsent(pair.number(), number -> new LinkedHashMap<>()).put(machine, pair);
                chapters.put(pair.number(), pair.javaChapter());
            }
        }
        List<Object> header = new ArrayList<>(List.of("pair"));
        machines.forEach(machine -> header.add(Table.code(machine)));
        Table table = new Table(header);
        byNumber.forEach((number, pairs) -> {
            List<Object> cells = new ArrayList<>(List.of(Table.join(number + " ", Table.code(chapters.get(number)))));
            for (String machine : machines) {
                VersusGoPairs.GoPair pair = pairs.get(machine);
                cells.add(pair == null || pair.rounds().isEmpty() ? "–" : pair.ratioText() + " (" + pair.rangeText() + ")");
            }
            table.row(cells);
        });
        return table.markdown() + "\n`results/MACHINE/versus-go.csv` of every committed machine that has one; " + VersusGoPairs.RULE + ".\n";
    }

    /** Every committed machine's one-shot of {@code chapter} beside Go's {@code go}, from its answer.csv. */
    static String answerMachines(ReadmeResults results, ReadmeTables.Block block) {
        String chapter = block.parameter("chapter"), go = "Go " + block.parameter("go");
        Table table = new Table("machine", Table.join(Table.code(chapter), ", s"), go + ", s", "÷ Go", "one-shots");
        for (String machine : results.machines()) {
            if (!results.has(machine, "answer.csv")) {
                continue;
            }
            List<AnswerResults.Answer> newest = AnswerResults.read(results.root().resolve(machine).resolve("answer.csv")).newestOfEach();
            Optional<AnswerResults.Answer> java = newest.stream().filter(row -> row.chapter().equals(chapter)).findFirst();
            Optional<AnswerResults.Answer> goRow = newest.stream().filter(row -> row.chapter().equals(go)).findFirst();
            if (java.isPresent() && goRow.isPresent()) {
                table.row(Table.code(machine), Table.seconds(java.get().medianSeconds()), Table.seconds(goRow.get().medianSeconds()),
                        String.format(Locale.ROOT, "%.2f", java.get().medianSeconds() / goRow.get().medianSeconds()), String.valueOf(java.get().runs()));
            }
        }
        return table.markdown() + "\n`results/MACHINE/answer.csv` of every committed machine that has one: the median of each side's one-shots, interleaved.\n";
    }

    /**
     * The cost model's table ({@code lab/report/CostModel.java}'s model.csv): each measured row beside its
     * prediction from the bill and the unit costs, and the term that bounds it.
     */
    static String model(ReadmeResults results, ReadmeTables.Block block) {
        return CostModel.table(modelRows(results, block.parameter("machine"))).markdown() + "\n" + source(block, "model.csv")
                + " and `costs.csv`; `./jbang cost-model` writes it from the bill, the walls and the unit costs.\n";
    }

    /** The rows of {@code machine}'s model.csv; its absence is said in one line, with the command that writes it. */
    private static List<ModelResults.ModelRow> modelRows(ReadmeResults results, String machine) {
        Path file = results.root().resolve(machine).resolve("model.csv");
        if (!results.has(machine, "model.csv")) {
            throw new UserMistakeException("no " + Quote.name(file) + " (./jbang cost-model results/" + machine + " --csv " + file + ")");
        }
        return CostModel.read(file);
    }

    /**
     * The cost model worked through for one chapter's one-worker row of {@code scaling.csv}: its
     * bill, one core's terms at the machine's unit costs, the largest shared one, and the sum
     * against what it measured.
     */
    static String modelExample(ReadmeResults results, ReadmeTables.Block block) {
        String machine = block.parameter("machine"), chapter = block.parameter("chapter");
        StudyResults.Row row = ResultsFolder.newestOfEach(results.rows(machine, "scaling.csv").stream()
                        .filter(candidate -> candidate.chapter().equals(chapter) && candidate.workers() == 1 && candidate.cache().equals("warm"))
                        .toList(), StudyResults.Row::chapter).stream().findFirst()
                .orElseThrow(() -> new UserMistakeException("no one-worker row of " + chapter + " in " + machine + "'s scaling.csv"));
        CostModel.Costs costs;
        try {
            costs = UnitPrices.read(results.root().resolve(machine), row.date()); // as the model prices the row
        } catch (IOException | StudyResults.NotResultsException e) {
            throw new UserMistakeException("the unit costs of " + machine + " do not read: " + (e instanceof IOException io ? lib.cli.IoMessage.of(io) : e.getMessage()));
        }
        CostModel.Terms terms = CostModel.terms(row, costs);
        CostModel.Prediction prediction = CostModel.predict(terms, row.workers());
        List<String> oneCore = terms.oneCore().entrySet().stream().filter(term -> term.getValue() >= 0.5e6) // from half a millisecond
                .map(term -> term.getKey() + " " + Table.seconds(term.getValue() / 1e9) + " s").toList();
        Map.Entry<String, Double> shared = terms.shared().entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow();
        double gib = row.fileBytes() / CostModel.GIB;
        return "`" + Table.escapeMarkdown(chapter) + "` with one worker on a " + String.format(Locale.ROOT, gib == Math.rint(gib) ? "%.0f" : "%.2f", gib)
                + " GiB file, its bill per GiB " + Table.mbps(row.billPerGiB("read_calls_per_gib")) + " read calls and "
                + String.format(Locale.ROOT, "%.2f", Optional.ofNullable(row.billPerGiB("returned_bytes_per_gib")).orElse(0.0) / CostModel.GIB)
                + " GiB copied. One core: " + String.join(", ", oneCore) + "; " + Table.seconds(terms.core() / 1e9) + " s in all. "
                + (terms.unmap() >= 0.5e6 ? "Its mapping torn down after: " + Table.seconds(terms.unmap() / 1e9) + " s. " : "") + "The largest shared term, "
                + (shared.getKey().equals(CostModel.PAGE_CACHE_COPY) ? "the page cache's copy with each worker's scan after it" : shared.getKey())
                + ", " + Table.seconds(shared.getValue() / 1e9) + " s. Predicted " + Table.seconds(prediction.seconds()) + " s, "
                + Table.mbps(row.fileBytes() / prediction.seconds() / 1e6) + " MB/s; measured " + Table.seconds(row.typicalSeconds()) + " s, " + Table.mbps(row.mbps())
                + " MB/s (" + source(block, "scaling.csv") + ", `costs.csv`, `wall.csv`): "
                + String.format(Locale.ROOT, "%.2f", prediction.seconds() / row.typicalSeconds()) + " of it.\n";
    }

    /** What each phase of a one-shot is, for a reader: lab/study/AnswerRound.java's names, in its order. */
    private static final Map<String, Object> PHASE_LABELS = Map.of("launcher", Table.join("the launcher, ", Table.code("./jbang")),
            "jvm_start", Table.join("the JVM's start, to ", Table.code("main")), "checks", "options and checks",
            "preread", "the cache question (and a pre-read, if needed)", "first_search", "the first search",
            "answer", "the answer printed", "exit", "the JVM's exit");

    /**
     * A one-shot command phase by phase, beside the Go article's one-shot of the same idea: the
     * newest rows of {@code chapter} and of {@code go} ("v11" for "Go v11") in the machine's answer.csv.
     */
    static String answer(ReadmeResults results, ReadmeTables.Block block) {
        String machine = block.parameter("machine"), chapter = block.parameter("chapter"), go = "Go " + block.parameter("go");
        Path file = results.root().resolve(machine).resolve("answer.csv");
        if (!results.has(machine, "answer.csv")) {
            throw new UserMistakeException("no " + Quote.name(file));
        }
        List<AnswerResults.Answer> newest = AnswerResults.read(file).newestOfEach();
        AnswerResults.Answer java = newest.stream().filter(row -> row.chapter().equals(chapter)).findFirst()
                .orElseThrow(() -> new UserMistakeException(Quote.name(file) + " has no row of " + chapter));
        AnswerResults.Answer goRow = newest.stream().filter(row -> row.chapter().equals(go)).findFirst()
                .orElseThrow(() -> new UserMistakeException(Quote.name(file) + " has no row of " + go));
        Table table = new Table("phase (median of " + java.runs() + " one-shots)", Table.code(chapter), go);
        for (String phase : AnswerResults.ANSWER_PHASES) {
            Double value = java.phaseSeconds().get(phase);
            table.row(PHASE_LABELS.get(phase), value == null ? "–" : Table.seconds(value) + " s", "–");
        }
        table.row(Table.strong(true, "the whole process"), Table.strong(true, Table.seconds(java.medianSeconds()) + " s"),
                Table.strong(true, Table.seconds(goRow.medianSeconds()) + " s"));
        return table.markdown() + "\n" + source(block, "answer.csv") + "; each phase's median is taken on its own, so the phases do not add up to the whole's.\n";
    }

    private static String source(ReadmeTables.Block block, String csv) {
        return "`results/" + block.parameter("machine") + "/" + csv + "`";
    }

    /** Warm runs from the cache as the study found it, not refilled by {@code --page-cache}. */
    private static boolean asFound(StudyResults.Row row) {
        return row.pageCache().equals(StudyResults.PAGE_CACHE_AS_IS);
    }

    private static String workers(StudyResults.Row row) {
        return row.workers() > 1 ? " with " + row.workers() + " workers" : "";
    }

    private static String family(MachineDescription json) {
        return json.text("cpu_family").isPresent()
                ? " (family " + text(json, "cpu_family") + ", model " + text(json, "cpu_model_number") + ")" : "";
    }

    /** A machine.json field, or "not recorded". */
    static String text(MachineDescription json, String field) {
        return json.text(field).orElse("not recorded");
    }

}
