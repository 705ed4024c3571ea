import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The study's time left (lab/study/StudyProgress.java): none until a few steps have been timed, then
 * the plan's guesses scaled by the median of the timed steps' ratios to theirs, so that one step
 * far off its guess does not multiply the rest.
 */
class StudyProgressTest {

    @Test
    void noTimeLeftIsShownUntilAFewStepsHaveBeenTimed() {
        try (StudyProgress progress = new StudyProgress(new double[] {10, 10, 10, 10, 100}, false)) {
            assertTrue(progress.secondsLeft().isEmpty(), "before any step");
            progress.ended(0, 60); // the first step pays for compiling: six times its guess
            assertTrue(progress.secondsLeft().isEmpty(), "one step says nothing of the others");
            progress.ended(1, 12);
            assertTrue(progress.secondsLeft().isEmpty());
            progress.ended(2, 11);
            assertEquals(110 * 1.2, progress.secondsLeft().orElseThrow(), 1e-9,
                    "the steps left, 10 s and 100 s, scaled by the median ratio 1.2, not by the 83 s against 30 of the sum");
        }
    }

    @Test
    void skippedStepsCountForNothingLeftAndAreNoRatio() {
        try (StudyProgress progress = new StudyProgress(new double[] {10, 10, 10, 10, 10, 40}, false)) {
            progress.skip(0, "scoreboard V01ReadAll  already done, skipped");
            progress.ended(1, 5);
            progress.ended(2, 5);
            progress.ended(3, 5);
            assertEquals((10 + 40) * 0.5, progress.secondsLeft().orElseThrow(), 1e-9);
        }
    }

    @Test
    void aStepFarOffItsGuessDoesNotMoveTheEstimateMuch() {
        // a study of 20 steps of 30 s each on a machine that runs them as guessed, but whose first step took 10 minutes
        double[] guesses = new double[20];
        java.util.Arrays.fill(guesses, 30);
        try (StudyProgress progress = new StudyProgress(guesses, false)) {
            progress.ended(0, 600);
            progress.ended(1, 30);
            progress.ended(2, 30);
            double left = progress.secondsLeft().orElseThrow();
            assertEquals(17 * 30, left, 1e-9, "17 steps of 30 s; a ratio of the sums would say " + 17 * 30 * 660 / 90.0);
        }
    }
}
