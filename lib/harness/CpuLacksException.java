package lib.harness;

import lib.cli.UserMistakeException;

/**
 * The CPU, or the JVM on it, lacks what a chapter needs (chapter 12: AVX-512). A refusal like
 * {@link UserMistakeException}, one line and no stack trace, but with an exit status of its own,
 * {@link Harness#NOT_ON_THIS_CPU}: nothing was done wrong, so a study records the chapter as not run
 * on this CPU and goes on, rather than counting a failure.
 */
public class CpuLacksException extends UserMistakeException {
    public CpuLacksException(String message) {
        super(message);
    }
}
