// One table model for the project's pages and its terminal: README's and the docs' generated blocks
// are its Markdown (report/ReadmeBlocks.java), the report page's tables its HTML
// (report/ReportTables.java), a tool's summary its text. No package line, as every file of report/.

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A table of cells that are text, never markup: each writer ({@link #markdown}, {@link #html},
 * {@link #text}) escapes every cell for its own format, so no value from a CSV or machine.json can become markup
 * in either. A cell given as a String is plain text; {@link #code}, {@link #strong}, {@link #aside},
 * {@link #link} and {@link #join} set it otherwise.
 */
final class Table {

    /** A cell: text, and how it is set. */
    sealed interface Cell permits Text, Code, Strong, Aside, Link, Joined {}
    record Text(String text) implements Cell {}
    record Code(String text) implements Cell {}
    record Strong(Cell inner) implements Cell {}
    /** Said in passing: "not recorded", a share beyond the wall. */
    record Aside(String text) implements Cell {}
    record Link(Cell label, String target) implements Cell {}
    record Joined(List<Cell> parts) implements Cell {}

    static Cell code(String text) {
        return new Code(text);
    }

    static Cell strong(boolean strong, Object cell) {
        return strong ? new Strong(cell(cell)) : cell(cell);
    }

    static Cell aside(String text) {
        return new Aside(text);
    }

    static Cell link(Object label, String target) {
        return new Link(cell(label), target);
    }

    /** Cells one after the other, as one: join("13 ", code("V13PreadVector")). */
    static Cell join(Object... parts) {
        return new Joined(Arrays.stream(parts).map(Table::cell).toList());
    }

    private final List<Cell> header;
    private final List<List<Cell>> rows = new ArrayList<>();

    Table(Object... header) {
        this.header = Arrays.stream(header).map(Table::cell).toList();
    }

    Table(List<?> header) {
        this(header.toArray());
    }

    Table row(Object... cells) {
        if (cells.length != header.size()) {
            throw new IllegalArgumentException(cells.length + " cells for " + header.size() + " columns");
        }
        rows.add(Arrays.stream(cells).map(Table::cell).toList());
        return this;
    }

    Table row(List<?> cells) {
        return row(cells.toArray());
    }

    boolean isEmpty() {
        return rows.isEmpty();
    }

    /** Whether every cell of {@code column} is a figure (or "–"): such a column is set flush right. */
    private boolean figures(int column) {
        return !rows.isEmpty() && rows.stream().allMatch(cells -> plain(cells.get(column)).matches("[-–0-9.,% ]*"));
    }

    /** A GitHub Markdown table; a column of figures alone is set flush right. */
    String markdown() {
        StringBuilder markdown = new StringBuilder(markdownLine(header)).append("|");
        for (int column = 0; column < header.size(); column++) {
            markdown.append(figures(column) ? "--:|" : "---|");
        }
        markdown.append('\n');
        rows.forEach(cells -> markdown.append(markdownLine(cells)));
        return markdown.toString();
    }

    String html() {
        StringBuilder html = new StringBuilder("<table>\n<tr>");
        header.forEach(cell -> html.append("<th>").append(html(cell)).append("</th>"));
        html.append("</tr>\n");
        for (List<Cell> cells : rows) {
            html.append("<tr>");
            cells.forEach(cell -> html.append("<td>").append(html(cell)).append("</td>"));
            html.append("</tr>\n");
        }
        return html.append("</table>\n").toString();
    }

    /** For a terminal: columns padded to their widest cell, two spaces apart, figures flush right; no markup. */
    String text() {
        List<List<String>> lines = new ArrayList<>();
        lines.add(header.stream().map(Table::shown).toList());
        rows.forEach(cells -> lines.add(cells.stream().map(Table::shown).toList()));
        StringBuilder text = new StringBuilder();
        for (List<String> line : lines) {
            StringBuilder padded = new StringBuilder();
            for (int column = 0; column < line.size(); column++) {
                int c = column, width = lines.stream().mapToInt(l -> l.get(c).length()).max().orElse(0);
                String pad = " ".repeat(width - line.get(c).length());
                padded.append(column == 0 ? "" : "  ").append(figures(c) ? pad + line.get(c) : line.get(c) + pad);
            }
            text.append(padded.toString().stripTrailing()).append('\n');
        }
        return text.toString();
    }

    private static String markdownLine(List<Cell> cells) {
        return cells.stream().map(Table::markdown).collect(Collectors.joining(" | ", "| ", " |\n"));
    }

    private static String markdown(Cell cell) {
        return switch (cell) {
            case Text text -> escapeMarkdown(text.text());
            // No escape works inside a code span: a backtick would end it, and a bar the table's cell.
            case Code code -> "`" + code.text().replace('`', '\'').replace("|", "\\|").replaceAll("\\p{Cntrl}", " ") + "`";
            case Strong strong -> "**" + markdown(strong.inner()) + "**";
            case Aside aside -> "*" + escapeMarkdown(aside.text()) + "*";
            case Link link -> "[" + markdown(link.label()) + "](" + link.target().replace(" ", "%20").replace(")", "%29") + ")";
            case Joined joined -> joined.parts().stream().map(Table::markdown).collect(Collectors.joining());
        };
    }

    private static String html(Cell cell) {
        return switch (cell) {
            case Text text -> PageText.html(text.text());
            case Code code -> "<code>" + PageText.html(code.text()) + "</code>";
            case Strong strong -> "<strong>" + html(strong.inner()) + "</strong>";
            case Aside aside -> "<em>" + PageText.html(aside.text()) + "</em>";
            case Link link -> "<a href=\"" + PageText.html(link.target()) + "\">" + html(link.label()) + "</a>";
            case Joined joined -> joined.parts().stream().map(Table::html).collect(Collectors.joining());
        };
    }

    /** The text a cell shows, with no markup: what says whether a column holds figures alone. */
    private static String plain(Cell cell) {
        return switch (cell) {
            case Text text -> text.text();
            case Code code -> code.text();
            case Strong strong -> plain(strong.inner());
            case Aside aside -> aside.text();
            case Link link -> plain(link.label());
            case Joined joined -> joined.parts().stream().map(Table::plain).collect(Collectors.joining());
        };
    }

    /** A cell on a terminal: its text, where no control character may move the cursor or change colours. */
    private static String shown(Cell cell) {
        return plain(cell).replaceAll("\\p{Cntrl}", " ");
    }

    private static Cell cell(Object cell) {
        return cell instanceof Cell ready ? ready : new Text(String.valueOf(cell));
    }

    /**
     * Text in Markdown that stays text: it may come from anyone, so nothing in it may act as markup.
     * A {@code #} or {@code !} can only act at a line's start or before a {@code [}, never here.
     */
    static String escapeMarkdown(String text) {
        StringBuilder escaped = new StringBuilder();
        for (char c : text.toCharArray()) {
            switch (c) {
                case '|', '\\', '`', '*', '_', '[', ']' -> escaped.append('\\').append(c);
                case '<' -> escaped.append("&lt;");
                case '>' -> escaped.append("&gt;");
                case '&' -> escaped.append("&amp;");
                default -> escaped.append(Character.isISOControl(c) ? ' ' : c);
            }
        }
        return escaped.toString();
    }
}
