import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import lab.yardsticks.KernelBench;
import lib.cli.UserMistakeException;
import org.junit.jupiter.api.Test;

/**
 * lab/yardsticks/KernelBench.java's command line: a choice of benchmarks that names none of them is
 * refused in one line that names those there are, before JMH starts (JMH's own refusal is a stack trace).
 */
class KernelBenchTest {

    @Test
    void itsBenchmarksAreItsMethodsMarkedForJmh() {
        assertEquals(List.of("lab.yardsticks.KernelBench.scan"), KernelBench.benchmarks());
    }

    @Test
    void aNameMatchingNoBenchmarkIsRefusedNamingThoseThereAre() {
        UserMistakeException refused = assertThrows(UserMistakeException.class, () -> KernelBench.options(new String[] {"NoSuchBench"}));
        assertEquals("no benchmark is called 'NoSuchBench'; the benchmarks: lab.yardsticks.KernelBench.scan (-l lists them)",
                refused.getMessage());
        UserMistakeException allExcluded = assertThrows(UserMistakeException.class,
                () -> KernelBench.options(new String[] {"-e", "scan"}));
        assertTrue(allExcluded.getMessage().contains("'KernelBench' but not 'scan'"), allExcluded.getMessage());
        UserMistakeException notARegex = assertThrows(UserMistakeException.class, () -> KernelBench.options(new String[] {"scan("}));
        assertTrue(notARegex.getMessage().startsWith("'scan(' is not a regular expression"), notARegex.getMessage());
        assertTrue(assertThrows(UserMistakeException.class, () -> KernelBench.options(new String[] {"-nosuchoption"}))
                .getMessage().endsWith("(--help lists the options)"));
    }

    /** JMH picks a benchmark whose name a pattern finds a match in: a part of the name chooses it, as the class's own does. */
    @Test
    void anyPatternFoundInABenchmarksNameChoosesIt() {
        for (String[] args : List.of(new String[0], new String[] {"scan"}, new String[] {"KernelBench.scan", "-p", "size=256k"},
                new String[] {"-l", "NoSuchBench"}, new String[] {"-h"})) {
            KernelBench.options(args); // no refusal: a list or help answers even a name that matches nothing
        }
    }
}
