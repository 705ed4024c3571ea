package lib.chapter;

/**
 * Marks a chapter whose search is another program, not Java (chapter 0 runs {@code cmp}). The
 * harness still warms the file, times and checks every run; but there is no Java search to profile,
 * so {@code --profile} is refused and the study records no flame graph of it.
 */
public interface ExternalProgram {
}
