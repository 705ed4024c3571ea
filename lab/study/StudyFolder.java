// What the study keeps in its machine's folder besides the rows it appends: machine.json, written
// whole, and the rows already there for --resume. No package line, as every file of study/: the
// study compiles them together with its //SOURCES.

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import lab.results.*;
import lib.cli.IoMessage;
import lib.cli.Quote;
import lib.cli.UserMistakeException;
import lib.harness.Machine;
import lib.haystack.Haystack;
import lab.tools.AtomicWrite;

/** The study's machine folder: its description, and what it already holds. */
final class StudyFolder {

    private StudyFolder() {}

    /**
     * machine.json: what this machine is, where the haystack lives, and whether the study is a trial.
     * Written anew by each study into its own machine's folder, whole or not at all (a new file renamed
     * over the old); a machine.json that describes another machine, or none, is left alone.
     */
    static void describeMachine(Study study, long fileBytes) throws IOException {
        study.studiedBytes = fileBytes;
        checkMachineDescription(study);
        Path json = study.folder.resolve("machine.json");
        List<String> trial = StudyResults.trialReasons(false, fileBytes, study.depth.runs(study.runOptions), study.runOptions.warmup() == 0);
        try {
            Map<String, Object> description = new LinkedHashMap<>(Machine.current().description(study.file, java.time.Instant.now(), !trial.isEmpty()));
            if (!study.notOnThisCpu.isEmpty()) {
                description.put(MachineDescription.NOT_ON_THIS_CPU, study.notOnThisCpu.entrySet().stream()
                        .map(chapter -> chapter.getKey() + ": " + chapter.getValue()).collect(Collectors.joining("; ")));
            }
            AtomicWrite.write(json, Machine.json(description));
        } catch (IOException e) {
            throw IoMessage.naming(json, e); // a full disk's message names no file
        }
        if (!trial.isEmpty() && study.notOnThisCpu.isEmpty()) { // said once, not again when machine.json is written anew
            System.err.println("study: a trial (" + String.join(", ", trial) + "): machine.json and the report say so");
        }
    }

    /** Refuses a folder whose machine.json describes another machine, or none: it is never rewritten. */
    static void checkMachineDescription(Study study) throws IOException {
        Path json = study.folder.resolve("machine.json");
        if (Files.exists(json, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            String described = describedMachine(json);
            if (!Machine.current().name().equals(described)) {
                throw new UserMistakeException(Quote.name(json) + " describes " + (described == null ? "no machine of this project's"
                        : "another machine, " + Quote.name(described)) + "; left it alone (choose another --results)");
            }
        }
    }

    /** The "name" of the machine {@code json} describes, or null when it is no regular file holding a JSON object with one. */
    private static String describedMachine(Path json) {
        if (!Files.isRegularFile(json, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return null;
        }
        return MachineDescription.read(json).text("name").orElse(null);
    }

    /**
     * Refuses, before the machine's folder or its lock is made, what would stop the study once they
     * were: a --results that is no folder, and a FILE the study could not time (the checks of
     * lib/haystack/Haystack#findOrCreate, which creates nothing for a FILE that exists, and of
     * Haystack#checkCreatable for one it would make). Run again under the lock, where a FILE that
     * changed meanwhile is still caught.
     */
    static void checkBeforeCreating(Study study) throws IOException {
        checkResultsFolders(study);
        Path file = study.file;
        if (Files.exists(file)) {
            Haystack.findOrCreate(file, study.runOptions.size(), System.err);
            Haystack.requireNotEmpty(file, "a study");
        } else if (file.toString().indexOf('\uFFFD') >= 0 || Files.isSymbolicLink(file)) {
            Haystack.findOrCreate(file, study.runOptions.size(), System.err); // refuses such a name, or a link to nothing, before it creates anything
        } else {
            Haystack.checkCreatable(file, study.runOptions.size().orElse(Haystack.DEFAULT_BYTES));
        }
    }

    /** Refuses a --results, or this machine's folder in it, that is a file: a dry run too says so. */
    static void checkResultsFolders(Study study) {
        refuseNonFolder(study.results, "--results");
        refuseNonFolder(study.folder, "--results/" + study.machine); // a file where this machine's folder would be
    }

    /**
     * Refuses {@code folder} when it, or the nearest of its parents that exists, is not a folder (the study makes
     * folders there), in plain words: Java's own would be "Not a directory" naming a path the user never typed.
     */
    private static void refuseNonFolder(Path folder, String whatItIs) {
        Path asked = folder.toAbsolutePath();
        for (Path existing = asked; existing != null; existing = existing.getParent()) {
            if (Files.isDirectory(existing)) {
                return;
            }
            if (Files.exists(existing, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                throw new UserMistakeException(whatItIs + " must be a folder, but " + Quote.name(existing)
                        + (existing.equals(asked) ? "" : ", on its path,") + " is "
                        + (Files.isSymbolicLink(existing) ? "a symbolic link to no folder" : "a file")
                        + "; name a folder, or one that does not exist yet");
            }
        }
    }

    /**
     * Rows already in the CSVs, as {@link StudyStep#key} gives them. A row that cannot be read stops the
     * study with one line naming its file and line: skipping it would run that step again, trusting
     * it would keep a broken figure.
     */
    static Set<String> rowsPresent(Study study) {
        Set<String> present = new HashSet<>();
        for (String table : Study.TABLES) {
            if (!Files.exists(study.csv(table))) {
                continue;
            }
            StudyResults.Csv rows;
            try {
                rows = StudyResults.read(study.csv(table));
            } catch (StudyResults.NotResultsException notResults) {
                throw new UserMistakeException(notResults.getMessage());
            }
            if (!rows.problems().isEmpty()) {
                throw new UserMistakeException(rows.problems().getFirst() + "; mend or remove that line, then resume");
            }
            rows.rows().forEach(row -> present.add(row.resumeKey(table)));
        }
        present.addAll(AnswerRound.rowsPresent(study.csv(AnswerRound.TABLE)));
        return present;
    }

}
