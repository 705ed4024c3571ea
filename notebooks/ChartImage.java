// A chart's PNG: is it whole (its page said it had finished drawing every axis's ticks and title,
// and the picture has no blank block), and is it one the notebooks drew? Used after each screenshot
// (ChromiumScreenshot) and before a PNG is replaced (Notebook).

package notebooks;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32;
import javax.imageio.ImageIO;
import lab.tools.AtomicWrite;

public final class ChartImage {

    private static final byte[] SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    /**
     * The tEXt entry written into every chart PNG: what lets a later run know it may replace it. Its words
     * stay as the charts already written carry them (the notebooks' shared class was once named Report).
     */
    public static final String KEYWORD = "Software", MARK = "notebooks/Report.java chart";

    /**
     * A blank block is a square of one colour at least this share of the image's shorter side. A
     * chart's gridlines, bars and lines break it into pieces far smaller (a gridline every 50 to
     * 120 px on a 600 px chart), and its white margins are narrower; a screenshot taken before
     * Chromium painted the plot (it paints in 256 px tiles) leaves a larger blank.
     */
    public static final double BLANK_SHARE_OF_IMAGE = 0.6;

    private ChartImage() {}

    /** A part of the chart, as the page reports it: {@code x-ticks:5/1}, drawn and asked for. */
    private static final Pattern PART = Pattern.compile("([a-z0-9-]+):(\\d{1,6})/(\\d{1,6})");

    /**
     * Why the page whose root element opens with {@code rootTag} had not drawn a whole chart, or null
     * when it had: a script error, no report of a finished drawing ({@link ChartPage#DRAWING_REPORT}:
     * plotly.js had not finished), or a part asked for and not drawn, such as an axis without tick
     * labels or without its title.
     */
    public static String drawingProblem(String rootTag) {
        if (rootTag == null || rootTag.isBlank()) {
            return "Chromium showed no page";
        }
        String error = attribute(rootTag, "data-script-error");
        if (error != null) {
            return "its page's script failed (" + error + ")";
        }
        String drawn = attribute(rootTag, ChartPage.DRAWN_ATTRIBUTE);
        if (drawn == null) {
            return "its page had not said it finished drawing (plotly.js was still at work)";
        }
        List<String> missing = new ArrayList<>();
        boolean axes = false;
        for (String part : drawn.strip().split("\\s+")) {
            Matcher counts = PART.matcher(part);
            if (!counts.matches()) {
                return "its page reported its drawing in a form not known here: " + drawn;
            }
            axes |= counts.group(1).endsWith("-ticks");
            if (Integer.parseInt(counts.group(2)) < Integer.parseInt(counts.group(3))) {
                missing.add(counts.group(1));
            }
        }
        if (!missing.isEmpty()) {
            return "its page finished drawing without " + String.join(", ", missing) + " (" + drawn + ")";
        }
        return axes ? null : "its page reported no axis (" + drawn + ")";
    }

    /** The value of {@code name} in the opening tag {@code tag}, its entities read back; null when it has none. */
    public static String attribute(String tag, String name) {
        Matcher value = Pattern.compile("\\s" + Pattern.quote(name) + "=\"([^\"]*)\"").matcher(tag);
        if (!value.find()) {
            return null;
        }
        return value.group(1).replace("&quot;", "\"").replace("&lt;", "<").replace("&gt;", ">").replace("&nbsp;", "\u00a0").replace("&amp;", "&");
    }

    /**
     * Why {@code png} is not a whole chart, or null when it is: it does not decode, or it holds a
     * blank block, a square of one colour too large for a drawn chart (see {@link #BLANK_SHARE_OF_IMAGE}).
     */
    public static String problem(Path png) {
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
    public static int largestUniformSquare(BufferedImage image, int width, int height) {
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

    public static boolean isPng(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return Arrays.equals(in.readNBytes(SIGNATURE.length), SIGNATURE);
        } catch (IOException e) {
            return false;
        }
    }

    /** True when {@code png} carries {@link #MARK} in a tEXt chunk before its image data. */
    public static boolean isMarked(Path png) {
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
    public static void mark(Path png) throws IOException {
        byte[] bytes = Files.readAllBytes(png);
        int afterHeader = SIGNATURE.length + 12 + readInt(bytes, SIGNATURE.length); // IHDR comes first
        byte[] typeAndData = ("tEXt" + KEYWORD + '\0' + MARK).getBytes(StandardCharsets.ISO_8859_1);
        CRC32 crc = new CRC32();
        crc.update(typeAndData);
        ByteArrayOutputStream marked = new ByteArrayOutputStream(bytes.length + typeAndData.length + 8);
        DataOutputStream out = new DataOutputStream(marked); // its ints are big-endian, as PNG's are
        out.write(bytes, 0, afterHeader);
        out.writeInt(typeAndData.length - 4); // a chunk's length counts its data, not its type
        out.write(typeAndData);
        out.writeInt((int) crc.getValue());
        out.write(bytes, afterHeader, bytes.length - afterHeader);
        AtomicWrite.write(png, marked::writeTo);
    }

    private static int readInt(byte[] bytes, int at) {
        return ByteBuffer.wrap(bytes).getInt(at); // big-endian, as PNG's are
    }
}
