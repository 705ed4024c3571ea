///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
//SOURCES ../lib/**/*.java
//SOURCES ReadmeTables.java
//SOURCES CostModel.java
//SOURCES StudyResults.java
//SOURCES PageText.java
//SOURCES MachineDescription.java
//SOURCES MemoryWall.java
//SOURCES ResultsFolder.java
//SOURCES AnswerResults.java
//SOURCES VersusGoPairs.java
//SOURCES FioBesideResults.java
//SOURCES ArticleFigures.java
//SOURCES CommittedMachines.java
//SOURCES ReadmeBlocks.java
//SOURCES ReadmeResults.java
//SOURCES Table.java
//SOURCES ReportTables.java
//SOURCES ReportHtml.java
//SOURCES BookClaims.java
//COMPILE_OPTIONS --add-modules jdk.incubator.vector
//RUNTIME_OPTIONS --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import lib.cli.Quote;
import lib.cli.UserMistakeException;

/**
 * Checks the book against its data: every generated block of README.md and the docs is what the
 * committed CSVs give ({@link ReadmeTables}), and every lesson that compares figures still holds
 * there ({@link BookClaims} says how a claim is written and judged).
 *
 * <pre>
 * How to run:   ./jbang report/CheckBook.java                          # check; exit 1 naming each stale block and failing lesson
 *               ./jbang report/CheckBook.java --write                  # rewrite the generated blocks from the CSVs, then check the lessons
 * </pre>
 *
 * Exit status: 0 the book holds, 1 a block is stale or a claim fails
 * (one line each), 2 a usage error, a claim that is not one (one line each, naming its file and
 * line), or a CSV that does not read.
 */
public final class CheckBook {

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        boolean write = false;
        for (String arg : args) {
            switch (arg) {
                case "--write" -> write = true;
                case "--help", "-h" -> {
                    out.println("Usage: ./jbang report/CheckBook.java [--write]");
                    out.println("Checks that every generated block of README.md and the docs is what results/ gives, and that every lesson's claim holds;");
                    out.println("with --write, rewrites the blocks first. Exit 1 names each stale block and failing lesson.");
                    return 0;
                }
                default -> {
                    err.println("unknown option " + Quote.name(arg) + " (--help lists them)");
                    return 2;
                }
            }
        }
        int blocks = ReadmeTables.run(write ? new String[0] : new String[] {"--check"}, out, err);
        if (blocks == 2) {
            return 2;
        }
        int claims = checkClaims(ReadmeTables.RESULTS, out, err);
        return claims == 2 ? 2 : blocks == 0 && claims == 0 ? 0 : 1;
    }

    /** The book's claims on the committed folders under {@code root}: 0 every one holds, 1 one does not (a line each), 2 one is no claim or a CSV does not read. */
    static int checkClaims(Path root, PrintStream out, PrintStream err) {
        try {
            return checkClaims(root, BookClaims.documents(), out, err);
        } catch (IOException e) {
            err.println("cannot read: " + e.getMessage());
            return 2;
        }
    }

    static int checkClaims(Path root, List<Path> documents, PrintStream out, PrintStream err) {
        try {
            List<String> failures = failingClaims(root, documents);
            failures.forEach(err::println);
            if (!failures.isEmpty()) {
                err.println(failures.size() + " claim(s) of the book do not hold on the committed CSVs");
                return 1;
            }
            out.println("every claim of the book holds on the CSVs in " + root);
            return 0;
        } catch (UserMistakeException e) {
            err.println(e.getMessage());
            return 2;
        } catch (IOException e) {
            err.println("cannot read: " + e.getMessage());
            return 2;
        }
    }

    /**
     * One line per claim of the documents that does not hold on the results under {@code root}.
     * Throws UserMistakeException, a line for each, when a claim is not one the check can read.
     */
    static List<String> failingClaims(Path root, List<Path> documents) throws IOException {
        ReadmeResults results = new ReadmeResults(root, root.toAbsolutePath());
        BookClaims.Book book = BookClaims.read(documents, Set.copyOf(results.machines()));
        if (!book.refusals().isEmpty()) {
            throw new UserMistakeException(String.join("\n", book.refusals()));
        }
        List<String> failures = new ArrayList<>();
        for (BookClaims.Claim claim : book.claims()) {
            check(results, claim).forEach(why -> failures.add(claim.where() + ": " + why));
        }
        return failures;
    }

    /**
     * Why the claim fails on the machines it is written for, one line each; empty when it holds on
     * every one. A claim on every machine is checked on each committed machine that can tell.
     */
    static List<String> check(ReadmeResults results, BookClaims.Claim claim) {
        List<String> machines = claim.onEveryMachine() ? results.machines() : List.of(claim.machine());
        List<String> failures = new ArrayList<>();
        int told = 0;
        for (String machine : machines) {
            switch (BookClaims.evaluate(results, machine, claim.comparison())) {
                case BookClaims.Holds holds -> told++;
                case BookClaims.Fails fails -> {
                    told++;
                    failures.add("on " + machine + ": " + fails.said());
                }
                case BookClaims.CannotTell cannotTell -> {
                    if (!claim.onEveryMachine()) {
                        failures.add("on " + machine + ": " + cannotTell.said());
                    }
                }
            }
        }
        if (told == 0 && failures.isEmpty()) {
            failures.add("no committed machine has the figures of " + Quote.name(claim.text()));
        }
        return failures;
    }

    private CheckBook() {}
}
