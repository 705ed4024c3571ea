// A chart's PNG: is it whole, and is it one the notebooks drew? Used after each screenshot
// (ChromiumScreenshot) and before a PNG is replaced (Report).

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.CRC32;
import javax.imageio.ImageIO;
import lab.tools.AtomicWrite;

final class ChartImage {

    private static final byte[] SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    /** The tEXt entry written into every chart PNG: what lets a later run know it may replace it. */
    static final String KEYWORD = "Software", MARK = "notebooks/Report.java chart";

    /**
     * A blank block is a square of one colour at least this share of the image's shorter side. A
     * chart's gridlines, bars and lines break it into pieces far smaller (a gridline every 50 to
     * 120 px on a 600 px chart), and its white margins are narrower; a screenshot taken before
     * Chromium painted the plot (it paints in 256 px tiles) leaves a larger blank.
     */
    static final double BLANK_SHARE_OF_IMAGE = 0.6;

    private ChartImage() {}

    /**
     * Why {@code png} is not a whole chart, or null when it is: it does not decode, or it holds a
     * blank block, a square of one colour too large for a drawn chart (see {@link #BLANK_SHARE_OF_IMAGE}).
     */
    static String problem(Path png) {
        BufferedImage image;
        try {
            image = ImageIO.read(png.toFile());
        } catch (IOException | RuntimeException e) {
            return "does not decode as an image (" + e.getMessage() + ")";
        }
        if (image == null) {
            return "not an image ImageIO can read";
        }
        int width = image.getWidth(), height = image.getHeight();
        if (width < 10 || height < 10) {
            return "an image of " + width + "×" + height + " px";
        }
        int side = largestUniformSquare(image, width, height);
        int limit = (int) Math.ceil(Math.min(width, height) * BLANK_SHARE_OF_IMAGE);
        if (side >= limit) {
            return "a blank block of " + side + "×" + side + " px, one colour (a drawn chart has none over " + limit + " px)";
        }
        return null;
    }

    /** The side of the largest square of one colour in the image: dynamic programming, one row at a time. */
    static int largestUniformSquare(BufferedImage image, int width, int height) {
        int[] previous = new int[width], current = new int[width];
        int[] above = new int[width], row = new int[width];
        int best = 0;
        for (int y = 0; y < height; y++) {
            image.getRGB(0, y, width, 1, row, 0, width);
            for (int x = 0; x < width; x++) {
                int size = 1;
                if (x > 0 && y > 0 && row[x] == row[x - 1] && row[x] == above[x] && row[x] == above[x - 1]) {
                    size = 1 + Math.min(current[x - 1], Math.min(previous[x], previous[x - 1]));
                }
                current[x] = size;
                best = Math.max(best, size);
            }
            int[] swap = previous; previous = current; current = swap;
            swap = above; above = row; row = swap;
        }
        return best;
    }

    static boolean isPng(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return Arrays.equals(in.readNBytes(SIGNATURE.length), SIGNATURE);
        } catch (IOException e) {
            return false;
        }
    }

    /** True when {@code png} carries {@link #MARK} in a tEXt chunk before its image data. */
    static boolean isMarked(Path png) {
        if (!isPng(png)) {
            return false;
        }
        try {
            byte[] bytes = Files.readAllBytes(png);
            int at = SIGNATURE.length;
            while (at + 8 <= bytes.length) {
                int length = readInt(bytes, at);
                String type = new String(bytes, at + 4, 4, StandardCharsets.US_ASCII);
                if (type.equals("IDAT") || length < 0 || at + 12L + length > bytes.length) {
                    return false;
                }
                if (type.equals("tEXt")) {
                    String text = new String(bytes, at + 8, length, StandardCharsets.ISO_8859_1);
                    if (text.equals(KEYWORD + '\0' + MARK)) {
                        return true;
                    }
                }
                at += 12 + length;
            }
        } catch (IOException e) {
            return false;
        }
        return false;
    }

    /** Writes {@link #MARK} into {@code png} as a tEXt chunk right after its header; the image is unchanged. */
    static void mark(Path png) throws IOException {
        byte[] bytes = Files.readAllBytes(png);
        int afterHeader = SIGNATURE.length + 12 + readInt(bytes, SIGNATURE.length); // IHDR comes first
        byte[] data = (KEYWORD + '\0' + MARK).getBytes(StandardCharsets.ISO_8859_1);
        ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length + data.length + 12);
        out.write(bytes, 0, afterHeader);
        byte[] typeAndData = new byte[4 + data.length];
        System.arraycopy("tEXt".getBytes(StandardCharsets.US_ASCII), 0, typeAndData, 0, 4);
        System.arraycopy(data, 0, typeAndData, 4, data.length);
        CRC32 crc = new CRC32();
        crc.update(typeAndData);
        writeInt(out, data.length);
        out.write(typeAndData);
        writeInt(out, (int) crc.getValue());
        out.write(bytes, afterHeader, bytes.length - afterHeader);
        AtomicWrite.write(png, out::writeTo);
    }

    private static int readInt(byte[] bytes, int at) {
        return ((bytes[at] & 0xff) << 24) | ((bytes[at + 1] & 0xff) << 16) | ((bytes[at + 2] & 0xff) << 8) | (bytes[at + 3] & 0xff);
    }

    private static void writeInt(ByteArrayOutputStream out, int value) {
        out.write(value >>> 24);
        out.write(value >>> 16);
        out.write(value >>> 8);
        out.write(value);
    }
}
