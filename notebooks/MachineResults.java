// One machine's folder of results as the notebooks draw it (notebooks/Notebook.java chooses which).
// No package line: JShell, which runs the notebooks, cannot take one.

import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** One machine's folder of results (see {@link ResultsFolder}), with what was said about it. */
final class MachineResults {
    final String name;
    final ResultsFolder folder;
    private final Set<String> reported = new LinkedHashSet<>();

    MachineResults(ResultsFolder folder) {
        this.name = folder.name;
        this.folder = folder;
    }

    Path csv(String table) {
        return folder.csv(table);
    }

    boolean has(String table) {
        return folder.has(table);
    }

    Path charts() {
        return folder.dir.resolve("charts");
    }

    String date() {
        return folder.date();
    }

    /** Prints each problem once per notebook run, however many charts read the same table. */
    void report(List<String> lines) {
        for (String line : lines) {
            if (reported.add(line)) {
                System.out.println(line);
            }
        }
    }
}
