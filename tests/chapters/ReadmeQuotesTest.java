import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * README's chapter sections quote the chapters' own code: every {@code java} block in the section of
 * a chapter appears, line for line, in that chapter's file (leading indentation aside, since a quote
 * starts at the left margin). A quote the code no longer holds is a quote of nothing.
 */
class ReadmeQuotesTest {

    /** A section's heading, which names its chapter's file: "### Chapter 7: … — `variants/V07PreadParallel.java`". */
    private static final Pattern SECTION = Pattern.compile("(?m)^### Chapter \\d+:.*`(variants/V\\d\\d\\w*\\.java)`\\s*$");
    private static final Pattern JAVA_BLOCK = Pattern.compile("(?ms)^```java\\n(.*?)^```\\s*$");

    /** Each chapter section's text, by the chapter file it names, in README order. */
    static Map<Path, String> chapterSections(String readme) {
        Map<Path, String> sections = new LinkedHashMap<>();
        Matcher heading = SECTION.matcher(readme);
        List<int[]> spans = new ArrayList<>();
        List<Path> files = new ArrayList<>();
        while (heading.find()) {
            spans.add(new int[] {heading.end()});
            files.add(Path.of(heading.group(1)));
        }
        for (int i = 0; i < files.size(); i++) {
            int start = spans.get(i)[0];
            Matcher next = Pattern.compile("(?m)^##").matcher(readme);
            int end = next.find(start) ? next.start() : readme.length();
            sections.put(files.get(i), readme.substring(start, end));
        }
        return sections;
    }

    /** The block's lines, each without its leading white space, found one after another in the file's. */
    static boolean quotes(List<String> file, List<String> block) {
        List<String> lines = file.stream().map(String::strip).toList();
        List<String> quoted = block.stream().map(String::strip).toList();
        for (int start = 0; start + quoted.size() <= lines.size(); start++) {
            if (lines.subList(start, start + quoted.size()).equals(quoted)) {
                return true;
            }
        }
        return false;
    }

    @Test
    void everyJavaBlockInAChaptersSectionIsThatChaptersOwnCode() throws IOException {
        Map<Path, String> sections = chapterSections(Files.readString(Path.of("README.md")));
        assertTrue(sections.size() >= 18, "found only " + sections.keySet());
        List<String> problems = new ArrayList<>();
        int checked = 0;
        for (Map.Entry<Path, String> section : sections.entrySet()) {
            Path chapter = section.getKey();
            if (!Files.isRegularFile(chapter)) {
                problems.add("README has a section for " + chapter + ", which is no file");
                continue;
            }
            List<String> file = Files.readAllLines(chapter);
            Matcher block = JAVA_BLOCK.matcher(section.getValue());
            int blocks = 0;
            while (block.find()) {
                blocks++;
                List<String> lines = block.group(1).lines().toList();
                if (!quotes(file, lines)) {
                    problems.add(chapter + " does not hold README's quote:\n" + block.group(1));
                }
            }
            if (blocks == 0 && !chapter.getFileName().toString().equals("V00Cmp.java")) { // chapter 0's search is a shell command
                problems.add("README's section for " + chapter + " quotes none of its code");
            }
            checked += blocks;
        }
        assertTrue(problems.isEmpty(), String.join("\n", problems));
        assertTrue(checked >= 17, "only " + checked + " quotes checked");
    }

    @Test
    void aQuoteThatIsNotInTheFileIsFound() {
        List<String> file = List.of("class A {", "    void f() {", "        g();", "    }", "}");
        assertTrue(quotes(file, List.of("void f() {", "    g();", "}")));
        assertTrue(!quotes(file, List.of("void f() {", "    h();")), "a changed line");
        assertTrue(!quotes(file, List.of("class A {", "        g();")), "lines that are not one after another");
    }
}
