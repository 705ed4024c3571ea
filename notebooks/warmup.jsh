//JAVA 25+
//DEPS tech.tablesaw:tablesaw-core:0.44.4
//DEPS tech.tablesaw:tablesaw-jsplot:0.44.4
//DEPS org.webjars.npm:plotly.js-dist:3.0.1
//SOURCES Report.java

// The JIT made visible: every run of every chapter in order, the untimed warm-up runs first.
// The first run is interpreted and compiled on the way; the timed runs show the steady state.
// Run from the project's root:   ./jbang notebooks/warmup.jsh              (results/scoreboard.csv)
//                                ./jbang -Dtable=scaling notebooks/warmup.jsh
// More warm-up runs show more of the curve: a study with --warmup 5 --runs 10, for instance.

import tech.tablesaw.api.*;
import tech.tablesaw.plotly.components.*;
import tech.tablesaw.plotly.traces.*;

String tableName = System.getProperty("table", "scoreboard");
Table rows = Report.results(tableName).sortAscendingOn("chapter", "workers");

// warmup_s and run_s hold each run's seconds, space-separated, in the order they ran.
double[] seconds(String joined) {
    return joined == null || joined.isBlank() ? new double[0]
            : Arrays.stream(joined.strip().split(" ")).mapToDouble(Double::parseDouble).toArray();
}

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

for (Row row : rows) {
    double[] warmups = seconds(row.getString("warmup_s"));
    double[] timed = seconds(row.getString("run_s"));
    int run = 0;
    for (double s : warmups) {
        chapterColumn.append(row.getString("chapter")); workersColumn.append(row.getInt("workers"));
        runColumn.append(++run); phaseColumn.append("warm-up"); secondsColumn.append(s);
    }
    for (double s : timed) {
        chapterColumn.append(row.getString("chapter")); workersColumn.append(row.getInt("workers"));
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
        chapterColumn, workersColumn, runColumn, phaseColumn, secondsColumn);
Table firstVsSteady = Table.create("First run against the steady state (" + tableName + ")",
        firstChapter, firstWorkers, firstRun, steady, firstOverSteady);
System.out.println(firstVsSteady.printAll());

// One line per chapter and worker count; seconds span orders of magnitude, hence the log axis.
List<Trace> lines = new ArrayList<>();
for (Row row : rows) {
    String chapter = row.getString("chapter");
    int workers = row.getInt("workers");
    Table one = everyRun.where(everyRun.stringColumn("chapter").isEqualTo(chapter)
            .and(everyRun.intColumn("workers").isEqualTo(workers)));
    lines.add(ScatterTrace.builder(one.numberColumn("run"), one.numberColumn("seconds"))
            .mode(ScatterTrace.Mode.LINE_AND_MARKERS).name(chapter + " ×" + workers).build());
}
Report.chart("warmup-" + tableName, new Figure(
        Layout.builder().title("Seconds per run, warm-up runs first (" + tableName + ")")
                .xAxis(Axis.builder().title("run (warm-up, then timed)").build())
                .yAxis(Axis.builder().title("seconds").type(Axis.Type.LOG).build())
                .width(Report.CHART_WIDTH_PX).height(Report.CHART_HEIGHT_PX).build(),
        lines.toArray(new Trace[0])));
