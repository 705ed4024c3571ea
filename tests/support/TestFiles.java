import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;
import lib.chapter.NeedleSearch;

/**
 * Haystacks made to order: a size, and the few bytes that are not zero.
 *
 * <p>A test describes a file as a {@link Layout}, writes it, and takes its expected answer from the
 * layout itself (the lowest planted byte, rounded down to its word), never from a chapter. Files
 * are only ever created here, never opened for writing if they exist already.
 */
final class TestFiles {

    private TestFiles() {}

    /** A file of {@code sizeBytes} zeros, except the bytes in {@code nonZeroBytes} (offset to value). */
    record Layout(String description, long sizeBytes, SortedMap<Long, Byte> nonZeroBytes) {

        Layout {
            if (sizeBytes < 0) {
                throw new IllegalArgumentException("a file cannot have " + sizeBytes + " bytes");
            }
            nonZeroBytes = new TreeMap<>(nonZeroBytes);
            nonZeroBytes.forEach((offset, value) -> {
                if (offset < 0 || offset >= sizeBytes || value == 0) {
                    throw new IllegalArgumentException("cannot plant " + value + " at " + offset + " in " + sizeBytes + " bytes");
                }
            });
        }

        static Layout zeros(String description, long sizeBytes) {
            return new Layout(description, sizeBytes, new TreeMap<>());
        }

        /** The same file with one more non-zero byte. */
        Layout plant(long offset, byte value) {
            SortedMap<Long, Byte> more = new TreeMap<>(nonZeroBytes);
            more.put(offset, value);
            return new Layout(description, sizeBytes, more);
        }

        /** What a correct search answers: the word holding the first non-zero byte, or -1. */
        long expectedOffset() {
            return nonZeroBytes.isEmpty() ? NeedleSearch.NOT_FOUND : NeedleSearch.wordContaining(nonZeroBytes.firstKey());
        }

        /** Everything needed to rebuild the file by hand, for failure messages. */
        String details() {
            String planted = nonZeroBytes.entrySet().stream()
                    .map(byteAt -> String.format("0x%02x at %d", byteAt.getValue() & 0xff, byteAt.getKey()))
                    .collect(Collectors.joining(", "));
            return description + " (" + sizeBytes + " bytes" + (planted.isEmpty() ? ", all zero" : "; " + planted) + ")";
        }

        @Override
        public String toString() {
            return description;
        }
    }

    /** Writes {@code layout} to the new file {@code file}, every byte for real. For small files. */
    static Path write(Path file, Layout layout) throws IOException {
        byte[] content = new byte[Math.toIntExact(layout.sizeBytes())];
        for (Map.Entry<Long, Byte> byteAt : layout.nonZeroBytes().entrySet()) {
            content[Math.toIntExact(byteAt.getKey())] = byteAt.getValue();
        }
        return Files.write(file, content, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    }

    /**
     * Writes {@code layout} to the new file {@code file} as a sparse file: only the planted bytes
     * are written; the rest is a hole, which reads as zeros and takes no disk space. This is how a
     * test gets a file of several GiB in a fraction of a second.
     */
    static Path writeSparse(Path file, Layout layout) throws IOException {
        Files.createFile(file); // refuses a file that exists: nothing here overwrites
        try (RandomAccessFile out = new RandomAccessFile(file.toFile(), "rw")) {
            out.setLength(layout.sizeBytes()); // extends without writing: a hole
            for (Map.Entry<Long, Byte> byteAt : layout.nonZeroBytes().entrySet()) {
                out.seek(byteAt.getKey());
                out.write(byteAt.getValue());
            }
        }
        return file;
    }
}
