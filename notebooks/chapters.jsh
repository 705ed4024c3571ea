//JAVA 25+
//DEPS ForNotebooks.java ../variants/V13PreadVector.java
//RUNTIME_OPTIONS --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow
//RUNTIME_OPTIONS -Djava.util.logging.config.file=notebooks/logging.properties

// The book in one JShell: every chapter's search, in the book's order, run warm in one JVM (one
// warm-up run, then a few timed ones), each answer checked, with the bill the kernel kept. Unlike
// ./jbang variants/VNN….java, no figure here holds a JVM's start or a first run's compiling, and the
// JIT has warmed the shared code (the harness, the haystack) on the chapters before.
// Its -D options are read as a chapter reads FILE, --size and --runs: a bad one is refused in one line,
// status 2, before anything is compiled. It draws its chart only when every chapter ran (but one this
// CPU cannot run); a chapter that could not run, or a haystack that changed during the run (checked
// after every chapter), is one line and status 2, and no chart. It leaves no temporary folder behind
// (docs/safety.md, "The chapters' notebook").
// Run from the project's root:   ./jbang notebooks/chapters.jsh
//                                ./jbang -Dhaystack=haystack-1g.bin -Dsize=1g -Druns=3 notebooks/chapters.jsh
// Step through it yourself:      ./jbang -Dhaystack=haystack-1g.bin -Dsize=1g --interactive notebooks/chapters.jsh

// Only when there are arguments: loading Notebook here, before the /env below, would leave its exit hook in
// the session /env drops, where the notebook never reaches its last line.
import notebooks.*;
import lab.results.CommittedMachines;
import lab.results.StudyResults;

if (args.length > 0) { Notebook.argumentsDrawingHere(args, "chapters", "chapters"); }

// The options, read as a chapter reads FILE, --size and --runs (lib/harness/NotebookOptions.java), and the
// haystack, found or created: a mistake is one line and status 2, before anything is compiled. (The /env
// below resets the session and runs this again: the second time, the haystack is there.)
// -Dhaystack=FILE, haystack.bin by default, created (-Dsize, 4g by default) when missing; -Druns=N, 3 by default.
import lib.cli.IoMessage;
import lib.cli.UserMistakeException;
import lib.harness.NotebookOptions;
Path haystack;
String timedRuns;
try {
    NotebookOptions options = NotebookOptions.read(System::getProperty);
    haystack = options.findOrCreateFile(System.err);
    timedRuns = Integer.toString(options.runs());
} catch (UserMistakeException mistake) {
    Notebook.quit(mistake.getMessage());
} catch (IOException failed) {
    Notebook.quit(IoMessage.of(failed));
}

// The chapters import the Vector API, an incubator module that JShell's compiler resolves only when told.
/env --add-modules jdk.incubator.vector

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.attribute.BasicFileAttributes;
import lib.chapter.NeedleSearch;
import lib.cli.Quote;
import lib.cli.Sizes;
import lib.harness.Harness;
import lib.harness.ResultsCsv;
import lib.haystack.Haystack;
import lib.haystack.ReferenceSearch;
import tech.tablesaw.api.*;
import tech.tablesaw.plotly.components.*;
import tech.tablesaw.plotly.traces.*;

/** The haystack as the answer below was read from it: its identity, its size and the times it was last changed. */
record FileState(Object key, long size, Object modified, Object changed) {
    static FileState of(Path file) throws IOException {
        BasicFileAttributes now = Files.readAttributes(file, BasicFileAttributes.class);
        Object changed; // the inode's change time, which a write moves even where the modification time is put back
        try {
            changed = Files.getAttribute(file, "unix:ctime");
        } catch (UnsupportedOperationException | IllegalArgumentException noUnixView) {
            changed = null;
        }
        return new FileState(now.fileKey(), now.size(), now.lastModifiedTime(), changed);
    }

    /** Why {@code file} is no longer the file this state describes, or null when it still is. */
    String changeOf(Path file) {
        FileState now;
        try {
            now = of(file);
        } catch (IOException gone) {
            return Quote.name(file) + " changed during the notebook: " + IoMessage.of(gone);
        }
        if (key != null && !key.equals(now.key)) {
            return Quote.name(file) + " changed during the notebook: another file was put in its place";
        }
        if (size != now.size) {
            return Quote.name(file) + " changed size during the notebook (" + size + " -> " + now.size + " bytes)";
        }
        if (!modified.equals(now.modified) || changed != null && !changed.equals(now.changed)) {
            return Quote.name(file) + " changed during the notebook: it was written to";
        }
        return null;
    }
}

// The answer every chapter must give: a plain scan, one byte at a time, as the harness checks it; the
// file is checked again after every chapter against what it was when this scan began.
FileState checked;
long expected;
try {
    checked = FileState.of(haystack);
    expected = new ReferenceSearch().search(haystack, 1);
} catch (IOException failed) {
    Notebook.quit(IoMessage.of(failed));
}

// Each chapter's file, as it is, opened as this session's own code, so that a cell can name it:
// new V13PreadVector().search(haystack, 2, 1 << 20).
/open variants/V00Cmp.java
/open variants/V01ReadAll.java
/open variants/V02BufferedByte.java
/open variants/V03ChunkedLong.java
/open variants/V04Mmap.java
/open variants/V05MmapMadvise.java
/open variants/V06MmapParallel.java
/open variants/V07PreadParallel.java
/open variants/V08Vector256.java
/open variants/V09MmapParallelVector.java
/open variants/V10MmapPopulate.java
/open variants/V11PreadParallelVector256.java
/open variants/V12Vector512.java
/open variants/V13PreadVector.java
/open variants/V14DirectIo.java
/open variants/V15IoUring.java
/open variants/V16MmapHugePages.java
/open variants/V17ReadDontCache.java

// The figures do not come from those classes. So that a cell can be stopped (/stop), JShell puts a
// check of its own before every jump in its snippets' code, every turn of a loop included: that keeps
// the JIT from unrolling a scalar loop, which then scans 3 to 4 times slower. So the chapters are also
// compiled here as javac compiles a chapter run alone, and the harness times those. Their classes are
// kept in memory, never in a folder: nothing is left behind, however the session ends.
ClassLoader compiledAlone;
{
    var javac = javax.tools.ToolProvider.getSystemJavaCompiler();
    Map<String, ByteArrayOutputStream> classFiles = new java.util.concurrent.ConcurrentHashMap<>();
    var files = javac.getStandardFileManager(null, Locale.ROOT, StandardCharsets.UTF_8);
    var inMemory = new javax.tools.ForwardingJavaFileManager<javax.tools.StandardJavaFileManager>(files) {
        @Override
        public javax.tools.JavaFileObject getJavaFileForOutput(javax.tools.JavaFileManager.Location location, String className,
                javax.tools.JavaFileObject.Kind kind, javax.tools.FileObject sibling) {
            return new javax.tools.SimpleJavaFileObject(java.net.URI.create("memory:///" + className.replace('.', '/') + kind.extension), kind) {
                @Override
                public java.io.OutputStream openOutputStream() {
                    ByteArrayOutputStream classFile = new ByteArrayOutputStream();
                    classFiles.put(className, classFile);
                    return classFile;
                }
            };
        }
    };
    List<Path> sources;
    try (var listed = Files.list(Path.of("variants"))) {
        sources = listed.filter(file -> file.toString().endsWith(".java")).sorted().toList();
    }
    List<String> options = List.of("-cp", System.getProperty("java.class.path"),
            "--add-modules", "jdk.incubator.vector", "-Xlint:-incubating", "-proc:none", "-nowarn");
    java.io.StringWriter compilerSaid = new java.io.StringWriter();
    if (!javac.getTask(compilerSaid, inMemory, null, options, null, files.getJavaFileObjectsFromPaths(sources)).call()) {
        Notebook.quit("the chapters do not compile: " + compilerSaid);
    }
    compiledAlone = new ClassLoader("chapters-compiled-alone", NeedleSearch.class.getClassLoader()) {
        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            ByteArrayOutputStream classFile = classFiles.get(name);
            if (classFile == null) {
                throw new ClassNotFoundException(name);
            }
            byte[] bytes = classFile.toByteArray();
            return defineClass(name, bytes, 0, bytes.length);
        }
    };
}

/** A chapter's class as javac compiled it, by its name ("V13PreadVector"). */
Class<?> compiled(String chapter) throws ClassNotFoundException {
    return Class.forName(chapter, true, compiledAlone);
}

/** Seconds one scan of {@code segment} takes with {@code chapter}'s kernel named {@code kernel}, javac's copy of it. */
double timeKernel(String chapter, String kernel, java.lang.foreign.MemorySegment segment) throws Exception {
    var method = compiled(chapter).getDeclaredMethod(kernel, java.lang.foreign.MemorySegment.class, long.class, long.class);
    method.setAccessible(true);
    long start = System.nanoTime();
    method.invoke(null, segment, 0L, segment.byteSize());
    return (System.nanoTime() - start) / 1e9;
}

// The book's order: variants/Contents.java lists every chapter.
List<Class<?>> book = new ArrayList<>();
{
    var listed = compiled("Contents").getDeclaredField("CHAPTERS");
    listed.setAccessible(true);
    ((List<?>) listed.get(null)).forEach(chapter -> book.add((Class<?>) chapter));
}

/** The chapter's idea, from the first line of its class comment ("Chapter 13: the headline — …"). */
String ideaOf(Class<?> chapter) throws IOException {
    String source = Files.readString(Path.of("variants", chapter.getSimpleName() + ".java"));
    String line = source.substring(source.indexOf("\n/**") + 1).lines().skip(1).findFirst().orElse("");
    return line.replaceFirst("^\\s*\\*\\s*Chapter \\d+:\\s*", "").replaceAll("\\{@code ([^}]*)}", "$1");
}

/**
 * Runs one chapter through the harness's own command line, in this JVM: one warm-up, then the timed
 * runs, every answer checked. Its row, as it appends it to a CSV of this notebook's own; or, where the
 * chapter did not run, the harness's one line saying why, and whether that is because this CPU lacks
 * what the chapter needs (status 3, chapter 12 without AVX-512), as the study counts it: not a failure.
 */
record Outcome(Map<String, String> row, String whyNot, boolean notOnThisCpu) {}

Outcome run(Class<?> chapter) throws Exception {
    try {
        return runThroughTheHarness(chapter);
    } catch (Exception failed) { // the notebook's own CSV, the chapter's class: one line, and the chapter counts as not run
        return new Outcome(null, failed instanceof IOException io ? IoMessage.of(io) : failed.toString(), false);
    }
}

Outcome runThroughTheHarness(Class<?> chapter) throws Exception {
    NeedleSearch search = (NeedleSearch) chapter.getDeclaredConstructor().newInstance();
    Path csv = Files.createTempFile("chapters-", ".csv");
    Files.delete(csv); // the harness creates it, with its header
    ByteArrayOutputStream said = new ByteArrayOutputStream();
    try (PrintStream quiet = new PrintStream(said, true, StandardCharsets.UTF_8)) {
        // "--" ends the options: a haystack whose name starts with "-" is still the FILE
        int status = Harness.execute(search, new String[] {"--runs", timedRuns, "--warmup", "1", "--csv", csv.toString(), "--", haystack.toString()},
                quiet, quiet);
        List<Map<String, String>> rows = ResultsCsv.rows(csv);
        if (status == Harness.FOUND || status == Harness.ALL_ZEROS) {
            return new Outcome(rows.getLast(), null, false);
        }
        String why = said.toString(StandardCharsets.UTF_8).lines().filter(line -> !line.isBlank()).reduce((first, last) -> last).orElse("status " + status);
        return new Outcome(null, why.replaceFirst("^" + chapter.getSimpleName() + ":\\s*", ""), status == Harness.NOT_ON_THIS_CPU);
    } finally {
        Files.deleteIfExists(csv);
    }
}

StringColumn chapterColumn = StringColumn.create("chapter");
DoubleColumn mbpsColumn = DoubleColumn.create("mbps");
DoubleColumn speedupColumn = DoubleColumn.create("x_chapter_1");
DoubleColumn readCalls = DoubleColumn.create("read_calls_per_gib");
DoubleColumn returnedGib = DoubleColumn.create("returned_gib_per_gib");
DoubleColumn minorFaults = DoubleColumn.create("minor_faults_per_gib");
StringColumn answerColumn = StringColumn.create("answer");
StringColumn ideaColumn = StringColumn.create("idea");

System.out.printf(Locale.ROOT, "%s, %s runs after 1 warm-up, every answer checked against %d%n", haystack, timedRuns, expected);
System.out.printf(Locale.ROOT, "%-26s %10s %8s %12s %8s %10s  %s%n", "chapter", "MB/s", "x ch. 1", "reads/GiB", "GiB/GiB", "faults/GiB", "idea");
double chapterOneSoFar = Double.NaN; // chapter 0 comes before it: its "x ch. 1" is in the table at the end
List<String> failed = new ArrayList<>(); // chapters that did not run, for another reason than this CPU
String fileChanged = null; // why the haystack is no longer the file the answer was read from
for (Class<?> chapter : book) {
    Outcome outcome = run(chapter);
    String name = chapter.getSimpleName(), idea = ideaOf(chapter);
    chapterColumn.append(name);
    ideaColumn.append(idea);
    fileChanged = checked.changeOf(haystack); // checked after every chapter: a changed file makes its answer no answer
    if (outcome.row() == null || fileChanged != null) {
        mbpsColumn.appendMissing(); readCalls.appendMissing(); returnedGib.appendMissing(); minorFaults.appendMissing();
        if (fileChanged != null) {
            answerColumn.append("file changed");
            System.out.printf(Locale.ROOT, "%-26s not timed: %s%n", name, fileChanged);
            break; // the chapters after it would time another file than the ones before
        }
        answerColumn.append("not run: " + outcome.whyNot());
        System.out.printf(Locale.ROOT, "%-26s %s: %s%n", name, outcome.notOnThisCpu() ? "not run here" : "could not run", outcome.whyNot());
        if (!outcome.notOnThisCpu()) {
            failed.add(name);
        }
        continue;
    }
    Map<String, String> row = outcome.row();
    long offset = Long.parseLong(row.get("offset"));
    mbpsColumn.append(Double.parseDouble(row.get("mbps")));
    DoubleColumn[] bill = {readCalls, returnedGib, minorFaults};
    String[] billColumns = {"read_calls_per_gib", "returned_bytes_per_gib", "minor_faults_per_gib"};
    for (int i = 0; i < bill.length; i++) {
        String figure = row.getOrDefault(billColumns[i], "");
        if (figure.isEmpty()) {
            bill[i].appendMissing();
        } else { // bytes returned as GiB per GiB of the file, to two places: 1.00 is one copy of the file
            bill[i].append(i == 1 ? Math.round(Double.parseDouble(figure) / (1 << 30) * 100) / 100.0 : Double.parseDouble(figure));
        }
    }
    answerColumn.append(offset == expected ? "right" : "WRONG: " + offset);
    double mbps = mbpsColumn.get(mbpsColumn.size() - 1);
    chapterOneSoFar = name.equals("V01ReadAll") ? mbps : chapterOneSoFar;
    System.out.printf(Locale.ROOT, "%-26s %,10.0f %8s %,12.0f %8.2f %,10.0f  %s%n", name, mbps,
            Double.isNaN(chapterOneSoFar) ? "" : String.format(Locale.ROOT, "%.1f", mbps / chapterOneSoFar), readCalls.get(readCalls.size() - 1), returnedGib.get(returnedGib.size() - 1), minorFaults.get(minorFaults.size() - 1), idea);
}
// How many times faster than chapter 1, which reads it all and looks at every byte (none where it could not run).
int chapterOne = chapterColumn.indexOf("V01ReadAll");
double chapterOneMbps = chapterOne < 0 || mbpsColumn.isMissing(chapterOne) ? Double.NaN : mbpsColumn.get(chapterOne);
for (int i = 0; i < mbpsColumn.size(); i++) {
    if (mbpsColumn.isMissing(i) || Double.isNaN(chapterOneMbps)) {
        speedupColumn.appendMissing();
    } else {
        speedupColumn.append(Math.round(mbpsColumn.get(i) / chapterOneMbps * 10) / 10.0);
    }
}
Table chapters = Table.create("The chapters in one JVM, warm: " + haystack + " on " + StudyResults.currentMachineName(),
        chapterColumn, mbpsColumn, speedupColumn, readCalls, returnedGib, minorFaults, answerColumn, ideaColumn);
System.out.println(chapters.printAll());
// A notebook that did not time every chapter it could draws nothing: the chart of the last whole run stays.
if (fileChanged != null) {
    Notebook.quit(fileChanged + ": the chapters from " + chapterColumn.get(chapterColumn.size() - 1)
            + " on have no figure, and no chart is drawn");
}
if (answerColumn.asList().stream().anyMatch(answer -> answer.startsWith("WRONG"))) {
    Notebook.quit("a chapter gave a wrong answer: see the answer column above; no chart is drawn");
}
if (!failed.isEmpty()) {
    Notebook.quit(failed.size() + " of " + book.size() + " chapters could not run (" + String.join(", ", failed)
            + "): see the answer column above; no chart is drawn");
}
if (mbpsColumn.countMissing() == mbpsColumn.size()) {
    Notebook.quit("no chapter ran on this CPU: there is nothing to draw");
}

// The progression as a chart: one bar per chapter that ran, chapter 0 at the top, MB/s on a log scale
// (chapter 2 reads a byte a call; the fastest reads thousands of times faster). Drawn into this
// machine's own results folder, as the study's charts are.
Table ran = chapters.dropRowsWithMissingValues();
Figure progression = new Figure(
        Layout.builder().title("The chapters in one JVM, warm: MB/s by chapter (" + Sizes.human(Files.size(haystack)) + ", "
                + StudyResults.currentMachineName() + ")")
                .xAxis(Axis.builder().title("MB/s (decimal), log scale").type(Axis.Type.LOG).build())
                .yAxis(Axis.builder().autoRange(Axis.AutoRange.REVERSED).build())
                .width(ChartPage.CHART_WIDTH_PX).height(ChartPage.CHART_HEIGHT_PX).build(),
        BarTrace.builder(Notebook.shortNames(ran), ran.doubleColumn("mbps")).orientation(BarTrace.Orientation.HORIZONTAL).name("MB/s").build());
Path charts = Notebook.ROOT.resolve(CommittedMachines.studyFolder(Notebook.ROOT, StudyResults.currentMachineName())).resolve("charts");
Notebook.chart(charts, "chapters", progression, List.of(),
        new ChartPage.Extras(true, List.of("Log scale: each major gridline is 10 times the one before"), ChartPage.CHART_HEIGHT_PX));

System.out.println("""
        Cells to try (every chapter's class is loaded, the haystack is `haystack`):
          new V13PreadVector().search(haystack, 2, 1 << 20)            a chapter's search: the offset of the needle
          run(compiled("V04Mmap")).row()                                 a chapter timed by the harness: its row, bill included
          new V07PreadParallel().search(haystack, 1, 64 << 10)         chapter 7 again, one worker, 64 KiB reads
          var mapped = FileChannel.open(haystack).map(FileChannel.MapMode.READ_ONLY, 0, haystack.toFile().length(), java.lang.foreign.Arena.ofAuto())
          timeKernel("V08Vector256", "firstNonZeroWord256", mapped)         two kernels on one mapping, in seconds
          timeKernel("V04Mmap", "firstNonZeroWordScalar", mapped)
        """);
Notebook.loadedHere("tables: chapters (" + chapters.rowCount() + "×" + chapters.columnCount() + "); e.g. chapters.print()");
