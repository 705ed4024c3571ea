import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every link, anchor, command and project path of a page leads somewhere, and each one that does not is one line naming its page and line. */
class PageLinksTest {

    @TempDir
    Path project;

    /** Headings as GitHub names them: lower case, punctuation gone but '-' and '_', each space a '-', a repeat numbered. */
    @Test
    void anchorsAreGitHubsSlugsWithRepeatsNumbered() {
        assertEquals("chapter-4-map-the-file--variantsv04mmapjava", PageLinks.slug("Chapter 4: map the file — `variants/V04Mmap.java`"));
        assertEquals("o_direct", PageLinks.slug("O_DIRECT"));
        assertEquals("jit-tiers-c1-and-c2", PageLinks.slug("JIT tiers (C1 and C2)"));
        assertEquals("java-beside-go-on-one-machine", PageLinks.slug("Java beside [Go](https://go.dev) on *one* machine"));
        assertEquals("why-13--2", PageLinks.slug("Why 13 × 2?"));
        assertEquals(List.of("setup", "notes", "setup-1", "setup-2", "setup-1-1", "here"), List.copyOf(PageLinks.anchorsOf("""
                # Setup
                ## Notes
                ## Setup
                ```
                # not a heading, in code
                ```
                <!--
                # nor in a comment
                -->
                ### Setup
                ## Setup 1
                <a id="here"></a>
                """)));
    }

    @Test
    void aPageWhoseEveryLinkCommandAndPathLeadsSomewhereHasNoFault() throws IOException {
        Path page = project();
        Files.writeString(page, """
                # The page
                ## Cold reads
                See [the glossary](glossary.md#page-cache), [below](#cold-reads), [the top](../README.md#the-book),
                [the web](https://example.com/x#y), ![a chart](../results/m1/chart.png) and [the code](../lib/cli/Quote.java#L10).
                Run `./jbang study`, `./jbang -Dhaystack=FILE variants/V13PreadVector.java`, `./jbang vNN` or
                `./jbang notebooks/NAME.jsh`; read `lib/cli/Quote.java`, `lib/cli/Quote`, `results/MACHINE/model.csv`,
                `results/<your machine>/`, `variants/VNN….java`, `notebooks/*.jsh`, `lab/report/` and `docs/glossary.md`'s words.
                ```
                ./jbang v13 --help
                for n in scoreboard; do ./jbang notebooks/$n.jsh; done
                [not a link](nowhere.md)
                ```
                <!-- [nor this](nowhere.md) `lib/nowhere.java` -->
                [a reference]: glossary.md#tlb
                """);
        assertEquals(List.of(), new PageLinks(project).faults(page));
    }

    @Test
    void eachLinkAnchorCommandOrPathThatLeadsNowhereIsOneLineNamingItsPageAndLine() throws IOException {
        Path page = project();
        Files.writeString(page, """
                # The page
                A [missing page](gone.md), an [anchor](glossary.md#page-cach) of another page, one [here](#the-pag),
                one [too far](../../outside.md), and `./jbang stdy`.
                Paths: `lib/cli/Qoute.java`, `results/MACHINE/x.csv` is fine, `resuls/x` is no project folder,
                but `results/nomachine/MACHINE.csv` and `lab/gone/`.
                ```
                ./jbang lab/report/Gone.java --write
                cat results/m2/x.csv results/MACHINE/x.csv (lib/cli/Quote.java)
                ```
                [a reference]: glossary.md#nothing
                """);
        List<String> faults = new PageLinks(project).faults(page);
        assertEquals(List.of(
                page + ":2: the link 'gone.md' leads to no file: there is no docs/gone.md",
                page + ":2: the link 'glossary.md#page-cach' names no heading of docs/glossary.md (no anchor #page-cach)",
                page + ":2: the link '#the-pag' names no heading of docs/page.md (no anchor #the-pag)",
                page + ":3: the link '../../outside.md' leads out of the project",
                page + ":10: the link 'glossary.md#nothing' names no heading of docs/glossary.md (no anchor #nothing)",
                page + ":3: ./jbang stdy names no alias of jbang-catalog.json and no script of the project",
                page + ":4: `lib/cli/Qoute.java` names no file or folder of the project",
                page + ":5: `results/nomachine/MACHINE.csv` names no file or folder of the project",
                page + ":5: `lab/gone/` names no file or folder of the project",
                page + ":8: `results/m2/x.csv` names no file or folder of the project",
                page + ":7: ./jbang lab/report/Gone.java names no alias of jbang-catalog.json and no script of the project"), faults);
    }

    @Test
    void theAliasesAreTheCatalogsKeysWithAScript() {
        assertEquals(Set.of("study", "v13"), PageLinks.aliases("""
                {"catalogs": {}, "aliases": {"study": {"script-ref": "lab/study/Study.java", "description": "x"},
                 "v13": {"description": "y", "script-ref": "variants/V13PreadVector.java"}}}
                """));
    }

    /** A small project: a catalog, a chapter, a library class, a notebook, a results folder, README.md and docs/glossary.md; returns docs/page.md. */
    private Path project() throws IOException {
        Files.writeString(project.resolve("jbang-catalog.json"), """
                {"aliases": {"study": {"script-ref": "lab/study/Study.java"}, "v13": {"script-ref": "variants/V13PreadVector.java"}}}
                """);
        for (String file : List.of("variants/V13PreadVector.java", "lib/cli/Quote.java", "notebooks/scoreboard.jsh", "results/m1/chart.png",
                "lab/report/CheckBook.java", "lab/study/Study.java")) {
            Files.createDirectories(project.resolve(file).getParent());
            Files.writeString(project.resolve(file), "");
        }
        Files.writeString(project.resolve("README.md"), "# The book\n");
        Files.createDirectories(project.resolve("docs"));
        Files.writeString(project.resolve("docs/glossary.md"), "# Glossary\n## Page cache\n## TLB\n");
        return project.resolve("docs/page.md");
    }
}
