//JAVA 25+
//DEPS tech.tablesaw:tablesaw-core:0.44.4
//DEPS tech.tablesaw:tablesaw-jsplot:0.44.4
//DEPS org.webjars.npm:plotly.js-dist:3.0.1
//SOURCES Report.java

// How the parallel chapters scale: MB/s against the number of workers, warm cache, under the
// memory-read wall (results/wall.csv) when the wall probe has been run.
// Run from the project's root:   ./jbang notebooks/scaling.jsh
// Explore the tables:            ./jbang --interactive notebooks/scaling.jsh

import tech.tablesaw.aggregate.AggregateFunctions;
import tech.tablesaw.api.*;
import tech.tablesaw.plotly.components.*;
import tech.tablesaw.plotly.traces.*;

Table rows = Report.results("scaling").sortAscendingOn("chapter", "workers");
Optional<Report.Wall> wall = Report.memoryWall();

Table scaling = rows.selectColumns("chapter", "workers", "mean_s", "mbps");
scaling.setName("Worker sweep (warm cache)");
System.out.println(scaling.printAll());

// The same figures as a grid: one row per chapter, one column of MB/s per worker count.
Table mbpsByWorkers = rows.pivot("chapter", "workers", "mbps", AggregateFunctions.mean);
mbpsByWorkers.setName("MB/s by worker count");
System.out.println(mbpsByWorkers.printAll());

// Worker counts grow by doubling, so a log axis spaces them evenly; a tick at each count measured.
double[] workerCounts = rows.numberColumn("workers").asDoubleColumn().unique().asDoubleArray();
TickSettings everyCount = TickSettings.builder().tickMode(TickSettings.TickMode.ARRAY).arrayTicks(workerCounts).build();
Axis workersAxis = Axis.builder().title("workers").type(Axis.Type.LOG).tickSettings(everyCount).build();
Axis mbpsAxis = Axis.builder().title("MB/s (decimal)").build();

List<String> chapters = rows.stringColumn("chapter").unique().asList().stream().sorted().toList();
List<Trace> everyChapter = new ArrayList<>();
for (String chapter : chapters) {
    Table one = rows.where(rows.stringColumn("chapter").isEqualTo(chapter));
    Trace line = ScatterTrace.builder(one.numberColumn("workers"), one.numberColumn("mbps"))
            .mode(ScatterTrace.Mode.LINE_AND_MARKERS).name(chapter).build();
    everyChapter.add(line);
    Report.chart("scaling-" + chapter, new Figure(
            Layout.builder().title(chapter + ": MB/s by number of workers, warm cache")
                    .xAxis(workersAxis).yAxis(mbpsAxis).showLegend(false)
                    .width(Report.CHART_WIDTH_PX).height(Report.CHART_HEIGHT_PX).build(),
            line), wall);
}
Report.chart("scaling-all", new Figure(
        Layout.builder().title("The parallel chapters: MB/s by number of workers, warm cache")
                .xAxis(workersAxis).yAxis(mbpsAxis)
                .width(Report.CHART_WIDTH_PX).height(Report.CHART_HEIGHT_PX).build(),
        everyChapter.toArray(new Trace[0])), wall);
