///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
// What a notebook has on its class path (notebooks/ForNotebooks.java), so that the notebooks run here as they run alone
//DEPS ../../notebooks/ForNotebooks.java
//RUNTIME_OPTIONS --sun-misc-unsafe-memory-access=allow --limit-modules=java.se,jdk.jshell,jdk.unsupported,jdk.zipfs
//RUNTIME_OPTIONS -Djava.util.logging.config.file=notebooks/logging.properties

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import jdk.jshell.Diag;
import jdk.jshell.EvalException;
import jdk.jshell.JShell;
import jdk.jshell.Snippet;
import jdk.jshell.SnippetEvent;
import jdk.jshell.SourceCodeAnalysis;

/**
 * Several notebooks in one JShell, one after the other, as the study draws its charts: JShell,
 * Tablesaw and the JIT start once, not once per notebook.
 *
 * <p>Each notebook still starts afresh: what one declares (its variables, methods and classes) is
 * dropped before the next begins, though its imports stay, and Notebook forgets the machine it chose. A notebook stops at
 * its first snippet that does not compile or that throws, and one that stops, or never reaches its
 * last line ({@code Notebook.loaded}), is named on stderr; the others still run. Each notebook
 * also runs alone, as README says: {@code ./jbang notebooks/scoreboard.jsh}.
 *
 * <p>A notebook's header, read here too: its {@code //DEPS} line names notebooks/ForNotebooks.java,
 * which brings Tablesaw and the notebooks' shared code (the {@code notebooks} and {@code lab.results}
 * packages) onto the class path, and this file's {@code //DEPS} line brings the same jar. Its
 * {@code //RUNTIME_OPTIONS} allow Tablesaw's class scanner its {@code sun.misc.Unsafe}, resolve no
 * incubator module (the notebooks use none), and keep JShell's preferences store from logging
 * (notebooks/logging.properties).
 *
 * <pre>
 *   ./jbang -Dmachine=NAME lab/report/Notebooks.java notebooks/scoreboard.jsh notebooks/chunks.jsh
 * </pre>
 *
 * Exit status: 0 when every notebook ran to its last line, 2 otherwise (one line on stderr each).
 */
public class Notebooks {

    /**
     * What a notebook finds declared before its first line when JBang runs it: JShell's DEFAULT
     * startup, then JBang's own imports and {@code args} (its notebooks take no arguments).
     */
    static final List<String> STARTUP = List.of("import module java.base;", "import java.lang.*;", "import java.util.*;",
            "import java.io.*;", "import java.net.*;", "import java.math.BigInteger;", "import java.math.BigDecimal;",
            "String[] args = {};");

    public static void main(String[] args) throws IOException {
        if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
            System.out.println("Usage: ./jbang lab/report/Notebooks.java notebooks/NAME.jsh...");
            System.out.println("Runs the notebooks named, in order, in one JShell whose shared code compiles once, as each runs alone");
            System.out.println("(./jbang notebooks/NAME.jsh). Exit status: 0 every notebook ran to its end; 2 one stopped (its reason on stderr).");
            System.exit(0);
        }
        if (args.length == 0) {
            System.err.println("Notebooks: name the notebooks to run, e.g. notebooks/scoreboard.jsh notebooks/chunks.jsh");
            System.exit(2);
        }
        List<Path> notebooks = new ArrayList<>();
        for (String arg : args) {
            Path notebook = Path.of(arg);
            if (!Files.isRegularFile(notebook) || !arg.endsWith(".jsh")) {
                System.err.println("Notebooks: " + arg + " is not a notebook (a .jsh file)");
                System.exit(2);
            }
            notebooks.add(notebook);
        }
        // Notebook.quit throws instead of ending the JVM, and registers no exit hook: the session says what stopped.
        System.setProperty("report.quit", "throw");
        System.out.flush();
        System.exit(new Notebooks(System.out, System.err).run(notebooks) ? 0 : 2);
    }

    private final PrintStream out, err;
    private final JShell shell;
    /** The snippets every notebook keeps: the startup. */
    private final Set<Snippet> shared = new HashSet<>();

    Notebooks(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
        // "local": the snippets run in this JVM, on its class path, as JBang runs a notebook (--execution=local)
        shell = JShell.builder().executionEngine("local").out(out).err(err).build();
        shell.addToClasspath(System.getProperty("java.class.path"));
        for (String line : STARTUP) {
            if (!evaluate(Path.of("the startup"), line)) {
                throw new IllegalStateException("JShell refused the startup: " + line);
            }
        }
        shared.addAll(shell.snippets().toList());
    }

    /** Runs each notebook in turn; false when any of them stopped before its last line. */
    boolean run(List<Path> notebooks) throws IOException {
        List<String> stopped = new ArrayList<>();
        for (Path notebook : notebooks) {
            if (!runOne(notebook)) {
                stopped.add(notebook.toString());
            }
            out.flush();
        }
        stopped.forEach(notebook -> err.println("Notebooks: " + notebook + " stopped before its last line"));
        return stopped.isEmpty();
    }

    private boolean runOne(Path notebook) throws IOException {
        String text = Files.readString(notebook);
        boolean finished = false;
        try {
            evaluate(notebook, "notebooks.Notebook.startNotebook();");
            finished = evaluate(notebook, text) && "true".equals(value("notebooks.Notebook.finished()"));
        } finally {
            // The next notebook starts afresh, as it would in a JShell of its own. Its imports stay: JShell
            // cannot redeclare a method whose dropped twin names a type that only an import resolved.
            for (Snippet snippet : shell.snippets().toList()) {
                if (!shared.contains(snippet) && snippet.kind() != Snippet.Kind.IMPORT && shell.status(snippet).isActive()) {
                    shell.drop(snippet);
                }
            }
        }
        return finished;
    }

    /**
     * Evaluates {@code text} snippet by snippet, as JShell's tool runs a file: line by line, each
     * snippet handed over once complete (asking whether the whole rest of a file is complete would
     * parse it all again for every snippet). Stops at the first snippet that does not compile or
     * that throws, saying why: false.
     */
    private boolean evaluate(Path file, String text) {
        SourceCodeAnalysis analysis = shell.sourceCodeAnalysis();
        StringBuilder pending = new StringBuilder();
        List<String> lines = text.lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            pending.append(lines.get(i)).append('\n');
            while (!pending.isEmpty()) {
                SourceCodeAnalysis.CompletionInfo info = analysis.analyzeCompletion(pending.toString());
                if (info.completeness() == SourceCodeAnalysis.Completeness.EMPTY) {
                    pending.setLength(0);
                    break;
                }
                if (!info.completeness().isComplete() && i + 1 < lines.size()) {
                    break; // wait for the next line
                }
                String snippet = info.completeness().isComplete() ? info.source() : pending.toString();
                String rest = info.completeness().isComplete() ? info.remaining() : "";
                pending.setLength(0);
                pending.append(rest);
                if (!evalOne(file, snippet)) {
                    return false;
                }
            }
        }
        return true;
    }

    private boolean evalOne(Path file, String snippet) {
        for (SnippetEvent event : shell.eval(snippet)) {
            if (event.causeSnippet() != null) {
                continue; // a declaration this one updated, not this one
            }
            if (event.status() == Snippet.Status.REJECTED) {
                err.println(file + ": does not compile: " + firstLine(snippet));
                shell.diagnostics(event.snippet()).filter(Diag::isError)
                        .forEach(diag -> err.println("    " + diag.getMessage(Locale.ROOT)));
                return false;
            }
            if (event.exception() != null) {
                report(file, event.exception());
                return false;
            }
        }
        return true;
    }

    /** Notebook.quit's line as it is (the notebook's one line, as it ends alone); any other exception with its trace. */
    private void report(Path file, Exception exception) {
        String thrown = exception instanceof EvalException eval ? eval.getExceptionClassName() : exception.getClass().getName();
        if (thrown.endsWith("Notebook$Quit")) {
            err.println(exception.getMessage());
            return;
        }
        err.println(file + ": " + thrown + ": " + exception.getMessage());
        for (StackTraceElement frame : exception.getStackTrace()) {
            err.println("    at " + frame);
        }
    }

    private String value(String expression) {
        return shell.eval(expression).stream().filter(event -> event.causeSnippet() == null)
                .map(SnippetEvent::value).filter(java.util.Objects::nonNull).findFirst().orElse("");
    }

    private static String firstLine(String snippet) {
        return snippet.strip().lines().findFirst().orElse("");
    }
}
