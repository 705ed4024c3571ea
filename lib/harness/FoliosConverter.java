package lib.harness;

import picocli.CommandLine;

/** Reads {@code --page-cache}: "as-is", "small" or "huge", with picocli's one-line message for anything else. */
public final class FoliosConverter implements CommandLine.ITypeConverter<PageCache.Folios> {
    @Override
    public PageCache.Folios convert(String text) {
        try {
            return PageCache.Folios.of(text);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }
}
