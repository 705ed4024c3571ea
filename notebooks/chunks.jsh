//JAVA 25+
//DEPS tech.tablesaw:tablesaw-core:0.44.4
//DEPS tech.tablesaw:tablesaw-jsplot:0.44.4
//DEPS org.webjars.npm:plotly.js-dist:3.0.1
//SOURCES Report.java

// How big should one read be? MB/s against the bytes per read, 4 KiB to 64 MiB, for chapter 3 (one
// thread, sequential reads) and chapter 13 (parallel positional reads, widest vectors), warm cache,
// under the memory-read wall (results/wall.csv) when the wall probe has been run.
// Measure first:                 tools/chunk-sweep.sh haystack.bin --workers 2 --csv results/chunks.csv
// Run from the project's root:   ./jbang notebooks/chunks.jsh
// Explore the tables:            ./jbang --interactive notebooks/chunks.jsh

import tech.tablesaw.aggregate.AggregateFunctions;
import tech.tablesaw.api.*;
import tech.tablesaw.plotly.components.*;
import tech.tablesaw.plotly.traces.*;

// Every chunk size is a row of its own here, so the newest row is kept per chunk size as well.
Table newest = Report.resultsPerChunk("chunks");
Table rows = (newest.where(newest.numberColumn("chunk_bytes").isNotMissing())
        .sortAscendingOn("chapter", "workers", "chunk_bytes"));
if (rows.isEmpty()) {
    Report.quit(Report.RESULTS.resolve("chunks.csv") + " has no row with a chunk size: tools/chunk-sweep.sh writes them");
}
Optional<Report.Wall> wall = Report.memoryWall();

// The sizes are powers of two: 4096 reads better as "4 KiB".
String binarySize(long bytes) {
    String[] units = {"B", "KiB", "MiB", "GiB"};
    int unit = 0;
    while (unit < units.length - 1 && bytes >= 1024 && bytes % 1024 == 0) {
        bytes /= 1024;
        unit++;
    }
    return bytes + " " + units[unit];
}

StringColumn chunkSizes(NumericColumn<?> bytes) {
    StringColumn sizes = StringColumn.create("chunk");
    for (int i = 0; i < bytes.size(); i++) {
        sizes.append(binarySize((long) bytes.getDouble(i)));
    }
    return sizes;
}

rows.addColumns(chunkSizes(rows.numberColumn("chunk_bytes")));
Table sweep = rows.selectColumns("chapter", "workers", "chunk", "mean_s", "mbps");
wall.ifPresent(memory -> sweep.addColumns(Report.percentOf(memory, sweep)));
sweep.setName("Chunk sweep (warm cache)");
System.out.println(sweep.printAll());

// The same figures as a grid: one row per chunk size, one column of MB/s per chapter.
Table mbpsByChunk = rows.pivot("chunk_bytes", "chapter", "mbps", AggregateFunctions.mean).sortAscendingOn("chunk_bytes");
mbpsByChunk.insertColumn(1, chunkSizes(mbpsByChunk.numberColumn("chunk_bytes")));
mbpsByChunk.setName("MB/s by chunk size");
System.out.println(mbpsByChunk.printAll());

// Each size is four times the last, so a log axis spaces them evenly; a tick at each size measured.
double[] sizesMeasured = mbpsByChunk.numberColumn("chunk_bytes").asDoubleColumn().asDoubleArray();
String[] sizeLabels = mbpsByChunk.stringColumn("chunk").asObjectArray();
TickSettings everySize = TickSettings.builder().tickMode(TickSettings.TickMode.ARRAY).arrayTicks(sizesMeasured, sizeLabels).build();

// One line per chapter (and per worker count, should the sweep have run at more than one).
boolean oneWorkerCount = rows.numberColumn("workers").unique().size() == 1;
List<Trace> lines = new ArrayList<>();
for (Table one : rows.splitOn("chapter", "workers").asTableList()) {
    String name = one.stringColumn("chapter").get(0) + (oneWorkerCount ? "" : " ×" + one.intColumn("workers").get(0));
    lines.add(ScatterTrace.builder(one.numberColumn("chunk_bytes"), one.numberColumn("mbps"))
            .mode(ScatterTrace.Mode.LINE_AND_MARKERS).name(name).build());
}
String workersNote = oneWorkerCount ? ", " + rows.intColumn("workers").get(0) + " workers" : "";
Report.chart("chunks", new Figure(
        Layout.builder().title("MB/s by bytes per read, warm cache" + workersNote)
                .xAxis(Axis.builder().title("bytes per read (chunk)").type(Axis.Type.LOG).tickSettings(everySize).build())
                .yAxis(Axis.builder().title("MB/s (decimal)").build())
                .width(Report.CHART_WIDTH_PX).height(Report.CHART_HEIGHT_PX).build(),
        lines.toArray(new Trace[0])), wall);
