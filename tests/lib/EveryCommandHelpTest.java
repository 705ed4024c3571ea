import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every command answers {@code --help} with its usage on stdout and status 0 (docs/commands.md says each takes it):
 * every Java file of the project with a {@code main}, wherever it is, found afresh, so a new command is held to it too.
 * A command on the tests' class path runs in this JVM, through its {@code static int execute} (or {@code run}) of
 * {@code (String[], PrintStream, PrintStream)}, the body of its main; any other (one not compiled with the tests, or whose main ends its JVM) runs as a user runs it, {@code ./jbang FILE --help}.
 * The chapters are not here: the harness answers for each (HarnessTest).
 */
class EveryCommandHelpTest {

    /** Top folders whose mains are not commands of their own: the tests, and the chapters (the harness's). */
    static final Set<String> NOT_COMMANDS = Set.of("tests", "variants");
    static final Pattern PACKAGE = Pattern.compile("(?m)^package\\s+([\\w.]+)\\s*;");

    @TempDir
    Path logs;

    @TestFactory
    Stream<DynamicTest> everyCommandAnswersHelpWithItsUsage() throws IOException {
        List<Path> commands = commands();
        assertTrue(commands.size() >= 15, "the project's commands, found: " + commands);
        return commands.stream().map(command -> DynamicTest.dynamicTest(command.toString(), () -> {
            Said said = help(command);
            assertEquals(0, said.status(), command + " --help:\n" + said);
            assertTrue(said.out().toLowerCase(Locale.ROOT).contains("usage"), command + " --help prints no usage:\n" + said);
        }));
    }

    private Said asAUserRunsIt(Path command, String simpleName) throws Exception {
        Subprocess.Result result = Subprocess.run(List.of("./jbang", command.toString(), "--help"), logs.resolve(simpleName));
        return new Said(result.exitCode(), result.stdout(), result.stderr());
    }

    /** What a command printed, and its status. */
    record Said(int status, String out, String err) {
        @Override
        public String toString() {
            return "exit " + status + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    private Said help(Path command) throws Exception {
        String source = Files.readString(command);
        Matcher pkg = PACKAGE.matcher(source);
        String simpleName = command.getFileName().toString().replaceFirst("\\.java$", "");
        Class<?> loaded;
        try {
            loaded = Class.forName(pkg.find() ? pkg.group(1) + "." + simpleName : simpleName, false, getClass().getClassLoader());
        } catch (ClassNotFoundException notOnTheTestsClassPath) {
            return asAUserRunsIt(command, simpleName);
        }
        Method body = null;
        for (Method method : loaded.getDeclaredMethods()) {
            if (Set.of("execute", "run").contains(method.getName()) && Modifier.isStatic(method.getModifiers()) && method.getReturnType() == int.class
                    && List.of(method.getParameterTypes()).equals(List.of(String[].class, PrintStream.class, PrintStream.class))) {
                body = method;
            }
        }
        if (body == null) {
            return asAUserRunsIt(command, simpleName); // a main that ends its JVM: only a JVM of its own can run it
        }
        body.setAccessible(true);
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int status;
        try (PrintStream outStream = new PrintStream(out, true, StandardCharsets.UTF_8); PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            status = (int) body.invoke(null, new String[] {"--help"}, outStream, errStream);
        }
        Said said = new Said(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        assertFalse(said.err().contains("Exception"), said::toString);
        return said;
    }

    /** Every .java file with a main, outside hidden folders and {@link #NOT_COMMANDS}, relative to the project's root. */
    static List<Path> commands() throws IOException {
        Path root = Path.of("");
        List<Path> commands = new ArrayList<>();
        Files.walkFileTree(root.toAbsolutePath(), new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
                Path relative = root.toAbsolutePath().relativize(dir);
                boolean skipped = relative.getNameCount() > 0 && !relative.toString().isEmpty()
                        && (relative.getFileName().toString().startsWith(".") || NOT_COMMANDS.contains(relative.getName(0).toString()));
                return skipped ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                if (file.toString().endsWith(".java") && attributes.isRegularFile()
                        && Files.readString(file).contains("public static void main(String[] args)")) {
                    commands.add(root.toAbsolutePath().relativize(file));
                }
                return FileVisitResult.CONTINUE;
            }
        });
        commands.sort(null);
        return commands;
    }
}
