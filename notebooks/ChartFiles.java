// Which chart files the notebooks may replace: only those they wrote.

package notebooks;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * A file is only ever replaced by a chart when a notebook made it. For the page that is its first
 * line ({@link #PAGE_MARK}). For the PNG it is either: its page is ours (they are drawn together),
 * or it carries the mark every chart's PNG gets ({@link ChartImage#MARK}), as every committed chart
 * does, so a fresh clone, which has the PNGs without their ignored pages, redraws them. Anything
 * else of the same name stops the notebook.
 *
 * <p>A page is written whole or not at all (lab/tools/AtomicWrite): a full disk leaves the page as
 * it was, never cut. A page an older run left cut (an empty file, or one that ends inside the mark)
 * holds nothing anyone could lose, so it is redrawn rather than blocking every later chart.
 */
public final class ChartFiles {

    /** The first line of every chart page: what marks a file as one a notebook may replace (its words as ChartImage.MARK's stay). */
    public static final String PAGE_MARK = "<!DOCTYPE html><!-- a chart written by notebooks/Report.java -->";

    private ChartFiles() {}

    /** Why the chart's page or PNG may not be replaced, or null when both may. */
    public static String whyNotReplace(Path page, Path png) throws IOException {
        // Only a page that carries the whole mark speaks for its PNG: an empty page says nothing of who drew it.
        boolean pageIsOurs = Files.isRegularFile(page) && firstLine(page).equals(PAGE_MARK);
        if (Files.exists(page, LinkOption.NOFOLLOW_LINKS) && !pageIsOurs && !cutShort(page)) {
            return page + " exists and was not written by a notebook; left it alone (move it away to draw this chart)";
        }
        if (Files.exists(png, LinkOption.NOFOLLOW_LINKS) && !pageIsOurs && !ChartImage.isMarked(png) && !cutShort(png)) {
            return png + " exists and was not drawn by a notebook; left it alone (move it away to draw this chart)";
        }
        return null;
    }

    /**
     * True for a regular file that holds nothing a reader could lose: empty, or the start of
     * {@link #PAGE_MARK} and nothing after it (a page an older run began and a full disk cut, before
     * pages were written whole).
     */
    public static boolean cutShort(Path file) throws IOException {
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            return false;
        }
        byte[] mark = PAGE_MARK.getBytes(StandardCharsets.UTF_8);
        try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
            byte[] start = in.readNBytes(mark.length + 1);
            return start.length <= mark.length && java.util.Arrays.equals(start, 0, start.length, mark, 0, start.length);
        }
    }

    private static String firstLine(Path file) throws IOException {
        try (var lines = Files.lines(file, StandardCharsets.UTF_8)) {
            return lines.findFirst().orElse("");
        } catch (UncheckedIOException notText) {
            return "";
        }
    }
}
