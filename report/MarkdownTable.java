// A Markdown table, for README's generated blocks (report/ReadmeTables.java). No package line, as
// every file of report/.

import java.util.ArrayList;
import java.util.List;

/** A Markdown table whose cells are given ready: escape untrusted text with {@link #escape}. */
final class MarkdownTable {
    private final String[] header;
    private final List<String[]> rows = new ArrayList<>();

    MarkdownTable(String... header) {
        this.header = header;
    }

    void row(String... cells) {
        if (cells.length != header.length) {
            throw new IllegalArgumentException(cells.length + " cells for " + header.length + " columns");
        }
        rows.add(cells);
    }

    String markdown() {
        StringBuilder markdown = new StringBuilder("| ").append(String.join(" | ", header)).append(" |\n|");
        for (int i = 0; i < header.length; i++) {
            int column = i;
            boolean figures = !rows.isEmpty() && rows.stream().allMatch(cells -> cells[column].matches("[-–0-9.,% ]*"));
            markdown.append(figures ? "--:|" : "---|");
        }
        markdown.append('\n');
        rows.forEach(cells -> markdown.append("| ").append(String.join(" | ", cells)).append(" |\n"));
        return markdown.toString();
    }

    static String escape(String text) {
        StringBuilder escaped = new StringBuilder();
        for (char c : text.toCharArray()) {
            switch (c) {
                case '|', '\\', '`', '*', '_', '[', ']', '#', '!' -> escaped.append('\\').append(c);
                case '<' -> escaped.append("&lt;");
                case '>' -> escaped.append("&gt;");
                case '&' -> escaped.append("&amp;");
                default -> escaped.append(Character.isISOControl(c) ? ' ' : c);
            }
        }
        return escaped.toString();
    }
}
