package lib.haystack;

import java.io.IOException;

/** The file changed size or content under a running search: its answer would be a lie. */
public class FileChangedException extends IOException {
    public FileChangedException(String message) {
        super(message);
    }
}
