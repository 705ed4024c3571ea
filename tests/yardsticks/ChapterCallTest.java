import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import lab.tools.ChapterCall;
import lab.tools.ChildProcess;
import lib.harness.Measurement;
import lib.harness.ResultsCsv;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * lab/tools/ChapterCall.java, a chapter run beside a yardstick (versus-c, versus-go, fio): only the
 * rows the child appended are its own, its median is the last one's, and a failure is one line.
 */
class ChapterCallTest {

    @TempDir
    Path dir;

    @Test
    void onlyTheRowsTheChildAppendedAreItsOwnAndItsMedianIsTheLastOnes() throws Exception {
        Path csv = dir.resolve("versus.csv");
        ResultsCsv.append(csv, List.of(row(0.5))); // an earlier call's
        ChapterCall call = appending(0, csv, List.of(row(0.25), row(0.125)));
        assertTrue(call.ran(), call::toString);
        assertEquals(2, call.appended().size(), call::toString);
        assertEquals(0.125, call.medianSeconds().orElseThrow());
        assertEquals(1.0, call.lastFigure("runs"), "a figure of the last row, by its column");
        assertTrue(Double.isNaN(call.lastFigure("user_us_per_gib")), "a bill figure the row left empty is no figure");
        assertTrue(Double.isNaN(call.lastFigure("no_such_column")));
    }

    @Test
    void aFailedCallOrAnImplausibleMedianGivesNoFigure() throws Exception {
        Path csv = dir.resolve("versus.csv");
        ResultsCsv.append(csv, List.of(row(0.5))); // an earlier call's, plausible
        ChapterCall failed = appending(3, csv, List.of());
        assertFalse(failed.ran());
        assertEquals("sh ended with status 3", failed.failure());
        assertTrue(failed.appended().isEmpty() && failed.medianSeconds().isEmpty(), "no row of its own, no median: " + failed);
        assertTrue(Double.isNaN(failed.lastFigure("median_s")), "no row of its own, no figure, not the earlier call's");
        ChapterCall zero = appending(0, csv, List.of(row(0.0)));
        assertTrue(zero.ran() && zero.medianSeconds().isEmpty(), "a median of 0 s is no figure: " + zero);
    }

    private static List<Object> row(double medianSeconds) {
        return ResultsCsv.row(new Measurement.Result("V07PreadParallel", 1, "warm", 64L << 20, OptionalLong.empty(), 67108856,
                new double[0], new double[] {medianSeconds}));
    }

    /** A child that appends {@code rows} to {@code csv}, as a chapter given --csv does, then exits with {@code status}. */
    private ChapterCall appending(int status, Path csv, List<List<Object>> rows) throws Exception {
        Path lines = Files.createTempFile(dir, "rows", ".csv");
        if (!rows.isEmpty()) {
            Path whole = Files.createTempFile(dir, "whole", ".csv");
            ResultsCsv.append(whole, rows);
            List<String> written = Files.readAllLines(whole);
            Files.write(lines, written.subList(1, written.size())); // without the header, which csv has
        }
        ChildProcess child = ChildProcess.of(List.of("sh", "-c", "cat \"$1\" >> \"$2\"; exit " + status, "sh", lines.toString(), csv.toString()));
        return ChapterCall.run(child, csv, "sh", note -> {});
    }
}
