package lab.tools;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Lines a command has to say about how it will run (the folder its rows go to, the runs it leaves
 * out), held back until it knows it will run: a command refused before then says its one line alone.
 */
public final class HeldLines {

    private final ByteArrayOutputStream held = new ByteArrayOutputStream();
    private final PrintStream stream = new PrintStream(held, true, StandardCharsets.UTF_8);

    /** Where the lines go meanwhile. */
    public PrintStream stream() {
        return stream;
    }

    /** Says the lines held so far on {@code err}, once. */
    public void sayTo(PrintStream err) {
        err.print(held.toString(StandardCharsets.UTF_8));
        held.reset();
    }
}
