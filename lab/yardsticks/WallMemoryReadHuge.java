package lab.yardsticks;

/**
 * The memory wall on 2 MiB pages: {@link WallMemoryRead} over anonymous memory advised with
 * {@code MADV_HUGEPAGE}, the ceiling for a mapping of a page cache held in 2 MiB folios. Fewer,
 * larger pages mean fewer TLB misses, each one cheaper (and on a virtual machine a TLB miss walks
 * two sets of page tables). If the kernel gives no 2 MiB page it says so and measures nothing;
 * each run records the share it did get.
 */
public final class WallMemoryReadHuge extends WallMemoryRead {

    public WallMemoryReadHuge() {
        super(true, false);
    }
}
