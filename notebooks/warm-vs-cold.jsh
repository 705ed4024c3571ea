//JAVA 25+
//DEPS tech.tablesaw:tablesaw-core:0.44.4
//DEPS tech.tablesaw:tablesaw-jsplot:0.44.4
//DEPS org.webjars.npm:plotly.js-dist:3.0.1
//SOURCES Report.java

// Warm against cold: the same chapters with the file in the page cache and evicted before every run,
// under the memory-read wall (results/wall.csv) when the wall probe has been run.
// Run from the project's root:   ./jbang notebooks/warm-vs-cold.jsh
// Explore the tables:            ./jbang --interactive notebooks/warm-vs-cold.jsh

import tech.tablesaw.api.*;
import tech.tablesaw.plotly.components.*;
import tech.tablesaw.plotly.traces.*;

Table cold = Report.results("cold").selectColumns("chapter", "mbps");
cold.column("mbps").setName("cold_mbps");
Table warm = Report.results("scoreboard").selectColumns("chapter", "mbps");
warm.column("mbps").setName("warm_mbps");
Optional<Report.Wall> wall = Report.memoryWall();

// Every chapter of the cold round, with its warm figure from the scoreboard beside it.
Table warmVsCold = cold.joinOn("chapter").leftOuter(warm).reorderColumns("chapter", "warm_mbps", "cold_mbps");
warmVsCold.addColumns(warmVsCold.numberColumn("warm_mbps").divide(warmVsCold.numberColumn("cold_mbps"))
        .map(ratio -> Math.round(ratio * 10) / 10.0).setName("warm_over_cold"));
warmVsCold.setName("Warm and cold page cache (MB/s)");
System.out.println(warmVsCold.printAll());

Report.chart("warm-vs-cold", new Figure(
        Layout.builder("Warm and cold page cache: MB/s by chapter", "chapter", "MB/s (decimal)")
                .barMode(Layout.BarMode.GROUP)
                .width(Report.CHART_WIDTH_PX).height(Report.CHART_HEIGHT_PX).build(),
        BarTrace.builder(warmVsCold.stringColumn("chapter"), warmVsCold.numberColumn("warm_mbps")).name("warm").build(),
        BarTrace.builder(warmVsCold.stringColumn("chapter"), warmVsCold.numberColumn("cold_mbps")).name("cold").build()),
        wall);
