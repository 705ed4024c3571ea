// A chart's page: one HTML file that opens without a network (plotly.js inlined), with the walls, notes and
// fixes that Tablesaw's figure cannot say itself.

package notebooks;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import lab.results.*;
import tech.tablesaw.plotly.components.Figure;

/** The HTML page of one chart, and the scripts it carries. */
public final class ChartPage {

    public static final int CHART_WIDTH_PX = 1000, CHART_HEIGHT_PX = 600;

    /** plotly.js comes from this WebJar (declared with //DEPS in every notebook), never from a CDN. */
    public static final String PLOTLY_RESOURCE = "/META-INF/resources/webjars/plotly.js-dist/3.0.1/plotly.js";

    private static String plotlyScript;

    private ChartPage() {}

    /**
     * What the page's script adds to a figure, since Tablesaw's layout has no annotations and its
     * bars no text: {@code valuesBesideBars} prints each horizontal bar's value at its end (and, on
     * a log axis, leaves room for it); {@code notes} are lines under the title that explain the
     * chart's signs (text, escaped, never markup); {@code heightPx} is the picture's height, the
     * figure's own (a chart of many bars is taller, so that each bar's figure has room).
     */
    public record Extras(boolean valuesBesideBars, List<String> notes, int heightPx) {
        public static final Extras NONE = new Extras(false, List.of());

        public Extras(boolean valuesBesideBars, List<String> notes) {
            this(valuesBesideBars, notes, CHART_HEIGHT_PX);
        }
    }

    /**
     * A page that needs nothing from the network: plotly.js inlined, then the figure. A script
     * error is written onto the page's root element, where a test looks for it, and so is what
     * plotly.js drew, once it has finished ({@link #DRAWING_REPORT}). The
     * figure's script holds text from the CSVs (chapter names, in strings that tablesaw-jsplot
     * quotes as JSON does, which lets "</script>" through): it is escaped so that no text can end
     * its element ({@link PageText#insideScript}).
     */
    public static String page(String title, Figure figure, List<MemoryWall> walls, Extras extras) throws IOException {
        return ChartFiles.PAGE_MARK + """

                <html>
                <head>
                <meta charset="utf-8">
                <title>%s</title>
                <script>
                window.addEventListener('error', function (event) {
                  document.documentElement.setAttribute('data-script-error', String(event.message));
                });
                </script>
                <script>%s</script>
                <script>%s</script>
                <script>%s</script>
                <script>var chartWalls = %s;
                %s</script>
                <script>var chartExtras = %s;
                %s</script>
                </head>
                <body>
                %s
                <script>%s</script>
                </body>
                </html>
                """.formatted(PageText.html(title), plotly(), DRAWING_REPORT, TITLES_AND_TOOLBAR, wallsAsJavascript(walls), WALL_LINES,
                        extrasAsJavascript(extras), EXTRAS, figure.divString("chart"), figureScript(figure));
    }

    /** The figure's plotting script, without the script element tablesaw-jsplot wraps it in, made safe inside one. */
    public static String figureScript(Figure figure) {
        String script = figure.asJavascript("chart").strip();
        if (!script.startsWith("<script>") || !script.endsWith("</script>")) {
            throw new IllegalStateException("tablesaw-jsplot no longer writes a figure as one <script> element");
        }
        return PageText.insideScript(script.substring("<script>".length(), script.length() - "</script>".length()));
    }

    /** The walls as the page's script reads them: {@code [{mbps: 12345.0, label: "…"}]}. */
    private static String wallsAsJavascript(List<MemoryWall> walls) {
        String objects = walls.stream().map(wall -> String.format(Locale.ROOT, "{mbps: %s, label: %s}", wall.mbps(), javascriptString(wall.chartLabel())))
                .collect(Collectors.joining(", "));
        return PageText.insideScript("[" + objects + "]");
    }

    /** The extras as the page's script reads them: {@code {valuesBesideBars: true, notes: ["…"]}}. */
    private static String extrasAsJavascript(Extras extras) {
        String notes = extras.notes().stream().map(ChartPage::javascriptString).collect(Collectors.joining(", "));
        return PageText.insideScript("{valuesBesideBars: " + extras.valuesBesideBars() + ", notes: [" + notes + "]}");
    }

    /**
     * {@code text} as a JavaScript string literal: backslash, quote and every control character
     * escaped, and {@code < > &} written as escapes, so that no text can end the string or the
     * script element it stands in (the whole script also goes through {@link PageText#insideScript}).
     */
    public static String javascriptString(String text) {
        StringBuilder literal = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            if (c == '"' || c == '\\') {
                literal.append('\\').append(c);
            } else if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == 0x2028 || c == 0x2029) {
                literal.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
            } else {
                literal.append(c);
            }
        }
        return literal.append('"').toString();
    }

    /** The root element's attribute that {@link #DRAWING_REPORT} writes once plotly.js has finished drawing. */
    public static final String DRAWN_ATTRIBUTE = "data-chart-drawn";

    /**
     * What plotly.js drew, written onto the page's root element as {@value #DRAWN_ATTRIBUTE} only
     * once it has finished: when the promise of its {@code newPlot} has resolved, two frames later.
     * For each axis of the plot, its tick labels and its title, and for the chart its title, each
     * as "drawn/asked" ({@code x-ticks:5/1 x-title:1/1 y-ticks:6/1 y-title:0/0 title:1/1}): a part
     * counts as drawn only with text in a box of some size within the figure's; what is asked for is
     * read from the layout handed to newPlot before drawing (an axis asks for at least one tick label
     * unless it hides them, and for a title when it has one). The screenshot keeps a picture only
     * when the page has said this, and every part asked for was drawn ({@link ChartImage#drawingProblem}).
     * It wraps plotly.js's own newPlot, under every other script here, so it sees what the figure became.
     */
    public static final String DRAWING_REPORT = """
            (function () {
              // How many of the elements hold text in a box of some size that overlaps the figure's own
              function shown(gd, selector) {
                var figure = gd.getBoundingClientRect(), n = 0;
                Array.prototype.forEach.call(gd.querySelectorAll(selector), function (element) {
                  var box = element.getBoundingClientRect();
                  if (element.textContent.trim() !== '' && box.width > 0 && box.height > 0 && box.right > figure.left
                      && box.bottom > figure.top && box.left < figure.right && box.top < figure.bottom) n++;
                });
                return n;
              }
              function text(title) {
                return typeof title === 'string' ? title : (title && title.text) || '';
              }
              // What the figure asks for, read from the layout it is handed, before plotly.js draws
              function asked(layout) {
                var asks = { axes: {}, title: text(layout.title) !== '' ? 1 : 0 };
                Object.keys(layout).forEach(function (key) {
                  var axis = layout[key];
                  if (/^[xy]axis[0-9]*$/.test(key) && axis) {
                    asks.axes[key] = { ticks: axis.visible !== false && axis.showticklabels !== false ? 1 : 0,
                      title: axis.visible !== false && text(axis.title) !== '' ? 1 : 0 };
                  }
                });
                return asks;
              }
              function drawn(gd, asks) {
                var subplots = gd._fullLayout._subplots || {}, parts = [];
                (subplots.xaxis || []).concat(subplots.yaxis || []).forEach(function (id) {
                  var ask = asks.axes[id.charAt(0) + 'axis' + id.slice(1)] || { ticks: 1, title: 0 };
                  parts.push(id + '-ticks:' + shown(gd, 'g.' + id + 'tick text') + '/' + ask.ticks);
                  parts.push(id + '-title:' + shown(gd, 'g.g-' + id + 'title text') + '/' + ask.title);
                });
                parts.push('title:' + shown(gd, 'g.g-gtitle text') + '/' + asks.title);
                return parts.join(' ');
              }
              var newPlot = Plotly.newPlot;
              Plotly.newPlot = function (target, data, layout, config) {
                var asks = asked(layout || {});
                return newPlot.call(Plotly, target, data, layout, config).then(function (gd) {
                  requestAnimationFrame(function () {
                    requestAnimationFrame(function () {
                      document.documentElement.setAttribute('%s', drawn(gd, asks));
                    });
                  });
                  return gd;
                });
              };
            })();
            """.formatted(DRAWN_ATTRIBUTE);

    /**
     * Tablesaw's layout has no shapes, so a wall is added as the plot is made: a dashed line from
     * edge to edge at the wall's MB/s, labelled at its end (on a line chart, the highest wall above
     * its line and any other below, so that close walls' labels never meet). On a chart of horizontal
     * bars the MB/s axis is x, so the line stands upright, and its label, which would lie across
     * bars, goes in the legend below the plot. plotly.js widens the axis to take the line in.
     */
    public static final String WALL_LINES = """
            (function () {
              var newPlot = Plotly.newPlot;
              Plotly.newPlot = function (target, data, layout, config) {
                layout = layout || {};
                var colours = ['#b22222', '#6a3d9a'];
                var upright = (data || []).some(function (trace) { return trace.orientation === 'h'; });
                var highest = chartWalls.reduce(function (best, wall, j) { return wall.mbps > chartWalls[best].mbps ? j : best; }, 0);
                chartWalls.forEach(function (wall, i) {
                  var colour = colours[i % colours.length];
                  var line = { color: colour, width: 2, dash: i === 0 ? 'dash' : 'dot' };
                  if (upright) {
                    // Among bars a label has no free place: it goes in the legend, beside a sample of its line.
                    layout.shapes = (layout.shapes || []).concat([{ type: 'line', xref: 'x', x0: wall.mbps, x1: wall.mbps,
                      yref: 'paper', y0: 0, y1: 1, line: line }]);
                    data = (data || []).concat([{ type: 'scatter', mode: 'lines', x: [null], y: [null], name: wall.label,
                      line: line, hoverinfo: 'skip', showlegend: true }]);
                    layout.showlegend = true;
                  } else {
                    layout.shapes = (layout.shapes || []).concat([{ type: 'line', xref: 'paper', x0: 0, x1: 1,
                      yref: 'y', y0: wall.mbps, y1: wall.mbps, line: line }]);
                    // The highest wall is labelled above its line, any other below its own: walls a few
                    // hundred MB/s apart would otherwise have their labels written over each other.
                    layout.annotations = (layout.annotations || []).concat([{ xref: 'paper', x: 1, xanchor: 'right',
                      yref: 'y', y: wall.mbps, yanchor: i === highest ? 'bottom' : 'top',
                      text: wall.label, showarrow: false, font: { color: colour }, bgcolor: 'rgba(255,255,255,0.8)' }]);
                  }
                });
                return newPlot.call(Plotly, target, data, layout, config);
              };
            })();
            """;

    /**
     * The {@link Extras}: values printed at the ends of horizontal bars, and notes as more lines of
     * the title's small type. Bars on a log axis get a range from a little under the slowest bar to past the fastest
     * bar's printed value (and every wall), a gridline at each power of ten and light ones between,
     * so that no bar is a sliver and no value is cut. A legend that holds walls lies below the plot,
     * across its width, where it covers nothing. Points of several series on a category axis stand
     * side by side, as grouped bars do, not on top of each other.
     */
    public static final String EXTRAS = """
            (function () {
              function text(note) {
                return note.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
              }
              var newPlot = Plotly.newPlot;
              Plotly.newPlot = function (target, data, layout, config) {
                layout = layout || {};
                data = data || [];
                var bars = data.filter(function (trace) { return trace.type === 'bar' && trace.orientation === 'h'; });
                if (chartExtras.valuesBesideBars && bars.length > 0) {
                  var values = chartWalls.map(function (wall) { return wall.mbps; });
                  bars.forEach(function (trace) {
                    trace.text = trace.x.map(function (v) { return v >= 100 ? Math.round(v).toLocaleString('en-US') : String(Number(v.toPrecision(2))); });
                    trace.textposition = 'outside';
                    trace.constraintext = 'none';
                    trace.textfont = { size: 10 };
                    trace.cliponaxis = false;
                    values = values.concat(trace.x);
                  });
                  var positive = values.filter(function (v) { return v > 0; });
                  if (layout.xaxis && layout.xaxis.type === 'log' && positive.length > 0) {
                    layout.xaxis.range = [Math.log10(Math.min.apply(null, positive)) - 0.3, Math.log10(Math.max.apply(null, positive)) + 0.25];
                    layout.xaxis.autorange = false;
                    layout.xaxis.dtick = 1;
                    layout.xaxis.tickformat = ',d';
                    layout.xaxis.minor = { dtick: 'D1', showgrid: true, gridcolor: '#f0f0f0' };
                  }
                }
                if (chartExtras.notes.length > 0) {
                  var title = typeof layout.title === 'string' ? layout.title : (layout.title && layout.title.text) || '';
                  layout.title = { text: title + chartExtras.notes.map(function (note) { return '<br><sup>' + text(note) + '</sup>'; }).join('') };
                  layout.margin = Object.assign({}, layout.margin);
                  layout.margin.t = (layout.margin.t || 100) + 18 * chartExtras.notes.length;
                }
                if (bars.length > 0 && chartWalls.length > 0) {
                  layout.legend = Object.assign(layout.legend || {}, { orientation: 'h', x: 0, xanchor: 'left', y: -0.15, yanchor: 'top' });
                }
                var points = data.filter(function (trace) { return trace.type === 'scatter' && trace.mode === 'markers'
                  && trace.y && typeof trace.y[0] === 'string'; });
                if (points.length > 1 && points.length === data.length) {
                  layout.scattermode = 'group';
                  points.forEach(function (trace) { trace.orientation = 'h'; });
                }
                return newPlot.call(Plotly, target, data, layout, config);
              };
            })();
            """;

    /**
     * tablesaw-jsplot writes titles as plain strings, which plotly.js 3 no longer draws: they are
     * rewritten as {text: …} before the plot is made, with the line break and small type that
     * {@link Notebook#title} writes given back to plotly.js (Tablesaw escapes them). Axes make room for
     * their labels and titles (automargin), so long chapter names are never cut, and a linear y
     * axis starts at zero. A page opened as {@code page.html?png} (the screenshot) leaves out the
     * toolbar that would otherwise sit on top of the picture.
     */
    public static final String TITLES_AND_TOOLBAR = """
            (function () {
              function wrapTitle(owner) {
                if (owner && typeof owner.title === 'string') owner.title = { text: owner.title };
                // Tablesaw escapes the title's markup; plotly.js draws these few tags itself
                if (owner && owner.title && typeof owner.title.text === 'string') {
                  owner.title.text = owner.title.text.replace(/&lt;(\\/?)(br|sup|sub|b|i)&gt;/g, '<$1$2>');
                }
              }
              var newPlot = Plotly.newPlot;
              Plotly.newPlot = function (target, data, layout, config) {
                layout = layout || {};
                wrapTitle(layout);
                Object.keys(layout).forEach(function (key) {
                  if (/^[xyz]axis[0-9]*$/.test(key)) {
                    wrapTitle(layout[key]);
                    layout[key].automargin = true;
                  }
                });
                if (!layout.xaxis) layout.xaxis = { automargin: true };
                if (!layout.yaxis) layout.yaxis = { automargin: true };
                // Horizontal bars are chapters, named "V00 …" onwards: in that order, whichever trace has which
                if ((data || []).some(function (trace) { return trace.orientation === 'h'; })) {
                  layout.yaxis.categoryorder = 'category ascending';
                }
                // Every linear value axis here is MB/s or a share of it, honest only from zero
                // (Tablesaw does not pass rangemode on); log axes and category axes are left as they are.
                if (!layout.yaxis.type && layout.yaxis.autorange !== 'reversed') layout.yaxis.rangemode = 'tozero';
                config = Object.assign({ responsive: true }, config || {});
                if (/[?&]png(&|$)/.test(window.location.search)) config.displayModeBar = false;
                return newPlot.call(Plotly, target, data, layout, config);
              };
            })();
            """;

    /** plotly.js, read once; an IOException that says what is missing when it is not on the class path. */
    private static synchronized String plotly() throws IOException {
        if (plotlyScript == null) {
            try (InputStream in = ChartPage.class.getResourceAsStream(PLOTLY_RESOURCE)) {
                if (in == null) {
                    throw new IOException("plotly.js is not on the class path: the notebook needs //DEPS org.webjars.npm:plotly.js-dist:3.0.1");
                }
                // "</script" inside the library would end the inline script early
                plotlyScript = new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("</script", "<\\/script");
            }
        }
        return plotlyScript;
    }
}
