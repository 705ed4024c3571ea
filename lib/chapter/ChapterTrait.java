package lib;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SequencedMap;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What a chapter says about itself, by the interfaces its class implements: the one place each
 * fact is declared. The harness asks the chapter ({@code instanceof}); the study, which runs each
 * chapter in a JVM of its own and never loads one, reads the same declaration from the chapter's
 * source, its {@code public class VNN… implements …} line. ChapterListsTest checks, chapter by
 * chapter, that the two readings agree.
 */
public enum ChapterTrait {
    /** Searches on the calling thread alone: no worker count to sweep. */
    SINGLE_THREADED(SingleThreaded.class),
    /** Reads into buffers of its own, a chunk at a time: {@code --chunk} applies. */
    READS_IN_CHUNKS(ChunkedSearch.class),
    /** Maps the file: its runs report the PMD-mapped share, and the page-cache round times it. */
    MAPS_THE_FILE(MapsTheFile.class),
    /** Reads around the page cache: the cold round times it, the worker sweep leaves it out. */
    BYPASSES_PAGE_CACHE(BypassesPageCache.class),
    /** Its search is another program: nothing of it to profile. */
    EXTERNAL_PROGRAM(ExternalProgram.class);

    /** The interface a chapter implements to declare this trait. */
    public final Class<?> marker;

    ChapterTrait(Class<?> marker) {
        this.marker = marker;
    }

    /** A chapter script's name: V, two digits, then letters, as in {@code V04Mmap.java}. */
    private static final Pattern CHAPTER_FILE = Pattern.compile("V\\d\\d\\w*\\.java");

    /** The traits {@code chapter} declares, asked of its class. */
    public static Set<ChapterTrait> of(Class<?> chapter) {
        EnumSet<ChapterTrait> traits = EnumSet.noneOf(ChapterTrait.class);
        for (ChapterTrait trait : values()) {
            if (trait.marker.isAssignableFrom(chapter)) {
                traits.add(trait);
            }
        }
        return traits;
    }

    /**
     * The traits declared in a chapter's source: the simple names in the {@code implements} clause
     * of its public class (named after the file). A file without that line is no chapter.
     */
    public static Set<ChapterTrait> declaredIn(Path source) throws IOException {
        String name = source.getFileName().toString().replaceFirst("\\.java$", "");
        Matcher declaration = Pattern.compile("(?m)^public\\s+(?:final\\s+)?class\\s+" + Pattern.quote(name)
                + "\\s+implements\\s+([\\w.,\\s]+)\\{").matcher(Files.readString(source));
        if (!declaration.find()) {
            throw new UserMistakeException(Quote.name(source) + " has no line 'public class " + name
                    + " implements …': not a chapter");
        }
        Set<String> implemented = new java.util.HashSet<>();
        Arrays.stream(declaration.group(1).split(",")).map(String::strip)
                .map(type -> type.substring(type.lastIndexOf('.') + 1)).forEach(implemented::add);
        EnumSet<ChapterTrait> traits = EnumSet.noneOf(ChapterTrait.class);
        for (ChapterTrait trait : values()) {
            if (implemented.contains(trait.marker.getSimpleName())) {
                traits.add(trait);
            }
        }
        return traits;
    }

    /**
     * The chapters of this project's {@code variants/} (the working directory's, where a chapter is
     * usually run from) that declare {@code trait}, by number (V03, V07 ...); else how to recognise them.
     */
    public static String chaptersWith(ChapterTrait trait) {
        Path variants = Path.of("variants");
        try {
            if (Files.isDirectory(variants)) {
                List<String> numbers = inVariants(variants).entrySet().stream().filter(chapter -> chapter.getValue().contains(trait))
                        .map(chapter -> chapter.getKey().substring(0, 3)).toList();
                if (!numbers.isEmpty()) {
                    return String.join(", ", numbers);
                }
            }
        } catch (IOException | UserMistakeException unreadable) {
            // fall through: a message is no place to fail
        }
        return "those that implement lib." + trait.marker.getSimpleName();
    }

    /** The chapters in {@code variants/} (run from the project's root) that declare {@code trait}, in chapter order. */
    public static List<String> chaptersDeclaring(ChapterTrait trait) {
        try {
            return inVariants(Path.of("variants")).entrySet().stream().filter(entry -> entry.getValue().contains(trait))
                    .map(Map.Entry::getKey).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the chapters in variants/: " + e.getMessage(), e);
        }
    }

    /** Every chapter script in {@code variants}, in chapter order, with the traits its source declares. */
    public static SequencedMap<String, Set<ChapterTrait>> inVariants(Path variants) throws IOException {
        SequencedMap<String, Set<ChapterTrait>> chapters = new LinkedHashMap<>();
        try (Stream<Path> files = Files.list(variants)) {
            for (Path source : files.filter(file -> CHAPTER_FILE.matcher(file.getFileName().toString()).matches()).sorted().toList()) {
                chapters.put(source.getFileName().toString().replaceFirst("\\.java$", ""), declaredIn(source));
            }
        }
        return chapters;
    }
}
