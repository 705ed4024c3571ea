// The colours, dashes and marker shapes every chart draws its series in.

package notebooks;

import java.util.List;
import tech.tablesaw.plotly.components.Line;
import tech.tablesaw.plotly.components.Marker;
import tech.tablesaw.plotly.components.Symbol;

/** Series colours that no reader confuses, and past ten of them, another look in the same colours. */
public final class ChartColours {

    private ChartColours() {}

    /**
     * Ten colours no reader confuses (plotly's own first ten), and past ten, a line of another dash
     * and a marker of another shape in the same colours: series i and i + 10 share a colour, never
     * a look. Twenty shades would include near-twins (two pinks, two dark blues) that a legend
     * cannot tell apart.
     */
    public static final List<String> COLOURS = List.of(
            "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
            "#bcbd22", "#17becf");
    private static final List<Line.Dash> DASHES = List.of(Line.Dash.SOLID, Line.Dash.DASH, Line.Dash.DOT);
    private static final List<Symbol> SYMBOLS = List.of(Symbol.CIRCLE, Symbol.SQUARE, Symbol.DIAMOND);

    public static String colour(int index) {
        return COLOURS.get(Math.floorMod(index, COLOURS.size()));
    }

    /** Series {@code index}'s line: its colour, solid for the first ten, dashed for the next ten, then dotted. */
    public static Line line(int index) {
        return Line.builder().color(colour(index)).dash(DASHES.get(Math.floorMod(index, COLOURS.size() * DASHES.size()) / COLOURS.size())).build();
    }

    /** Series {@code index}'s marker: its colour, a circle for the first ten, a square for the next ten, then a diamond. */
    public static Marker marker(int index) {
        return Marker.builder().color(colour(index))
                .symbol(SYMBOLS.get(Math.floorMod(index, COLOURS.size() * SYMBOLS.size()) / COLOURS.size())).build();
    }
}
