///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
//DEPS org.junit.jupiter:junit-jupiter:5.13.4
//DEPS org.junit.platform:junit-platform-launcher:1.13.4
//DEPS tech.tablesaw:tablesaw-core:0.44.4
//DEPS tech.tablesaw:tablesaw-jsplot:0.44.4
//DEPS org.webjars.npm:plotly.js-dist:3.0.1
//DEPS org.slf4j:slf4j-nop:2.0.17
//SOURCES ../variants/Contents.java ../lab/Lab.java ../lab/study/*.java ../lab/report/*.java ../lab/yardsticks/*.java ../lab/experiments/*.java ../notebooks/*.java support/*.java **/*Test.java
//COMPILE_OPTIONS --add-modules jdk.incubator.vector
//RUNTIME_OPTIONS --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow

import static org.junit.platform.engine.discovery.ClassNameFilter.includeClassNamePatterns;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClasspathRoots;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Set;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * Runs every JUnit 5 test of the project: {@code ./jbang tests/RunTests.java}.
 *
 * <p>Every class named {@code *Test} in the folders of {@code tests/} is found and run. Each test is printed as it
 * ends; the last line is {@code N passed, N failed, N skipped} (skipped counts the tests whose
 * assumptions did not hold on this machine, which JUnit calls aborted), and the exit status is non-zero
 * when anything failed. {@code ./jbang tests/RunTests.java ChapterCorrectnessTest} runs one class.
 */
public class RunTests {

    public static void main(String[] args) throws Exception {
        Path classes = Path.of(RunTests.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        String pattern = args.length > 0 ? "^(" + String.join("|", args) + ")$" : ".*Test$";
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClasspathRoots(Set.of(classes)))
                .filters(includeClassNamePatterns(pattern))
                .build();
        SummaryGeneratingListener summary = new SummaryGeneratingListener();
        Launcher launcher = LauncherFactory.create();
        launcher.execute(request, summary, new ProgressPrinter());

        TestExecutionSummary result = summary.getSummary();
        result.printFailuresTo(new PrintWriter(System.out, true), 20);
        long failed = result.getTotalFailureCount();
        long passed = result.getTestsSucceededCount();
        // An aborted test is one whose assumption did not hold here (chapter 12 without AVX-512): it did not run.
        long skipped = result.getTestsSkippedCount() + result.getTestsAbortedCount();
        System.out.printf("%d passed, %d failed, %d skipped%n", passed, failed, skipped);
        System.exit(failed == 0 && passed > 0 ? 0 : 1);
    }

    /** One line per finished test, so a slow suite shows where it is. */
    static final class ProgressPrinter implements TestExecutionListener {
        @Override
        public void executionFinished(TestIdentifier test, TestExecutionResult result) {
            if (test.isTest()) {
                System.out.printf("  %-7s %s%n", result.getStatus(), test.getDisplayName());
            }
        }

        @Override
        public void executionSkipped(TestIdentifier test, String reason) {
            System.out.printf("  SKIPPED %s (%s)%n", test.getDisplayName(), reason);
        }
    }
}
