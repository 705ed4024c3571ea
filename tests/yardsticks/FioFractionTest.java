import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.OptionalLong;
import lab.results.*;
import lib.harness.Machine;
import lib.harness.Measurement;
import lib.harness.ResultsCsv;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cold chapters as fractions of fio's best (FioBesideResults.comparison), from small fio.csv
 * files written here: medians over one sitting's rounds, fio's best O_DIRECT job, the same read size
 * and job count, the newest sitting only, and one line when there is nothing to compare.
 */
class FioFractionTest {

    static final long GIB = 1L << 30, MIB = 1L << 20;
    static final Instant SITTING = Instant.parse("2026-11-30T17:45:00Z");

    @TempDir
    Path root;
    Path folder;

    @BeforeEach
    void machineFolder() throws IOException {
        folder = Files.createDirectories(root.resolve(Machine.current().name()));
        Files.writeString(folder.resolve("machine.json"), Machine.json(Machine.current().description(folder, Instant.now(), false)));
    }

    /** One fio.csv row as lab/yardsticks/FioBeside writes it, {@code secondsIn} after the sitting began, at {@code mbps}. */
    void row(String name, int jobs, long chunkBytes, long secondsIn, double mbps) throws IOException {
        List<Object> row = ResultsCsv.row(new Measurement.Result(name, jobs, "cold", 4 * GIB, OptionalLong.of(chunkBytes), -1,
                new double[0], new double[] {4 * GIB / 1e6 / mbps}));
        row = StudyResultsTest.with(StudyResultsTest.with(row, "date", SITTING.plusSeconds(secondsIn).toString()), "mbps", Double.toString(mbps));
        ResultsCsv.append(folder.resolve("fio.csv"), List.of(row));
    }

    FioBesideResults.FioComparison comparison() {
        return FioBesideResults.comparison(ResultsFolder.folder(folder));
    }

    /** Three rounds of a chapter and its fio jobs, 10 s apart. */
    void rounds(long startSeconds, long chunkBytes, String chapter, double[] chapterMbps, String job, double[] jobMbps) throws IOException {
        for (int round = 0; round < chapterMbps.length; round++) {
            row(chapter, 2, chunkBytes, startSeconds + round * 20L, chapterMbps[round]);
            row(job, 2, chunkBytes, startSeconds + round * 20L + 10, jobMbps[round]);
        }
    }

    @Test
    void theChaptersMedianOverFiosBestJobByItsMedian() throws IOException {
        for (int round = 0; round < 3; round++) {
            long at = round * 60L;
            row("V14DirectIo", 2, MIB, at, new double[] {1000, 1800, 1500}[round]);
            row("V15IoUring", 2, MIB, at + 5, new double[] {2400, 2000, 2200}[round]);
            // one lucky round does not make a job the best: its median is 1,100
            row("fio psync O_DIRECT 4KiB-pages", 2, MIB, at + 10, new double[] {1000, 5000, 1100}[round]);
            row("fio psync O_DIRECT 2MiB-pages", 2, MIB, at + 15, new double[] {2000, 2100, 1900}[round]);
            // buffered and mmap reads are not what the cold chapters are measured against
            row("fio mmap buffered", 2, MIB, at + 20, 4000);
        }
        FioBesideResults.FioComparison fio = comparison();
        assertEquals(2, fio.fractions().size(), fio.line());
        FioBesideResults.FioFraction v14 = fio.of("V14DirectIo").orElseThrow();
        assertEquals("fio psync O_DIRECT 2MiB-pages", v14.fioJob());
        assertEquals(2000, v14.fioMbps(), 1e-9);
        assertEquals(1500, v14.chapterMbps(), 1e-9);
        assertEquals(0.75, v14.fraction(), 1e-9);
        assertEquals(3, v14.chapterRounds());
        assertEquals(1.1, fio.of("V15IoUring").orElseThrow().fraction(), 1e-9);
        assertEquals(SITTING.toString(), fio.sittingDate());
        assertTrue(fio.line().contains("V14DirectIo 0.75 × fio's best (psync O_DIRECT 2MiB-pages, 2,000 MB/s"), fio.line());
    }

    @Test
    void fiosJobsThatCheckEveryByteAreAYardstickOfTheirOwn() throws IOException {
        for (int round = 0; round < 3; round++) {
            long at = round * 60L;
            row("V15IoUring", 2, MIB, at, new double[] {2700, 2900, 2800}[round]);
            row("fio io_uring qd4 O_DIRECT 2MiB-pages", 2, MIB, at + 10, 4000);
            // faster than any job that only reads, in every round: still not the reading-only yardstick
            row("fio io_uring qd4 O_DIRECT 2MiB-pages checking", 2, MIB, at + 20, new double[] {5000, 2800, 2900}[round]);
            row("fio psync O_DIRECT 2MiB-pages checking", 2, MIB, at + 30, 2000);
        }
        FioBesideResults.FioFraction v15 = comparison().fractions().getFirst();
        assertEquals("fio io_uring qd4 O_DIRECT 2MiB-pages", v15.fioJob());
        assertEquals(0.70, v15.fraction(), 1e-9);
        assertEquals("fio io_uring qd4 O_DIRECT 2MiB-pages checking", v15.checkingJob());
        assertEquals(2900, v15.checkingMbps(), 1e-9);
        assertEquals(2800.0 / 2900, v15.checkingFraction().orElseThrow(), 1e-9);
        assertTrue(comparison().line().contains("0.97 × its best checking every byte (io_uring qd4 O_DIRECT 2MiB-pages checking, 2,900 MB/s"),
                comparison().line());
        String page = Files.readString(StudyReport.write(folder));
        assertTrue(page.contains("<td>0.97</td>"), "the report shows the fraction of the checking job");
    }

    @Test
    void fiosBestIsJudgedInRoundsItWasNotChosenIn() throws IOException {
        double[] lucky = {1200, 1000, 1100}, steady = {1000, 1150, 1050};
        for (int round = 0; round < 3; round++) {
            long at = round * 60L;
            row("V15IoUring", 2, MIB, at, 1000);
            row("fio io_uring qd2 O_DIRECT 2MiB-pages", 2, MIB, at + 10, lucky[round]);
            if (round != 1) { // a job that failed in a round leaves no row; the rounds after it still line up
                row("fio psync O_DIRECT 4KiB-pages", 2, MIB, at + 15, 500);
            }
            row("fio io_uring qd8 O_DIRECT 2MiB-pages", 2, MIB, at + 20, steady[round]);
        }
        FioBesideResults.FioFraction v15 = comparison().fractions().getFirst();
        assertEquals("fio io_uring qd2 O_DIRECT 2MiB-pages", v15.fioJob(), "by its median over all three rounds, 1,100 against 1,050");
        assertEquals(1000.0 / 1100, v15.fraction(), 1e-9);
        // chosen from rounds 2 and 3: qd8 (1,100 against 1,050), level in round 1; from 1 and 3: qd2, level in round 2;
        // from 1 and 2: qd2 (1,100 against 1,075), 1,100 in round 3
        assertEquals(1.0, v15.heldOut().orElseThrow(), 1e-9);
        assertTrue(comparison().line().contains("1,100 MB/s; 1.00 in rounds it was not chosen in)"), comparison().line());
    }

    @Test
    void oneRoundHasNoRoundToHoldOut() throws IOException {
        rounds(0, MIB, "V14DirectIo", new double[] {1000}, "fio psync O_DIRECT 2MiB-pages", new double[] {2000});
        FioBesideResults.FioFraction v14 = comparison().fractions().getFirst();
        assertEquals(0.5, v14.fraction(), 1e-9);
        assertTrue(v14.heldOut().isEmpty(), v14.toString());
        assertFalse(comparison().line().contains("not chosen in"), comparison().line());
    }

    @Test
    void aSittingWithoutCheckingJobsHasNoFractionOfThem() throws IOException {
        rounds(0, MIB, "V14DirectIo", new double[] {1000, 1000, 1000}, "fio psync O_DIRECT 2MiB-pages", new double[] {2000, 2000, 2000});
        FioBesideResults.FioFraction v14 = comparison().fractions().getFirst();
        assertTrue(v14.checkingFraction().isEmpty(), v14.toString());
        assertFalse(comparison().line().contains("checking"), comparison().line());
        assertTrue(Files.readString(StudyReport.write(folder)).contains("<td>0.50</td>"));
    }

    @Test
    void onlyTheNewestSittingCounts() throws IOException {
        rounds(0, MIB, "V14DirectIo", new double[] {900, 900, 900}, "fio psync O_DIRECT 2MiB-pages", new double[] {1000, 1000, 1000});
        long later = FioBesideResults.FIO_SITTING_GAP.toSeconds() + 3600;
        rounds(later, MIB, "V14DirectIo", new double[] {1000, 1000, 1000}, "fio psync O_DIRECT 2MiB-pages", new double[] {4000, 4000, 4000});
        FioBesideResults.FioComparison fio = comparison();
        assertEquals(0.25, fio.of("V14DirectIo").orElseThrow().fraction(), 1e-9, fio.line());
        assertEquals(3, fio.of("V14DirectIo").orElseThrow().chapterRounds(), "the older sitting's rounds are not counted");
        assertEquals(SITTING.plusSeconds(later).toString(), fio.sittingDate());
    }

    @Test
    void aChapterIsComparedOnlyWithFioAtItsOwnReadSizeAndJobCount() throws IOException {
        rounds(0, MIB, "V14DirectIo", new double[] {1000, 1000, 1000}, "fio psync O_DIRECT 2MiB-pages", new double[] {2000, 2000, 2000});
        rounds(100, 4 * MIB, "V14DirectIo", new double[] {3000, 3000, 3000}, "fio libaio qd16 O_DIRECT 2MiB-pages", new double[] {9000, 9000, 9000});
        row("V15IoUring", 2, 16 * MIB, 200, 5000); // no fio job of 16 MiB reads: no fraction
        row("fio io_uring qd16 O_DIRECT 2MiB-pages", 1, MIB, 210, 100); // one job, not two
        List<FioBesideResults.FioFraction> fractions = comparison().fractions();
        assertEquals(2, fractions.size(), fractions.toString());
        for (FioBesideResults.FioFraction f : fractions) {
            assertEquals(f.chunkBytes() == MIB ? 0.5 : 3000.0 / 9000, f.fraction(), 1e-9, f.toString());
            assertEquals(2, f.workers());
        }
        assertFalse(fractions.stream().anyMatch(f -> f.chapter().equals("V15IoUring")));
    }

    @Test
    void withoutFioCsvOneLineAndNoFraction() throws IOException {
        FioBesideResults.FioComparison none = comparison();
        assertTrue(none.fractions().isEmpty());
        assertEquals(1, none.line().lines().count());
        assertTrue(none.line().startsWith("No fio.csv here"), none.line());
        String page = Files.readString(StudyReport.write(folder));
        assertTrue(page.contains(PageText.html(none.line())), "the report says it in one line");

        row("fio psync O_DIRECT 2MiB-pages", 2, MIB, 0, 2000); // fio without a chapter
        FioBesideResults.FioComparison fioAlone = comparison();
        assertTrue(fioAlone.fractions().isEmpty());
        assertTrue(fioAlone.line().contains("no sitting with a cold chapter"), fioAlone.line());
    }

    @Test
    void hostileNamesNeverReachThePageAsMarkup() throws IOException {
        rounds(0, MIB, "V14DirectIo", new double[] {1000, 1000, 1000}, "fio psync O_DIRECT 2MiB-pages", new double[] {2000, 2000, 2000});
        row("fio <script>alert(1)</script> O_DIRECT", 2, MIB, 70, 99999);
        row("V15<img src=x onerror=alert(1)>", 2, MIB, 75, 1);
        FioBesideResults.FioComparison fio = comparison();
        assertEquals(1, fio.fractions().size(), "the rows whose names are no chapter's or fio job's are left out: " + fio.line());
        assertEquals(0.5, fio.fractions().getFirst().fraction(), 1e-9);
        String page = Files.readString(StudyReport.write(folder));
        assertFalse(page.contains("<script>alert"), "no markup from fio.csv");
        assertFalse(page.contains("<img src=x"), "no markup from fio.csv");
        assertTrue(page.contains("<td>0.50</td>"), "the fraction is on the page");
    }
}
