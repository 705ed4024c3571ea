//DEPS tech.tablesaw:tablesaw-core:0.44.4 tech.tablesaw:tablesaw-jsplot:0.44.4 org.webjars.npm:plotly.js-dist:3.0.1
//DEPS org.apache.commons:commons-csv:1.10.0 org.slf4j:slf4j-nop:2.0.17
//SOURCES ../lib/Library.java ../lab/tools/*.java
package notebooks;

/**
 * What every notebook needs on its class path, named by one line of its header,
 * {@code //DEPS ForNotebooks.java}: Tablesaw and its kin, and the packaged lib/ classes
 * the notebooks' shared code calls (the machine's name, the one median, the one runner, Chromium,
 * the one atomic write). JShell, which runs the notebooks, cannot take a package line, so JBang
 * builds these onto its class path from this file's directives; the class itself holds nothing.
 */
public final class ForNotebooks {
    private ForNotebooks() {}
}
