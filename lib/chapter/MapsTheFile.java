package lib.chapter;


/**
 * Marks a chapter that maps the file. The harness reports, once its runs are done, the share of a
 * mapping of the file that is PMD-mapped (it maps the file itself: lib.harness.PmdShares), and the study
 * times it from a page cache in 4 KiB folios and from one in 2 MiB folios ({@code --page-cache}).
 */
public interface MapsTheFile {
}
