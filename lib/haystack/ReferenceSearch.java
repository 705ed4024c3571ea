package lib.haystack;

import lib.chapter.NeedleSearch;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The plain answer every chapter is checked against: bytes in order, no tricks, no threads.
 * It is meant to be obviously right, not fast.
 */
public final class ReferenceSearch implements NeedleSearch {

    @Override
    public long search(Path file, int ignoredWorkers) throws IOException {
        byte[] block = new byte[64 * 1024];
        long offset = 0;
        try (InputStream in = Files.newInputStream(file)) {
            for (int n; (n = in.read(block)) > 0; offset += n) {
                for (int i = 0; i < n; i++) {
                    if (block[i] != 0) {
                        return NeedleSearch.wordContaining(offset + i);
                    }
                }
            }
        }
        return NOT_FOUND;
    }
}
