//JAVA 25+
//DEPS ForNotebooks.java
//RUNTIME_OPTIONS --sun-misc-unsafe-memory-access=allow --limit-modules=java.se,jdk.jshell,jdk.unsupported,jdk.zipfs
//RUNTIME_OPTIONS -Djava.util.logging.config.file=notebooks/logging.properties

// The JIT made visible: every run of every chapter in order, the untimed warm-up runs first.
// The first run is interpreted and compiled on the way; the timed runs show the steady state.
// One machine's results (results/<machine>/scoreboard.csv, or another table with -Dtable=TABLE).
// Run from the project's root:   ./jbang notebooks/warmup.jsh           (-Dmachine=NAME for another machine)
//                                ./jbang -Dtable=scaling notebooks/warmup.jsh
// More warm-up runs show more of the curve: a study with --warmup 5 --runs 10, for instance.

import notebooks.*;
import lab.results.StudyResults;

Notebook.arguments(args, "warmup", "warmup-TABLE");

import tech.tablesaw.api.*;
import tech.tablesaw.plotly.components.*;
import tech.tablesaw.plotly.traces.*;

String tableName = System.getProperty("table", "scoreboard");
Table rows = Notebook.results(tableName, null).sortAscendingOn("chapter", "cache", "page_cache", "workers");

// A series is one chapter, worker count, cache and page-cache setting; its name says only what
// varies: the workers only where one chapter ran with several counts (-Dtable=scaling).
boolean oneCache = rows.stringColumn("cache").unique().size() == 1;
boolean onePageCache = Notebook.pageCaches(rows).size() == 1;
boolean oneWorkerCountEach = rows.selectColumns("chapter", "workers").dropDuplicateRows().rowCount() ==
        rows.stringColumn("chapter").unique().size();
String series(Row row) {
    int workers = row.getInt("workers");
    return Notebook.shortName(row.getString("chapter")) + (oneWorkerCountEach ? "" : ", " + workers + (workers == 1 ? " worker" : " workers"))
            + (oneCache ? "" : ", " + row.getString("cache")) + (onePageCache ? "" : ", page cache " + row.getString("page_cache"));
}

StringColumn seriesColumn = StringColumn.create("series");
StringColumn chapterColumn = StringColumn.create("chapter");
IntColumn workersColumn = IntColumn.create("workers");
IntColumn runColumn = IntColumn.create("run");
StringColumn phaseColumn = StringColumn.create("phase");
DoubleColumn secondsColumn = DoubleColumn.create("seconds");
StringColumn firstChapter = StringColumn.create("chapter");
IntColumn firstWorkers = IntColumn.create("workers");
DoubleColumn firstRun = DoubleColumn.create("first_run_s");
DoubleColumn steady = DoubleColumn.create("steady_median_s");
DoubleColumn firstOverSteady = DoubleColumn.create("first_over_steady");

// warmup_s and run_s hold each run's seconds, space-separated, in the order they ran; Notebook has
// checked every row (a row whose lists do not read as seconds, or not as many as it ran, is left out, and said).
for (Row row : rows) {
    double[] warmups = StudyResults.seconds(row.getString("warmup_s"));
    double[] timed = StudyResults.seconds(row.getString("run_s"));
    int run = 0;
    for (double s : warmups) {
        seriesColumn.append(series(row)); chapterColumn.append(row.getString("chapter")); workersColumn.append(row.getInt("workers"));
        runColumn.append(++run); phaseColumn.append("warm-up"); secondsColumn.append(s);
    }
    for (double s : timed) {
        seriesColumn.append(series(row)); chapterColumn.append(row.getString("chapter")); workersColumn.append(row.getInt("workers"));
        runColumn.append(++run); phaseColumn.append("timed"); secondsColumn.append(s);
    }
    if (timed.length > 0) {
        double first = warmups.length > 0 ? warmups[0] : timed[0];
        double median = DoubleColumn.create("t", timed).median();
        firstChapter.append(row.getString("chapter")); firstWorkers.append(row.getInt("workers"));
        firstRun.append(first); steady.append(median);
        firstOverSteady.append(Math.round(first / median * 10) / 10.0);
    }
}

Table everyRun = Table.create("Every run, in order (" + tableName + ")",
        seriesColumn, chapterColumn, workersColumn, runColumn, phaseColumn, secondsColumn);
Table firstVsSteady = Table.create("First run against the steady state (" + tableName + ")",
        firstChapter, firstWorkers, firstRun, steady, firstOverSteady);
System.out.println(firstVsSteady.printAll());

// One line per series, each with a look of its own: ten colours, then the same colours dashed
// with square markers (ChartColours.line, ChartColours.marker), so that no two lines in the legend look alike.
// Seconds span orders of magnitude, hence the log axis.
List<Trace> lines = new ArrayList<>();
int index = 0;
for (Row row : rows) {
    String name = series(row);
    Table one = everyRun.where(everyRun.stringColumn("series").isEqualTo(name));
    lines.add(ScatterTrace.builder(one.intColumn("run"), one.doubleColumn("seconds"))
            .mode(ScatterTrace.Mode.LINE_AND_MARKERS).name(name)
            .marker(ChartColours.marker(index)).line(ChartColours.line(index)).build());
    index++;
}
Notebook.chart("warmup-" + tableName, new Figure(
        Layout.builder().title(Notebook.title("Seconds per run, warm-up runs first (" + tableName + ")", rows))
                .xAxis(Axis.builder().title("run (warm-up, then timed)").tickSettings(TickSettings.builder().dTick(1).build()).build()) // whole runs only
                .yAxis(Axis.builder().title("seconds").type(Axis.Type.LOG).build())
                .width(ChartPage.CHART_WIDTH_PX).height(ChartPage.CHART_HEIGHT_PX).build(),
        lines.toArray(new Trace[0])));
Notebook.loaded("firstVsSteady", firstVsSteady, "everyRun", everyRun, "rows", rows);
