package lib.haystack;

import java.io.IOException;

/** A wrong or inconsistent answer: the figures would be a lie, so none are reported. */
public class WrongAnswerException extends IOException {
    public WrongAnswerException(String message) {
        super(message);
    }
}
