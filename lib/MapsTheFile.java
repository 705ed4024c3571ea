package lib;

/**
 * Marks a chapter that maps the file. The harness reports, for each of its runs, the share of the
 * mapping that was PMD-mapped (the chapter calls {@link PmdMapping#recordAfterScan}), and the study
 * times it from a page cache in 4 KiB folios and from one in 2 MiB folios ({@code --page-cache}).
 */
public interface MapsTheFile {
}
