// The results README's generated blocks read (lab/report/ReadmeTables.java): only the committed machine
// folders, every row read strictly. No package line, as every file of lab/report/.

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import lab.results.*;
import lib.cli.Quote;
import lib.cli.UserMistakeException;

/**
 * The results this tool reads, each file once, through the project's one reader of results
 * (lab/results/StudyResults.java): every CSV row read strictly (a row that does not read stops the
 * tool with one line naming its file and line), machine.json, and the article's figures.
 *
 * <p>{@link #judging} reads one machine's folder instead, wherever it is and whatever its name (a
 * learner's own study, or a folder from someone else): a row that does not read is left out and
 * said ({@link #leftOut}), as the report leaves it out; a file that is no results CSV at all still
 * throws UserMistakeException, for the one figure that needs it.
 */
final class ReadmeResults {

    /**
     * The book's pages, README.md, results/README.md and every page of docs/: where its tables are
     * generated and its lessons live, each checked, none skipped (the two READMEs alone without docs/).
     */
    static List<Path> bookPages() {
        List<Path> pages = new ArrayList<>(List.of(Path.of("README.md"), Path.of("results", "README.md")));
        try (Stream<Path> docs = Files.list(Path.of("docs"))) {
            docs.filter(page -> page.toString().endsWith(".md")).sorted().forEach(pages::add);
        } catch (IOException noDocs) {
            // the two READMEs alone
        }
        return List.copyOf(pages);
    }

    private final Path root;
    private final Path documentFolder;
    /** The one folder judged, or null: the committed folders under {@link #root}. */
    private final Path judged;
    private final Map<Path, List<StudyResults.Row>> read = new LinkedHashMap<>();
    private final List<String> leftOut = new ArrayList<>();

    ReadmeResults(Path root, Path documentFolder) {
        this(root, documentFolder, null);
    }

    private ReadmeResults(Path root, Path documentFolder, Path judged) {
        this.root = root;
        this.documentFolder = documentFolder;
        this.judged = judged;
    }

    /** One machine's folder, judged alone, named by its folder's name: see the class comment. Its files are named as {@code folder} names them. */
    static ReadmeResults judging(Path folder) {
        Path absolute = folder.toAbsolutePath().normalize();
        if (absolute.getFileName() == null) {
            throw new UserMistakeException(Quote.name(folder) + " is no machine's results folder");
        }
        return new ReadmeResults(absolute.getParent(), Path.of("").toAbsolutePath(), folder);
    }

    /** The judged folder's machine: the folder's name ("results/x/." is x's). */
    String judgedMachine() {
        return judged.toAbsolutePath().normalize().getFileName().toString();
    }

    /** The rows and files left out of the judged folder, one line each (file and line): none for the committed folders, which refuse them. */
    List<String> leftOut() {
        return List.copyOf(new java.util.LinkedHashSet<>(leftOut));
    }

    Path root() {
        return root;
    }

    /** The committed machine folders, when the results root names them (see the class comment). */
    private Optional<java.util.Set<String>> committed;

    private Optional<java.util.Set<String>> committed() {
        if (committed == null) {
            committed = CommittedMachines.of(root);
        }
        return committed;
    }

    /** Every folder of the results root that holds a machine.json, by name; only the committed ones where it names them (or the judged one). */
    List<String> machines() {
        if (judged != null) {
            return List.of(judgedMachine());
        }
        try (Stream<Path> folders = Files.list(root)) {
            return folders.filter(folder -> Files.isRegularFile(folder.resolve("machine.json")))
                    .map(folder -> folder.getFileName().toString())
                    .filter(name -> committed().map(names -> names.contains(name)).orElse(true)).sorted().toList();
        } catch (IOException e) {
            throw new UserMistakeException("cannot list " + Quote.name(root) + ": " + e.getMessage());
        }
    }

    /** A machine's description, read as every reader of results reads it ({@link MachineDescription#read}). */
    MachineDescription machineJson(String machine) {
        Path file = folder(machine).resolve("machine.json");
        MachineDescription description = MachineDescription.read(file);
        if (description.fields().isEmpty() && !description.problems().isEmpty()) {
            throw new UserMistakeException(description.problems().getFirst());
        }
        return description;
    }

    /** The path from the document to a file under the results root, for a link. */
    String link(String underRoot) {
        return documentFolder.relativize(root.toAbsolutePath().normalize()).resolve(underRoot).toString().replace('\\', '/');
    }

    /** The machine's description as every reader reads it: a field that does not read is left out, never a refusal. */
    MachineDescription description(String machine) {
        return MachineDescription.read(folder(machine).resolve("machine.json"));
    }

    boolean has(String machine, String csv) {
        return Files.isRegularFile(folder(machine).resolve(csv));
    }

    Path file(String machine, String csv) {
        return folder(machine).resolve(csv);
    }

    private final Map<Path, List<AnswerResults.Answer>> answers = new LinkedHashMap<>();

    /** The newest row of each one-shot in the machine's answer.csv, read as every CSV here is. */
    List<AnswerResults.Answer> answers(String machine) {
        return answers.computeIfAbsent(folder(machine).resolve(ANSWER_CSV), file -> {
            try {
                AnswerResults.AnswerCsv csv = AnswerResults.read(file);
                keepOrRefuse(csv.problems());
                return csv.newestOfEach();
            } catch (StudyResults.NotResultsException e) {
                leftOut.add(e.getMessage());
                throw new UserMistakeException(e.getMessage());
            }
        });
    }

    /** The answer round's file (lab/study/AnswerRound.TABLE, which the report's tools do not compile). */
    private static final String ANSWER_CSV = "answer.csv";

    /** The rows of one machine's CSV, in file order, of whatever file sizes: for a sweep of sizes. */
    List<StudyResults.Row> rowsOfEverySize(String machine, String csv) {
        return read.computeIfAbsent(folder(machine).resolve(csv), this::parse);
    }

    /** The rows of one machine's CSV, in file order; they must all be of one file size. */
    List<StudyResults.Row> rows(String machine, String csv) {
        Path file = folder(machine).resolve(csv);
        List<StudyResults.Row> rows = rowsOfEverySize(machine, csv);
        if (rows.stream().map(StudyResults.Row::fileBytes).distinct().count() > 1) {
            throw new UserMistakeException(Quote.name(file) + " mixes file sizes (a trial appended to a study?): "
                    + "a README table shows one study");
        }
        return rows;
    }

    private Path folder(String machine) {
        if (judged != null) {
            if (!machine.equals(judgedMachine())) {
                throw new UserMistakeException("only " + Quote.name(judged) + " is judged here, not machine " + Quote.name(machine));
            }
            return judged;
        }
        if (!machine.matches("[A-Za-z0-9][A-Za-z0-9._-]*")) {
            throw new UserMistakeException("machine " + Quote.name(machine) + " is not a folder name");
        }
        if (committed().isPresent() && !committed().get().contains(machine)) {
            throw new UserMistakeException("machine " + Quote.name(machine) + " is not one of the folders committed with the project ("
                    + root.resolve(CommittedMachines.FILE_NAME) + ")");
        }
        Path folder = root.resolve(machine);
        if (!Files.isDirectory(folder)) {
            throw new UserMistakeException("no results folder " + Quote.name(folder));
        }
        return folder;
    }

    /**
     * Every row of the CSV, read strictly: a row that does not read stops the tool with its one
     * line; in a judged folder it is left out, and said.
     */
    private List<StudyResults.Row> parse(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new UserMistakeException("no " + Quote.name(file));
        }
        try {
            StudyResults.Csv csv = judged == null ? StudyResults.readEveryRow(file) : StudyResults.read(file);
            keepOrRefuse(csv.problems());
            return csv.rows();
        } catch (StudyResults.NotResultsException e) {
            leftOut.add(e.getMessage());
            throw new UserMistakeException(e.getMessage());
        }
    }

    /** Rows that did not read: said, in a judged folder; the first stops the tool, for the committed ones. */
    private void keepOrRefuse(List<String> problems) {
        if (judged == null && !problems.isEmpty()) {
            throw new UserMistakeException(problems.getFirst());
        }
        leftOut.addAll(problems);
    }

    private final Map<String, Map<String, ArticleFigures.ArticleRow>> article = new HashMap<>();

    /** The article's figures for {@code chapter} in one of its tables (scoreboard, scaling, cold), from beside the results. */
    Optional<ArticleFigures.ArticleRow> article(String table, String chapter) {
        Map<String, ArticleFigures.ArticleRow> byNumber = article.computeIfAbsent(table, t -> {
            Map<String, ArticleFigures.ArticleRow> rows = new HashMap<>();
            try {
                ArticleFigures.of(root.resolve("reference").resolve("go-blog-figures.csv"), t).forEach(row -> rows.put(row.number(), row));
            } catch (StudyResults.NotResultsException e) {
                throw new UserMistakeException(e.getMessage());
            }
            return rows;
        });
        return Optional.ofNullable(byNumber.get(StudyResults.chapterNumber(chapter)));
    }
}
