// Where the book's pages send a reader: their links, anchors, commands and project paths, each
// checked against the project for the book's check (lab/report/CheckBook.java). No package line,
// as every file of lab/report/.

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import lib.cli.Quote;

/**
 * A page of the book sends its reader to four kinds of place, and each must be there:
 *
 * <ul>
 * <li>a relative Markdown link ({@code [text](docs/cold.md#the-cold-round)}, an image, a reference
 * definition, an HTML {@code href} or {@code src}) to a file or folder of the project, and its
 * {@code #anchor}, on the same page or another Markdown page, to a heading there as GitHub names
 * it ({@link #slug}) or to an HTML {@code id} or {@code name};
 * <li>a command {@code ./jbang NAME} in code, to an alias of jbang-catalog.json or a script;
 * <li>a project path in code (in backticks, or in a fenced block), one that starts with a folder of
 * {@link #PROJECT_FOLDERS}, to a file or folder ({@code lib/cli/Quote} may name its class, {@code lib/cli/Quote.java}).
 * </ul>
 *
 * A path or a command's name may hold placeholders: {@code <machine>}, a word in capitals
 * ({@code MACHINE}, {@code NAME}, {@code VNN}), {@code *}, {@code …}, {@code $n}. Such a path
 * stands for files a reader makes, so only its folders before the first placeholder must be there;
 * a command's name with one must fit some alias or script. Code blocks and comments are no links;
 * links and anchors inside code are not followed.
 */
final class PageLinks {

    /** The project's folders: a path written in backticks that starts with one of them is a file of the project. */
    static final List<String> PROJECT_FOLDERS = List.of("variants/", "lib/", "lab/", "notebooks/", "results/", "docs/", "tests/");

    private static final Pattern FENCE = Pattern.compile("^ {0,3}(```+|~~~+)");
    private static final Pattern COMMENT = Pattern.compile("<!--[\\s\\S]*?-->");
    private static final Pattern CODE_SPAN = Pattern.compile("(?<!`)(`+)(?!`)((?:[^`\\n]|\\n(?![ \\t]*\\n))+?)\\1(?!`)");
    private static final Pattern INLINE_LINK = Pattern.compile("\\]\\(\\s*(<[^>\\n]*>|[^)\\s]+)(?:\\s+\"[^\"\\n]*\")?\\s*\\)");
    private static final Pattern REFERENCE_LINK = Pattern.compile("(?m)^ {0,3}\\[[^\\]\\n]+\\]:\\s+(<[^>\\n]*>|\\S+)");
    private static final Pattern HTML_LINK = Pattern.compile("\\b(?:href|src)=\"([^\"]*)\"");
    private static final Pattern HTML_ID = Pattern.compile("\\b(?:id|name)=\"([^\"]+)\"");
    private static final Pattern HEADING = Pattern.compile("(?m)^ {0,3}#{1,6}[ \\t]+(.*?)(?:[ \\t]+#+)?[ \\t]*$");
    private static final Pattern COMMAND = Pattern.compile("\\./jbang((?:[ \\t]+-\\S+)*)[ \\t]+([^\\s`'\")\\]-][^\\s`'\")\\]]*)");
    private static final Pattern SCHEME = Pattern.compile("^(?:[A-Za-z][A-Za-z0-9+.-]*:|//)");
    private static final Pattern ALIAS = Pattern.compile("\"([A-Za-z0-9._-]+)\"\\s*:\\s*\\{[^{}]*\"script-ref\"");
    /** A placeholder: a reader's own word in angle brackets, a word in capitals, a wildcard, an ellipsis, a shell variable. */
    private static final Pattern PLACEHOLDER = Pattern.compile("<[^>]*>|(?<![A-Z])[A-Z]{2,}(?![a-z])|\\*|…|\\.\\.\\.|\\$\\w+|\\{\\w*\\}");

    private final Path root;
    private final Set<String> aliases;
    private final Map<Path, Set<String>> anchors = new HashMap<>();

    /** The project at {@code root}, its aliases read from its jbang-catalog.json. */
    PageLinks(Path root) throws IOException {
        this(root, aliases(Files.readString(root.resolve("jbang-catalog.json"))));
    }

    PageLinks(Path root, Set<String> aliases) {
        this.root = root.toAbsolutePath().normalize();
        this.aliases = Set.copyOf(aliases);
    }

    /** The aliases of a catalog: each key whose object has a script-ref. */
    static Set<String> aliases(String catalog) {
        Set<String> names = new LinkedHashSet<>();
        ALIAS.matcher(catalog).results().forEach(alias -> names.add(alias.group(1)));
        return names;
    }

    /** One line per place the page sends its reader that is not there, each naming the page and line. */
    List<String> faults(Path page) throws IOException {
        String text = Files.readString(page);
        String prose = blank(withoutFencedCode(text), COMMENT);
        String plain = blank(prose, CODE_SPAN);
        List<String> faults = new ArrayList<>();
        for (Pattern link : List.of(INLINE_LINK, REFERENCE_LINK, HTML_LINK)) {
            Matcher target = link.matcher(plain);
            while (target.find()) {
                String why = link(page, target.group(1).replaceAll("^<|>$", ""));
                if (why != null) {
                    faults.add(page + ":" + BookClaims.lineOf(text, target.start(1)) + ": " + why);
                }
            }
        }
        Matcher span = CODE_SPAN.matcher(prose);
        while (span.find()) {
            paths(span.group(2)).forEach(why -> faults.add(page + ":" + BookClaims.lineOf(text, span.start(2)) + ": " + why));
            commands(span.group(2)).forEach(why -> faults.add(page + ":" + BookClaims.lineOf(text, span.start(2)) + ": " + why));
        }
        String code = blank(text, Pattern.compile("[^\\n]")); // only the fenced code, each line where it stands
        for (int[] block : fencedBlocks(text)) {
            code = code.substring(0, block[0]) + text.substring(block[0], block[1]) + code.substring(block[1]);
            int line = BookClaims.lineOf(text, block[0]);
            for (String codeLine : text.substring(block[0], block[1]).split("\n", -1)) {
                int at = line++;
                paths(codeLine).forEach(why -> faults.add(page + ":" + at + ": " + why));
            }
        }
        Matcher command = COMMAND.matcher(code);
        while (command.find()) {
            String why = command(command.group(2));
            if (why != null) {
                faults.add(page + ":" + BookClaims.lineOf(text, command.start()) + ": " + why);
            }
        }
        return faults;
    }

    /** Why a link's target is not there, or null when it is (or leads out of the project, to the web). */
    private String link(Path page, String target) {
        if (target.isEmpty() || SCHEME.matcher(target).find()) {
            return null;
        }
        int hash = target.indexOf('#');
        String file = URLDecoder.decode((hash < 0 ? target : target.substring(0, hash)).replace("+", "%2B"), StandardCharsets.UTF_8);
        String anchor = hash < 0 ? null : URLDecoder.decode(target.substring(hash + 1).replace("+", "%2B"), StandardCharsets.UTF_8);
        Path pageFolder = page.toAbsolutePath().normalize().getParent();
        Path resolved = file.isEmpty() ? page.toAbsolutePath().normalize() : pageFolder.resolve(file).normalize();
        if (!resolved.startsWith(root)) {
            return "the link " + Quote.name(target) + " leads out of the project";
        }
        if (!Files.exists(resolved)) {
            return "the link " + Quote.name(target) + " leads to no file: there is no " + root.relativize(resolved);
        }
        if (anchor == null || !resolved.toString().endsWith(".md")) {
            return null; // an anchor in a file GitHub does not render as a page (a line of code) is not checked
        }
        try {
            if (!anchors(resolved).contains(anchor)) {
                return "the link " + Quote.name(target) + " names no heading of " + root.relativize(resolved) + " (no anchor #" + anchor + ")";
            }
        } catch (IOException unreadable) {
            return "the link " + Quote.name(target) + " leads to " + root.relativize(resolved) + ", which does not read: " + unreadable.getMessage();
        }
        return null;
    }

    /** The anchors of a Markdown page: its headings' slugs, as GitHub numbers repeats, and its HTML ids. */
    Set<String> anchors(Path markdown) throws IOException {
        Set<String> known = anchors.get(markdown);
        if (known == null) {
            known = anchorsOf(Files.readString(markdown));
            anchors.put(markdown, known);
        }
        return known;
    }

    static Set<String> anchorsOf(String text) {
        String prose = blank(withoutFencedCode(text), COMMENT);
        Set<String> anchors = new LinkedHashSet<>();
        Map<String, Integer> repeats = new HashMap<>();
        Matcher heading = HEADING.matcher(prose);
        while (heading.find()) {
            String slug = slug(heading.group(1)), numbered = slug;
            while (repeats.containsKey(numbered)) { // as GitHub's slugger: the second "x" is x-1, the third x-2
                int count = repeats.merge(slug, 1, Integer::sum);
                numbered = slug + "-" + count;
            }
            repeats.put(numbered, 0);
            anchors.add(numbered);
        }
        HTML_ID.matcher(blank(prose, CODE_SPAN)).results().forEach(id -> anchors.add(id.group(1)));
        return anchors;
    }

    /**
     * A heading's anchor as GitHub makes it: the text as rendered (code, links and emphasis give their
     * words), in lower case, every character but letters, digits, '-', '_' and spaces dropped, each
     * space a '-'.
     */
    static String slug(String heading) {
        String rendered = heading.replaceAll("!?\\[([^\\]]*)\\]\\([^)]*\\)", "$1").replaceAll("<[^>]+>", "").replaceAll("[`*]", "")
                .replaceAll("(?<![\\w])_{1,2}|_{1,2}(?![\\w])", "");
        return rendered.strip().toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{M}\\p{N}_\\- ]", "").replace(' ', '-');
    }

    /** Why a project path in a code span, or a line of a code block, is not there: one line for each. */
    private List<String> paths(String span) {
        List<String> faults = new ArrayList<>();
        String withoutScripts = COMMAND.matcher(span).replaceAll("./jbang$1"); // a command's script is the command's check
        for (String token : withoutScripts.replaceAll("<[^>]*>", "<>").split("\\s+")) {
            String path = token.replaceAll("^[(\\['\"]+", "").replaceAll("['’]s$", "").replaceAll("[.,;:)\\]'\"]+$", "").replaceAll("(\\.\\w+):\\d+$", "$1").replaceAll("#.*$", "");
            if (PROJECT_FOLDERS.stream().anyMatch(path::startsWith) && !isThere(path)) {
                faults.add("`" + path + "` names no file or folder of the project");
            }
        }
        return faults;
    }

    /** A path of the project, a class named by its path, or a path with placeholders whose folders before the first are there. */
    private boolean isThere(String path) {
        if (Files.exists(root.resolve(path)) || Files.isRegularFile(root.resolve(path + ".java"))) {
            return true;
        }
        Matcher placeholder = PLACEHOLDER.matcher(path);
        if (!placeholder.find()) {
            return false;
        }
        String before = path.substring(0, path.lastIndexOf('/', placeholder.start()) + 1);
        return Files.isDirectory(root.resolve(before.isEmpty() ? "." : before));
    }

    private List<String> commands(String span) {
        List<String> faults = new ArrayList<>();
        Matcher command = COMMAND.matcher(span);
        while (command.find()) {
            String why = command(command.group(2));
            if (why != null) {
                faults.add(why);
            }
        }
        return faults;
    }

    /** Why {@code ./jbang NAME} runs nothing, or null: NAME is an alias, a script of the project, or a placeholder that fits one. */
    private String command(String written) {
        String name = written.replaceAll("[.,;:]+$", "");
        if (aliases.contains(name) || Files.isRegularFile(root.resolve(name))) {
            return null;
        }
        if (PLACEHOLDER.matcher(name).find()) {
            Pattern fits = Pattern.compile(PLACEHOLDER.splitAsStream(name + "\0").map(Pattern::quote)
                    .reduce((left, right) -> left + ".+" + right).orElseThrow().replace("\0", ""));
            if (aliases.stream().anyMatch(alias -> fits.matcher(alias).matches()) || scriptFits(fits, name)) {
                return null;
            }
        }
        return "./jbang " + name + " names no alias of jbang-catalog.json and no script of the project";
    }

    /** Some file in the folder the name's path gives fits the name with its placeholders. */
    private boolean scriptFits(Pattern fits, String name) {
        int slash = name.lastIndexOf('/');
        Path folder = root.resolve(slash < 0 ? "." : name.substring(0, slash));
        if (!Files.isDirectory(folder)) {
            return false;
        }
        try (var files = Files.list(folder)) {
            return files.map(file -> root.relativize(file.toAbsolutePath().normalize()).toString().replace('\\', '/'))
                    .anyMatch(file -> fits.matcher(file).matches());
        } catch (IOException unreadable) {
            return false;
        }
    }

    /** The start and end of each fenced code block's lines, fences included. */
    private static List<int[]> fencedBlocks(String text) {
        List<int[]> blocks = new ArrayList<>();
        int at = 0, start = -1;
        String fence = null;
        for (String line : text.split("\n", -1)) {
            Matcher opening = FENCE.matcher(line);
            if (fence == null && opening.find()) {
                fence = opening.group(1);
                start = at;
            } else if (fence != null && line.strip().startsWith(fence) && line.strip().replace(fence.substring(0, 1), "").isEmpty()) {
                blocks.add(new int[] {start, at + line.length()});
                fence = null;
            }
            at += line.length() + 1;
        }
        if (fence != null) {
            blocks.add(new int[] {start, text.length()});
        }
        return blocks;
    }

    private static String withoutFencedCode(String text) {
        StringBuilder blanked = new StringBuilder(text);
        fencedBlocks(text).forEach(block -> blank(blanked, block[0], block[1]));
        return blanked.toString();
    }

    /** The text with each match of {@code pattern} turned to spaces: see {@link #blank(StringBuilder, int, int)}. */
    private static String blank(String text, Pattern pattern) {
        StringBuilder blanked = new StringBuilder(text);
        pattern.matcher(text).results().forEach(match -> blank(blanked, match.start(), match.end()));
        return blanked.toString();
    }

    /** Turns the text from {@code start} to {@code end} to spaces, its line breaks kept, so every offset stays where it was. */
    private static void blank(StringBuilder text, int start, int end) {
        for (int i = start; i < end; i++) {
            if (text.charAt(i) != '\n') {
                text.setCharAt(i, ' ');
            }
        }
    }
}
