// Which of the book's lessons hold on one machine's folder, a learner's own study: every lesson that
// carries claims, judged by the book's own evaluator (lab/report/ClaimEvaluator.java), for the book's check
// told which folder to judge (lab/report/CheckBook.java --judge) and for the study's report
// (lab/report/StudyReport.java, "The book on this machine"). No package line, as every file of lab/report/.

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import lab.results.*;
import lib.cli.UserMistakeException;

/**
 * Every lesson of the book that carries claims, judged on one machine's folder. A claim is tried on
 * the folder whatever machine it is written for: one written for another machine is that
 * machine's lesson, and says so, for the learner to see where their machine differs. The folder
 * is untrusted input: a row that does not read is left out and said, and a figure it lacks makes a
 * claim one that cannot be told, never one that fails.
 */
final class BookVerdicts {

    enum Verdict {
        HOLDS("holds"), DOES_NOT_HOLD("does not hold"), CANNOT_TELL("cannot tell");

        final String words;

        Verdict(String words) {
            this.words = words;
        }
    }

    /** One claim judged: its verdict, and what it rests on (both figures with their spreads, or what is missing). */
    record ClaimVerdict(BookClaims.Claim claim, Verdict verdict, String said) {}

    /** A lesson: the claims under one heading and bold opening words of one page, judged together. */
    record Lesson(Path document, String title, List<ClaimVerdict> claims) {

        /** Holds when each of its claims holds; one that does not hold fails it; else it cannot be told. */
        Verdict verdict() {
            List<Verdict> verdicts = claims.stream().map(ClaimVerdict::verdict).toList();
            return verdicts.contains(Verdict.DOES_NOT_HOLD) ? Verdict.DOES_NOT_HOLD
                    : verdicts.contains(Verdict.CANNOT_TELL) ? Verdict.CANNOT_TELL : Verdict.HOLDS;
        }

        /** "README.md "Three verdicts › Java against Go"": the page and the lesson's words. */
        String name() {
            return document + " " + title;
        }
    }

    /** The lessons of the book judged on one folder, in the book's order, and what was left out of the folder. */
    record Judgement(Path folder, String machine, List<Lesson> lessons, List<String> leftOut) {

        long count(Verdict verdict) {
            return lessons.stream().filter(lesson -> lesson.verdict() == verdict).count();
        }

        /** "38 of 45 lessons hold here: 5 do not hold, 2 cannot tell." */
        String tally() {
            return count(Verdict.HOLDS) + " of " + lessons.size() + " lessons hold here: " + count(Verdict.DOES_NOT_HOLD)
                    + " do not hold, " + count(Verdict.CANNOT_TELL) + " cannot tell.";
        }

        /** 1 when a lesson does not hold here, else 0: a lesson that cannot be told is not judged. */
        int status() {
            return count(Verdict.DOES_NOT_HOLD) > 0 ? 1 : 0;
        }

        /** Whose lesson the claim is, when it is written for another machine than this one; null for this one's or every machine's. */
        String otherMachine(BookClaims.Claim claim) {
            boolean thisOnes = claim.onEveryMachine() || claim.machine().equals(machine)
                    || (claim.machine() + ResultsFolder.OWN_FOLDER_SUFFIX).equals(machine);
            return thisOnes ? null : claim.machine();
        }

        /**
         * "amd-epyc-f26m2-2c-avx512's lesson" for a lesson whose claims are all written for another
         * machine, "partly …" for one with some; empty for this machine's and every machine's.
         */
        String whose(Lesson lesson) {
            List<String> others = lesson.claims().stream().map(claim -> otherMachine(claim.claim())).filter(java.util.Objects::nonNull).toList();
            if (others.isEmpty()) {
                return "";
            }
            String machines = String.join(" and ", others.stream().distinct().map(other -> other + "'s").toList()) + " lesson";
            return others.size() == lesson.claims().size() ? machines : "partly " + machines;
        }

        /** The lesson's claims, each "verdict [on MACHINE]: figures", the same line said once with how many claims say it. */
        List<String> claimLines(Lesson lesson) {
            Map<List<String>, Integer> said = new LinkedHashMap<>(); // (verdict [on machine], figures) → how many claims
            for (ClaimVerdict claim : lesson.claims()) {
                String other = otherMachine(claim.claim());
                said.merge(List.of(claim.verdict().words + (other == null ? "" : " [on " + other + "]"), claim.said()), 1, Integer::sum);
            }
            return said.entrySet().stream().map(line -> line.getKey().get(0) + (line.getValue() == 1 ? "" : " (" + line.getValue() + " claims)")
                    + ": " + line.getKey().get(1)).toList();
        }

        /** "does not hold: README.md "…" (amd-epyc-f26m2-2c-avx512's lesson)": a lesson's first line. */
        String lessonLine(Lesson lesson) {
            String whose = whose(lesson);
            return lesson.verdict().words + ": " + lesson.name() + (whose.isEmpty() ? "" : " (" + whose + ")");
        }

        /** The verdicts as the command prints them: the tally, then each lesson and, under it, each of its claims. */
        List<String> lines() {
            List<String> lines = new ArrayList<>();
            lines.add("The book on " + folder + ": " + tally());
            lines.add("(A claim written for another machine is tried here too, and marked as that machine's.)");
            for (Lesson lesson : lessons) {
                lines.add("");
                lines.add(lessonLine(lesson));
                claimLines(lesson).forEach(claim -> lines.add("    " + claim));
            }
            return lines;
        }
    }

    private BookVerdicts() {}

    /**
     * The book's lessons, read from the pages in the current folder (the project's root), judged on
     * {@code folder}. Throws UserMistakeException with a line for each claim of the book that is
     * none, and IOException where the book's pages cannot be read.
     */
    static Judgement ofTheBook(Path folder) throws IOException {
        ReadmeResults committed = new ReadmeResults(BookClaims.COMMITTED_RESULTS, BookClaims.COMMITTED_RESULTS.toAbsolutePath());
        BookClaims.Book book = BookClaims.read(ReadmeResults.bookPages(), Set.copyOf(committed.machines()));
        if (!book.refusals().isEmpty()) {
            throw new UserMistakeException(String.join("\n", book.refusals()));
        }
        return judge(folder, book.claims());
    }

    /** Every claim judged on {@code folder}, gathered into its lesson. */
    static Judgement judge(Path folder, List<BookClaims.Claim> claims) {
        ReadmeResults results = ReadmeResults.judging(folder);
        Map<Place, List<ClaimVerdict>> byLesson = new LinkedHashMap<>();
        for (BookClaims.Claim claim : claims) {
            byLesson.computeIfAbsent(new Place(claim.document(), claim.lesson()), place -> new ArrayList<>()).add(verdict(results, claim));
        }
        List<Lesson> lessons = byLesson.entrySet().stream()
                .map(lesson -> new Lesson(lesson.getKey().document(), lesson.getKey().title(), List.copyOf(lesson.getValue()))).toList();
        return new Judgement(folder, results.judgedMachine(), lessons, results.leftOut());
    }

    /** Where a lesson is: its page and its words (a heading and bold words may recur on another page). */
    private record Place(Path document, String title) {}

    /** The claim on the folder: a CSV that is no results CSV at all leaves it one that cannot be told, saying so. */
    private static ClaimVerdict verdict(ReadmeResults results, BookClaims.Claim claim) {
        try {
            return switch (ClaimEvaluator.evaluate(results, results.judgedMachine(), claim.comparison())) {
                case ClaimEvaluator.Holds holds -> new ClaimVerdict(claim, Verdict.HOLDS, holds.said());
                case ClaimEvaluator.Fails fails -> new ClaimVerdict(claim, Verdict.DOES_NOT_HOLD, fails.said());
                case ClaimEvaluator.CannotTell cannotTell -> new ClaimVerdict(claim, Verdict.CANNOT_TELL, cannotTell.said());
            };
        } catch (UserMistakeException unreadable) {
            return new ClaimVerdict(claim, Verdict.CANNOT_TELL, unreadable.getMessage());
        }
    }
}
