// The project's one table model: README's and the docs' generated blocks are its Markdown
// (lab/report/ReadmeBlocks.java), the report page's tables its HTML (lab/results/ReportTables.java), a tool's
// summary its text.

package lab.results;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A table whose cells are text, never markup: each writer ({@link #markdown}, {@link #html},
 * {@link #text}) escapes every cell for its format, so no value from a CSV or machine.json can
 * become markup in any of them. A String is plain text; {@link #code}, {@link #strong},
 * {@link #link} and {@link #join} set a cell otherwise.
 */
public final class Table {

    sealed interface Cell permits Text, Code, Strong, Link, Joined {}
    record Text(String text) implements Cell {}
    record Code(String text) implements Cell {}
    record Strong(Cell inner) implements Cell {}
    record Link(Cell label, String target) implements Cell {}
    record Joined(List<Cell> parts) implements Cell {}

    public static Cell code(String text) {
        return new Code(text);
    }

    public static Cell strong(boolean strong, Object cell) {
        return strong ? new Strong(cell(cell)) : cell(cell);
    }

    public static Cell link(Object label, String target) {
        return new Link(cell(label), target);
    }

    /** Cells one after the other, as one: join("13 ", code("V13PreadVector")). */
    public static Cell join(Object... parts) {
        return new Joined(Arrays.stream(parts).map(Table::cell).toList());
    }

    private final List<Cell> header;
    private final List<List<Cell>> rows = new ArrayList<>();

    public Table(Object... header) {
        this.header = Arrays.stream(header).map(Table::cell).toList();
    }

    public Table(List<?> header) {
        this(header.toArray());
    }

    public Table row(Object... cells) {
        if (cells.length != header.size()) {
            throw new IllegalArgumentException(cells.length + " cells for " + header.size() + " columns");
        }
        rows.add(Arrays.stream(cells).map(Table::cell).toList());
        return this;
    }

    public Table row(List<?> cells) {
        return row(cells.toArray());
    }

    boolean isEmpty() {
        return rows.isEmpty();
    }

    /** A GitHub Markdown table; a column of figures alone is set flush right. */
    public String markdown() {
        StringBuilder markdown = new StringBuilder(line(header, Table::markdown, "| ", " | ", " |\n")).append("|");
        for (int column = 0; column < header.size(); column++) {
            markdown.append(figures(column) ? "--:|" : "---|");
        }
        markdown.append('\n');
        rows.forEach(cells -> markdown.append(line(cells, Table::markdown, "| ", " | ", " |\n")));
        return markdown.toString();
    }

    public String html() {
        StringBuilder html = new StringBuilder("<table>\n").append(line(header, Table::html, "<tr><th>", "</th><th>", "</th></tr>\n"));
        rows.forEach(cells -> html.append(line(cells, Table::html, "<tr><td>", "</td><td>", "</td></tr>\n")));
        return html.append("</table>\n").toString();
    }

    /** For a terminal: columns padded to their widest cell, two spaces apart, figures flush right. */
    public String text() {
        List<List<String>> lines = new ArrayList<>(List.of(header.stream().map(Table::plain).toList()));
        rows.forEach(cells -> lines.add(cells.stream().map(Table::plain).toList()));
        int[] widths = new int[header.size()];
        boolean[] flushRight = new boolean[header.size()];
        for (int c = 0; c < widths.length; c++) {
            int column = c;
            widths[c] = lines.stream().mapToInt(line -> line.get(column).length()).max().orElse(0);
            flushRight[c] = figures(c);
        }
        StringBuilder text = new StringBuilder();
        for (List<String> line : lines) {
            StringBuilder padded = new StringBuilder();
            for (int c = 0; c < line.size(); c++) {
                String cell = line.get(c), pad = " ".repeat(widths[c] - cell.length());
                padded.append(c == 0 ? "" : "  ").append(flushRight[c] ? pad + cell : cell + pad);
            }
            text.append(padded.toString().stripTrailing()).append('\n');
        }
        return text.toString();
    }

    private boolean figures(int column) {
        return !rows.isEmpty() && rows.stream().allMatch(cells -> plain(cells.get(column)).matches("[-–0-9.,% ]*"));
    }

    private static String line(List<Cell> cells, Function<Cell, String> writer, String start, String between, String end) {
        return cells.stream().map(writer).collect(Collectors.joining(between, start, end));
    }

    private static String markdown(Cell cell) {
        return switch (cell) {
            case Text text -> escapeMarkdown(text.text());
            // No escape works inside a code span: a backtick would end it, and a bar the table's cell.
            case Code code -> "`" + code.text().replace('`', '\'').replace("|", "\\|").replaceAll("\\p{Cntrl}", " ") + "`";
            case Strong strong -> "**" + markdown(strong.inner()) + "**";
            case Link link -> "[" + markdown(link.label()) + "](" + link.target().replace(" ", "%20").replace(")", "%29") + ")";
            case Joined joined -> joined.parts().stream().map(Table::markdown).collect(Collectors.joining());
        };
    }

    private static String html(Cell cell) {
        return switch (cell) {
            case Text text -> PageText.html(text.text());
            case Code code -> "<code>" + PageText.html(code.text()) + "</code>";
            case Strong strong -> "<strong>" + html(strong.inner()) + "</strong>";
            case Link link -> "<a href=\"" + PageText.html(link.target()) + "\">" + html(link.label()) + "</a>";
            case Joined joined -> joined.parts().stream().map(Table::html).collect(Collectors.joining());
        };
    }

    /** What a cell shows, with no markup, and no control character to move a terminal's cursor. */
    private static String plain(Cell cell) {
        return switch (cell) {
            case Text text -> text.text().replaceAll("\\p{Cntrl}", " ");
            case Code code -> code.text().replaceAll("\\p{Cntrl}", " ");
            case Strong strong -> plain(strong.inner());
            case Link link -> plain(link.label());
            case Joined joined -> joined.parts().stream().map(Table::plain).collect(Collectors.joining());
        };
    }

    private static Cell cell(Object cell) {
        return cell instanceof Cell ready ? ready : new Text(String.valueOf(cell));
    }

    /** A rate in MB/s as every table and sentence writes one: whole, with thousands separators; "–" where there is none. */
    public static String mbps(Double megabytesPerSecond) {
        return megabytesPerSecond == null ? "–" : String.format(Locale.ROOT, "%,.0f", megabytesPerSecond);
    }

    /** A time in seconds, to the millisecond; "–" where there is none. */
    public static String seconds(Double seconds) {
        return seconds == null ? "–" : String.format(Locale.ROOT, "%.3f", seconds);
    }

    /**
     * Text in Markdown that stays text: it may come from anyone, so nothing in it may act as markup.
     * A {@code #} or {@code !} acts only at a line's start or before a {@code [}, never here.
     */
    public static String escapeMarkdown(String text) {
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
