import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** File permissions in tests, which root would otherwise pass through unchecked. */
final class Permissions {

    private Permissions() {}

    /** Whether this process runs as root, whom file permissions do not bind. */
    static boolean isRoot() throws IOException {
        return Files.readString(Path.of("/proc/self/status")).lines().anyMatch(line -> line.matches("Uid:\\s+0\\s.*"));
    }

    static boolean onPath(String program) {
        return Stream.of(System.getenv("PATH").split(":")).anyMatch(d -> Files.isExecutable(Path.of(d, program)));
    }

    /**
     * {@code command} as a user whom file permissions bind. Root reads and writes anything through
     * two capabilities; without them it obeys the mode bits like anyone else, while still reading
     * the JDK and class path it owns. As root without setpriv, the test is skipped: it could not
     * check what it says.
     */
    static List<String> obeying(List<String> command) throws IOException {
        if (!isRoot()) {
            return command;
        }
        assumeTrue(onPath("setpriv"), "running as root without setpriv: cannot drop the capabilities that ignore permissions");
        List<String> unprivileged = new ArrayList<>(List.of("setpriv",
                "--inh-caps=-dac_override,-dac_read_search", "--bounding-set=-dac_override,-dac_read_search"));
        unprivileged.addAll(command);
        return unprivileged;
    }
}
