//JAVA 25+
//DEPS ForNotebooks.java
//RUNTIME_OPTIONS --sun-misc-unsafe-memory-access=allow --limit-modules=java.se,jdk.jshell,jdk.unsupported,jdk.zipfs
//RUNTIME_OPTIONS -Djava.util.logging.config.file=notebooks/logging.properties

// This machine's Java against Go, as MB/s and as speedup over each side's chapter 1. Where the
// study also ran the article's Go programs here (results/<machine>/versus-go.csv, chapters "Go v1"
// …), both sides come from the same machine and the memory-read wall applies to both. Otherwise
// the Go side is the article's published figures (results/reference/go-blog-figures.csv), from
// another machine (6 cores, 12 threads, DDR5): the shapes compare better than the heights, and no
// wall is drawn, since one machine's wall says nothing about the other's bars.
// Run from the project's root:   ./jbang notebooks/vs-article.jsh      (-Dmachine=NAME for another machine)
// Explore the tables:            ./jbang --interactive notebooks/vs-article.jsh

import notebooks.*;
import lab.results.MemoryWall;
import lab.results.StudyResults;

Notebook.arguments(args, "vs-article", "vs-article-mbps", "vs-article-speedup");

import tech.tablesaw.aggregate.AggregateFunctions;
import tech.tablesaw.api.*;
import tech.tablesaw.plotly.components.*;
import tech.tablesaw.plotly.traces.*;

Table scoreboard = Notebook.results("scoreboard");
String machineName = Notebook.machine().name;
boolean goHere = Notebook.machine().has("versus-go");
Table javaRows = scoreboard;
Table captionRows = scoreboard; // what the charts' second title line describes

Table go;
String goLabel;
List<MemoryWall> walls;
if (goHere) {
    // Both sides from the sitting itself, every round of it: the median over the rounds of each
    // call's median run, as lab/yardsticks/VersusGo.java prints them (not the scoreboard's Java, measured at another moment).
    Table pairs = Notebook.everyRound("versus-go");
    // the caption's runs and warm-ups are Java's: Go has no JIT, so its calls run no warm-up, and that makes no trial
    captionRows = pairs.dropWhere(pairs.stringColumn("chapter").startsWith("Go "));
    Table medians = pairs.summarize("median_s", AggregateFunctions.median).by("chapter");
    long haystackBytes = pairs.longColumn("file_bytes").get(0);
    medians.addColumns(medians.doubleColumn("Median [median_s]").map(seconds -> (double) Math.round(haystackBytes / seconds / 1e6)).setName("mbps"));
    // Notebook.speedup divides chapter 1's mean_s by each row's: here each side's median seconds stand in for it.
    medians.addColumns(medians.doubleColumn("Median [median_s]").copy().setName("mean_s"));
    javaRows = medians.dropWhere(medians.stringColumn("chapter").startsWith("Go "));
    Table goRows = medians.where(medians.stringColumn("chapter").startsWith("Go "));
    go = goRows.selectColumns("chapter", "mbps");
    go.addColumns(Notebook.speedup(goRows, "V01"));
    go.addColumns(go.stringColumn("chapter").map(StudyResults::chapterNumber).setName("number"));
    go.column("chapter").setName("description");
    go.column("mbps").setName("go_mb_per_s");
    go.column("speedup").setName("go_speedup");
    goLabel = "Go, " + machineName;
    walls = Notebook.walls();
} else {
    go = Notebook.article("scoreboard").selectColumns("number", "description", "mb_per_s", "speedup");
    go.column("mb_per_s").setName("go_mb_per_s");
    go.column("speedup").setName("go_speedup");
    goLabel = "Go, the article's machine";
    walls = List.of();
    System.out.println("(no " + Notebook.machine().csv("versus-go") + ", so Go is the article's published figures, "
            + "from another machine; no memory-read wall drawn: it is " + machineName + "'s alone)");
}

Table ours = javaRows.selectColumns("chapter", "mbps");
ours.addColumns(Notebook.speedup(javaRows, "V01"));
ours.addColumns(ours.stringColumn("chapter").map(StudyResults::chapterNumber).setName("number"));
ours.column("mbps").setName("java_mbps");
ours.column("speedup").setName("java_speedup");

// Only the chapters both sides have: chapter zero (cmp) and any chapter past 13 are this project's own.
// (In a JShell script a line that completes a statement ends it, so a chain continues inside parentheses.)
Table vsArticle = (ours.joinOn("number").inner(go)
        .reorderColumns("number", "chapter", "java_mbps", "go_mb_per_s", "java_speedup", "go_speedup", "description")
        .sortAscendingOn("number"));
vsArticle.addColumns(Notebook.shortNames(vsArticle));
vsArticle.setName("Java on " + machineName + " and " + goLabel);
System.out.println(vsArticle.printAll());

String javaLabel = "Java, " + machineName;
Notebook.chart("vs-article-mbps", new Figure(
        Layout.builder().title(Notebook.title("MB/s by chapter: Java and Go", captionRows))
                .xAxis(Axis.builder().title("MB/s (decimal)").build())
                .yAxis(Axis.builder().autoRange(Axis.AutoRange.REVERSED).build())
                .barMode(Layout.BarMode.GROUP)
                .width(ChartPage.CHART_WIDTH_PX).height(ChartPage.CHART_HEIGHT_PX).build(),
        BarTrace.builder(vsArticle.stringColumn("name"), vsArticle.doubleColumn("java_mbps"))
                .orientation(BarTrace.Orientation.HORIZONTAL).name(javaLabel).build(),
        BarTrace.builder(vsArticle.stringColumn("name"), vsArticle.numberColumn("go_mb_per_s"))
                .orientation(BarTrace.Orientation.HORIZONTAL).name(goLabel).build()),
        walls);

Notebook.chart("vs-article-speedup", new Figure(
        Layout.builder().title(Notebook.title("Speedup over chapter 1: Java and Go", captionRows))
                .xAxis(Axis.builder().title("times faster than chapter 1").build())
                .yAxis(Axis.builder().autoRange(Axis.AutoRange.REVERSED).build())
                .barMode(Layout.BarMode.GROUP)
                .width(ChartPage.CHART_WIDTH_PX).height(ChartPage.CHART_HEIGHT_PX).build(),
        BarTrace.builder(vsArticle.stringColumn("name"), vsArticle.numberColumn("java_speedup"))
                .orientation(BarTrace.Orientation.HORIZONTAL).name(javaLabel).build(),
        BarTrace.builder(vsArticle.stringColumn("name"), vsArticle.numberColumn("go_speedup"))
                .orientation(BarTrace.Orientation.HORIZONTAL).name(goLabel).build()));
Notebook.loaded("vsArticle", vsArticle, "scoreboard", scoreboard, "go", go);
