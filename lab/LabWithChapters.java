//SOURCES Lab.java ../variants/Contents.java
package lab;

/**
 * What a lab command that runs or inspects chapters names in one header line,
 * {@code //SOURCES ../LabWithChapters.java}: the lab ({@link Lab}) and every chapter, through the
 * book's contents (variants/Contents.java), so that it can ask a chapter's class what it is
 * ({@code lib.chapter.ChapterTrait}). This is the lab's one file that names the chapters' sources.
 * The class itself holds nothing.
 */
public final class LabWithChapters {
    private LabWithChapters() {}
}
