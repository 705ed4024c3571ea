//SOURCES ../lib/Library.java tools/*.java results/*.java
//COMPILE_OPTIONS -Xlint:-incubating -XDstringConcat=inline
package lab;

/**
 * What the lab's commands share, named by one line of each one's header, {@code //SOURCES ../Lab.java}:
 * lib/ (the chapters' library), the tools that start children and write files (tools/), and the one
 * reader of a results folder with its tables (results/). A command that runs or inspects chapters
 * names {@code ../LabWithChapters.java} instead, which adds them. Nothing here is named by a
 * chapter, so no edit in the lab rebuilds one. The class itself holds nothing.
 */
public final class Lab {
    private Lab() {}
}
