package lib.cli;

/** A mistake in what the user asked for: reported as one line, exit status 2, no stack trace. */
public class UserMistakeException extends RuntimeException {
    public UserMistakeException(String message) {
        super(message);
    }
}
