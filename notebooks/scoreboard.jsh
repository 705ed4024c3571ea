//JAVA 25+
//DEPS ForNotebooks.java
//RUNTIME_OPTIONS --sun-misc-unsafe-memory-access=allow --limit-modules=java.se,jdk.jshell,jdk.unsupported,jdk.zipfs
//RUNTIME_OPTIONS -Djava.util.logging.config.file=notebooks/logging.properties

// The scoreboard: every chapter with a warm page cache, one worker per processor, measured
// against the memory-read wall (wall.csv) when the wall probe has been run. One machine's results
// (results/<machine>/scoreboard.csv), one bar per chapter and page-cache setting.
// Run from the project's root:   ./jbang notebooks/scoreboard.jsh
//                                ./jbang -Dmachine=NAME notebooks/scoreboard.jsh     (another machine in results/)
// Explore the tables:            ./jbang --interactive notebooks/scoreboard.jsh

import notebooks.*;
import lab.results.MemoryWall;
import lab.results.StudyResults;

Notebook.arguments(args, "scoreboard", "scoreboard", "scoreboard-spread");

import tech.tablesaw.api.*;
import tech.tablesaw.plotly.components.*;
import tech.tablesaw.plotly.traces.*;

Table rows = Notebook.results("scoreboard");
// The study's page-cache round (pagecache.csv): the mapped chapters again, with the cache in small
// and in 2 MiB folios, drawn beside the cache as the scoreboard found it.
if (Notebook.machine().has("pagecache")) {
    rows = rows.append(Notebook.results("pagecache"));
}
List<MemoryWall> walls = Notebook.walls();
List<String> pageCaches = Notebook.pageCaches(rows);

Table scoreboard = (pageCaches.size() > 1 ? rows.selectColumns("chapter", "page_cache", "workers", "mean_s", "mbps")
        : rows.selectColumns("chapter", "workers", "mean_s", "mbps"));
// How many times faster than chapter 1, which reads it all and loops over bytes.
scoreboard.addColumns(Notebook.speedup(rows, "V01"));
// How close each chapter comes to reading at the speed of memory.
walls.stream().findFirst().ifPresent(memory -> scoreboard.addColumns(Notebook.percentOf(memory, scoreboard)));
scoreboard.setName("Scoreboard (warm cache), " + Notebook.machine().name);
System.out.println(scoreboard.printAll());

// Horizontal bars, chapter 0 at the top: the short names read along the axis, never cut. The
// chapters span nearly three orders of magnitude (chapter 2 reads a byte a call), so the MB/s axis
// is logarithmic, each bar's figure is printed at its end, and a bar as short as chapter 2's still
// reads. The walls' labels go below the plot, where they lie across no bar.
boolean severalPageCaches = pageCaches.size() > 1;
List<Trace> bars = new ArrayList<>();
for (String pageCache : pageCaches) {
    Table one = rows.where(rows.stringColumn("page_cache").isEqualTo(pageCache));
    bars.add(BarTrace.builder(Notebook.shortNames(one), one.doubleColumn("mbps"))
            .orientation(BarTrace.Orientation.HORIZONTAL).showLegend(severalPageCaches)
            .name(severalPageCaches ? "page cache: " + pageCache : "MB/s").build());
}
List<String> signs = List.of("Log scale: each major gridline is 10 times the one before; the figure is printed at each bar's end");
// Several bars a chapter (one per page-cache setting) need a taller chart for their figures to stand apart.
int scoreboardHeightPx = severalPageCaches ? ChartPage.CHART_HEIGHT_PX * 3 / 2 : ChartPage.CHART_HEIGHT_PX;
Figure scoreboardChart = new Figure(
        Layout.builder().title(Notebook.title("Scoreboard, warm cache: MB/s by chapter", rows))
                .xAxis(Axis.builder().title("MB/s (decimal), log scale").type(Axis.Type.LOG).build())
                .yAxis(Axis.builder().autoRange(Axis.AutoRange.REVERSED).build())
                .barMode(Layout.BarMode.GROUP).showLegend(severalPageCaches)
                .width(ChartPage.CHART_WIDTH_PX).height(scoreboardHeightPx).build(),
        bars.toArray(new Trace[0]));
Notebook.chart("scoreboard", scoreboardChart, walls, new ChartPage.Extras(true, signs, scoreboardHeightPx));

// The spread: every timed run (run_s) of every chapter, as a percentage of that chapter's median
// run, so that a 1 s chapter's noise and a 5 s chapter's read on one scale. A point far to the
// right is a slow run (the JIT still compiling, another program on the machine).
StringColumn spreadChapter = StringColumn.create("chapter");
StringColumn spreadPageCache = StringColumn.create("page_cache");
IntColumn spreadRun = IntColumn.create("run");
DoubleColumn spreadSeconds = DoubleColumn.create("seconds");
DoubleColumn spreadOfMedian = DoubleColumn.create("pct_of_median");
for (Row row : rows) {
    double[] runs = StudyResults.seconds(row.getString("run_s"));
    if (runs.length == 0) {
        continue;
    }
    double median = DoubleColumn.create("t", runs).median();
    for (int i = 0; i < runs.length; i++) {
        spreadChapter.append(row.getString("chapter")); spreadPageCache.append(row.getString("page_cache"));
        spreadRun.append(i + 1); spreadSeconds.append(runs[i]);
        spreadOfMedian.append(Math.round(runs[i] / median * 1000) / 10.0);
    }
}
Table spread = Table.create("Every timed run against its chapter's median (warm cache), " + Notebook.machine().name,
        spreadChapter, spreadPageCache, spreadRun, spreadSeconds, spreadOfMedian);
System.out.println(spread.printAll());

List<Trace> points = new ArrayList<>();
for (int p = 0; p < pageCaches.size(); p++) {
    Table one = spread.where(spread.stringColumn("page_cache").isEqualTo(pageCaches.get(p)));
    if (one.isEmpty()) {
        continue;
    }
    String[] hover = new String[one.rowCount()];
    for (int i = 0; i < hover.length; i++) {
        hover[i] = String.format(Locale.ROOT, "run %d: %.3f s", one.intColumn("run").getInt(i), one.doubleColumn("seconds").getDouble(i));
    }
    points.add(ScatterTrace.builder(one.doubleColumn("pct_of_median"), Notebook.shortNames(one))
            // the page cache's colour on the scoreboard, and a shape of its own
            .mode(ScatterTrace.Mode.MARKERS).text(hover).marker(ChartColours.marker(p + p * ChartColours.COLOURS.size()))
            .name(severalPageCaches ? "page cache: " + pageCaches.get(p) : "a timed run").build());
}
List<String> spreadSigns = List.of("Each point is one timed run: its seconds as a % of the chapter's median run (100 %: the median; right: slower)");
Notebook.chart("scoreboard-spread", new Figure(
        Layout.builder().title(Notebook.title("Spread, warm cache: every timed run against its chapter's median", rows))
                .xAxis(Axis.builder().title("run time, % of the chapter's median run").build())
                .yAxis(Axis.builder().autoRange(Axis.AutoRange.REVERSED).categoryOrder(Axis.CategoryOrder.CATEGORY_ASCENDING).build())
                .width(ChartPage.CHART_WIDTH_PX).height(ChartPage.CHART_HEIGHT_PX).build(),
        points.toArray(new Trace[0])), List.of(), new ChartPage.Extras(false, spreadSigns));
Notebook.loaded("scoreboard", scoreboard, "spread", spread, "rows", rows);
