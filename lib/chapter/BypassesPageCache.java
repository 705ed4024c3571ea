package lib.chapter;

/**
 * Marks a chapter that reads around the page cache (O_DIRECT), so a warm run costs what a cold
 * one does. The study times it in its cold round, and sweeps no worker counts of its warm runs.
 */
public interface BypassesPageCache {
}
