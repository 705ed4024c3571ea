//JAVA 25+
//DEPS ForNotebooks.java
//RUNTIME_OPTIONS --sun-misc-unsafe-memory-access=allow --limit-modules=java.se,jdk.jshell,jdk.unsupported,jdk.zipfs
//RUNTIME_OPTIONS -Djava.util.logging.config.file=notebooks/logging.properties

// Every machine in results/ side by side, with the Go article's published figures: MB/s by
// chapter, and each chapter as a share of its own machine's memory-read wall. What moves with the
// hardware (the heights) and what does not (the shares, the order) shows at a glance. Each series
// is one machine's scoreboard: its warm rows, on its main file size (see Notebook.select).
// Run from the project's root:   ./jbang notebooks/machines.jsh
// Explore the tables:            ./jbang --interactive notebooks/machines.jsh

import notebooks.*;
import lab.results.MemoryWall;
import lab.results.StudyResults;

Notebook.arguments(args, "machines", "machines-mbps", "machines-share-of-wall");

import tech.tablesaw.api.*;
import tech.tablesaw.plotly.components.*;
import tech.tablesaw.plotly.traces.*;

// The machine the notebooks draw by default comes first; its charts folder holds these charts.
MachineResults home = Notebook.machine();
List<MachineResults> machines = new ArrayList<>(Notebook.machines(Notebook.ROOT));
machines.sort(Comparator.comparing((MachineResults m) -> !m.name.equals(home.name)).thenComparing(m -> m.name));

StringColumn machineColumn = StringColumn.create("machine");
StringColumn chapterColumn = StringColumn.create("chapter");
StringColumn numberColumn = StringColumn.create("number");
DoubleColumn mbpsColumn = DoubleColumn.create("mbps");
DoubleColumn shareColumn = DoubleColumn.create("pct_of_own_wall");
Map<String, String> shortByNumber = new TreeMap<>();
List<String> series = new ArrayList<>(), captions = new ArrayList<>();

for (MachineResults machine : machines) {
    if (!machine.has("scoreboard")) {
        System.out.println("(" + machine.name + " has no scoreboard.csv; left out)");
        continue;
    }
    Notebook.Selected selected = Notebook.select(machine, "scoreboard", "warm");
    machine.report(selected.notes());
    Table rows = selected.rows();
    Optional<MemoryWall> wall = Notebook.walls(machine, false).stream().findFirst();
    if (wall.isEmpty()) {
        System.out.println("(" + machine.name + " has no memory-read wall in wall.csv, so no shares for it)");
    }
    // a chapter drawn here that is faster than its wall makes that wall no bound: said beside the caption, and no share shown
    List<String> faster = new ArrayList<>();
    for (Row row : rows) {
        if (wall.isPresent() && wall.get().percentOf(row.getDouble("mbps")).isEmpty()) {
            faster.add(StudyResults.chapterNumber(row.getString("chapter")));
        }
    }
    String beaten = faster.isEmpty() ? "" : " · " + wall.get().label() + " beaten by " + String.join(", ", faster) + ": no share of it";
    captions.add(Notebook.caption(machine, rows) + beaten);
    // one series per page-cache setting: rows of different settings are never drawn as one
    List<String> pageCaches = Notebook.pageCaches(rows);
    for (String pageCache : pageCaches) {
        Table one = rows.where(rows.stringColumn("page_cache").isEqualTo(pageCache));
        String label = machine.name + (pageCaches.size() > 1 ? ", page cache " + pageCache : "")
                + (Notebook.trialReasons(machine, one).isEmpty() ? "" : " (trial)");
        series.add(label);
        for (Row row : one) {
            String chapter = row.getString("chapter");
            shortByNumber.put(StudyResults.chapterNumber(chapter), Notebook.shortName(chapter));
            machineColumn.append(label); chapterColumn.append(chapter); numberColumn.append(StudyResults.chapterNumber(chapter));
            mbpsColumn.append(row.getDouble("mbps"));
            shareColumn.append(wall.map(w -> w.percentOf(row.getDouble("mbps"))).filter(java.util.OptionalDouble::isPresent)
                    .map(share -> Math.round(share.getAsDouble() * 10) / 10.0).orElse(Double.NaN));
        }
    }
}
if (series.isEmpty()) {
    Notebook.quit("no machine in " + Notebook.ROOT + " has a scoreboard.csv: run the study first (./jbang study)");
}
Table ours = Table.create("Every machine's scoreboard (warm cache, MB/s and % of its own memory-read wall)",
        machineColumn, chapterColumn, numberColumn, mbpsColumn, shareColumn);
System.out.println(ours.printAll());

// The article's machine (Go; its wall was not published, so it has MB/s only).
String articleLabel = "the article (Go, Ryzen 5 9600X)";
Table article = Notebook.article("scoreboard");
Table mbpsByChapter = ours.pivot("number", "machine", "mbps", tech.tablesaw.aggregate.AggregateFunctions.mean);
mbpsByChapter.setName("MB/s by chapter and machine");
System.out.println(mbpsByChapter.printAll());

List<Trace> mbpsBars = new ArrayList<>(), shareBars = new ArrayList<>();
for (int i = 0; i < series.size(); i++) {
    Table one = ours.where(ours.stringColumn("machine").isEqualTo(series.get(i))).sortAscendingOn("number");
    StringColumn names = one.stringColumn("number").map(shortByNumber::get);
    Marker colour = Marker.builder().color(ChartColours.colour(i)).build();
    mbpsBars.add(BarTrace.builder(names, one.doubleColumn("mbps")).orientation(BarTrace.Orientation.HORIZONTAL)
            .name(series.get(i)).marker(colour).build());
    Table withShares = one.where(one.doubleColumn("pct_of_own_wall").isNotMissing());
    if (!withShares.isEmpty()) {
        shareBars.add(BarTrace.builder(withShares.stringColumn("number").map(shortByNumber::get), withShares.doubleColumn("pct_of_own_wall"))
                .orientation(BarTrace.Orientation.HORIZONTAL).name(series.get(i)).marker(colour).build());
    }
}
Table go = article.where(article.stringColumn("number").isIn(shortByNumber.keySet())).sortAscendingOn("number");
mbpsBars.add(BarTrace.builder(go.stringColumn("number").map(shortByNumber::get), go.numberColumn("mb_per_s"))
        .orientation(BarTrace.Orientation.HORIZONTAL).name(articleLabel)
        .marker(Marker.builder().color("#999999").build()).build());

// One line per machine under the title; the top margin grows with them, so they never reach the plot.
String subtitle = String.join("<br>", captions);
Margin room = Margin.builder().top(70 + 18 * captions.size()).bottom(80).left(80).right(80).build();
Notebook.chart("machines-mbps", new Figure(
        Layout.builder().title("MB/s by chapter on every machine, warm cache<br><sup>" + subtitle + "</sup>")
                .xAxis(Axis.builder().title("MB/s (decimal)").build())
                .yAxis(Axis.builder().autoRange(Axis.AutoRange.REVERSED).build())
                .barMode(Layout.BarMode.GROUP).showLegend(true).margin(room)
                .width(ChartPage.CHART_WIDTH_PX).height(ChartPage.CHART_HEIGHT_PX).build(),
        mbpsBars.toArray(new Trace[0])));
if (!shareBars.isEmpty()) {
    Notebook.chart("machines-share-of-wall", new Figure(
            Layout.builder().title("Each chapter as a share of its own machine's memory-read wall (100 %)<br><sup>" + subtitle + "</sup>")
                    .xAxis(Axis.builder().title("% of the machine's memory-read wall").build())
                    .yAxis(Axis.builder().autoRange(Axis.AutoRange.REVERSED).build())
                    .barMode(Layout.BarMode.GROUP).showLegend(true).margin(room)
                    .width(ChartPage.CHART_WIDTH_PX).height(ChartPage.CHART_HEIGHT_PX).build(),
            shareBars.toArray(new Trace[0])));
}
Notebook.loaded("ours", ours, "mbpsByChapter", mbpsByChapter, "article", article);
