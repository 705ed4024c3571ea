//JAVA 25+
//DEPS ForNotebooks.java
//RUNTIME_OPTIONS --sun-misc-unsafe-memory-access=allow --limit-modules=java.se,jdk.jshell,jdk.unsupported,jdk.zipfs
//RUNTIME_OPTIONS -Djava.util.logging.config.file=notebooks/logging.properties

// Warm against cold: the same chapters with the file in the page cache and evicted before every
// run. One machine's results (results/<machine>/cold.csv beside its scoreboard.csv). Two charts:
// both side by side, and the cold figures alone on a scale of their own, where the chapters that
// read around the page cache (14, 15) can be told apart, each named with its fraction of fio's best
// on the same file, read size and job count (fio.csv, lab/yardsticks/FioBeside.java). No memory wall: cold,
// the disk is the limit.
// Run from the project's root:   ./jbang notebooks/warm-vs-cold.jsh     (-Dmachine=NAME for another machine)
// Explore the tables:            ./jbang --interactive notebooks/warm-vs-cold.jsh

import notebooks.*;
import lab.results.FioBesideResults;

Notebook.arguments(args, "warm-vs-cold", "warm-vs-cold", "cold");

import tech.tablesaw.api.*;
import tech.tablesaw.plotly.components.*;
import tech.tablesaw.plotly.traces.*;

Table coldRows = Notebook.results("cold", "cold");
Table warmRows = Notebook.results("scoreboard", "warm");
Table cold = coldRows.selectColumns("chapter", "page_cache", "mbps");
cold.column("mbps").setName("cold_mbps");
Table warm = warmRows.selectColumns("chapter", "page_cache", "mbps");
warm.column("mbps").setName("warm_mbps");

// Every chapter of the cold round, with its warm figure from the scoreboard beside it.
Table warmVsCold = (cold.joinOn("chapter", "page_cache").leftOuter(warm)
        .reorderColumns("chapter", "page_cache", "warm_mbps", "cold_mbps"));
warmVsCold.addColumns(warmVsCold.doubleColumn("warm_mbps").divide(warmVsCold.doubleColumn("cold_mbps"))
        .map(ratio -> Math.round(ratio * 10) / 10.0).setName("warm_over_cold"));
if (Notebook.pageCaches(warmVsCold).size() == 1) {
    warmVsCold.removeColumns("page_cache");
}
warmVsCold.setName("Warm and cold page cache (MB/s), " + Notebook.machine().name);
System.out.println(warmVsCold.printAll());

// The cold chapters beside fio: each one's median over fio.csv's newest sitting ÷ fio's best O_DIRECT job there,
// and ÷ its best job that checks every byte as it lands, as a chapter does.
FioBesideResults.FioComparison fio = FioBesideResults.comparison(Notebook.machine().folder);
fio.notes().forEach(System.out::println);
System.out.println(fio.line());
Function<Table, StringColumn> namesBesideFio = rows -> StringColumn.create("name", rows.stringColumn("chapter").asList().stream()
        .map(chapter -> Notebook.shortName(chapter) + fio.of(chapter).map(f -> String.format(Locale.ROOT, " · %.2f × fio", f.fraction())
                + f.checkingFraction().stream().mapToObj(x -> String.format(Locale.ROOT, " · %.2f × fio checking", x)).findFirst().orElse(""))
                .orElse("")));
String fioCaption = (fio.fractions().isEmpty() ? fio.line()
        : "× fio, from fio.csv's interleaved rounds of " + fio.sittingDate() + " (not these bars): the chapter's median ÷ fio's best O_DIRECT job's"
                + (fio.fractions().stream().anyMatch(f -> f.checkingFraction().isPresent()) ? "; × fio checking: ÷ its best job checking every byte" : ""));

List<String> pageCaches = Notebook.pageCaches(coldRows);
List<Trace> sideBySide = new ArrayList<>(), coldAlone = new ArrayList<>();
for (String pageCache : pageCaches) {
    Table one = warmVsCold.columnNames().contains("page_cache")
            ? warmVsCold.where(warmVsCold.stringColumn("page_cache").isEqualTo(pageCache)) : warmVsCold;
    String suffix = pageCaches.size() > 1 ? ", page cache " + pageCache : "";
    sideBySide.add(BarTrace.builder(Notebook.shortNames(one), one.doubleColumn("warm_mbps"))
            .orientation(BarTrace.Orientation.HORIZONTAL).name("warm" + suffix).build());
    sideBySide.add(BarTrace.builder(Notebook.shortNames(one), one.doubleColumn("cold_mbps"))
            .orientation(BarTrace.Orientation.HORIZONTAL).name("cold" + suffix).build());
    coldAlone.add(BarTrace.builder(namesBesideFio.apply(one), one.doubleColumn("cold_mbps"))
            .orientation(BarTrace.Orientation.HORIZONTAL).name("cold" + suffix).build());
}
Notebook.chart("warm-vs-cold", new Figure(
        Layout.builder().title(Notebook.title("Warm and cold page cache: MB/s by chapter", coldRows))
                .xAxis(Axis.builder().title("MB/s (decimal)").build())
                .yAxis(Axis.builder().autoRange(Axis.AutoRange.REVERSED).build())
                .barMode(Layout.BarMode.GROUP)
                .width(ChartPage.CHART_WIDTH_PX).height(ChartPage.CHART_HEIGHT_PX).build(),
        sideBySide.toArray(new Trace[0])));
Notebook.chart("cold", new Figure(
        Layout.builder().title(Notebook.title("Cold page cache: MB/s by chapter, the file evicted before every run", coldRows)
                        + "<br><sup>" + fioCaption + "</sup>")
                .xAxis(Axis.builder().title("MB/s (decimal)").build())
                .yAxis(Axis.builder().autoRange(Axis.AutoRange.REVERSED).build())
                .barMode(Layout.BarMode.GROUP).showLegend(pageCaches.size() > 1)
                .width(ChartPage.CHART_WIDTH_PX).height(ChartPage.CHART_HEIGHT_PX).build(),
        coldAlone.toArray(new Trace[0])));
Notebook.loaded("warmVsCold", warmVsCold, "coldRows", coldRows, "warmRows", warmRows);
