// The cold chapters beside fio (fio.csv, written by lab/yardsticks/FioBeside.java).

package lab.results;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.stream.Collectors;
import lib.counters.Stats;

/** fio.csv: the cold chapters as fractions of fio's best, in the newest sitting. */
public final class FioBesideResults {

    private FioBesideResults() {}

    /** lab/yardsticks/FioBeside's table: the cold chapters' rows and fio's, interleaved over rounds. */
    static final String FIO_TABLE = "fio";
    /** Rows further apart than this belong to different sittings: within one, a row follows the last within one run. */
    public static final java.time.Duration FIO_SITTING_GAP = java.time.Duration.ofMinutes(15);

    /**
     * A cold chapter as a fraction of fio's best in one sitting, on the same file with the same read
     * size and job count: the chapter's median MB/s over the sitting's rounds, against the best of
     * fio's O_DIRECT jobs that only read (engine, queue depth, buffer page size), each job taken by
     * its own median over the same rounds; and against the best of those that check every byte as
     * the chapters do ({@code checkingJob}, "" where the sitting has none: {@code checkingMbps} is then NaN).
     * {@code heldOut} and {@code checkingHeldOut} judge fio's best in rounds it was not chosen in ({@link #heldOut}).
     */
    public record FioFraction(String chapter, int workers, long chunkBytes, double chapterMbps, int chapterRounds,
                       String fioJob, double fioMbps, int fioRounds, String checkingJob, double checkingMbps,
                       OptionalDouble heldOut, OptionalDouble checkingHeldOut) {
        public double fraction() {
            return chapterMbps / fioMbps;
        }

        public OptionalDouble checkingFraction() {
            return checkingJob.isEmpty() ? OptionalDouble.empty() : OptionalDouble.of(chapterMbps / checkingMbps);
        }
    }

    /** The last word of a fio job's name that checks what it reads (lab/yardsticks/FioBeside's CHECKING). */
    public static final String FIO_CHECKING = "checking";

    private static boolean isFioDirectJob(String name, boolean checking) {
        return name.startsWith("fio ") && name.contains("O_DIRECT") && name.endsWith(" " + FIO_CHECKING) == checking;
    }

    /**
     * The fractions of fio.csv's newest sitting, with the sitting's first date, and the line that
     * says them; or none, and the one line that says why. {@code notes}: the rows left out, by file and line.
     */
    public record FioComparison(List<FioFraction> fractions, String sittingDate, String line, List<String> notes) {

        public Optional<FioFraction> of(String chapter) {
            return fractions.stream().filter(fraction -> fraction.chapter().equals(chapter)).findFirst();
        }
    }

    /**
     * The cold chapters as fractions of fio's best (see {@link FioFraction}) in the newest sitting
     * of {@code fio.csv}: this machine's cold rows of the study's file size, each sitting a run of
     * rows no further apart than {@link #FIO_SITTING_GAP}. Without the file, or without a chapter
     * and an O_DIRECT job of the same read size and job count in that sitting, no fractions and one
     * line that says so.
     */
    public static FioComparison comparison(ResultsFolder folder) {
        Path csv = folder.csv(FIO_TABLE);
        if (!folder.has(FIO_TABLE)) {
            return new FioComparison(List.of(), "", "No fio.csv here, so no cold chapter is shown as a fraction of fio's "
                    + "(lab/yardsticks/FioBeside.java measures fio beside them).", List.of());
        }
        StudyResults.Csv read;
        try {
            read = folder.read(FIO_TABLE);
        } catch (StudyResults.NotResultsException notResults) {
            return new FioComparison(List.of(), "", notResults.getMessage(), List.of());
        }
        List<StudyResults.Row> rows = read.rows().stream().filter(folder::measuredHere)
                .filter(row -> row.cache().equals("cold") && row.fileBytes() == folder.mainFileBytes()).toList();
        List<StudyResults.Row> sitting = new ArrayList<>();
        java.time.Instant last = null;
        for (StudyResults.Row row : rows) {
            java.time.Instant at;
            try {
                at = java.time.Instant.parse(row.date());
            } catch (java.time.format.DateTimeParseException undated) {
                continue; // a row without its time cannot be placed in a sitting
            }
            if (last == null || at.isBefore(last) || java.time.Duration.between(last, at).compareTo(FIO_SITTING_GAP) > 0) {
                sitting.clear();
            }
            sitting.add(row);
            last = at;
        }
        Map<List<Object>, Map<String, Map<Integer, Double>>> byShape = new LinkedHashMap<>(); // (read size, jobs) -> name -> round -> MB/s
        int round = 0;
        boolean afterFio = true;
        for (StudyResults.Row row : sitting) { // FioBeside runs the chapters first in each round, then fio
            boolean fio = row.chapter().startsWith("fio ");
            round += !fio && afterFio ? 1 : 0;
            afterFio = fio;
            if (row.chunkBytes() != null) {
                byShape.computeIfAbsent(List.of(row.chunkBytes(), row.workers()), shape -> new LinkedHashMap<>())
                        .computeIfAbsent(row.chapter(), name -> new TreeMap<>()).put(round, row.mbps());
            }
        }
        List<FioFraction> fractions = new ArrayList<>();
        byShape.forEach((shape, mbpsByName) -> fractions.addAll(fractions((int) shape.get(1), (long) shape.get(0), mbpsByName)));
        if (fractions.isEmpty()) {
            return new FioComparison(List.of(), "", csv + " has no sitting with a cold chapter and an O_DIRECT fio job of the same "
                    + "read size and job count, so no cold chapter is shown as a fraction of fio's.", read.problems());
        }
        String date = sitting.getFirst().date();
        String line = "Beside fio (" + csv.getFileName() + ", the sitting of " + date + "): "
                + fractions.stream().map(FioBesideResults::describe).collect(Collectors.joining("; ")) + ".";
        return new FioComparison(fractions, date, line, read.problems());
    }

    /** One fraction in words: "V15IoUring 0.83 × fio's best (io_uring qd2 …, 2,323 MB/s; 0.95 in rounds it was not chosen in), …". */
    public static String describe(FioFraction f) {
        String checking = f.checkingFraction().isEmpty() ? "" : String.format(Locale.ROOT, ", %.2f × its best checking every byte (%s, %,.0f MB/s%s)",
                f.checkingFraction().getAsDouble(), f.checkingJob().replaceFirst("^fio ", ""), f.checkingMbps(), heldOutWords(f.checkingHeldOut()));
        return String.format(Locale.ROOT, "%s %.2f × fio's best (%s, %,.0f MB/s%s)%s; %s reads, %d jobs, medians of %d rounds",
                f.chapter(), f.fraction(), f.fioJob().replaceFirst("^fio ", ""), f.fioMbps(), heldOutWords(f.heldOut()), checking,
                PageText.binarySize(f.chunkBytes()), f.workers(), f.chapterRounds());
    }

    private static String heldOutWords(OptionalDouble heldOut) {
        return heldOut.isEmpty() ? "" : String.format(Locale.ROOT, "; %.2f in rounds it was not chosen in", heldOut.getAsDouble());
    }

    /**
     * Each chapter among {@code mbpsByName} (name, then round, then MB/s; the names that do not
     * start "fio " are chapters) as a fraction of fio's best jobs, all read with {@code chunkBytes}
     * reads by {@code workers} jobs; none without an O_DIRECT job that only reads.
     */
    public static List<FioFraction> fractions(int workers, long chunkBytes, Map<String, Map<Integer, Double>> mbpsByName) {
        Optional<String> best = bestFioJob(mbpsByName, false, -1), checking = bestFioJob(mbpsByName, true, -1);
        List<FioFraction> fractions = new ArrayList<>();
        best.ifPresent(job -> mbpsByName.forEach((name, mbps) -> {
            if (!name.startsWith("fio ")) {
                fractions.add(new FioFraction(name, workers, chunkBytes, median(mbps, -1), mbps.size(),
                        job, median(mbpsByName.get(job), -1), mbpsByName.get(job).size(),
                        checking.orElse(""), checking.map(c -> median(mbpsByName.get(c), -1)).orElse(Double.NaN),
                        heldOut(name, mbpsByName, false), heldOut(name, mbpsByName, true)));
            }
        }));
        return fractions;
    }

    /**
     * The chapter against fio's best, each judged in a round it was not chosen in. Picking the
     * fastest of some twenty noisy jobs by their medians over the very rounds they are compared in
     * picks the luckiest as much as the fastest, and flatters fio. So, for each round, fio's best job
     * is picked by its median over the <em>other</em> rounds, and the chapter's MB/s in this round
     * is divided by that job's in this round; the fraction is the median of those ratios. Empty
     * with fewer than two rounds.
     */
    static OptionalDouble heldOut(String chapter, Map<String, Map<Integer, Double>> mbpsByName, boolean checking) {
        List<Double> ratios = new ArrayList<>();
        mbpsByName.get(chapter).forEach((round, chapterMbps) -> bestFioJob(mbpsByName, checking, round)
                .filter(job -> mbpsByName.get(job).containsKey(round))
                .ifPresent(job -> ratios.add(chapterMbps / mbpsByName.get(job).get(round))));
        return ratios.isEmpty() ? OptionalDouble.empty() : OptionalDouble.of(median(ratios));
    }

    /**
     * The fio O_DIRECT job with the best median, among those that check every byte or those that
     * only read; with {@code leftOutRound} not -1, by their medians without that round, among the
     * jobs that ran in it and in another.
     */
    private static Optional<String> bestFioJob(Map<String, Map<Integer, Double>> mbpsByName, boolean checking, int leftOutRound) {
        return mbpsByName.entrySet().stream().filter(job -> isFioDirectJob(job.getKey(), checking))
                .filter(job -> leftOutRound == -1 || job.getValue().containsKey(leftOutRound) && job.getValue().size() > 1)
                .max(Comparator.comparingDouble(job -> median(job.getValue(), leftOutRound))).map(Map.Entry::getKey);
    }

    /** The median MB/s of a name's rounds, all but {@code leftOutRound} (-1 to keep all). */
    private static double median(Map<Integer, Double> mbpsByRound, int leftOutRound) {
        return median(mbpsByRound.entrySet().stream().filter(round -> round.getKey() != leftOutRound).map(Map.Entry::getValue).toList());
    }

    private static double median(List<Double> values) {
        return Stats.median(values.stream().mapToDouble(Double::doubleValue).toArray());
    }
}
