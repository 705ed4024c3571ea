package lib.cli;

/**
 * File names as the one-line messages show them: in single quotes, with control characters
 * written as escapes, so that a name holding a newline or a quote cannot break a message in two
 * or pass for part of the sentence around it.
 */
public final class Quote {

    private Quote() {}

    /** {@code 'name'}: the path as given, quoted, control characters escaped ({@code \n}, {@code \x1b}). */
    public static String name(Object path) {
        String text = String.valueOf(path);
        StringBuilder quoted = new StringBuilder(text.length() + 2).append('\'');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\n' -> quoted.append("\\n");
                case '\r' -> quoted.append("\\r");
                case '\t' -> quoted.append("\\t");
                case '\\' -> quoted.append("\\\\");
                case '\'' -> quoted.append("\\'");
                default -> {
                    if (Character.isISOControl(c)) {
                        quoted.append(String.format("\\x%02x", (int) c));
                    } else {
                        quoted.append(c);
                    }
                }
            }
        }
        return quoted.append('\'').toString();
    }
}
