//JAVA 25+
//DEPS ForNotebooks.java
//RUNTIME_OPTIONS --sun-misc-unsafe-memory-access=allow --limit-modules=java.se,jdk.jshell,jdk.unsupported,jdk.zipfs
//RUNTIME_OPTIONS -Djava.util.logging.config.file=notebooks/logging.properties

// How the parallel chapters scale: MB/s against the number of workers, warm cache, under the
// memory-read wall (wall.csv) when the wall probe has been run (scaling-all), and each chapter's
// MB/s as a multiple of its own at the fewest workers (scaling-relative). One machine's results
// (results/<machine>/scaling.csv).
// Run from the project's root:   ./jbang notebooks/scaling.jsh          (-Dmachine=NAME for another machine)
// Explore the tables:            ./jbang --interactive notebooks/scaling.jsh

import notebooks.*;
import lab.results.MemoryWall;

Notebook.arguments(args, "scaling", "scaling-all", "scaling-relative");

import tech.tablesaw.aggregate.AggregateFunctions;
import tech.tablesaw.api.*;
import tech.tablesaw.plotly.components.*;
import tech.tablesaw.plotly.traces.*;

Table rows = Notebook.results("scaling").sortAscendingOn("chapter", "page_cache", "workers");
List<MemoryWall> walls = Notebook.walls();
List<String> pageCaches = Notebook.pageCaches(rows);
boolean onePageCache = pageCaches.size() == 1;

Table scaling = (onePageCache ? rows.selectColumns("chapter", "workers", "mean_s", "mbps")
        : rows.selectColumns("chapter", "page_cache", "workers", "mean_s", "mbps"));
scaling.setName("Worker sweep (warm cache), " + Notebook.machine().name);
System.out.println(scaling.printAll());

// The same figures as a grid: one row per chapter, one column of MB/s per worker count, in numeric order.
Table mbpsByWorkers = (onePageCache ? rows.pivot("chapter", "workers", "mbps", AggregateFunctions.mean)
        : rows.pivot(rows.stringColumn("chapter").join(", page cache ", rows.stringColumn("page_cache")).setName("chapter"),
                rows.intColumn("workers"), rows.doubleColumn("mbps"), AggregateFunctions.mean));
List<String> byCount = new ArrayList<>(mbpsByWorkers.columnNames().subList(1, mbpsByWorkers.columnCount()));
byCount.sort(Comparator.comparingDouble(Double::parseDouble));
byCount.addFirst(mbpsByWorkers.columnNames().getFirst());
mbpsByWorkers = mbpsByWorkers.reorderColumns(byCount.toArray(new String[0]));
mbpsByWorkers.setName("MB/s by worker count");
System.out.println(mbpsByWorkers.printAll());

// Worker counts grow by doubling, so a log axis spaces them evenly; a tick at each count measured.
// MB/s starts at zero, so that a flat line looks flat.
double[] workerCounts = rows.intColumn("workers").unique().asDoubleColumn().asDoubleArray();
Arrays.sort(workerCounts);
TickSettings everyCount = TickSettings.builder().tickMode(TickSettings.TickMode.ARRAY).arrayTicks(workerCounts).build();
Axis workersAxis = Axis.builder().title("workers").type(Axis.Type.LOG).tickSettings(everyCount).build();
Axis mbpsAxis = Axis.builder().title("MB/s (decimal)").build();

// Every chapter on one chart, each in its own colour and marker, under the walls.
List<String> chapters = rows.stringColumn("chapter").unique().asList().stream().sorted().toList();
List<Trace> everyChapter = new ArrayList<>();
// The same lines divided by each one's own MB/s at its fewest workers: what the first chart cannot
// show, since a chapter that goes from 2,000 to 3,000 MB/s draws a flat line beside one at 30,000.
List<Trace> relative = new ArrayList<>();
StringColumn gainChapter = StringColumn.create("chapter"), gainPageCache = StringColumn.create("page_cache");
IntColumn gainWorkers = IntColumn.create("workers");
DoubleColumn gain = DoubleColumn.create("times_fewest_workers");
for (int c = 0; c < chapters.size(); c++) {
    String chapter = chapters.get(c);
    Table ofChapter = rows.where(rows.stringColumn("chapter").isEqualTo(chapter));
    for (int p = 0; p < pageCaches.size(); p++) {
        Table one = ofChapter.where(ofChapter.stringColumn("page_cache").isEqualTo(pageCaches.get(p)));
        if (one.isEmpty()) {
            continue;
        }
        String name = Notebook.shortName(chapter) + (onePageCache ? "" : ", page cache " + pageCaches.get(p));
        // each chapter its colour and marker; a second page cache the same, dashed
        Line line = Line.builder().color(ChartColours.colour(c)).dash(p == 0 ? Line.Dash.SOLID : Line.Dash.DASH).build();
        everyChapter.add(ScatterTrace.builder(one.intColumn("workers"), one.doubleColumn("mbps"))
                .mode(ScatterTrace.Mode.LINE_AND_MARKERS).name(name).marker(ChartColours.marker(c)).line(line).build());
        double base = one.doubleColumn("mbps").getDouble(0); // sorted by workers: the fewest first
        DoubleColumn times = one.doubleColumn("mbps").divide(base).setName("gain");
        for (int i = 0; i < one.rowCount(); i++) {
            gainChapter.append(chapter); gainPageCache.append(pageCaches.get(p));
            gainWorkers.append(one.intColumn("workers").getInt(i)); gain.append(Math.round(times.getDouble(i) * 100) / 100.0);
        }
        relative.add(ScatterTrace.builder(one.intColumn("workers"), times)
                .mode(ScatterTrace.Mode.LINE_AND_MARKERS).name(name).marker(ChartColours.marker(c)).line(line).build());
    }
}
Table gains = Table.create("MB/s as a multiple of the chapter's own at its fewest workers", gainChapter, gainPageCache, gainWorkers, gain);
System.out.println(gains.printAll());
Notebook.chart("scaling-all", new Figure(
        Layout.builder().title(Notebook.title("The parallel chapters: MB/s by number of workers, warm cache", rows))
                .xAxis(workersAxis).yAxis(mbpsAxis)
                .width(ChartPage.CHART_WIDTH_PX).height(ChartPage.CHART_HEIGHT_PX).build(),
        everyChapter.toArray(new Trace[0])), walls);
int fewest = (int) rows.intColumn("workers").min();
Notebook.chart("scaling-relative", new Figure(
        Layout.builder().title(Notebook.title("What more workers bring: MB/s as a multiple of each chapter's own at "
                        + fewest + " worker" + (fewest == 1 ? "" : "s") + ", warm cache", rows))
                .xAxis(workersAxis).yAxis(Axis.builder().title("× the chapter's MB/s at " + fewest + " worker" + (fewest == 1 ? "" : "s")).build())
                .width(ChartPage.CHART_WIDTH_PX).height(ChartPage.CHART_HEIGHT_PX).build(),
        relative.toArray(new Trace[0])));
Notebook.loaded("scaling", scaling, "mbpsByWorkers", mbpsByWorkers, "gains", gains, "rows", rows);
