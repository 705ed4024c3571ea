package lab.yardsticks;

/**
 * The memory wall for the chapters that scan with the widest vectors (12 to 17): {@link WallMemoryRead}
 * in 4 KiB pages with chapter 12's kernel at the widest width the CPU has, 512 bits with AVX-512.
 * Where the CPU's widest is 256 bits it runs the same loads as {@link WallMemoryRead}.
 */
public final class WallMemoryReadWidest extends WallMemoryRead {

    public WallMemoryReadWidest() {
        super(false, true);
    }
}
