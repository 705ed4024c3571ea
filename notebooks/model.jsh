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
import lab.results.ModelResults;
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

// The file may come from someone else: a row the cost model would not write (lab/results/ModelResults.java
// says which) is left out and said.
List<String> leftOut = new ArrayList<>();
List<ModelResults.ModelRow> rows = List.of();
try {
    rows = ModelResults.read(csv, leftOut);
} catch (StudyResults.NotResultsException e) {
    Notebook.quit(e.getMessage());
}
StringColumn chapterColumn = StringColumn.create("chapter", rows.stream().map(row -> Notebook.shortName(row.chapter())));
StringColumn stateColumn = StringColumn.create("state", rows.stream().map(row -> row.cache() + (row.pageCache().equals("as-is") ? "" : ", " + row.pageCache())
        + (row.unstableCosts().isEmpty() ? "" : "; priced with unstable " + row.unstableCosts())));
StringColumn boundColumn = StringColumn.create("bound", rows.stream().map(ModelResults.ModelRow::bound));
DoubleColumn measuredColumn = DoubleColumn.create("measured_s", rows.stream().mapToDouble(ModelResults.ModelRow::measuredSeconds));
DoubleColumn predictedColumn = DoubleColumn.create("predicted_s", rows.stream().mapToDouble(ModelResults.ModelRow::predictedSeconds));
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
