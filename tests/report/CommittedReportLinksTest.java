import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A committed report is read in a fresh clone: every file it links (href) or shows (src) by a
 * relative path must be one git tracks, or the reader finds a dead link. Pages git ignores, such as
 * the charts' interactive pages, exist only where the notebooks ran, never in a clone.
 */
class CommittedReportLinksTest {

    /** An href or src attribute's value, quoted either way. */
    private static final Pattern LINK = Pattern.compile("\\b(?:href|src)\\s*=\\s*(?:\"([^\"]*)\"|'([^']*)')", Pattern.CASE_INSENSITIVE);
    /** A link that names a scheme (https:, mailto:, data:) or starts at a root: not a file of the clone. */
    private static final Pattern NOT_RELATIVE = Pattern.compile("^(?:[a-zA-Z][a-zA-Z0-9+.-]*:|/|#).*|^$");

    /** The relative links of a page, as paths in the repository (decoded, without query or fragment). */
    static List<String> relativeLinks(String page, String pageDirectory) {
        List<String> files = new ArrayList<>();
        Matcher link = LINK.matcher(page);
        while (link.find()) {
            String target = (link.group(1) != null ? link.group(1) : link.group(2)).strip()
                    .replace("&amp;", "&").replaceFirst("[?#].*$", "");
            if (NOT_RELATIVE.matcher(target).matches()) {
                continue;
            }
            String decoded = URLDecoder.decode(target.replace("+", "%2B"), StandardCharsets.UTF_8);
            files.add(Path.of(pageDirectory).resolve(decoded).normalize().toString().replace('\\', '/'));
        }
        return files;
    }

    /** The files git tracks under {@code paths}, as paths from the repository's root. */
    static List<String> tracked(String... paths) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("git", "ls-files", "-z", "--"));
        command.addAll(List.of(paths));
        Process git = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(git.waitFor(60, TimeUnit.SECONDS), "git ls-files did not end");
        assertEquals(0, git.exitValue(), "git ls-files failed: run the tests from the project's root, in its git clone");
        return out.isEmpty() ? List.of() : List.of(out.split("\0"));
    }

    @Test
    void everyCommittedReportLinksOnlyFilesGitTracks() throws Exception {
        Set<String> inTheRepository = Set.copyOf(tracked("."));
        List<String> reports = tracked("results").stream().filter(path -> path.matches("results/[^/]+/index\\.html")).toList();
        assertFalse(reports.isEmpty(), "no committed results/*/index.html to check");
        List<String> dead = new ArrayList<>();
        int checked = 0;
        for (String report : reports) {
            String page = Files.readString(Path.of(report), StandardCharsets.UTF_8);
            for (String file : relativeLinks(page, Path.of(report).getParent().toString())) {
                checked++;
                if (!inTheRepository.contains(file)) {
                    dead.add(report + " links " + file);
                }
            }
        }
        assertTrue(checked > 0, "the committed reports link nothing, which no report does: is the link pattern still right?");
        assertTrue(dead.isEmpty(), dead.size() + " links to files a clone does not have:\n" + String.join("\n", dead));
    }

    @Test
    void findsRelativeLinksAndLeavesOthersAlone() {
        String page = "<a href=\"charts/scoreboard.html\">i</a> <img src='charts/a%20b.png'> <a href=\"#top\">t</a>"
                + " <a href=\"https://example.org/x\">x</a> <a href=\"scoreboard.csv?x=1#l\">c</a> <a href=\"../README.md\">r</a>"
                + " <a href=\"/etc/passwd\">p</a> <a href=\"mailto:a@b\">m</a>";
        assertEquals(List.of("results/m/charts/scoreboard.html", "results/m/charts/a b.png", "results/m/scoreboard.csv", "results/README.md"),
                relativeLinks(page, "results/m"));
    }
}
