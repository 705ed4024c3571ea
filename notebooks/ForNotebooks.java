//DEPS tech.tablesaw:tablesaw-core:0.44.4 tech.tablesaw:tablesaw-jsplot:0.44.4 org.webjars.npm:plotly.js-dist:3.0.1
//DEPS org.apache.commons:commons-csv:1.10.0 org.slf4j:slf4j-nop:2.0.17
//SOURCES ../lib/Library.java ../lab/tools/*.java ../lab/results/*.java *.java
package notebooks;

/**
 * What every notebook needs on its class path, named by one line of its header,
 * {@code //DEPS ForNotebooks.java}: Tablesaw and its kin, the notebooks' shared code (this folder's
 * classes, package {@code notebooks}), the reader of a results folder ({@code lab.results}) and the
 * lib/ and lab/tools classes they call. JBang compiles them once into a jar from this file's
 * directives, and a notebook imports what it uses. The class itself holds nothing.
 */
public final class ForNotebooks {
    private ForNotebooks() {}
}
