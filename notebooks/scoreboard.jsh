//JAVA 25+
//DEPS tech.tablesaw:tablesaw-core:0.44.4
//DEPS tech.tablesaw:tablesaw-jsplot:0.44.4
//DEPS org.webjars.npm:plotly.js-dist:3.0.1
//SOURCES Report.java

// The scoreboard: every chapter with a warm page cache, one worker per processor, measured
// against the memory-read wall (results/wall.csv) when the wall probe has been run.
// Run from the project's root:   ./jbang notebooks/scoreboard.jsh
// Explore the tables:            ./jbang --interactive notebooks/scoreboard.jsh

import tech.tablesaw.api.*;
import tech.tablesaw.plotly.components.*;
import tech.tablesaw.plotly.traces.*;

Table rows = Report.results("scoreboard");
Optional<Report.Wall> wall = Report.memoryWall();

Table scoreboard = rows.selectColumns("chapter", "workers", "mean_s", "mbps");
// How many times faster than chapter 1, which reads it all and loops over bytes.
scoreboard.addColumns(Report.speedup(rows, "V01"));
// How close each chapter comes to reading at the speed of memory.
wall.ifPresent(memory -> scoreboard.addColumns(Report.percentOf(memory, scoreboard)));
scoreboard.setName("Scoreboard (warm cache)");
System.out.println(scoreboard.printAll());

Figure scoreboardChart = new Figure(
        Layout.builder("Scoreboard, warm cache: MB/s by chapter", "chapter", "MB/s (decimal)")
                .width(Report.CHART_WIDTH_PX).height(Report.CHART_HEIGHT_PX).build(),
        BarTrace.builder(scoreboard.stringColumn("chapter"), scoreboard.numberColumn("mbps")).name("MB/s").build());
Report.chart("scoreboard", scoreboardChart, wall);
