// One machine's folder of results as the notebooks draw it (notebooks/Notebook.java chooses which).

package notebooks;

import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import lab.results.*;

/** One machine's folder of results (see {@link ResultsFolder}), with what was said about it. */
public final class MachineResults {
    public final String name;
    public final ResultsFolder folder;
    private final Set<String> reported = new LinkedHashSet<>();

    MachineResults(ResultsFolder folder) {
        this.name = folder.name;
        this.folder = folder;
    }

    public Path csv(String table) {
        return folder.csv(table);
    }

    public boolean has(String table) {
        return folder.has(table);
    }

    /** Prints each problem once per notebook run, however many charts read the same table. */
    public void report(List<String> lines) {
        for (String line : lines) {
            if (reported.add(line)) {
                System.out.println(line);
            }
        }
    }
}
