import java.util.List;
import java.util.Map;
import java.util.Optional;
import lib.chapter.NeedleSearch;
import lib.harness.Harness;
import lab.tools.ChildProcess;

/** What a chapter started as a child said by its exit (lib/harness/Harness's statuses), read by the study. */
final class ChapterExit {

    private ChapterExit() {}

    /**
     * Whether a chapter answered: status 0 (it found a non-zero word), or status 1 (the file is all
     * zeros) with a row it appended that says so, {@code offset} -1. A JVM or JBang that could not
     * start also exits with 1, but writes no row.
     */
    static boolean answered(ChildProcess.Ended ended, List<Map<String, String>> rowsAppended) {
        return !ended.timedOut() && (ended.status() == Harness.FOUND || ended.status() == Harness.ALL_ZEROS && !rowsAppended.isEmpty()
                && Long.toString(NeedleSearch.NOT_FOUND).equals(rowsAppended.getLast().get("offset")));
    }

    /**
     * Why a chapter did not run, when it refused because this CPU lacks what it needs (status 3 and
     * its "not run on this CPU" line, say chapter 12 without AVX-512): not a failure.
     */
    static Optional<String> notOnThisCpu(ChildProcess.Ended ended) {
        return ended.timedOut() || ended.status() != Harness.NOT_ON_THIS_CPU ? Optional.empty()
                : ended.lastError(line -> line.contains(Harness.NOT_ON_THIS_CPU_SAID))
                        .map(line -> line.substring(line.indexOf(Harness.NOT_ON_THIS_CPU_SAID) + Harness.NOT_ON_THIS_CPU_SAID.length()));
    }
}
