// The groups a page of the book names once for its claims ("the reading chapters"), read and
// expanded for BookClaims: a claim about a group is one claim per member. No package line, as
// every file of lab/report/.

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import lib.cli.Quote;

/** A page's groups, {@code <!-- group NAME: MEMBER MEMBER… -->}, and a claim's {@code {NAME}} expanded into one text per member (BookClaims says more). */
final class ClaimGroups {

    private ClaimGroups() {}

    /** Where a group may start: any comment that opens with the word, so that a misspelt one is refused, not skipped. */
    static final Pattern OPENING = Pattern.compile("<!--\\s*group\\b", Pattern.CASE_INSENSITIVE);
    /** A whole group, on one line: its name in lower case, then its members, each a word (a chapter, a pair's number). */
    static final Pattern GROUP = Pattern.compile("<!-- group ([a-z][a-z0-9-]*):((?: [A-Za-z0-9_]+)*) -->");
    /** Where a claim names a group. */
    private static final Pattern USE = Pattern.compile("\\{([^{}]*)\\}");
    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9-]*");

    /** A page's groups by name, in the order given, and a line for each comment that opens like a group and is none. */
    record Page(Map<String, List<String>> groups, List<String> refusals) {}

    /** The groups of one page; each refusal names the page, line and lesson, as a claim's does. */
    static Page read(Path document, String text) {
        Map<String, List<String>> groups = new LinkedHashMap<>();
        List<String> refusals = new ArrayList<>();
        Matcher opening = OPENING.matcher(text);
        while (opening.find()) {
            int end = text.indexOf("-->", opening.start());
            String comment = end < 0 ? text.substring(opening.start()) : text.substring(opening.start(), end + 3);
            String where = document + ":" + BookClaims.lineOf(text, opening.start()) + ": " + BookClaims.lesson(text, opening.start()) + ": ";
            Matcher group = GROUP.matcher(comment);
            if (!group.matches()) {
                refusals.add(where + Quote.name(BookClaims.shortened(comment)) + " is not a group: one is <!-- group NAME: MEMBER MEMBER… --> on one line"
                        + " (NAME in lower case, each member a word)");
                continue;
            }
            String name = group.group(1);
            List<String> members = List.of(group.group(2).strip().split(" +"));
            Set<String> distinct = new LinkedHashSet<>(members);
            if (group.group(2).isBlank()) {
                refusals.add(where + "group " + Quote.name(name) + " has no member: a claim on it would check nothing");
            } else if (distinct.size() < members.size()) {
                refusals.add(where + "group " + Quote.name(name) + " names a member twice");
            } else if (groups.putIfAbsent(name, members) != null) {
                refusals.add(where + "group " + Quote.name(name) + " is given twice on this page: a group is named once");
            }
        }
        return new Page(groups, refusals);
    }

    /**
     * The claim's comparison once per member of the group it names, {@code {NAME}} replaced by the
     * member everywhere; the comparison alone when it names none. An IllegalArgumentException says
     * what is wrong: an unknown group, two groups in one claim, a brace that opens no group.
     */
    static List<String> expand(String comparison, Map<String, List<String>> groups) {
        Set<String> named = new TreeSet<>();
        Matcher use = USE.matcher(comparison);
        while (use.find()) {
            if (!NAME.matcher(use.group(1)).matches()) {
                throw new IllegalArgumentException(Quote.name(use.group()) + " is no group's name: a group is {NAME}, NAME in lower case");
            }
            named.add(use.group(1));
        }
        if (use.replaceAll("").matches(".*[{}].*")) {
            throw new IllegalArgumentException("a brace that opens or closes no group: a group is written {NAME}");
        }
        if (named.isEmpty()) {
            return List.of(comparison);
        }
        if (named.size() > 1) {
            throw new IllegalArgumentException("it names groups " + String.join(" and ", named) + ": a claim speaks of one group, each figure of it the same member");
        }
        String name = named.iterator().next();
        List<String> members = groups.get(name);
        if (members == null) {
            throw new IllegalArgumentException("no <!-- group " + name + ": … --> on this page gives {" + name + "}"
                    + (groups.isEmpty() ? " (the page gives no group)" : " (its groups: " + String.join(", ", groups.keySet()) + ")"));
        }
        return members.stream().map(member -> comparison.replace("{" + name + "}", member)).toList();
    }
}
