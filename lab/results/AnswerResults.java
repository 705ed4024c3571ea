//DEPS org.apache.commons:commons-csv:1.10.0
// The answer round's results (answer.csv, written by lab/study/AnswerRound.java), read by the rules of
// lab/results/StudyResults.java.

package lab.results;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** answer.csv: a one-shot command timed from the shell to its exit, its phases, its runs. */
public final class AnswerResults {

    private AnswerResults() {}

    /** The phases of a one-shot command, in the order they happen (lab/study/AnswerRound.java splits its runs into them). */
    public static final List<String> ANSWER_PHASES = List.of("launcher", "jvm_start", "checks", "preread", "first_search", "answer", "exit");
    /** answer.csv's columns, in the order lab/study/AnswerRound.java writes them: the whole, each phase's median, then the runs. */
    public static final List<String> ANSWER_COLUMNS = Stream.of(Stream.of("date", "chapter", "runs", "median_s", "mean_s", "min_s", "max_s"),
            ANSWER_PHASES.stream().map(phase -> phase + "_s"), Stream.of("prereads", "run_s")).flatMap(columns -> columns).toList();
    /** A chapter's one-shot ("V13PreadVector"), or the Go article's one-shot of the same idea ("Go v13"). */
    public static final Pattern ANSWER_CHAPTER = Pattern.compile("V\\d\\d\\w*|Go v\\d+");

    /**
     * One row of the answer round: a one-shot command timed {@code runs} times from the shell to its
     * exit, in seconds. A chapter's row has the median of each phase ({@link #ANSWER_PHASES}) and how
     * many runs pre-read the file; a Go row has neither (its process is not broken down), so its
     * {@code phaseSeconds} is empty and {@code prereads} null.
     */
    public record Answer(Path file, long line, String date, String chapter, int runs, double medianSeconds, double meanSeconds,
                  double minSeconds, double maxSeconds, Map<String, Double> phaseSeconds, Integer prereads, double[] runSeconds) {

        public boolean isGo() {
            return chapter.startsWith("Go ");
        }
    }

    /** The rows of an answer.csv that could be read, and one line for each row left out. */
    public record AnswerCsv(Path file, List<Answer> rows, List<String> problems) {

        /** The newest row of each chapter and Go variant (a rerun appends rows), in the order of the newest. */
        public List<Answer> newestOfEach() {
            return ResultsFolder.newestOfEach(rows, Answer::chapter);
        }
    }

    /**
     * Reads the answer round's CSV as {@link StudyResults#read} reads a results CSV: a row with the wrong number
     * of fields, a chapter that is no one-shot's name, a time that is not finite and non-negative,
     * a chapter's row without its phases, run seconds that do not match its count of runs, or a run, mean
     * or median outside its own min_s–max_s, is left out with a line naming file and line. A file whose header is not answer.csv's throws
     * {@link StudyResults.NotResultsException}.
     */
    public static AnswerCsv read(Path file) {
        List<String> problems = new ArrayList<>();
        List<Answer> rows = StudyResults.eachRow(file, "an answer-round CSV", header -> {
            if (!header.equals(ANSWER_COLUMNS)) {
                throw new StudyResults.NotResultsException(file + " is not an answer-round CSV: its header is not " + String.join(",", ANSWER_COLUMNS));
            }
        }, AnswerResults::answer, problems);
        return new AnswerCsv(file, rows, problems);
    }

    private static Answer answer(Path file, long line, Map<String, String> values) {
        String chapter = values.get("chapter");
        if (!ANSWER_CHAPTER.matcher(chapter).matches()) {
            throw new IllegalArgumentException("chapter is " + StudyResults.quoted(chapter) + ", not a chapter's name or a Go variant's");
        }
        boolean go = chapter.startsWith("Go ");
        int runs = (int) StudyResults.whole(values, "runs", 1, Integer.MAX_VALUE);
        Map<String, Double> phases = new LinkedHashMap<>();
        for (String phase : ANSWER_PHASES) {
            Double seconds = go ? StudyResults.optionalDecimal(values, phase + "_s", Double.MAX_VALUE)
                    : Double.valueOf(StudyResults.decimal(values, phase + "_s", Double.MAX_VALUE)); // boxed, or a Go row's null would be unboxed
            if (seconds != null) {
                phases.put(phase, seconds);
            }
        }
        Long prereads = go ? StudyResults.optionalWhole(values, "prereads", 0) : Long.valueOf(StudyResults.whole(values, "prereads", 0, runs));
        double medianSeconds = StudyResults.decimal(values, "median_s", Double.MAX_VALUE), meanSeconds = StudyResults.decimal(values, "mean_s", Double.MAX_VALUE),
                minSeconds = StudyResults.decimal(values, "min_s", Double.MAX_VALUE), maxSeconds = StudyResults.decimal(values, "max_s", Double.MAX_VALUE);
        double[] runSeconds = StudyResults.secondsOf(values, "run_s", runs, "runs", ";");
        for (double seconds : runSeconds) {
            RowTimes.requireNoLongerThanAWeek("run_s", seconds);
        }
        RowTimes.requireNoLongerThanAWeek("max_s", maxSeconds);
        RowTimes.requireWithin(minSeconds, maxSeconds, runSeconds, meanSeconds, medianSeconds);
        return new Answer(file, line, values.get("date"), chapter, runs, medianSeconds, meanSeconds, minSeconds, maxSeconds, phases,
                prereads == null ? null : prereads.intValue(), runSeconds);
    }
}
