// Java beside Go (versus-go.csv, written by lab/yardsticks/VersusGo.java): the one reading of it that
// README's table, every machine's report and VersusGo's own summary print.

package lab.results;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import lib.counters.Stats;

/** versus-go.csv's rows as pairs of a Go variant and a chapter, and how a pair is read. */
public final class VersusGoPairs {

    private VersusGoPairs() {}

    /** A pair's mark: Java won every round, lost every round, won some and lost some, or no round could be told. */
    public enum GoVerdict {
        AHEAD("ahead"), BEHIND("behind"), TIE("tie"), UNPAIRED("unpaired");

        public final String word;

        GoVerdict(String word) {
            this.word = word;
        }
    }

    /**
     * One round of a pair: its Go call and its Java call, run back to back, so written on
     * consecutive lines of versus-go.csv (in either order: VersusGo swaps the sides every round).
     */
    record GoRound(StudyResults.Row go, StudyResults.Row java) {
        /** Go's median run over Java's: above 1, Java was the faster in this round. */
        public double ratio() {
            return go.medianSeconds() / java.medianSeconds();
        }
    }

    /**
     * One pair of versus-go.csv: Go's {@code vN} and chapter N. Its figure is the median of its rounds'
     * ratios; it is {@link GoVerdict#AHEAD} when Java won every round (the lowest ratio above 1),
     * {@link GoVerdict#BEHIND} when it lost every round (the highest below 1), else a
     * {@link GoVerdict#TIE}: within the rounds' spread. {@code unpaired}: the rows that found no
     * partner on the next or previous line (a call that failed, a row left out); they count for nothing.
     */
    public record GoPair(int number, String javaChapter, List<GoRound> rounds, List<StudyResults.Row> unpaired) {

        private double[] ratios() {
            return rounds.stream().mapToDouble(GoRound::ratio).toArray();
        }

        /** Java's speed over Go's, the median over rounds; NaN without a round. */
        public double ratio() {
            return rounds.isEmpty() ? Double.NaN : Stats.median(ratios());
        }

        public double lowest() {
            return Arrays.stream(ratios()).min().orElse(Double.NaN);
        }

        public double highest() {
            return Arrays.stream(ratios()).max().orElse(Double.NaN);
        }

        public GoVerdict verdict() {
            if (rounds.isEmpty()) {
                return GoVerdict.UNPAIRED;
            }
            return lowest() > 1 ? GoVerdict.AHEAD : highest() < 1 ? GoVerdict.BEHIND : GoVerdict.TIE;
        }

        /** One side's MB/s, the median over the rounds of each call's median run; NaN without a round. */
        public double goMbps() {
            return sideMbps(GoRound::go);
        }

        public double javaMbps() {
            return sideMbps(GoRound::java);
        }

        private double sideMbps(java.util.function.Function<GoRound, StudyResults.Row> side) {
            return rounds.isEmpty() ? Double.NaN : Stats.median(rounds.stream().map(side)
                    .mapToDouble(row -> row.fileBytes() / row.medianSeconds() / 1e6).toArray()); // decimal MB/s, as lib/Stats counts them
        }

        /** "1.09", or "–" without a round: how every reader prints the figure. */
        public String ratioText() {
            return rounds.isEmpty() ? "–" : String.format(Locale.ROOT, "%.2f", ratio());
        }

        /**
         * "0.951–1.124": the lowest and highest round's ratio, to three places so that a "behind"
         * never reads 1.00; one figure for one round.
         */
        public String rangeText() {
            if (rounds.isEmpty()) {
                return "–";
            }
            String low = String.format(Locale.ROOT, "%.3f", lowest()), high = String.format(Locale.ROOT, "%.3f", highest());
            return low.equals(high) ? low : low + "–" + high;
        }

        /** "3", "2 (1 unpaired row)" or "0 (2 unpaired rows)". */
        public String roundsText() {
            return rounds.size() + (unpaired.isEmpty() ? ""
                    : " (" + unpaired.size() + " unpaired row" + (unpaired.size() == 1 ? "" : "s") + ")");
        }
    }

    /**
     * versus-go.csv's rows (in file order) as pairs, by pair number. A Go row ({@code Go vN}) and a
     * Java row of the same number on consecutive lines, each with a median run, of one file size, are
     * one round; any other row of the pair is unpaired rather than matched by guess with a row of
     * another round. Rows that name no numbered chapter are no pair's.
     */
    public static List<GoPair> pairs(List<StudyResults.Row> rows) {
        Map<Integer, List<GoRound>> rounds = new TreeMap<>();
        Map<Integer, List<StudyResults.Row>> unpaired = new TreeMap<>();
        Map<Integer, String> javaChapter = new TreeMap<>();
        StudyResults.Row waiting = null; // the previous row, while it has no partner
        for (StudyResults.Row row : rows.stream().sorted(Comparator.comparingLong(StudyResults.Row::line)).toList()) {
            int number = pairNumber(row);
            if (number < 0) {
                continue;
            }
            rounds.computeIfAbsent(number, n -> new ArrayList<>());
            unpaired.computeIfAbsent(number, n -> new ArrayList<>());
            if (!isGo(row)) {
                javaChapter.put(number, row.chapter());
            }
            if (waiting != null && onePair(waiting, row)) {
                rounds.get(number).add(isGo(waiting) ? new GoRound(waiting, row) : new GoRound(row, waiting));
                waiting = null;
                continue;
            }
            if (waiting != null) {
                unpaired.get(pairNumber(waiting)).add(waiting);
            }
            waiting = row;
        }
        if (waiting != null) {
            unpaired.get(pairNumber(waiting)).add(waiting);
        }
        return rounds.keySet().stream().map(number -> new GoPair(number, javaChapter.getOrDefault(number, "–"),
                List.copyOf(rounds.get(number)), List.copyOf(unpaired.get(number)))).toList();
    }

    private static boolean isGo(StudyResults.Row row) {
        return row.chapter().startsWith("Go ");
    }

    /** 6 for "Go v6" and "V06MmapParallel"; -1 for a row that names no numbered chapter. */
    private static int pairNumber(StudyResults.Row row) {
        String number = row.number();
        return number.matches("V\\d\\d") ? Integer.parseInt(number.substring(1)) : -1;
    }

    /** Two rows that make one round: consecutive lines, one side each, the same pair and size, a median each. */
    private static boolean onePair(StudyResults.Row first, StudyResults.Row second) {
        return second.line() == first.line() + 1 && isGo(first) != isGo(second) && pairNumber(first) == pairNumber(second)
                && first.fileBytes() == second.fileBytes() && hasMedian(first) && hasMedian(second);
    }

    private static boolean hasMedian(StudyResults.Row row) {
        return row.medianSeconds() != null && row.medianSeconds() > 0 && Double.isFinite(row.medianSeconds());
    }

    /** How the pairs are read, in one sentence every reader prints under its table. */
    public static final String RULE = "Java ÷ Go: the median over rounds of Go's median run over Java's (above 1: Java faster); "
            + "ahead or behind: Java won or lost every round, tie: some of each; a round: a Go call and a Java call back to back";
}
