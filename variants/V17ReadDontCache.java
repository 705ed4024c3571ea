///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25+
//SOURCES ../lib/*.java
//COMPILE_OPTIONS --add-modules jdk.incubator.vector
// The vector kernels compile after 1% of the JIT's usual calls and loops, so a first run waits less for C2 (colons: JBang quotes commas).
//RUNTIME_OPTIONS --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -XX:CompileCommand=quiet -XX:CompileCommand=CompileThresholdScaling:lib.VectorKernel::firstNonZeroWord512:0.01 -XX:CompileCommand=CompileThresholdScaling:lib.VectorKernel::firstNonZeroWord256:0.01

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import lib.ChunkedSearch;
import lib.DontCacheReader;
import lib.Harness;
import lib.ParallelSearch;
import lib.VectorKernel;

/**
 * Chapter 17: read once, leave the cache alone.
 *
 * <p>Chapter 13 reading a file larger than memory evicts everything else the machine had cached to
 * make room for pages it will never read again. Here each worker reads through the page cache with
 * {@code RWF_DONTCACHE} ({@link DontCacheReader}): readahead as usual, but the pages it brings in
 * are dropped once copied out, so the rest of the machine keeps its cache. Where the kernel or file
 * system refuses the flag it says so in one line and drops each chunk behind itself with
 * {@code POSIX_FADV_DONTNEED}; the results row records which ({@code read_mode}).
 *
 * <pre>
 * How to run:   ./jbang variants/V17ReadDontCache.java haystack.bin --cold
 * </pre>
 */
public class V17ReadDontCache implements ChunkedSearch {

    /** What the latest search found this file's file system takes, for its results row. */
    private volatile DontCacheReader.Support support;

    public static void main(String[] args) {
        Harness.run(new V17ReadDontCache(), args);
    }

    @Override
    public String note(Path file) throws IOException {
        support = DontCacheReader.modeFor(file);
        return support.refusal() == null ? "reading with RWF_DONTCACHE, scanning with " + VectorKernel.widestDescription()
                : "RWF_DONTCACHE refused here (" + support.refusal() + "): plain reads, each chunk dropped with POSIX_FADV_DONTNEED once read";
    }

    @Override
    public Optional<String> readMode() {
        return support == null ? Optional.empty() : Optional.of(support.mode().label);
    }

    @Override
    public long search(Path file, int workers, long chunkBytes) throws IOException {
        support = DontCacheReader.modeFor(file); // one page read with the flag: the file's own file system decides
        DontCacheReader.Mode mode = support.mode();
        return ParallelSearch.firstNonZeroWord(Files.size(file), workers, chunkBytes,
                () -> new DontCacheReader(file, chunkBytes, mode, VectorKernel::firstNonZeroWordWidest));
    }
}
