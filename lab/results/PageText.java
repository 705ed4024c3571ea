// Text from a results folder on its way into a page (the report's and the notebooks' charts). No
// package line: JShell, which runs the notebooks, cannot take one.

/** Text as HTML, and script text that cannot end its element. */
final class PageText {

    private PageText() {}

    /** Text as HTML: the one way any value from a CSV or machine.json reaches a page. */
    static String html(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;").replace("'", "&#39;");
    }

    /**
     * Script text that cannot end its {@code <script>} element early: {@code <}, {@code >},
     * {@code &}, U+2028 and U+2029 become Unicode escapes. Only for script whose strings hold these
     * characters (JSON, or code made of data): inside a string literal an escape is the same character.
     */
    static String insideScript(String script) {
        return script.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
                .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029");
    }
}
