//JAVA 25+
//DEPS tech.tablesaw:tablesaw-core:0.44.4
//DEPS tech.tablesaw:tablesaw-jsplot:0.44.4
//DEPS org.webjars.npm:plotly.js-dist:3.0.1
//DEPS org.apache.commons:commons-csv:1.14.1
//DEPS org.slf4j:slf4j-nop:2.0.17
// JBang hands these to JShell in reverse order, and Report needs StudyResults declared before it.
//SOURCES Report.java
//SOURCES ../report/StudyResults.java
//SOURCES ChartImage.java
// lib/harness/Machine names the machines (its package line keeps it from JShell): JBang builds it onto the class path.
//DEPS ../lib/harness/Machine.java
// Tablesaw's class scanner calls sun.misc.Unsafe (allowed here, said nowhere); the notebooks use no
// incubator module, so none is resolved; JShell's preferences store logs nothing (logging.properties).
//RUNTIME_OPTIONS --sun-misc-unsafe-memory-access=allow --limit-modules=java.se,jdk.jshell,jdk.unsupported,jdk.zipfs
//RUNTIME_OPTIONS -Djava.util.logging.config.file=notebooks/logging.properties

// The scoreboard: every chapter with a warm page cache, one worker per processor, measured
// against the memory-read wall (wall.csv) when the wall probe has been run. One machine's results
// (results/<machine>/scoreboard.csv), one bar per chapter and page-cache setting.
// Run from the project's root:   ./jbang notebooks/scoreboard.jsh
//                                ./jbang -Dmachine=NAME notebooks/scoreboard.jsh     (another machine in results/)
// Explore the tables:            ./jbang --interactive notebooks/scoreboard.jsh

import tech.tablesaw.api.*;
import tech.tablesaw.plotly.components.*;
import tech.tablesaw.plotly.traces.*;

Table rows = Report.results("scoreboard");
// The study's page-cache round (pagecache.csv): the mapped chapters again, with the cache in small
// and in 2 MiB folios, drawn beside the cache as the scoreboard found it.
if (Report.machine().has("pagecache")) {
    rows = rows.append(Report.results("pagecache"));
}
List<StudyResults.Wall> walls = Report.walls();
List<String> pageCaches = Report.pageCaches(rows);

Table scoreboard = (pageCaches.size() > 1 ? rows.selectColumns("chapter", "page_cache", "workers", "mean_s", "mbps")
        : rows.selectColumns("chapter", "workers", "mean_s", "mbps"));
// How many times faster than chapter 1, which reads it all and loops over bytes.
scoreboard.addColumns(Report.speedup(rows, "V01"));
// How close each chapter comes to reading at the speed of memory.
walls.stream().findFirst().ifPresent(memory -> scoreboard.addColumns(Report.percentOf(memory, scoreboard)));
scoreboard.setName("Scoreboard (warm cache), " + Report.machine().name);
System.out.println(scoreboard.printAll());

// Horizontal bars, chapter 0 at the top: the short names read along the axis, never cut.
List<Trace> bars = new ArrayList<>();
for (String pageCache : pageCaches) {
    Table one = rows.where(rows.stringColumn("page_cache").isEqualTo(pageCache));
    bars.add(BarTrace.builder(Report.shortNames(one), one.doubleColumn("mbps"))
            .orientation(BarTrace.Orientation.HORIZONTAL)
            .name(pageCaches.size() > 1 ? "page cache: " + pageCache : "MB/s").build());
}
Figure scoreboardChart = new Figure(
        Layout.builder().title(Report.title("Scoreboard, warm cache: MB/s by chapter", rows))
                .xAxis(Axis.builder().title("MB/s (decimal)").build())
                .yAxis(Axis.builder().autoRange(Axis.AutoRange.REVERSED).build())
                .barMode(Layout.BarMode.GROUP).showLegend(pageCaches.size() > 1)
                .width(Report.CHART_WIDTH_PX).height(Report.CHART_HEIGHT_PX).build(),
        bars.toArray(new Trace[0]));
Report.chart("scoreboard", scoreboardChart, walls);
Report.loaded("scoreboard", scoreboard, "rows", rows);
