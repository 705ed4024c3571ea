//JAVA 25+
//DEPS ForNotebooks.java
//RUNTIME_OPTIONS --sun-misc-unsafe-memory-access=allow --limit-modules=java.se,jdk.jshell,jdk.unsupported,jdk.zipfs
//RUNTIME_OPTIONS -Djava.util.logging.config.file=notebooks/logging.properties

// How big should one read be? MB/s against the bytes per read, 4 KiB to 64 MiB, for chapter 3 (one
// thread, sequential reads) and chapter 13 (parallel positional reads, widest vectors), warm cache,
// under the memory-read wall (wall.csv) when the wall probe has been run; beside it, on the same x
// axis, the read calls per GiB the kernel counted (the bill, dashed, right-hand axis): where more
// calls stop costing. One machine's results (results/<machine>/chunks.csv).
// Run from the project's root:   ./jbang notebooks/chunks.jsh           (-Dmachine=NAME for another machine)
// Explore the tables:            ./jbang --interactive notebooks/chunks.jsh

import notebooks.*;
import lab.results.MemoryWall;
import lab.results.PageText;

Notebook.arguments(args, "chunks", "chunks");

import tech.tablesaw.aggregate.AggregateFunctions;
import tech.tablesaw.api.*;
import tech.tablesaw.plotly.components.*;
import tech.tablesaw.plotly.traces.*;

// Every chunk size is a row of its own here, so the newest row is kept per chunk size as well.
Table sweepRows = Notebook.results("chunks");
Table rows = (sweepRows.where(sweepRows.longColumn("chunk_bytes").isNotMissing())
        .sortAscendingOn("chapter", "page_cache", "workers", "chunk_bytes"));
if (rows.isEmpty()) {
    Notebook.quit(Notebook.machine().csv("chunks") + " has no row with a chunk size: the study's chunk sweep writes them");
}
List<MemoryWall> walls = Notebook.walls();

StringColumn chunkSizes(NumericColumn<?> bytes) {
    return StringColumn.create("chunk", Arrays.stream(bytes.asDoubleArray()).mapToObj(size -> PageText.binarySize((long) size)));
}

rows.addColumns(chunkSizes(rows.longColumn("chunk_bytes")));
Table sweep = rows.selectColumns("chapter", "workers", "chunk", "mean_s", "mbps", "read_calls_per_gib");
walls.stream().findFirst().ifPresent(memory -> sweep.addColumns(Notebook.percentOf(memory, sweep)));
sweep.setName("Chunk sweep (warm cache), " + Notebook.machine().name);
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

// One line per chapter (and per worker count or page-cache setting, should the sweep have more than one),
// in its own colour: MB/s solid, and its read calls per GiB dashed, where its rows have them (older
// studies did not count them).
boolean oneWorkerCount = rows.intColumn("workers").unique().size() == 1;
boolean onePageCache = Notebook.pageCaches(rows).size() == 1;
List<Trace> lines = new ArrayList<>();
int series = 0;
boolean anyCalls = false;
for (Table one : rows.splitOn("chapter", "workers", "page_cache").asTableList()) {
    String name = Notebook.shortName(one.stringColumn("chapter").get(0)) + (oneWorkerCount ? "" : ", " + one.intColumn("workers").get(0) + (one.intColumn("workers").get(0) == 1 ? " worker" : " workers"))
            + (onePageCache ? "" : ", page cache " + one.stringColumn("page_cache").get(0));
    String colour = ChartColours.colour(series++);
    lines.add(ScatterTrace.builder(one.longColumn("chunk_bytes"), one.doubleColumn("mbps"))
            .mode(ScatterTrace.Mode.LINE_AND_MARKERS).name(name + ", MB/s")
            .line(Line.builder().color(colour).build()).marker(Marker.builder().color(colour).build()).build());
    Table counted = one.where(one.doubleColumn("read_calls_per_gib").isNotMissing());
    if (!counted.isEmpty()) {
        anyCalls = true;
        lines.add(ScatterTrace.builder(counted.longColumn("chunk_bytes"), counted.doubleColumn("read_calls_per_gib"))
                .mode(ScatterTrace.Mode.LINE_AND_MARKERS).name(name + ", read calls per GiB").yAxis(ScatterTrace.YAxis.Y2)
                .line(Line.builder().color(colour).dash(Line.Dash.DASH).build()).marker(Marker.builder().color(colour).build()).build());
    }
}
if (!anyCalls) {
    System.out.println("(no read_calls_per_gib in " + Notebook.machine().csv("chunks") + ": its rows are older than the bill, so the chart draws MB/s alone)");
}
String workersNote = oneWorkerCount ? ", " + rows.intColumn("workers").get(0) + " workers" : "";

// The read calls have an axis of their own, on the right, logarithmic like the sizes: 4 KiB reads
// make 262,144 calls per GiB, 64 MiB reads 16.
Layout chunkLayout(boolean withCalls) {
    Layout.LayoutBuilder layout = Layout.builder()
            .title(Notebook.title((withCalls ? "MB/s and read calls per GiB" : "MB/s") + " by bytes per read, warm cache" + workersNote, rows))
            .xAxis(Axis.builder().title("bytes per read (chunk)").type(Axis.Type.LOG).tickSettings(everySize).build())
            .yAxis(Axis.builder().title(withCalls ? "MB/s (decimal), solid" : "MB/s (decimal)").build())
            .width(ChartPage.CHART_WIDTH_PX).height(ChartPage.CHART_HEIGHT_PX);
    if (withCalls) {
        layout.yAxis2(Axis.builder().title("read calls per GiB searched, dashed (log)").type(Axis.Type.LOG)
                .side(Axis.Side.right).overlaying(ScatterTrace.YAxis.Y).build());
    }
    return layout.build();
}
Notebook.chart("chunks", new Figure(chunkLayout(anyCalls), lines.toArray(new Trace[0])), walls);
Notebook.loaded("sweep", sweep, "mbpsByChunk", mbpsByChunk, "rows", rows);
