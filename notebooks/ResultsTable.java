// Results rows, as lab/results/StudyResults.java reads them, turned into a Tablesaw table for the notebooks.

package notebooks;

import java.util.List;
import java.util.stream.Collectors;
import lab.results.*;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.LongColumn;
import tech.tablesaw.api.Row;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/** A Tablesaw table of results rows, one column per CSV column. */
public final class ResultsTable {

    private ResultsTable() {}

    /**
     * Rows as a table whose columns have the types a reader would guess; the lists of seconds stay
     * text. A figure a row lacks is a missing value (Tablesaw appends a null as one). The bill's
     * columns ({@link StudyResults#BILL}, per GiB) come last, missing in rows written before it was counted.
     */
    public static Table table(String name, List<StudyResults.Row> rows) {
        StringColumn date = StringColumn.create("date"), chapter = StringColumn.create("chapter"), cache = StringColumn.create("cache"),
                runSeconds = StringColumn.create("run_s"), warmupSeconds = StringColumn.create("warmup_s"),
                cpuModel = StringColumn.create("cpu_model"), kernel = StringColumn.create("kernel"), jdk = StringColumn.create("jdk"),
                machine = StringColumn.create("machine"), pageCache = StringColumn.create("page_cache");
        IntColumn workers = IntColumn.create("workers"), warmupRuns = IntColumn.create("warmup_runs"), runs = IntColumn.create("runs"),
                logicalCores = IntColumn.create("logical_cores"), vectorBits = IntColumn.create("vector_bits");
        LongColumn fileBytes = LongColumn.create("file_bytes"), chunkBytes = LongColumn.create("chunk_bytes"),
                offset = LongColumn.create("offset"), memoryBytes = LongColumn.create("memory_bytes");
        DoubleColumn meanSeconds = DoubleColumn.create("mean_s"), medianSeconds = DoubleColumn.create("median_s"),
                minSeconds = DoubleColumn.create("min_s"), maxSeconds = DoubleColumn.create("max_s"), mbps = DoubleColumn.create("mbps"),
                pmd = DoubleColumn.create("pmd_mapped_pct");
        for (StudyResults.Row row : rows) {
            date.append(row.date()); chapter.append(row.chapter()); workers.append(row.workers()); cache.append(row.cache());
            fileBytes.append(row.fileBytes()); chunkBytes.append(row.chunkBytes()); offset.append(row.offset());
            warmupRuns.append(row.warmupRuns()); runs.append(row.runs()); meanSeconds.append(row.meanSeconds());
            medianSeconds.append(row.medianSeconds()); minSeconds.append(row.minSeconds()); maxSeconds.append(row.maxSeconds());
            mbps.append(row.mbps()); runSeconds.append(joined(row.runSeconds())); warmupSeconds.append(joined(row.warmupSeconds()));
            cpuModel.append(row.cpuModel()); logicalCores.append(row.logicalCores()); memoryBytes.append(row.memoryBytes());
            kernel.append(row.kernel()); jdk.append(row.jdk()); vectorBits.append(row.vectorBits()); machine.append(row.machine());
            pageCache.append(row.pageCache()); pmd.append(row.pmdMappedPercent());
        }
        Table table = Table.create(name, date, chapter, workers, cache, fileBytes, chunkBytes, offset, warmupRuns, runs, meanSeconds,
                medianSeconds, minSeconds, maxSeconds, mbps, runSeconds, warmupSeconds, cpuModel, logicalCores, memoryBytes,
                kernel, jdk, vectorBits, machine, pageCache, pmd);
        for (String item : StudyResults.BILL) {
            DoubleColumn perGiB = DoubleColumn.create(item);
            rows.forEach(row -> perGiB.append(row.billPerGiB(item)));
            table.addColumns(perGiB);
        }
        return table;
    }

    private static String joined(double[] seconds) {
        return java.util.Arrays.stream(seconds).mapToObj(Double::toString).collect(Collectors.joining(" "));
    }
}
