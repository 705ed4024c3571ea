package lib.chapter;

/**
 * Marks a chapter that searches on the calling thread alone. The harness gives it no worker count
 * to ignore: it refuses {@code --workers} other than 1 and prints and records {@code workers=1}.
 */
public interface SingleThreaded {
}
