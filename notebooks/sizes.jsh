//JAVA 25+
//DEPS ForNotebooks.java
//RUNTIME_OPTIONS --sun-misc-unsafe-memory-access=allow --limit-modules=java.se,jdk.jshell,jdk.unsupported,jdk.zipfs
//RUNTIME_OPTIONS -Djava.util.logging.config.file=notebooks/logging.properties

// Past the page cache: MB/s against the file's size, from 256 MiB to past the machine's memory, for
// chapters 3, 9, 13, 14, 15 and 17, and the same as seconds per GiB. While the file fits in memory
// the warm chapters read the page cache; past memory every run reads the disk (the round times those
// cold), and the O_DIRECT chapters (14, 15) read the disk at every size. The machine's memory is
// marked on both charts, the memory-read walls on the first. One machine's results
// (results/<machine>/sizes.csv, from ./jbang sizes-sweep or the study's --sizes round).
// Run from the project's root:   ./jbang notebooks/sizes.jsh            (-Dmachine=NAME for another machine)
// Explore the tables:            ./jbang --interactive notebooks/sizes.jsh

import notebooks.*;
import lab.results.PageText;
import lab.results.ResultsFolder;
import lab.results.StudyResults;

Notebook.arguments(args, "sizes", "sizes", "sizes-seconds-per-gib");

import tech.tablesaw.api.*;
import tech.tablesaw.plotly.components.*;
import tech.tablesaw.plotly.traces.*;

if (!Notebook.machine().has("sizes")) {
    Notebook.quit("no " + Notebook.machine().csv("sizes") + " here: ./jbang sizes-sweep measures it, from the project's root directory");
}
// Every size is a file of its own here, so rows are told apart by size too: the newest row of each
// chapter, size and cache is kept (a rerun appends rows), and only this machine's rows are drawn.
StudyResults.Csv sizesCsv = StudyResults.read(Notebook.machine().csv("sizes")); // strict: a bad row is left out, with its line
sizesCsv.problems().forEach(System.out::println);
List<StudyResults.Row> measuredHere = (sizesCsv.rows().stream()
        .filter(row -> row.machine().isEmpty() || row.machine().equals(Notebook.machine().folder.machine())).toList());
Table rows = (ResultsTable.table("sizes", ResultsFolder.newestOfEach(measuredHere, row -> List.of(row.chapter(), row.fileBytes(), row.cache())))
        .sortAscendingOn("chapter", "file_bytes"));
if (rows.isEmpty()) {
    Notebook.quit(Notebook.machine().csv("sizes") + " has no row measured on " + Notebook.machine().folder.machine());
}
long memoryBytes = rows.longColumn("memory_bytes").get(0);
double gib = 1L << 30;

StringColumn sizeNames = StringColumn.create("size");
DoubleColumn secondsPerGib = DoubleColumn.create("s_per_gib");
for (Row row : rows) {
    sizeNames.append(PageText.binarySize(row.getLong("file_bytes")));
    secondsPerGib.append(Math.round(row.getDouble("median_s") / (row.getLong("file_bytes") / gib) * 1000) / 1000.0);
}
rows.addColumns(sizeNames, secondsPerGib);
Table sweep = rows.selectColumns("chapter", "size", "cache", "median_s", "mbps", "s_per_gib");
sweep.setName("MB/s by file size, " + Notebook.machine().name + " (memory: " + PageText.binarySize(memoryBytes) + ")");
System.out.println(sweep.printAll());

// A tick at each size measured, and the memory; a dashed vertical line at the memory.
double[] sizesMeasured = rows.longColumn("file_bytes").unique().sorted(Long::compare).asDoubleColumn().asDoubleArray();
String[] sizeLabels = Arrays.stream(sizesMeasured).mapToObj(bytes -> PageText.binarySize((long) bytes)).toArray(String[]::new);
TickSettings everySize = TickSettings.builder().tickMode(TickSettings.TickMode.ARRAY).arrayTicks(sizesMeasured, sizeLabels).build();

Trace memoryLine(double top) {
    return ScatterTrace.builder(new double[] {memoryBytes, memoryBytes}, new double[] {0, top})
            .mode(ScatterTrace.Mode.LINE).line(Line.builder().dash(Line.Dash.DASH).color("#7f7f7f").build())
            .name("memory: " + PageText.binarySize(memoryBytes)).build();
}

List<Trace> mbpsLines = new ArrayList<>(), secondsLines = new ArrayList<>();
for (Table one : rows.splitOn("chapter").asTableList()) {
    String name = Notebook.shortName(one.stringColumn("chapter").get(0));
    mbpsLines.add(ScatterTrace.builder(one.longColumn("file_bytes"), one.doubleColumn("mbps"))
            .mode(ScatterTrace.Mode.LINE_AND_MARKERS).name(name).build());
    secondsLines.add(ScatterTrace.builder(one.longColumn("file_bytes"), one.doubleColumn("s_per_gib"))
            .mode(ScatterTrace.Mode.LINE_AND_MARKERS).name(name).build());
}
mbpsLines.add(memoryLine(rows.doubleColumn("mbps").max()));
secondsLines.add(memoryLine(rows.doubleColumn("s_per_gib").max()));

Notebook.chart("sizes", new Figure(
        Layout.builder().title("MB/s by file size, " + Notebook.machine().name + ": warm while it fits in memory, cold past it")
                .xAxis(Axis.builder().title("file size").type(Axis.Type.LOG).tickSettings(everySize).build())
                .yAxis(Axis.builder().title("MB/s (decimal)").type(Axis.Type.LOG).build())
                .width(ChartPage.CHART_WIDTH_PX).height(ChartPage.CHART_HEIGHT_PX).build(),
        mbpsLines.toArray(new Trace[0])), Notebook.walls());
Notebook.chart("sizes-seconds-per-gib", new Figure(
        Layout.builder().title("Seconds per GiB by file size, " + Notebook.machine().name)
                .xAxis(Axis.builder().title("file size").type(Axis.Type.LOG).tickSettings(everySize).build())
                .yAxis(Axis.builder().title("seconds per GiB").build())
                .width(ChartPage.CHART_WIDTH_PX).height(ChartPage.CHART_HEIGHT_PX).build(),
        secondsLines.toArray(new Trace[0])));
Notebook.loaded("sweep", sweep, "rows", rows);
