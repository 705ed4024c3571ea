import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import lib.harness.AvailableMemory;
import lib.harness.Harness;
import lib.haystack.Haystack;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The memory a chapter may take: the least of MemAvailable and the room under every memory cgroup
 * limit the process is in. Fixture files stand in for /proc/meminfo, /proc/self/cgroup,
 * /proc/self/mountinfo and the cgroup files; the last test, where a memory cgroup can be made
 * (as root, on Linux), runs chapter 1 in a real one.
 */
class AvailableMemoryTest {

    static final long MIB = 1L << 20, GIB = 1L << 30;

    @TempDir
    Path dir;

    /** A fake /proc and cgroup tree under {@link #dir}. */
    private final class Fixture {
        final Path meminfo = dir.resolve("meminfo"), selfCgroup = dir.resolve("cgroup"), mountinfo = dir.resolve("mountinfo");

        Fixture(long memAvailableBytes, String selfCgroupText, String... mountLines) throws IOException {
            Files.writeString(meminfo, "MemTotal:       24000000 kB\nMemFree:         1000000 kB\nMemAvailable:   "
                    + memAvailableBytes / 1024 + " kB\n");
            Files.writeString(selfCgroup, selfCgroupText);
            Files.writeString(mountinfo, String.join("\n", mountLines) + "\n");
        }

        /** Writes {@code name} with {@code text} in the cgroup directory {@code cgroup} (under dir). */
        Fixture file(String cgroup, String name, Object text) throws IOException {
            Path folder = Files.createDirectories(dir.resolve(cgroup));
            Files.writeString(folder.resolve(name), text + "\n");
            return this;
        }

        AvailableMemory read() {
            return AvailableMemory.from(meminfo, selfCgroup, mountinfo);
        }
    }

    private String v2Mount() {
        return "30 25 0:26 / " + dir.resolve("cg2") + " rw,nosuid,nodev - cgroup2 cgroup2 rw,nsdelegate";
    }

    private String v1MemoryMount(String root, Path mountPoint) {
        return "36 25 0:31 " + root + " " + mountPoint + " rw,nosuid - cgroup cgroup rw,memory";
    }

    @Test
    void withoutAnyCgroupLimitTheMachinesFigureCounts() throws IOException {
        var fixture = new Fixture(8 * GIB, "0::/user.slice/job\n", v2Mount())
                .file("cg2/user.slice/job", "memory.max", "max").file("cg2/user.slice/job", "memory.current", 100 * MIB);
        assertEquals(new AvailableMemory(8 * GIB, "the machine"), fixture.read());
        assertEquals("8.0 GiB", fixture.read().toString());
    }

    @Test
    void aV2LimitBelowTheMachinesFigureIsTheLimitMinusTheUsage() throws IOException {
        var fixture = new Fixture(8 * GIB, "0::/user.slice/job\n", v2Mount())
                .file("cg2/user.slice/job", "memory.max", 400 * MIB).file("cg2/user.slice/job", "memory.current", 100 * MIB)
                .file("cg2/user.slice/job", "memory.stat", "anon 99614720\nfile 0\nactive_file 0\ninactive_file 0")
                .file("cg2/user.slice", "memory.max", "max");
        AvailableMemory available = fixture.read();
        assertEquals(300 * MIB, available.bytes());
        assertEquals("/user.slice/job", available.limitedBy());
        assertTrue(available.toString().contains("under the limit of memory cgroup /user.slice/job"), available::toString);
    }

    @Test
    void anAncestorsTighterLimitWins() throws IOException {
        var fixture = new Fixture(8 * GIB, "0::/user.slice/job\n", v2Mount())
                .file("cg2/user.slice/job", "memory.max", 400 * MIB).file("cg2/user.slice/job", "memory.current", 100 * MIB)
                .file("cg2/user.slice", "memory.max", 200 * MIB).file("cg2/user.slice", "memory.current", 150 * MIB);
        assertEquals(new AvailableMemory(50 * MIB, "/user.slice"), fixture.read());
    }

    /** A warm haystack in the page cache is charged to the cgroup, but the kernel reclaims it before it kills. */
    @Test
    void fileCacheTheKernelCanReclaimIsNotCountedAsUsed() throws IOException {
        var fixture = new Fixture(20 * GIB, "0::/job\n", v2Mount())
                .file("cg2/job", "memory.max", 6 * GIB).file("cg2/job", "memory.current", 4 * GIB + 100 * MIB)
                .file("cg2/job", "memory.stat", "anon 104857600\nactive_file " + 3 * GIB + "\ninactive_file " + GIB);
        assertEquals(6 * GIB - 100 * MIB, fixture.read().bytes());
    }

    @Test
    void aV1MemoryControllerIsReadThroughItsOwnFiles() throws IOException {
        Path mount = dir.resolve("v1 memory"); // a space, which mountinfo writes as \040
        var fixture = new Fixture(8 * GIB, "9:name=systemd:/\n4:memory:/process_api/abc\n3:cpuset:/\n0::/\n",
                v1MemoryMount("/", Path.of(mount.toString().replace(" ", "\\040"))))
                .file("v1 memory/process_api/abc", "memory.limit_in_bytes", 512 * MIB)
                .file("v1 memory/process_api/abc", "memory.usage_in_bytes", 300 * MIB)
                .file("v1 memory/process_api/abc", "memory.stat", "cache 209715200\ninactive_file 1\ntotal_active_file 0\ntotal_inactive_file "
                        + 200 * MIB)
                .file("v1 memory/process_api", "memory.limit_in_bytes", 9223372036854771712L) // v1's "no limit"
                .file("v1 memory/process_api", "memory.usage_in_bytes", 300 * MIB)
                .file("v1 memory", "memory.limit_in_bytes", 9223372036854771712L);
        assertEquals(new AvailableMemory(412 * MIB, "/process_api/abc"), fixture.read());
    }

    /** In a container the cgroup path names the host's hierarchy; the mount's root is that same cgroup. */
    @Test
    void aContainersCgroupIsItsMountsRoot() throws IOException {
        Path mount = dir.resolve("memory");
        var fixture = new Fixture(8 * GIB, "4:memory:/docker/f00\n", v1MemoryMount("/docker/f00", mount))
                .file("memory", "memory.limit_in_bytes", GIB).file("memory", "memory.usage_in_bytes", 256 * MIB);
        assertEquals(768 * MIB, fixture.read().bytes());
    }

    @Test
    void unreadableFilesLimitNothing() throws IOException {
        var fixture = new Fixture(8 * GIB, "0::/job\n", v2Mount())
                .file("cg2/job", "memory.max", "not a number").file("cg2/job", "memory.current", 100 * MIB);
        assertEquals(8 * GIB, fixture.read().bytes());
        Path nowhere = dir.resolve("missing");
        assertEquals(-1, AvailableMemory.from(nowhere, nowhere, nowhere).bytes(), "nothing readable: unknown");
        Files.delete(fixture.meminfo);
        fixture.file("cg2/job", "memory.max", 400 * MIB);
        assertEquals(300 * MIB, fixture.read().bytes(), "no meminfo, but a cgroup limit");
    }

    @Test
    void requireRefusesInOneLine() {
        var refused = org.junit.jupiter.api.Assertions.assertThrows(lib.cli.UserMistakeException.class,
                () -> AvailableMemory.require(Long.MAX_VALUE / 2, "reading it all"));
        assertTrue(refused.getMessage().startsWith("reading it all needs "), refused::getMessage);
        assertTrue(refused.getMessage().contains(" is available"), refused::getMessage);
    }

    /**
     * Chapter 1 in a real memory cgroup of 400 MiB on a 512 MiB file: refused in one line naming the
     * cgroup, not killed by the kernel. Needs a memory cgroup this test may create (root, cgroup v1
     * memory controller or v2 with the memory controller); skipped, saying so, elsewhere.
     */
    @Test
    void chapterOneInAMemoryCgroupIsRefusedNotKilled() throws Exception {
        Optional<Path> parent = writableMemoryCgroup();
        assumeTrue(parent.isPresent(), "no memory cgroup can be created here (needs root and a memory controller)");
        boolean v2 = Files.exists(parent.get().resolve("memory.max"));
        Path cgroup = Files.createDirectory(parent.get().resolve("available-memory-test-" + ProcessHandle.current().pid()));
        try {
            Files.writeString(cgroup.resolve(v2 ? "memory.max" : "memory.limit_in_bytes"), Long.toString(400 * MIB));
            long fileBytes = 512 * MIB;
            Path file = TestFiles.writeSparse(dir.resolve("haystack.bin"),
                    TestFiles.Layout.zeros("haystack", fileBytes).plant(Haystack.needleOffset(fileBytes), (byte) 1));
            List<String> command = Subprocess.afterShell("echo $$ > '" + cgroup.resolve("cgroup.procs") + "'",
                    Subprocess.javaCommand(List.of(), "V01ReadAll", file.toString(), "--runs", "1", "--warmup", "0"));
            var result = Subprocess.run(command, dir.resolve("logs"));
            assertEquals(Harness.ERROR, result.exitCode(), result::toString);
            assertEquals(1, result.errorLines().size(), result::toString);
            assertTrue(result.stderr().contains("under the limit of memory cgroup"), result::toString);
        } finally {
            Files.delete(cgroup); // its one process has ended, so the kernel lets it go
        }
    }

    /** This process's own memory cgroup directory, where a child can be made in it. */
    private static Optional<Path> writableMemoryCgroup() throws IOException {
        Path self = Path.of("/proc/self/cgroup");
        if (!Files.isReadable(self)) {
            return Optional.empty();
        }
        for (String line : Files.readAllLines(self)) {
            String[] fields = line.split(":", 3);
            Path candidate = null;
            if (fields.length == 3 && List.of(fields[1].split(",")).contains("memory")) {
                candidate = Path.of("/sys/fs/cgroup/memory" + fields[2]);
            } else if (fields.length == 3 && fields[0].equals("0") && fields[1].isEmpty()
                    && Files.isReadable(Path.of("/sys/fs/cgroup/cgroup.controllers"))
                    && Files.readString(Path.of("/sys/fs/cgroup/cgroup.controllers")).contains("memory")) {
                candidate = Path.of("/sys/fs/cgroup" + fields[2]);
            }
            if (candidate != null && Files.isDirectory(candidate) && Files.isWritable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }
}
