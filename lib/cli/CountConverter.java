package lib.cli;

import picocli.CommandLine;

/**
 * Reads a picocli option written as a count ({@code --runs 5}, {@code --workers 2}) in the digits 0 to 9
 * only: Java's own {@code Integer.valueOf} also reads other scripts' digits (a full-width {@code ２}),
 * which no one types on purpose. A count of digits that no int holds is out of range, and said so.
 * {@link ProjectCommandLine#of} registers it for every int and Integer option of every tool, the
 * harness for the chapters' (lib/harness/Harness).
 */
public final class CountConverter implements CommandLine.ITypeConverter<Integer> {
    @Override
    public Integer convert(String text) {
        if (!text.matches("[+-]?[0-9]+")) {
            throw new CommandLine.TypeConversionException("'" + text + "' is not a whole number (digits 0 to 9)");
        }
        String digits = text.replaceFirst("^[+-]?0*", "");
        boolean negative = text.startsWith("-");
        if (digits.length() > 10 || (!digits.isEmpty() && Long.parseLong(digits) > (negative ? -(long) Integer.MIN_VALUE : Integer.MAX_VALUE))) {
            throw new CommandLine.TypeConversionException("'" + text + "' is out of range: a count is "
                    + (negative ? "at least " + Integer.MIN_VALUE : "at most " + Integer.MAX_VALUE) + " here");
        }
        return Integer.valueOf(text);
    }
}
