//JAVA 25+
//DEPS ForNotebooks.java
//RUNTIME_OPTIONS --sun-misc-unsafe-memory-access=allow --limit-modules=java.se,jdk.jshell,jdk.unsupported,jdk.zipfs
//RUNTIME_OPTIONS -Djava.util.logging.config.file=notebooks/logging.properties

// What you wait for: each chapter's one-shot command (--runs 1 --warmup 0), timed from the shell to
// its exit, as a stack of its phases (launcher, JVM start, checks, pre-read, first search, answer,
// exit), with the Go article's one-shot of the same idea beside it. One machine's answer round
// (results/<machine>/answer.csv, written by lab/study/AnswerRound.java or the study).
// Run from the project's root:   ./jbang notebooks/answer.jsh           (-Dmachine=NAME for another machine)

import notebooks.*;
import lab.results.AnswerResults;
import lab.results.StudyResults;

Notebook.arguments(args, "answer", "answer");

import tech.tablesaw.api.*;
import tech.tablesaw.plotly.components.*;
import tech.tablesaw.plotly.traces.*;

MachineResults machine = Notebook.machine();
Path csv = machine.csv("answer");
if (!Files.isRegularFile(csv)) {
    Notebook.quit("nothing to draw: no " + csv + " (./jbang lab/study/AnswerRound.java FILE --only V13 --csv " + csv + " measures it)");
}

List<String> PHASES = AnswerResults.ANSWER_PHASES;
List<String> LABELS = List.of("launcher (JBang or its cache)", "JVM start to main", "options and checks", "pre-read",
        "first search (cold JIT)", "summary", "exit");

// Every field is untrusted: the one reader of results reads the rows (lab/results/StudyResults.java), and a
// row whose chapter is not a chapter's or a Go variant's name, or whose seconds are not finite and
// non-negative, is left out with one line naming its file and line. The newest row of each chapter is drawn.
AnswerResults.AnswerCsv answers;
try {
    answers = AnswerResults.read(csv);
} catch (StudyResults.NotResultsException notAnswers) {
    Notebook.quit(notAnswers.getMessage());
}
answers.problems().forEach(System.out::println);
List<AnswerResults.Answer> newest = answers.newestOfEach();
if (newest.isEmpty()) {
    Notebook.quit("nothing to draw: " + csv + " has no row that reads");
}

// Java chapters in order, then the Go variants timed beside them, by number (v2 before v10: "V02", "V10").
StringColumn chapters = StringColumn.create("chapter");
DoubleColumn medians = DoubleColumn.create("median_s");
Map<String, DoubleColumn> phaseColumns = new LinkedHashMap<>();
for (String phase : PHASES) phaseColumns.put(phase, DoubleColumn.create(phase + "_s"));
for (AnswerResults.Answer row : newest.stream().sorted(Comparator.comparing((AnswerResults.Answer a) -> a.isGo() ? 1 : 0)
        .thenComparing(a -> StudyResults.chapterNumber(a.chapter())).thenComparing(AnswerResults.Answer::chapter)).toList()) {
    chapters.append(row.isGo() ? row.chapter() : Notebook.shortName(row.chapter()));
    medians.append(row.medianSeconds());
    for (String phase : PHASES) {
        phaseColumns.get(phase).append(row.isGo() ? 0 : row.phaseSeconds().get(phase));
    }
}
Table answer = Table.create("Time to answer, shell to exit (median of runs)", chapters, medians);
phaseColumns.values().forEach(answer::addColumns);
System.out.println(answer.printAll());

// One trace per phase, stacked; Go's one-shot is one bar of its own (its process is not broken down).
List<Trace> bars = new ArrayList<>();
for (int i = 0; i < PHASES.size(); i++) {
    bars.add(BarTrace.builder(chapters, phaseColumns.get(PHASES.get(i))).name(LABELS.get(i))
            .marker(Marker.builder().color(ChartColours.colour(i)).build()).build());
}
DoubleColumn goSeconds = DoubleColumn.create("go_s");
for (int row = 0; row < answer.rowCount(); row++) {
    goSeconds.append(chapters.get(row).startsWith("Go") ? medians.getDouble(row) : 0);
}
bars.add(BarTrace.builder(chapters, goSeconds).name("Go one-shot (whole process)")
        .marker(Marker.builder().color(ChartColours.colour(PHASES.size())).build()).build());
Notebook.chart("answer", new Figure(
        Layout.builder().title("What you wait for: one-shot commands, shell to exit, by phase<br><sup>" + machine.name
                        + " · median of each phase over the runs · warm page cache</sup>")
                .barMode(Layout.BarMode.STACK).showLegend(true)
                .xAxis(Axis.builder().title("chapter").build())
                .yAxis(Axis.builder().title("seconds").build())
                .width(ChartPage.CHART_WIDTH_PX).height(ChartPage.CHART_HEIGHT_PX).build(),
        bars.toArray(new Trace[0])));
Notebook.loaded("answer", answer);
