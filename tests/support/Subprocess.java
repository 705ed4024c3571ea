import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a chapter's {@code main} in a fresh JVM, the way a user would, for the tests that need
 * what only a separate process can give: an exit status, JVM options, a resource limit, a kill.
 *
 * <p>The command is this JVM's own: the same {@code java} binary, class path and options (which
 * carry {@code --add-modules} and {@code --enable-native-access}), so the child sees exactly the
 * classes under test. Its JIT commands are those the test runner gathers from every chapter's header:
 * each scales only its own chapter's kernels, and none a chapter's that maps the file
 * (FirstRunOptionsTest), so no chapter runs here with a compile policy it would not have alone.
 */
final class Subprocess {

    /** Long enough for a slow, busy machine; only a hung child ever waits this long. */
    static final long PATIENCE_SECONDS = 300;

    /** Warnings the JVM itself prints on stderr, which are not the program's words. */
    private static final List<String> JVM_NOTICES = List.of("WARNING: Using incubator modules");

    record Result(int exitCode, String stdout, String stderr) {

        /** The stderr lines the program wrote, without the JVM's own notices. */
        List<String> errorLines() {
            return stderr.lines().filter(line -> JVM_NOTICES.stream().noneMatch(line::startsWith)).toList();
        }

        @Override
        public String toString() {
            return "exit " + exitCode + "\n--- stdout\n" + stdout + "--- stderr\n" + stderr;
        }
    }

    private Subprocess() {}

    /** {@code java [this JVM's options] [extraJvmOptions] -cp [this class path] mainClass args}. */
    static List<String> javaCommand(List<String> extraJvmOptions, String mainClass, String... args) {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElseThrow());
        command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        command.addAll(extraJvmOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass);
        command.addAll(List.of(args));
        return command;
    }

    /** The JVM options a script's header asks for (a chapter's, or a lib file's), from its {@code //RUNTIME_OPTIONS} lines, in order. */
    static List<String> runtimeOptions(Path chapter) {
        try {
            return Files.readString(chapter).lines()
                    .filter(line -> line.startsWith("//RUNTIME_OPTIONS "))
                    .flatMap(line -> java.util.Arrays.stream(line.substring("//RUNTIME_OPTIONS ".length()).trim().split("\\s+")))
                    .toList();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** {@code bash -c 'SETUP; exec "$@"' bash COMMAND...}: a shell line (a ulimit) before the command. */
    static List<String> afterShell(String setup, List<String> command) {
        List<String> wrapped = new ArrayList<>(List.of("bash", "-c", setup + "; exec \"$@\"", "bash"));
        wrapped.addAll(command);
        return wrapped;
    }

    /** Starts {@code command} with its output going to files in {@code logs}; the caller waits or kills. */
    static Process start(List<String> command, Path logs) throws IOException {
        Files.createDirectories(logs);
        return new ProcessBuilder(command)
                .redirectOutput(logs.resolve("stdout").toFile())
                .redirectError(logs.resolve("stderr").toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                .start();
    }

    /** Runs {@code command} to the end and returns its exit status and output. */
    static Result run(List<String> command, Path logs) throws IOException, InterruptedException {
        Process process = start(command, logs);
        if (!process.waitFor(PATIENCE_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            throw new AssertionError("still running after " + PATIENCE_SECONDS + " s: " + String.join(" ", command));
        }
        return new Result(process.exitValue(), Files.readString(logs.resolve("stdout")),
                Files.readString(logs.resolve("stderr")));
    }
}
