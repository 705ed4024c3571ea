// Text from a results folder on its way into a page (the report's and the notebooks' charts).

package lab.results;

import java.util.Locale;

/** Text as HTML, a byte size, and script text that cannot end its element. */
public final class PageText {

    private PageText() {}

    /** Text as HTML: the one way any value from a CSV or machine.json reaches a page. */
    public static String html(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;").replace("'", "&#39;");
    }

    /**
     * Script text that cannot end its {@code <script>} element early: {@code <}, {@code >},
     * {@code &}, U+2028 and U+2029 become Unicode escapes. Only for script whose strings hold these
     * characters (JSON, or code made of data): inside a string literal an escape is the same character.
     */
    public static String insideScript(String script) {
        return script.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
                .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029");
    }

    /** Powers of two read better as "4 GiB" than as 4294967296. */
    public static String binarySize(long bytes) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        int unit = 0;
        double size = bytes;
        while (unit < units.length - 1 && size >= 1024) {
            size /= 1024;
            unit++;
        }
        return (size == Math.rint(size) ? String.valueOf((long) size) : String.format(Locale.ROOT, "%.1f", size)) + " " + units[unit];
    }
}
