//JAVA 25+
//DEPS tech.tablesaw:tablesaw-core:0.44.4
//DEPS tech.tablesaw:tablesaw-jsplot:0.44.4
//DEPS org.webjars.npm:plotly.js-dist:3.0.1
//DEPS org.apache.commons:commons-csv:1.14.1
//DEPS org.slf4j:slf4j-nop:2.0.17
// JBang hands these to JShell in reverse order, and Report needs StudyResults declared before it.
//SOURCES Report.java
//SOURCES ../tools/StudyResults.java
//SOURCES ChartImage.java
// Tablesaw's class scanner calls sun.misc.Unsafe (allowed here, said nowhere); the notebooks use no
// incubator module, so none is resolved; JShell's preferences store logs nothing (logging.properties).
//RUNTIME_OPTIONS --sun-misc-unsafe-memory-access=allow --limit-modules=java.se,jdk.jshell,jdk.unsupported,jdk.zipfs
//RUNTIME_OPTIONS -Djava.util.logging.config.file=notebooks/logging.properties

// What you wait for: each chapter's one-shot command (--runs 1 --warmup 0), timed from the shell to
// its exit, as a stack of its phases (launcher, JVM start, checks, pre-read, first search, answer,
// exit), with the Go article's one-shot of the same idea beside it. One machine's answer round
// (results/<machine>/answer.csv, written by tools/AnswerRound.java or the study).
// Run from the project's root:   ./jbang notebooks/answer.jsh           (-Dmachine=NAME for another machine)

import java.nio.charset.StandardCharsets;
import org.apache.commons.csv.*;
import tech.tablesaw.api.*;
import tech.tablesaw.plotly.components.*;
import tech.tablesaw.plotly.traces.*;

Report.MachineResults machine = Report.machine();
Path csv = machine.csv("answer");
if (!Files.isRegularFile(csv)) {
    Report.quit("nothing to draw: no " + csv + " (./jbang tools/AnswerRound.java FILE --only V13 --csv " + csv + " measures it)");
}

List<String> PHASES = List.of("launcher", "jvm_start", "checks", "preread", "first_search", "answer", "exit");
List<String> LABELS = List.of("launcher (JBang or its cache)", "JVM start to main", "options and checks", "pre-read",
        "first search (cold JIT)", "summary", "exit");

// Every field is untrusted: a row whose chapter is not a chapter's or a Go variant's name, or whose
// seconds are not finite and non-negative, is left out with one line naming its file and line.
// The newest row of each chapter is drawn.
StringColumn chapters = StringColumn.create("chapter");
DoubleColumn medians = DoubleColumn.create("median_s");
Map<String, DoubleColumn> phaseColumns = new LinkedHashMap<>();
for (String phase : PHASES) phaseColumns.put(phase, DoubleColumn.create(phase + "_s"));
Map<String, CSVRecord> newest = new LinkedHashMap<>();
Map<String, Long> lineOf = new HashMap<>();
try (CSVParser parser = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get()
        .parse(Files.newBufferedReader(csv, StandardCharsets.UTF_8))) {
    List<String> header = parser.getHeaderNames();
    if (!header.contains("chapter") || !header.contains("median_s") || !PHASES.stream().allMatch(p -> header.contains(p + "_s"))) {
        Report.quit(csv + " is not an answer-round CSV (its header is " + header + ")");
    }
    for (CSVRecord record : parser) {
        String chapter = record.isConsistent() ? record.get("chapter") : "";
        boolean java = chapter.matches("V\\d\\d\\w{0,40}"), go = chapter.matches("Go v\\d{1,2}");
        String problem = !record.isConsistent() ? "not as many fields as the header"
                : !java && !go ? "not a chapter name"
                : null;
        if (problem == null) {
            for (String column : java ? Stream.concat(Stream.of("median_s"), PHASES.stream().map(p -> p + "_s")).toList() : List.of("median_s")) {
                double value;
                try {
                    value = Double.parseDouble(record.get(column));
                } catch (NumberFormatException e) {
                    value = Double.NaN;
                }
                if (!Double.isFinite(value) || value < 0) {
                    problem = column + " is not a figure";
                    break;
                }
            }
        }
        if (problem != null) {
            System.out.println(csv + " line " + (record.getRecordNumber() + 1) + " left out: " + problem);
            continue;
        }
        newest.put(chapter, record);
    }
}
if (newest.isEmpty()) {
    Report.quit("nothing to draw: " + csv + " has no row that reads");
}

// Java chapters in order, each followed by the Go variant a row says it was timed beside.
List<String> order = newest.keySet().stream().sorted(Comparator.comparing((String c) -> c.startsWith("Go") ? 1 : 0).thenComparing(c -> c)).toList();
for (String chapter : order) {
    CSVRecord record = newest.get(chapter);
    chapters.append(chapter.startsWith("Go") ? chapter : Report.shortName(chapter));
    medians.append(Double.parseDouble(record.get("median_s")));
    for (String phase : PHASES) {
        phaseColumns.get(phase).append(chapter.startsWith("Go") ? 0 : Double.parseDouble(record.get(phase + "_s")));
    }
}
Table answer = Table.create("Time to answer, shell to exit (median of runs)", chapters, medians);
phaseColumns.values().forEach(answer::addColumns);
System.out.println(answer.printAll());

// One trace per phase, stacked; Go's one-shot is one bar of its own (its process is not broken down).
List<Trace> bars = new ArrayList<>();
for (int i = 0; i < PHASES.size(); i++) {
    bars.add(BarTrace.builder(chapters, phaseColumns.get(PHASES.get(i))).name(LABELS.get(i))
            .marker(Marker.builder().color(Report.colour(i)).build()).build());
}
DoubleColumn goSeconds = DoubleColumn.create("go_s");
for (int row = 0; row < answer.rowCount(); row++) {
    goSeconds.append(chapters.get(row).startsWith("Go") ? medians.getDouble(row) : 0);
}
bars.add(BarTrace.builder(chapters, goSeconds).name("Go one-shot (whole process)")
        .marker(Marker.builder().color(Report.colour(PHASES.size())).build()).build());
Report.chart("answer", new Figure(
        Layout.builder().title("What you wait for: one-shot commands, shell to exit, by phase<br><sup>" + machine.name
                        + " · median of each phase over the runs · warm page cache</sup>")
                .barMode(Layout.BarMode.STACK).showLegend(true)
                .xAxis(Axis.builder().title("chapter").build())
                .yAxis(Axis.builder().title("seconds").build())
                .width(Report.CHART_WIDTH_PX).height(Report.CHART_HEIGHT_PX).build(),
        bars.toArray(new Trace[0])));
Report.loaded("answer", answer);
