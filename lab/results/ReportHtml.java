// The HTML pieces of the report's page (lab/report/StudyReport.java): its sections, tables, figures and
// style, with every value from a results folder escaped on its way in.

package lab.results;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** The report page's HTML: sections, tables, numbers as text, and the page's style. */
public final class ReportHtml {

    private ReportHtml() {}

    /** Where the page's contents go, once its sections are known ({@link #withContents}). */
    public static final String CONTENTS_PLACE = "<nav></nav>\n";

    /**
     * {@code page} with its contents at {@link #CONTENTS_PLACE}: a link to each section it holds, in
     * order, and none to a section it left out (a study without the page-cache round has no such section).
     */
    public static String withContents(String page) {
        String links = SECTIONS_IN_ORDER.stream().filter(s -> page.contains("<h2 id=\"" + s[0] + "\">"))
                .map(s -> "<a href=\"#" + s[0] + "\">" + s[1] + "</a>").collect(Collectors.joining(" · "));
        return page.replace(CONTENTS_PLACE, "<nav>" + links + "</nav>\n");
    }

    static final List<String[]> SECTIONS_IN_ORDER = List.of(
            new String[] {"scoreboard", "scoreboard"}, new String[] {"book", "the book here"}, new String[] {"pagecache", "page cache"}, new String[] {"article", "article"}, new String[] {"go", "Go here"},
            new String[] {"scaling", "scaling"},
            new String[] {"cold", "warm/cold"}, new String[] {"walls", "walls"}, new String[] {"model", "why"}, new String[] {"chunks", "read size"},
            new String[] {"warmup", "warm-up"}, new String[] {"flamegraphs", "flame graphs"}, new String[] {"other", "other charts"},
            new String[] {"machine", "machine"},
            new String[] {"files", "data"});

    public static void section(StringBuilder html, String id, String title, String text) {
        html.append("<h2 id=\"").append(id).append("\">").append(escape(title)).append("</h2>\n");
        if (!text.isEmpty()) {
            html.append("<p>").append(escape(text)).append("</p>\n");
        }
    }

    static String percentage(double percent) {
        return String.format(Locale.ROOT, percent < 1 ? "%.1f" : "%.0f", percent);
    }

    /** Every value from a CSV or machine.json goes through this one function on its way into the page. */
    public static String escape(String text) {
        return PageText.html(text);
    }

    public static String url(String fileName) {
        return java.net.URLEncoder.encode(fileName, StandardCharsets.UTF_8).replace("+", "%20");
    }

    public static final String STYLE = """
            body { font-family: system-ui, sans-serif; max-width: 72rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
            h1 { font-size: 1.6rem; } h2 { margin-top: 2.5rem; border-bottom: 1px solid #ddd; }
            table { border-collapse: collapse; margin: 0.5rem 0; font-size: 0.92rem; }
            th, td { border: 1px solid #ddd; padding: 0.25rem 0.6rem; text-align: right; }
            th { background: #f4f4f4; } td:first-child, td:has(> code) { text-align: left; }
            .trial { background: #fff3cd; border: 1px solid #e0c060; padding: 0.6rem; }
            .charts figure { margin: 1rem 0; } .charts img { max-width: 100%; border: 1px solid #eee; }
            figcaption { font-size: 0.8rem; color: #666; } nav { margin: 1rem 0; } .nochart { color: #777; } .beaten { color: #8a4b00; }
            .book > li { margin: 0.4rem 0; } .book ul { font-size: 0.9rem; color: #444; }
            .does-not-hold { color: #a00000; } .cannot-tell { color: #666; } .holds { color: #1a6b1a; }
            """;
}
