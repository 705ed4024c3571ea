//DEPS info.picocli:picocli:4.7.7
//DEPS org.apache.commons:commons-csv:1.10.0
//DEPS me.tongfei:progressbar:0.10.1
//DEPS tools.profiler:async-profiler:4.2
//SOURCES chapter/*.java cli/*.java counters/*.java harness/*.java haystack/*.java linux/*.java
// The JVM says once, at every start, that it runs an incubator module (the Vector API); javac would
// say it again, in two lines, at every build. Strings joined with + become StringBuilders, as in
// java.base: invokedynamic spins a class per message shape before the first search (docs/startup.md).
//COMPILE_OPTIONS --add-modules jdk.incubator.vector -Xlint:-incubating -XDstringConcat=inline
// Should a JVM still die of a fault (a mapped file cut under a scan: docs/safety.md), its banner goes
// to stderr, never among the summary lines on stdout, and its crash report to /tmp, not into the
// working directory.
//RUNTIME_OPTIONS -XX:+DisplayVMOutputToStderr -XX:ErrorFile=/tmp/hs_err_pid%p.log
package lib;

/**
 * The library every chapter builds on, named by one line of each chapter's header,
 * {@code //SOURCES ../lib/Library.java}: the folders below, the jars they use, and the options
 * above, which JBang gives every script that names this file. Nothing of the lab (lab/) or of the
 * notebooks is here, so a chapter's class path holds only what its code uses, and no edit there
 * rebuilds a chapter. The class itself holds nothing.
 */
public final class Library {
    private Library() {}
}
