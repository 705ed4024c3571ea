package lib.cli;

import picocli.CommandLine;

/**
 * Reads a picocli option written as a count ({@code --runs 5}, {@code --workers 2}) in the digits 0 to 9
 * only: Java's own {@code Integer.valueOf} also reads other scripts' digits (a full-width {@code ２}),
 * which no one types on purpose.
 */
public final class CountConverter implements CommandLine.ITypeConverter<Integer> {
    @Override
    public Integer convert(String text) {
        if (!text.matches("[+-]?[0-9]{1,10}")) {
            throw new CommandLine.TypeConversionException("'" + text + "' is not a whole number (digits 0 to 9)");
        }
        try {
            return Integer.valueOf(text);
        } catch (NumberFormatException tooLarge) {
            throw new CommandLine.TypeConversionException("'" + text + "' is too large a number");
        }
    }
}
