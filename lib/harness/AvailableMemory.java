package lib.harness;

import lib.cli.Sizes;
import lib.cli.UserMistakeException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How much memory this process can still take without being killed: the smallest of what the
 * kernel says the machine has available ({@code MemAvailable} in {@code /proc/meminfo}) and the
 * room left under every memory cgroup limit the process sits under, itself and its ancestors.
 * A chapter that would allocate more is refused in one line instead of meeting the OOM killer.
 *
 * <p>A cgroup's room is its limit minus its usage ({@code memory.max} and {@code memory.current} in
 * cgroup v2, {@code memory.limit_in_bytes} and {@code memory.usage_in_bytes} in v1), where usage
 * leaves out the file pages of the page cache ({@code active_file} and {@code inactive_file} in
 * {@code memory.stat}): the kernel reclaims those before it kills, as MemAvailable counts them too.
 * Without that, a warm haystack would count against the memory needed to read it.
 *
 * @param bytes     the bytes available, or -1 if nothing could be read
 * @param limitedBy what set that figure: "the machine", or the cgroup whose limit did
 */
public record AvailableMemory(long bytes, String limitedBy) {

    /** A v1 cgroup's "no limit" is the largest page-aligned long; anything this high is no limit. */
    private static final long NO_LIMIT = 1L << 60;

    /** Read now, from this process's /proc and cgroup files. */
    public static AvailableMemory now() {
        return from(Path.of("/proc/meminfo"), Path.of("/proc/self/cgroup"), Path.of("/proc/self/mountinfo"));
    }

    /**
     * Refuses in one line, before anything is allocated, what would not fit:
     * "{@code what} needs 4.0 GiB of memory; only 300.0 MiB is available".
     */
    public static void require(long bytes, String what) {
        AvailableMemory available = now();
        if (available.known() && bytes > available.bytes()) {
            throw new UserMistakeException(what + " needs " + Sizes.human(bytes) + " of memory; only " + available + " is available");
        }
    }

    public boolean known() {
        return bytes >= 0;
    }

    /** "3.2 GiB", or "300.0 MiB (the limit of memory cgroup /a/b)" when a cgroup is what limits it. */
    @Override
    public String toString() {
        return Sizes.human(bytes) + (limitedBy.equals(MACHINE) ? "" : " (under the limit of memory cgroup " + limitedBy + ")");
    }

    private static final String MACHINE = "the machine";

    /**
     * The same from given files: {@code meminfo} as /proc/meminfo, {@code selfCgroup} as
     * /proc/self/cgroup, {@code mountinfo} as /proc/self/mountinfo (whose mount points say where
     * the cgroup files are). A file that cannot be read limits nothing.
     */
    public static AvailableMemory from(Path meminfo, Path selfCgroup, Path mountinfo) {
        AvailableMemory least = new AvailableMemory(meminfoBytes(meminfo, "MemAvailable"), MACHINE);
        for (Cgroup cgroup : memoryCgroups(selfCgroup, mountinfo)) {
            for (Path dir = cgroup.dir(); dir != null && dir.startsWith(cgroup.mount()); dir = dir.getParent()) {
                long room = room(dir, cgroup.v2());
                if (room >= 0 && (!least.known() || room < least.bytes())) {
                    least = new AvailableMemory(room, "/" + cgroup.mount().relativize(dir));
                }
            }
        }
        return least;
    }

    /** Where one hierarchy keeps this process's memory cgroup: its directory, below its mount point. */
    private record Cgroup(Path mount, Path dir, boolean v2) {
        Cgroup {
            dir = Files.isDirectory(dir) ? dir : mount; // inside a container the path may name the host's hierarchy
        }
    }

    /** The memory cgroups of this process: the v2 one, and the v1 memory controller's, where mounted. */
    private static List<Cgroup> memoryCgroups(Path selfCgroup, Path mountinfo) {
        List<Cgroup> found = new ArrayList<>();
        List<String[]> mounts = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(mountinfo)) {
                int dash = line.indexOf(" - ");
                if (dash < 0) {
                    continue;
                }
                String[] before = line.substring(0, dash).split(" "), after = line.substring(dash + 3).split(" ");
                if (before.length >= 5 && after.length >= 3) {
                    mounts.add(new String[] {unescape(before[3]), unescape(before[4]), after[0], after[2]});
                }
            }
            for (String line : Files.readAllLines(selfCgroup)) {
                String[] fields = line.split(":", 3);
                if (fields.length < 3) {
                    continue;
                }
                boolean v2 = fields[0].equals("0") && fields[1].isEmpty();
                boolean v1Memory = List.of(fields[1].split(",")).contains("memory");
                for (String[] mount : mounts) { // root, mount point, type, super options
                    boolean matches = v2 ? mount[2].equals("cgroup2")
                            : v1Memory && mount[2].equals("cgroup") && List.of(mount[3].split(",")).contains("memory");
                    if (matches) {
                        String path = fields[2], root = mount[0];
                        String below = root.equals("/") ? path : path.startsWith(root + "/") ? path.substring(root.length()) : path.equals(root) ? "" : path;
                        Path mountPoint = Path.of(mount[1]);
                        found.add(new Cgroup(mountPoint, mountPoint.resolve(below.replaceFirst("^/+", "")).normalize(), v2));
                    }
                }
            }
        } catch (IOException | RuntimeException unreadable) {
            // no cgroup files: only the machine's figure counts
        }
        return found;
    }

    /** Limit minus usage, usage without reclaimable file pages; -1 where there is no limit or no figure. */
    private static long room(Path dir, boolean v2) {
        long limit = number(dir.resolve(v2 ? "memory.max" : "memory.limit_in_bytes"));
        long usage = number(dir.resolve(v2 ? "memory.current" : "memory.usage_in_bytes"));
        if (limit < 0 || limit >= NO_LIMIT || usage < 0) {
            return -1;
        }
        Map<String, Long> stat = stat(dir.resolve("memory.stat"));
        String prefix = !v2 && stat.containsKey("total_active_file") ? "total_" : ""; // v1: the hierarchy's, not this level's alone
        long reclaimable = stat.getOrDefault(prefix + "active_file", 0L) + stat.getOrDefault(prefix + "inactive_file", 0L);
        return Math.max(0, limit - Math.max(0, usage - reclaimable));
    }

    /** A cgroup file holding one number; "max" (v2's no limit) and anything unreadable give -1. */
    private static long number(Path file) {
        try {
            String text = Files.readString(file).strip();
            return text.equals("max") ? -1 : Long.parseLong(text);
        } catch (IOException | RuntimeException unreadable) {
            return -1;
        }
    }

    private static Map<String, Long> stat(Path file) {
        Map<String, Long> values = new java.util.HashMap<>();
        try {
            for (String line : Files.readAllLines(file)) {
                String[] pair = line.split(" ");
                if (pair.length == 2 && pair[1].matches("\\d+")) {
                    values.put(pair[0], Long.parseLong(pair[1]));
                }
            }
        } catch (IOException | RuntimeException unreadable) {
            // no stat: no file pages are counted as reclaimable
        }
        return values;
    }

    /** A /proc/meminfo figure in bytes ("MemAvailable:   23083360 kB"), or -1. */
    static long meminfoBytes(Path meminfo, String key) {
        try {
            for (String line : Files.readAllLines(meminfo)) {
                if (line.startsWith(key + ":")) {
                    return Long.parseLong(line.replaceAll("\\D", "")) * 1024;
                }
            }
        } catch (IOException | RuntimeException unreadable) {
            // no /proc: unknown
        }
        return -1;
    }

    private static final Pattern OCTAL = Pattern.compile("\\\\([0-7]{3})");

    /** mountinfo writes a space in a path as \040 (and a tab, newline, backslash likewise). */
    private static String unescape(String field) {
        Matcher escape = OCTAL.matcher(field);
        return escape.replaceAll(match -> Matcher.quoteReplacement(Character.toString(Integer.parseInt(match.group(1), 8))));
    }
}
