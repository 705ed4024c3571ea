///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
//SOURCES ../Lab.java ReadmeTables.java ReadmeBlocks.java ReadmeResults.java CostModel.java BookVerdicts.java ClaimEvaluator.java BookClaims.java ClaimGroups.java PageLinks.java
//COMPILE_OPTIONS --add-modules jdk.incubator.vector
//RUNTIME_OPTIONS --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import lib.cli.Quote;
import lib.cli.UserMistakeException;

/**
 * Checks the book against its data: every generated block of README.md and the docs is what the
 * committed CSVs give ({@link ReadmeTables}), filled, and of one machine; every lesson that compares
 * figures still holds there ({@link BookClaims} says how a claim is written and judged); and every
 * link, anchor, command and project path of its pages leads somewhere ({@link PageLinks}). A block
 * names one machine, in its marker and its text, so that no figure stands beside another
 * machine's: only the kinds that are tables across machines ({@code machines} and the kinds whose
 * name ends in {@code -machines}) name several. With {@code --judge FOLDER}
 * it judges every lesson on one machine's folder instead, a learner's own study
 * ({@link BookVerdicts}), and checks no block.
 *
 * <pre>
 * How to run:   ./jbang lab/report/CheckBook.java                          # check; exit 1 naming each stale block and failing lesson
 *               ./jbang lab/report/CheckBook.java --write                  # rewrite the generated blocks from the CSVs, then check the lessons
 *               ./jbang lab/report/CheckBook.java --judge results/MACHINE  # which lessons hold on that folder
 * </pre>
 *
 * Exit status: 0 the book holds, 1 a block is stale, empty or of two machines, a claim fails, or a
 * link, anchor, command or path leads nowhere (one line each, naming its file and line); with
 * {@code --judge}, 0 no lesson fails on the folder, 1 one does not hold; 2 a usage error, a claim
 * that is not one (one line each, naming its file and line), or a CSV that does not read.
 */
public final class CheckBook {

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        // Help first, wherever it stands: the "lessons" alias puts --judge before what the user typed, so "lessons --help"
        // arrives as "--judge --help", where --help would otherwise be taken for a missing folder.
        if (List.of(args).contains("--help") || List.of(args).contains("-h")) {
            out.println("Usage: ./jbang check-book [--write]");
            out.println("       ./jbang lessons results/MACHINE");
            out.println("Checks that every generated block of README.md, results/README.md and docs/ is what results/ gives, filled and of one machine,");
            out.println("that every lesson's claim holds, and that every link, anchor, ./jbang command and project path of those pages leads somewhere;");
            out.println("with --write, rewrites the blocks first. Exit 1 names each stale block, failing lesson and broken link, by file and line.");
            out.println("With --judge, says of every lesson that carries claims whether it holds on that machine's folder (your own study),");
            out.println("does not hold, or cannot be told there, with its figures. Exit 0 when none fails there, 1 when one does not hold.");
            return 0;
        }
        boolean write = false;
        Path judged = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--write" -> write = true;
                case "--judge" -> {
                    if (judged != null || i + 1 == args.length || args[i + 1].isEmpty() || args[i + 1].startsWith("-")) {
                        err.println("--judge takes one machine's results folder, such as results/MACHINE (--help says more)");
                        return 2;
                    }
                    judged = Path.of(args[++i]);
                }
                default -> {
                    err.println("unknown option " + Quote.name(args[i]) + " (--help lists them)");
                    return 2;
                }
            }
        }
        if (judged != null) {
            if (write) {
                err.println("--judge writes nothing and checks no block: it does not go with --write");
                return 2;
            }
            return judge(judged, out, err);
        }
        int blocks = ReadmeTables.run(write ? new String[0] : new String[] {"--check"}, out, err);
        if (blocks == 2) {
            return 2;
        }
        int pages = checkPages(Path.of(""), ReadmeResults.bookPages(), ReadmeTables.RESULTS, out, err);
        int claims = checkClaims(ReadmeTables.RESULTS, ReadmeResults.bookPages(), out, err);
        return claims == 2 || pages == 2 ? 2 : blocks == 0 && claims == 0 && pages == 0 ? 0 : 1;
    }

    /**
     * The pages' blocks (filled, of one machine) and where the pages send a reader, under the project
     * at {@code root}: 0 all is well, 1 something is not (a line each), 2 a page does not read.
     */
    static int checkPages(Path root, List<Path> pages, Path results, PrintStream out, PrintStream err) {
        try {
            List<String> faults = pageFaults(root, pages, Set.copyOf(new ReadmeResults(results, results.toAbsolutePath()).machines()));
            faults.forEach(err::println);
            if (!faults.isEmpty()) {
                err.println(faults.size() + " fault(s) in the book's pages: a block empty or of two machines, or a link, anchor, command or path that leads nowhere");
                return 1;
            }
            out.println("every block of the book's pages is filled and of one machine, and every link, anchor, command and path leads somewhere");
            return 0;
        } catch (UserMistakeException e) {
            err.println(e.getMessage());
            return 2;
        } catch (IOException e) {
            err.println("cannot read: " + lib.cli.IoMessage.of(e));
            return 2;
        }
    }

    /** One line for each fault of the pages: see {@link #checkPages}; {@code machines}, the committed ones. */
    static List<String> pageFaults(Path root, List<Path> pages, Set<String> machines) throws IOException {
        PageLinks links = new PageLinks(root);
        List<String> faults = new ArrayList<>();
        for (Path page : pages) {
            String text = Files.readString(page);
            for (ReadmeTables.Block block : ReadmeTables.blocks(page.toString(), text)) {
                String why = blockFault(block, machines);
                if (why != null) {
                    faults.add(page + ":" + block.line() + ": block " + block.name() + " " + why);
                }
            }
            faults.addAll(links.faults(page));
        }
        return faults;
    }

    /** Why a block may not stand as it is (empty, or two machines in one), or null. */
    static String blockFault(ReadmeTables.Block block, Set<String> machines) {
        if (block.content().isBlank()) {
            return "is empty: ./jbang check-book --write fills it";
        }
        if (block.kind().equals("figure") && block.parameters().containsKey("model")) {
            return "names model=" + block.parameters().get("model") + ": a chapter's figure takes the cost model of its own machine, so model= goes";
        }
        if (block.kind().equals("machines") || block.kind().endsWith("-machines")) {
            return null; // a table across the committed machines by design
        }
        Set<String> named = new TreeSet<>();
        block.parameters().forEach((key, value) -> {
            if (key.equals("machine") || machines.contains(value)) {
                named.add(value);
            }
        });
        for (String machine : machines) {
            // a machine's name as a word of its own: not the start of "NAME-local", nor of another machine's longer name
            if (Pattern.compile("(?<![A-Za-z0-9._-])" + Pattern.quote(machine) + "(?![A-Za-z0-9_-]|\\.[A-Za-z0-9])").matcher(block.content()).find()) {
                named.add(machine);
            }
        }
        return named.size() < 2 ? null : "names machines " + String.join(" and ", named)
                + ": a block is of one machine (only a table across machines, the kind machines or *-machines, names several)";
    }

    /** The documents' claims on the committed folders under {@code root}: 0 every one holds, 1 one does not (a line each), 2 one is no claim or a CSV does not read. */
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
            switch (ClaimEvaluator.evaluate(results, machine, claim.comparison())) {
                case ClaimEvaluator.Holds holds -> told++;
                case ClaimEvaluator.Fails fails -> {
                    told++;
                    failures.add("on " + machine + ": " + fails.said());
                }
                case ClaimEvaluator.CannotTell cannotTell -> {
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

    /**
     * Every lesson judged on one folder: its verdicts on {@code out}, the rows left out of it on
     * {@code err}; the status as {@link BookVerdicts.Judgement#status}, or 2.
     */
    static int judge(Path folder, PrintStream out, PrintStream err) {
        if (!Files.isDirectory(folder)) {
            err.println("no results folder " + Quote.name(folder) + ": --judge takes one machine's folder, such as results/MACHINE");
            return 2;
        }
        if (!holdsResults(folder)) {
            err.println(Quote.name(folder) + " holds no results: no machine.json and no CSV of the study's (a machine's folder is results/MACHINE)");
            return 2;
        }
        try {
            BookVerdicts.Judgement judgement = BookVerdicts.ofTheBook(folder);
            judgement.leftOut().forEach(err::println); // each line names its file and line, and says it was left out
            judgement.lines().forEach(out::println);
            return judgement.status();
        } catch (UserMistakeException e) {
            err.println(e.getMessage());
            return 2;
        } catch (IOException e) {
            err.println("cannot read the book's pages (run it from the project's root): " + e.getMessage());
            return 2;
        }
    }

    /** A machine's folder: a description, or a CSV of a round the book's claims read. */
    private static boolean holdsResults(Path folder) {
        return Files.isRegularFile(folder.resolve("machine.json"))
                || BookClaims.ROUNDS.keySet().stream().anyMatch(table -> Files.isRegularFile(folder.resolve(table + ".csv")));
    }

    private CheckBook() {}
}
