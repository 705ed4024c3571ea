//JAVA 25+
//DEPS ForNotebooks.java
//RUNTIME_OPTIONS -Djava.util.logging.config.file=notebooks/logging.properties
// Tablesaw's class scanner calls sun.misc.Unsafe (allowed here, said nowhere); the notebooks use no
// incubator module, so none is resolved; JShell's preferences store logs nothing (logging.properties).

// Why each chapter takes its time: each row of model.csv (lab/report/CostModel.java) as a point, the
// time measured across, the time predicted from its bill at the machine's unit costs up, and the
// diagonal where the two agree. A point under the diagonal took longer than the model says: its
// lesson is the gap. A point priced with a unit cost whose rounds spread by more than a quarter says
// which in its label. One machine's results (results/<machine>/model.csv).
// Run from the project's root:   ./jbang notebooks/model.jsh           (-Dmachine=NAME for another machine)

import notebooks.*;
import lab.results.StudyResults;

Notebook.arguments(args, "model", "model");

import tech.tablesaw.api.*;
import tech.tablesaw.plotly.components.*;
import tech.tablesaw.plotly.traces.*;

MachineResults machine = Notebook.machine();
Path csv = machine.csv("model");
if (!java.nio.file.Files.isRegularFile(csv)) {
    Notebook.quit("no " + csv + " here: ./jbang cost-model " + machine.folder.dir + " --csv " + csv + " writes it");
}

// The file may come from someone else: a row whose chapter, state or bound is not one the model
// writes, or whose times are not positive numbers, is left out and said.
StringColumn chapterColumn = StringColumn.create("chapter");
StringColumn stateColumn = StringColumn.create("state");
StringColumn boundColumn = StringColumn.create("bound");
DoubleColumn measuredColumn = DoubleColumn.create("measured_s");
DoubleColumn predictedColumn = DoubleColumn.create("predicted_s");
List<String> leftOut = new ArrayList<>();
List<String> modelColumns = List.of("chapter", "workers", "page_cache", "cache", "measured_s", "predicted_s", "bound");
try {
    StudyResults.eachRow(csv, "a model.csv", header -> {
        if (!header.containsAll(modelColumns)) {
            throw new StudyResults.NotResultsException(csv + " is not a model.csv: its header lacks one of " + String.join(",", modelColumns));
        }
    }, (file, line, row) -> {
        double measured = StudyResults.decimal(row, "measured_s", Double.MAX_VALUE), predicted = StudyResults.decimal(row, "predicted_s", Double.MAX_VALUE);
        boolean known = row.get("chapter").matches("V\\d\\d[A-Za-z0-9]*") && row.get("page_cache").matches("as-is|small|huge")
                && row.get("cache").matches("warm|cold") && row.get("workers").matches("\\d{1,4}") && row.get("bound").matches("[a-z:. -]{1,40}")
                && row.getOrDefault("unstable_costs", "").matches("[a-z0-9_ ]{0,200}");
        if (!known || !(measured > 0) || !(predicted > 0)) {
            throw new IllegalArgumentException("not a row the cost model writes");
        }
        chapterColumn.append(Notebook.shortName(row.get("chapter")));
        String unstable = row.getOrDefault("unstable_costs", ""); // absent from a model.csv of before it: none named
        stateColumn.append(row.get("cache") + (row.get("page_cache").equals("as-is") ? "" : ", " + row.get("page_cache"))
                + (unstable.isEmpty() ? "" : "; priced with unstable " + unstable));
        boundColumn.append(row.get("bound"));
        measuredColumn.append(measured);
        predictedColumn.append(predicted);
        return row;
    }, leftOut);
} catch (StudyResults.NotResultsException e) {
    Notebook.quit(e.getMessage());
}
leftOut.forEach(System.out::println);
Table model = Table.create("Measured against predicted", chapterColumn, stateColumn, boundColumn, measuredColumn, predictedColumn);
if (model.rowCount() == 0) {
    Notebook.quit("nothing to draw: " + csv + " has no row to draw");
}
System.out.println(model.printAll());

// One set of points per bound, each with its colour; the labels name the chapter and its state.
List<Trace> traces = new ArrayList<>();
int index = 0;
for (String bound : boundColumn.unique().asList().stream().sorted().toList()) {
    Table some = model.where(model.stringColumn("bound").isEqualTo(bound));
    String[] labels = new String[some.rowCount()];
    for (int i = 0; i < labels.length; i++) {
        labels[i] = some.stringColumn("chapter").get(i) + " (" + some.stringColumn("state").get(i) + ")";
    }
    traces.add(ScatterTrace.builder(some.doubleColumn("measured_s"), some.doubleColumn("predicted_s"))
            .mode(ScatterTrace.Mode.MARKERS).name("bound: " + bound).text(labels).marker(ChartColours.marker(index++)).build());
}
double low = Math.min(measuredColumn.min(), predictedColumn.min()) * 0.8, high = Math.max(measuredColumn.max(), predictedColumn.max()) * 1.25;
traces.add(ScatterTrace.builder(new double[] {low, high}, new double[] {low, high})
        .mode(ScatterTrace.Mode.LINE).name("predicted = measured").line(ChartColours.line(index)).build());
Notebook.chart("model", new Figure(
        Layout.builder().title("Measured against predicted from the bill, seconds<br><sup>" + machine.name + "</sup>")
                .xAxis(Axis.builder().title("measured, s").type(Axis.Type.LOG).build())
                .yAxis(Axis.builder().title("predicted from the bill, s").type(Axis.Type.LOG).build())
                .width(ChartPage.CHART_WIDTH_PX).height(ChartPage.CHART_HEIGHT_PX).build(),
        traces.toArray(new Trace[0])));
Notebook.loaded("model", model);
