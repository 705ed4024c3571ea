package lib.harness;

import lib.cli.PathConverter;
import lib.cli.SizeConverter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * The command lines people type most, read without picocli: a FILE, and {@code --runs},
 * {@code --warmup}, {@code --workers}, {@code --chunk} or {@code --size} with plain values, such as
 * {@code haystack.bin --runs 1 --warmup 0}.
 *
 * <p>Why: before it parses anything, picocli builds a model of every option from their
 * annotations, and in a fresh JVM that takes longer than the search it precedes (0.16 s of a
 * 0.63 s one-shot, docs/startup.md). Everything else still goes to picocli, which stays the one
 * place the options are declared, described and refused: {@code --help}, any other option, any
 * value that is not a plain number or size, an option given twice, a chapter with options of its
 * own. So a mistake gets picocli's one line, never one of this class's. {@code PlainCommandLineTest}
 * holds the two to the same options for every form this class reads.
 */
final class PlainCommandLine {

    /** Plain counts: digits, no sign, no leading zero, small enough for an int. */
    private static final String COUNT = "0|[1-9][0-9]{0,8}";

    private PlainCommandLine() {}

    /**
     * Why {@code args} must not reach picocli, in one line, or null: an empty argument, which it
     * would take for the default FILE, and a {@code --workers} or {@code --chunk} list ending in a
     * comma, whose empty last item it would drop (an empty item elsewhere it refuses itself).
     */
    static String refusedBeforeParsing(String[] args) {
        for (int i = 0; i < args.length; i++) {
            if (args[i].isEmpty()) {
                return "an empty argument (\"\") is neither a file nor a value; leave it out or give one";
            }
            int equals = args[i].indexOf('=');
            String name = equals > 0 ? args[i].substring(0, equals) : args[i];
            String value = equals > 0 ? args[i].substring(equals + 1) : i + 1 < args.length ? args[i + 1] : "";
            if ((name.equals("--workers") || name.equals("--chunk")) && value.endsWith(",") && !value.matches(",+")) { // "," is no list: picocli says so
                return name + " " + value + ": the list ends in a comma, an empty value; leave the comma out";
            }
        }
        return null;
    }

    /**
     * Sets on {@code harness} the options {@code args} give, when every argument is one of the plain
     * forms, and returns true; returns false, having set nothing, when picocli must read them.
     * Options not given keep their fields' first values, which are picocli's defaults too.
     */
    static boolean read(String[] args, Harness harness) {
        Plain plain = new Plain();
        Set<String> given = new HashSet<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (!arg.startsWith("-")) {
                if (plain.file != null || arg.isEmpty()) {
                    return false;
                }
                plain.file = arg;
                continue;
            }
            int equals = arg.indexOf('=');
            String name = equals > 0 ? arg.substring(0, equals) : arg;
            String value = equals > 0 ? arg.substring(equals + 1) : i + 1 < args.length ? args[++i] : null;
            if (value == null || !given.add(name) || !plain.accept(name, value)) {
                return false;
            }
        }
        if (plain.file != null) { // converted first: a name this JVM cannot encode is picocli's to refuse
            try {
                plain.path = new PathConverter().convert(plain.file);
            } catch (RuntimeException refused) {
                return false;
            }
        }
        plain.setOn(harness);
        return true;
    }

    /** The values read so far; nothing reaches the harness until every argument has been read. */
    private static final class Plain {
        String file;
        Path path;
        Integer runs;
        Integer warmup;
        Long size;
        List<Integer> workers;
        List<Long> chunks;

        /** Takes one option and its value; false for any option or value this class does not read. */
        boolean accept(String name, String value) {
            return switch (name) {
                case "--runs" -> (runs = count(value)) != null;
                case "--warmup" -> (warmup = count(value)) != null;
                case "--workers" -> (workers = list(value, Plain::count)) != null;
                case "--size" -> (size = size(value)) != null;
                case "--chunk" -> (chunks = list(value, Plain::size)) != null;
                default -> false;
            };
        }

        void setOn(Harness harness) {
            RunOptions options = harness.runOptions;
            if (path != null) {
                options.haystack.file = path;
            }
            if (size != null) {
                options.haystack.size = size;
            }
            if (runs != null) {
                options.runs = runs;
            }
            if (warmup != null) {
                options.warmup = warmup;
            }
            if (workers != null) {
                harness.workers = workers;
            }
            if (chunks != null) {
                harness.chunks = chunks;
            }
        }

        private static Integer count(String text) {
            return text.matches(COUNT) ? Integer.valueOf(text) : null;
        }

        private static Long size(String text) {
            try {
                return new SizeConverter().convert(text);
            } catch (RuntimeException notASize) {
                return null;
            }
        }

        /** A comma-separated list, each item read by {@code item}; null if any item is empty or unread. */
        private static <T> List<T> list(String text, Function<String, T> item) {
            List<T> items = new ArrayList<>();
            for (String piece : text.split(",", -1)) {
                T value = piece.isEmpty() ? null : item.apply(piece);
                if (value == null) {
                    return null;
                }
                items.add(value);
            }
            return items;
        }
    }
}
