import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import lib.cli.Quote;
import lib.cli.UserMistakeException;
import lab.tools.AtomicWrite;

/**
 * Keeps the tables of README.md, results/README.md and the docs that hold tables equal to what the committed CSVs give.
 *
 * <p>Only the machine folders named in {@code results/committed-machines.txt} (lab/report/CommittedMachines)
 * are read: a reader's own study, in a folder of its own, changes no table, and a block naming any
 * other folder is refused. A results root without that file ({@code --results DIR}) has every
 * machine folder in it read.
 *
 * <p>A table in those files sits between two markers, and everything between them is this tool's:
 *
 * <pre>
 * &lt;!-- generated:scoreboard machine=amd-epyc-f26m2-2c-avx512 --&gt;
 * | # | chapter | … |
 * &lt;!-- /generated --&gt;
 * </pre>
 *
 * <p>It runs inside the book's check: {@code ./jbang check-book} compares every block with what the
 * CSVs give, and {@code ./jbang check-book --write} rewrites the blocks that differ.
 *
 * <p>Each kind of block is one entry of {@link #KINDS}: a name and a method from the results to
 * Markdown. A table for a new CSV is one entry and one short method in ReadmeBlocks, built on {@link ReadmeResults#rows}
 * and {@link Table}, for instance a sweep of file sizes:
 *
 * <pre>
 * KINDS.put("sizes", ReadmeBlocks::sizes);
 *
 * static String sizes(ReadmeResults results, ReadmeTables.Block block) {
 *     Table table = new Table("chapter", "file", "MB/s");
 *     for (StudyResults.Row row : results.rowsOfEverySize(block.parameter("machine"), "sizes.csv")) {
 *         table.row(Table.code(row.chapter()), PageText.binarySize(row.fileBytes()), mbps(row.mbps()));
 *     }
 *     return table.markdown() + "\n" + source(block, "sizes.csv") + ".\n";
 * }
 * </pre>
 *
 * Exit status: 0 every block is as the CSVs give it (or was rewritten so),
 * 1 with {@code --check} a block differs, 2 a usage error, an unknown block or a CSV that does not
 * read (one line).
 */
public final class ReadmeTables {

    static final Path RESULTS = Path.of("results");

    static final Pattern OPENING = Pattern.compile("<!-- generated:([a-z-]+)((?: [a-z]+=[A-Za-z0-9._-]+)*) -->");
    static final String CLOSING = "<!-- /generated -->";
    static final long FOUR_GIB = 4L << 30;

    /** One kind of generated block: its Markdown, from the results and the block's parameters. */
    interface Kind {
        String markdown(ReadmeResults results, Block block);
    }

    /** Every kind of block, by the name its marker gives. */
    static final Map<String, Kind> KINDS = new LinkedHashMap<>();
    static {
        KINDS.put("machines", ReadmeBlocks::machines);
        KINDS.put("scoreboard", ReadmeBlocks::scoreboard);
        KINDS.put("figure", ReadmeBlocks::figure);
        KINDS.put("pagecache", ReadmeBlocks::pageCache);
        KINDS.put("walls", ReadmeBlocks::walls);
        KINDS.put("scaling", ReadmeBlocks::scaling);
        KINDS.put("cold", ReadmeBlocks::cold);
        KINDS.put("chunks", ReadmeBlocks::chunks);
        KINDS.put("versus-go", ReadmeBlocks::versusGo);
        KINDS.put("answer", ReadmeBlocks::answer);
        KINDS.put("model", ReadmeBlocks::model);
        KINDS.put("model-example", ReadmeBlocks::modelExample);
        KINDS.put("versus-go-machines", ReadmeBlocks::versusGoMachines);
        KINDS.put("answer-machines", ReadmeBlocks::answerMachines);
    }

    /** {@code [--check] [--results DIR] [FILE...]}: as the book's check calls it, and the tests with a folder and pages of their own. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        boolean check = false;
        Path results = RESULTS;
        List<Path> documents = new ArrayList<>();
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--check" -> check = true;
                    case "--results" -> {
                        if (++i == args.length) {
                            throw new UserMistakeException("--results needs a folder");
                        }
                        results = Path.of(args[i]);
                    }
                    default -> {
                        if (args[i].startsWith("-")) {
                            throw new UserMistakeException("unknown option " + Quote.name(args[i]));
                        }
                        documents.add(Path.of(args[i]));
                    }
                }
            }
            if (!Files.isDirectory(results)) {
                throw new UserMistakeException("no results folder " + Quote.name(results) + " (run from the project's root, or give --results DIR)");
            }
            int differing = 0;
            for (Path document : documents.isEmpty() ? ReadmeResults.bookPages() : documents) {
                if (!Files.isRegularFile(document)) {
                    throw new UserMistakeException(Quote.name(document) + " is not a file");
                }
                String text = Files.readString(document);
                ReadmeResults source = new ReadmeResults(results, document.toAbsolutePath().getParent());
                List<String> differences = differences(document.toString(), text, source);
                differing += differences.size();
                if (check) {
                    differences.forEach(err::println);
                } else if (!differences.isEmpty()) {
                    AtomicWrite.write(document, regenerate(document.toString(), text, source));
                    out.println(document + ": " + differences.size() + " block(s) rewritten from " + results);
                }
            }
            if (check && differing > 0) {
                err.println(differing + " generated block(s) differ from the CSVs: ./jbang check-book --write rewrites them");
                return 1;
            }
            if (check) {
                out.println("every generated block is what the CSVs in " + results + " give");
            }
            return 0;
        } catch (UserMistakeException e) {
            err.println(e.getMessage());
            return 2;
        } catch (IOException e) {
            err.println(lib.cli.IoMessage.of(e)); // the file and the reason, whichever Java left out
            return 2;
        }
    }

    /** A generated block: where it is, what its marker asks for, and what it holds now. */
    record Block(String document, int line, String kind, Map<String, String> parameters, int contentStart, int contentEnd, String content) {

        String name() {
            return "generated:" + kind + parameters.entrySet().stream().map(p -> " " + p.getKey() + "=" + p.getValue()).collect(Collectors.joining());
        }

        String parameter(String key) {
            String value = parameters.get(key);
            if (value == null) {
                throw new UserMistakeException(document + ":" + line + ": block " + name() + " needs " + key + "=…");
            }
            return value;
        }
    }

    static List<Block> blocks(String document, String text) {
        List<Block> blocks = new ArrayList<>();
        Matcher opening = OPENING.matcher(text);
        int from = 0;
        while (opening.find(from)) {
            int line = BookClaims.lineOf(text, opening.start());
            if (!KINDS.containsKey(opening.group(1))) {
                throw new UserMistakeException(document + ":" + line + ": no kind of generated block is called "
                        + Quote.name(opening.group(1)) + " (known: " + String.join(", ", KINDS.keySet()) + ")");
            }
            Map<String, String> parameters = new TreeMap<>();
            for (String pair : opening.group(2).strip().split(" ")) {
                if (!pair.isEmpty()) {
                    parameters.put(pair.substring(0, pair.indexOf('=')), pair.substring(pair.indexOf('=') + 1));
                }
            }
            String kind = opening.group(1);
            int contentStart = opening.end() + 1;
            int closing = text.indexOf(CLOSING, opening.end());
            int nextOpening = text.indexOf("<!-- generated:", opening.end());
            if (contentStart > text.length() || text.charAt(opening.end()) != '\n' || closing < 0
                    || (nextOpening >= 0 && closing > nextOpening)) {
                throw new UserMistakeException(document + ":" + line + ": a generated block opens on a line of its own and ends with "
                        + CLOSING + " before the next one opens");
            }
            blocks.add(new Block(document, line, kind, parameters, contentStart, closing, text.substring(contentStart, closing)));
            from = closing + CLOSING.length();
        }
        return blocks;
    }

    /** One line per block of {@code text} whose content is not what the results give. */
    static List<String> differences(String document, String text, ReadmeResults results) {
        List<String> differences = new ArrayList<>();
        for (Block block : blocks(document, text)) {
            if (!block.content().equals(generate(results, block))) {
                differences.add(document + ":" + block.line() + ": block " + block.name() + " differs from what the CSVs in "
                        + results.root() + " give");
            }
        }
        return differences;
    }

    static String regenerate(String document, String text, ReadmeResults results) {
        StringBuilder rewritten = new StringBuilder();
        int done = 0;
        for (Block block : blocks(document, text)) {
            rewritten.append(text, done, block.contentStart()).append(generate(results, block));
            done = block.contentEnd();
        }
        return rewritten.append(text.substring(done)).toString();
    }

    static String generate(ReadmeResults results, Block block) {
        try {
            String markdown = KINDS.get(block.kind()).markdown(results, block);
            return markdown.endsWith("\n") ? markdown : markdown + "\n";
        } catch (UserMistakeException e) {
            throw new UserMistakeException(block.document() + ":" + block.line() + ": block " + block.name() + ": " + e.getMessage());
        }
    }
}
