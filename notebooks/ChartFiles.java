// Which chart files the notebooks may replace: only those they wrote. No package line: JShell,
// which runs the notebooks, cannot take one.

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A file is only ever replaced by a chart when a notebook made it. For the page that is its first
 * line ({@link #PAGE_MARK}). For the PNG it is one of: its page is ours (they are drawn together);
 * it carries the mark every chart's PNG gets ({@link ChartImage#MARK}); or it is a PNG that git
 * tracks unchanged (a committed chart: git holds exactly those bytes, so redrawing loses nothing,
 * and a fresh clone has the PNGs without their ignored pages). Anything else of the same name
 * stops the notebook.
 */
final class ChartFiles {

    /** The first line of every chart page: what marks a file as one a notebook may replace. */
    static final String PAGE_MARK = "<!DOCTYPE html><!-- a chart written by notebooks/Report.java -->";

    private ChartFiles() {}

    /** Why the chart's page or PNG may not be replaced, or null when both may. */
    static String whyNotReplace(Path page, Path png) throws IOException {
        boolean pageIsOurs = Files.isRegularFile(page) && firstLine(page).equals(PAGE_MARK);
        if (Files.exists(page) && !pageIsOurs) {
            return page + " exists and was not written by a notebook; left it alone (move it away to draw this chart)";
        }
        if (Files.exists(png) && !pageIsOurs && !ChartImage.isMarked(png) && !committedUnchanged(png)) {
            return png + " exists and was not drawn by a notebook; left it alone (move it away to draw this chart)";
        }
        return null;
    }

    /** True when {@code file} is a PNG tracked by git with no change since the last commit. */
    static boolean committedUnchanged(Path file) {
        if (!ChartImage.isPng(file)) {
            return false;
        }
        try {
            Path dir = file.toAbsolutePath().getParent();
            String name = file.getFileName().toString();
            return git(dir, "ls-files", "--error-unmatch", "--", name) && git(dir, "diff", "--quiet", "HEAD", "--", name);
        } catch (IOException e) {
            return false; // no git: only marked PNGs and pages are known to be ours
        }
    }

    private static boolean git(Path dir, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of("git", "-C", dir.toString()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            return process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0;
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            return false;
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
