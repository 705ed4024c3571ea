package lib.cli;

import picocli.CommandLine;

/** Reads a picocli option written as a size ({@code 4g}, {@code 64m}, {@code 4096}) through {@link Sizes#parse}. */
public final class SizeConverter implements CommandLine.ITypeConverter<Long> {
    @Override
    public Long convert(String text) {
        try {
            return Sizes.parse(text);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }
}
