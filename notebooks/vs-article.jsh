//JAVA 25+
//DEPS tech.tablesaw:tablesaw-core:0.44.4
//DEPS tech.tablesaw:tablesaw-jsplot:0.44.4
//DEPS org.webjars.npm:plotly.js-dist:3.0.1
//SOURCES Report.java

// This machine against the Go article: the scoreboard beside the article's published figures
// (results/reference/go-blog-figures.csv), as MB/s and as speedup over each side's chapter 1.
// The machines differ (the article's: 6 cores, 12 threads, DDR5), so the shapes compare better than the heights.
// Run from the project's root:   ./jbang notebooks/vs-article.jsh
// Explore the tables:            ./jbang --interactive notebooks/vs-article.jsh

import tech.tablesaw.api.*;
import tech.tablesaw.plotly.components.*;
import tech.tablesaw.plotly.traces.*;

Table scoreboard = Report.results("scoreboard");
// This machine's memory-read wall (results/wall.csv), drawn on the MB/s chart; the article's machine had its own.
Optional<Report.Wall> wall = Report.memoryWall();
Table ours = scoreboard.selectColumns("chapter", "mbps");
ours.addColumns(Report.speedup(scoreboard, "V01"));
ours.addColumns(ours.stringColumn("chapter").map(Report::chapterNumber).setName("number"));
ours.column("mbps").setName("java_mbps");
ours.column("speedup").setName("java_speedup");

Table go = Report.article("scoreboard").selectColumns("number", "description", "mb_per_s", "speedup");
go.column("mb_per_s").setName("go_mb_per_s");
go.column("speedup").setName("go_speedup");

// Only the chapters both sides have: chapter zero (cmp) and any chapter past 13 are this project's own.
// (In a JShell script a line that completes a statement ends it, so a chain continues inside parentheses.)
Table vsArticle = (ours.joinOn("number").inner(go)
        .reorderColumns("number", "chapter", "java_mbps", "go_mb_per_s", "java_speedup", "go_speedup", "description")
        .sortAscendingOn("number"));
vsArticle.setName("This machine (Java) and the article (Go)");
System.out.println(vsArticle.printAll());

Report.chart("vs-article-mbps", new Figure(
        Layout.builder("MB/s by chapter: this machine (Java) and the article (Go)", "chapter", "MB/s (decimal)")
                .barMode(Layout.BarMode.GROUP)
                .width(Report.CHART_WIDTH_PX).height(Report.CHART_HEIGHT_PX).build(),
        BarTrace.builder(vsArticle.stringColumn("number"), vsArticle.numberColumn("java_mbps")).name("Java, this machine").build(),
        BarTrace.builder(vsArticle.stringColumn("number"), vsArticle.numberColumn("go_mb_per_s")).name("Go, the article").build()),
        wall);

Report.chart("vs-article-speedup", new Figure(
        Layout.builder("Speedup over chapter 1: this machine (Java) and the article (Go)", "chapter", "times faster than chapter 1")
                .barMode(Layout.BarMode.GROUP)
                .width(Report.CHART_WIDTH_PX).height(Report.CHART_HEIGHT_PX).build(),
        BarTrace.builder(vsArticle.stringColumn("number"), vsArticle.numberColumn("java_speedup")).name("Java, this machine").build(),
        BarTrace.builder(vsArticle.stringColumn("number"), vsArticle.numberColumn("go_speedup")).name("Go, the article").build()));
