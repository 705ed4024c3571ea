// The study's refusals of options that cannot be meant together, checked before anything runs. No
// package line, as every file of study/: the study compiles them together with its //SOURCES.

import lib.cli.Quote;
import lib.cli.UserMistakeException;
import lib.harness.Machine;
import picocli.CommandLine;

/** What the study refuses in one line before it runs anything. */
final class StudyOptions {

    private StudyOptions() {}

    /**
     * Refuses in one line what cannot be meant: a --skip or --only naming nothing or no round,
     * --machine for a study that measures (it measures this machine, into this machine's folder) or
     * naming no machine folder, and options --report-only would silently ignore.
     */
    static void check(Study study) {
        CommandLine.ParseResult given = study.spec.commandLine().getParseResult();
        if (study.only != null && (study.only.isEmpty() || study.only.stream().anyMatch(String::isBlank))) {
            throw new UserMistakeException("--only names an empty chapter (a comma too many?); give chapters, e.g. --only V04,V13");
        }
        for (String round : study.skip) {
            if (!Study.SKIPPABLE.contains(round)) {
                throw new UserMistakeException("--skip " + Quote.name(round) + ": no such round; the rounds are " + String.join(", ", Study.SKIPPABLE));
            }
        }
        if (study.machineName != null && !Study.MACHINE_NAME.matcher(study.machineName).matches()) {
            throw new UserMistakeException("--machine " + Quote.name(study.machineName) + " is not a machine's name: lower-case letters and "
                    + "digits joined by single hyphens, as lib/harness/Machine names a machine, one folder under --results");
        }
        if (!study.reportOnly) {
            if (study.machineName != null) {
                throw new UserMistakeException("--machine goes with --report-only: a study measures this machine, into its own folder ("
                        + Machine.current().name() + "); leave --machine out");
            }
            return;
        }
        for (String option : Study.MEASURING_OPTIONS) {
            if (given.hasMatchedOption(option)) {
                throw new UserMistakeException("--report-only measures nothing, so " + option + " would be ignored; leave one of them out");
            }
        }
        if (given.hasMatchedPositional(0)) {
            throw new UserMistakeException("--report-only measures nothing, so FILE would be ignored; leave one of them out");
        }
        if (study.skip.stream().anyMatch(round -> !round.equals(Study.CHARTS))) {
            throw new UserMistakeException("--report-only runs no rounds: only --skip charts goes with it");
        }
    }
}
