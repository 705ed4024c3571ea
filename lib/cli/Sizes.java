package lib.cli;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Byte counts as people write them: {@code 4g}, {@code 64m}, {@code 512k}, {@code 4096} (powers of 1024). */
public final class Sizes {

    private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*([kmgt]?)(i?b)?", Pattern.CASE_INSENSITIVE);

    private Sizes() {}

    public static long parse(String text) {
        Matcher m = SIZE.matcher(text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a size (try 4g, 64m, 512k or a number of bytes)");
        }
        int shift = switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "k" -> 10;
            case "m" -> 20;
            case "g" -> 30;
            case "t" -> 40;
            default -> 0;
        };
        try {
            long number = Long.parseLong(m.group(1));
            if (number > (Long.MAX_VALUE >> shift)) {
                throw new NumberFormatException();
            }
            return number << shift;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is too large a size");
        }
    }

    /** A short human form: {@code 4.0 GiB}. */
    public static String human(long bytes) {
        String[] units = {"bytes", "KiB", "MiB", "GiB", "TiB"};
        double value = bytes;
        int unit = 0;
        while (value >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return unit == 0 ? bytes + " bytes" : String.format(Locale.ROOT, "%.1f %s", value, units[unit]);
    }
}
