#include "curves.h"

#include "html_text.h"

#include "vhist/qc/column_measures.h"

#include <algorithm>
#include <functional>

namespace vhist::report {

namespace {

constexpr double kTop = 8;       // the plot area's top in a panel's viewBox
constexpr double kBottom = 22;   // room under it for the time labels

struct Panel {
  double height = 100;  // the plot area's
  double lo = 0, hi = 1;
  std::vector<double> ticks;
  std::string unit;
  double y(double v) const { return kTop + (hi - std::clamp(v, lo, hi)) / (hi - lo) * height; }
};

using Value = std::function<double(const qc::ColumnMeasures&)>;

std::string svg_open(const std::string& id, double height, const std::string& label) {
  return "<svg class=\"plot\" id=\"" + id + "\" viewBox=\"0 0 " + fixed(kViewWidth, 0) + " " +
         fixed(kTop + height + kBottom, 0) + "\" role=\"img\" aria-label=\"" + escape(label) + "\">";
}

// The plot's frame, its horizontal grid with labels, and the time grid with labels.
std::string grid(const Panel& p, const XScale& scale) {
  std::string s = "<rect class=\"plotbg\" x=\"" + fixed(kPlotLeft, 1) + "\" y=\"" + fixed(kTop, 1) + "\" width=\"" +
                  fixed(kPlotWidth, 1) + "\" height=\"" + fixed(p.height, 1) + "\"/>";
  for (const double v : p.ticks) {
    const std::string y = fixed(p.y(v), 1);
    s += "<line class=\"grid\" x1=\"" + fixed(kPlotLeft, 1) + "\" x2=\"" + fixed(kPlotRight, 1) + "\" y1=\"" + y +
         "\" y2=\"" + y + "\"/><text class=\"ylab\" x=\"" + fixed(kPlotLeft - 8, 1) + "\" y=\"" + y + "\">" +
         fixed(v, v == static_cast<double>(static_cast<long long>(v)) ? 0 : 1) + p.unit + "</text>";
  }
  const double bottom = kTop + p.height;
  for (const TimeTick& t : time_ticks(scale)) {
    const std::string x = fixed(t.x, 1);
    s += "<line class=\"vgrid\" x1=\"" + x + "\" x2=\"" + x + "\" y1=\"" + fixed(kTop, 1) + "\" y2=\"" +
         fixed(bottom, 1) + "\"/><text class=\"xlab\" x=\"" + x + "\" y=\"" + fixed(bottom + 15, 1) + "\">" +
         escape(t.label) + "</text>";
  }
  return s;
}

// The x of each point of a curve: two per column (a step) while columns are wide, else the
// column's middle.
std::vector<std::pair<double, std::size_t>> curve_xs(std::size_t columns) {
  std::vector<std::pair<double, std::size_t>> xs;
  const double n = static_cast<double>(columns);
  const bool steps = n < kPlotWidth / 2.5;
  for (std::size_t k = 0; k < columns; ++k) {
    if (steps) {
      xs.emplace_back(kPlotLeft + kPlotWidth * k / n, k);
      xs.emplace_back(kPlotLeft + kPlotWidth * (k + 1) / n, k);
    } else {
      xs.emplace_back(kPlotLeft + kPlotWidth * (k + 0.5) / n, k);
    }
  }
  return xs;
}

std::string points(const std::vector<qc::ColumnMeasures>& cols, const Panel& p, const Value& value, bool reverse = false) {
  auto xs = curve_xs(cols.size());
  if (reverse) std::reverse(xs.begin(), xs.end());
  std::string s;
  s.reserve(xs.size() * 12);
  for (const auto& [x, k] : xs) s += fixed(x, 1) + "," + fixed(p.y(value(cols[k])), 1) + " ";
  return s;
}

std::string line(const std::vector<qc::ColumnMeasures>& cols, const Panel& p, const Value& value, std::string_view colour,
                 double width) {
  return "<polyline class=\"curve\" stroke=\"" + std::string(colour) + "\" stroke-width=\"" + fixed(width, 1) +
         "\" points=\"" + points(cols, p, value) + "\"/>";
}

// The area between two curves.
std::string band(const std::vector<qc::ColumnMeasures>& cols, const Panel& p, const Value& lo, const Value& hi,
                 std::string_view fill) {
  return "<polygon class=\"band\" fill=\"" + std::string(fill) + "\" points=\"" + points(cols, p, hi) +
         points(cols, p, lo, true) + "\"/>";
}

// A dashed limit line with its label at the right end.
std::string limit(const Panel& p, double v, const std::string& label) {
  const std::string y = fixed(p.y(v), 1);
  return "<line class=\"limit\" x1=\"" + fixed(kPlotLeft, 1) + "\" x2=\"" + fixed(kPlotRight, 1) + "\" y1=\"" + y +
         "\" y2=\"" + y + "\"/><text class=\"limlab\" x=\"" + fixed(kPlotRight + 4, 1) + "\" y=\"" + y + "\">" +
         escape(label) + "</text>";
}

std::string key(std::string_view colour, std::string_view text, bool dashed = false) {
  return "<span class=\"key\"><i class=\"" + std::string(dashed ? "dash" : "swatch") + "\" style=\"" +
         (dashed ? "border-color:" : "background:") + std::string(colour) + "\"></i>" + escape(text) + "</span>";
}

std::string head(std::string_view title, const std::string& keys, std::string_view caption) {
  return "<div class=\"panel-head\"><h3>" + escape(title) + "</h3><div class=\"keys\">" + keys +
         "</div><div class=\"caption\">" + escape(caption) + "</div></div>";
}

std::vector<double> even_ticks(double hi, int parts) {
  std::vector<double> t;
  for (int k = 0; k <= parts; ++k) t.push_back(hi * k / parts);
  return t;
}

double column_max(const std::vector<qc::ColumnMeasures>& cols, const Value& value) {
  double m = 0;
  for (const qc::ColumnMeasures& c : cols) m = std::max(m, value(c));
  return m;
}

// `limited`: the frames are limited range, whose codes 5 and 246 (R 103's Y' limits) read
// about -5 % and 105 %: those are drawn.
std::string levels_panel(const std::vector<qc::ColumnMeasures>& cols, const XScale& scale, bool limited) {
  Panel p{150, -10, 110, {0, 25, 50, 75, 100}, " %"};
  std::string s = head("Y\u2032 levels",
                       key("#c6d4e6", "min\u2013max") + key("#87a9d3", "p10\u2013p90") + key("#173f73", "mean") +
                           (limited ? key("#555", "EBU R 103 limits (codes 5 and 246)", true) : std::string()),
                       "percent of the nominal range; per column: min of the minima, max of the maxima, mean of the "
                       "10th and 90th percentiles and of the means");
  s += svg_open("levels-plot", p.height, "luma levels over time") + grid(p, scale);
  s += band(cols, p, [](const qc::ColumnMeasures& c) { return c.y_min; }, [](const qc::ColumnMeasures& c) { return c.y_max; },
            "#c6d4e6");
  s += band(cols, p, [](const qc::ColumnMeasures& c) { return c.y_p10; }, [](const qc::ColumnMeasures& c) { return c.y_p90; },
            "#87a9d3");
  if (limited) {
    s += limit(p, (5 - 16) * 100.0 / 219.0, "R 103") + limit(p, (246 - 16) * 100.0 / 219.0, "R 103");
  }
  s += line(cols, p, [](const qc::ColumnMeasures& c) { return c.y_mean; }, "#173f73", 1.4);
  return s + "</svg>";
}

// A panel of shares in percent with a limit line (`limits`: value and label; 100 % or more: off).
std::string share_panel(const std::vector<qc::ColumnMeasures>& cols, const XScale& scale, std::string_view id,
                        std::string_view title, const std::vector<std::pair<Value, std::string>>& curves,
                        const std::vector<std::pair<double, std::string>>& limits) {
  static constexpr std::string_view kColours[] = {"#D55E00", "#0072B2"};
  double top = 0;
  for (const auto& c : curves) top = std::max(top, column_max(cols, c.first));
  for (const auto& l : limits) {
    if (l.first < 100) top = std::max(top, l.first * 1.25);
  }
  const double hi = std::min(100.0, nice_ceil(top > 0 ? top : 1));
  Panel p{80, 0, hi, even_ticks(hi, 2), " %"};
  std::string keys;
  for (std::size_t k = 0; k < curves.size(); ++k) keys += key(kColours[k % 2], curves[k].second);
  for (const auto& l : limits) {
    if (l.first < 100) keys += key("#555", l.second + " " + fixed(l.first, 2) + " %", true);
  }
  std::string s = head(title, keys, "percent of the pixels; per column: the highest of its frames");
  s += svg_open(std::string(id), p.height, std::string(title)) + grid(p, scale);
  for (const auto& l : limits) {
    if (l.first < 100) s += limit(p, l.first, l.second);
  }
  for (std::size_t k = 0; k < curves.size(); ++k) s += line(cols, p, curves[k].first, kColours[k % 2], 1.3);
  return s + "</svg>";
}

// `hlg`: the light is HLG's, as shown on BT.2100's reference display (said in the title).
std::string light_panel(const std::vector<qc::ColumnMeasures>& cols, const XScale& scale, bool hlg) {
  const Value cll = [](const qc::ColumnMeasures& c) { return c.max_cll; };
  const Value fall = [](const qc::ColumnMeasures& c) { return c.fall; };
  const double hi = nice_ceil(std::max({column_max(cols, cll), column_max(cols, fall), 1.0}));
  Panel p{100, 0, hi, even_ticks(hi, 4), ""};
  const char* title = hlg ? "Light (HLG, on BT.2100’s 1000 cd/m² reference display, system gamma 1.2)"
                          : "Light (PQ)";
  std::string s = head(title, key("#D55E00", "brightest pixel (MaxCLL)") + key("#0072B2", "frame average (FALL)"),
                       "cd/m\u00b2; per column: the highest brightest pixel and the highest frame average");
  s += svg_open("light-plot", p.height, hlg ? "HLG light over time" : "PQ light over time") + grid(p, scale);
  s += line(cols, p, cll, "#D55E00", 1.3) + line(cols, p, fall, "#0072B2", 1.3);
  return s + "</svg>";
}

}  // namespace

std::string curve_panels(const qc::Timeline& timeline, const XScale& scale, const std::vector<qc::Event>& events,
                         const qc::Thresholds& t) {
  const std::vector<qc::ColumnMeasures> cols = qc::column_measures(timeline);
  std::string s = "<div class=\"panel\">" + event_lanes(scale, events) + "</div>";
  const bool limited = timeline.frames().empty() || timeline.frames().front().limited;
  s += "<div class=\"panel\">" + levels_panel(cols, scale, limited) + "</div>";
  s += "<div class=\"panel\">" +
       share_panel(cols, scale, "clip-plot", "Clipped",
                   {{[](const qc::ColumnMeasures& c) { return c.clip_high * 100.0; }, "at or above white"},
                    {[](const qc::ColumnMeasures& c) { return c.clip_low * 100.0; }, "at or below black"}},
                   {{t.clip_high, "top limit"}, {t.clip_low, "bottom limit"}}) +
       "</div>";
  s += "<div class=\"panel\">" +
       share_panel(cols, scale, "r103-plot", "EBU R 103",
                   {{[](const qc::ColumnMeasures& c) { return c.r103_luma * 100.0; }, "Y\u2032 outside 5\u2013246"},
                    {[](const qc::ColumnMeasures& c) { return c.r103_rgb * 100.0; }, "R\u2032G\u2032B\u2032 out of gamut"}},
                   {{t.r103_area, "limit"}}) +
       "</div>";
  const bool pq = std::any_of(cols.begin(), cols.end(), [](const qc::ColumnMeasures& c) { return c.pq; });
  const bool hlg = std::any_of(cols.begin(), cols.end(), [](const qc::ColumnMeasures& c) { return c.hlg; });
  if (pq || hlg) s += "<div class=\"panel\">" + light_panel(cols, scale, hlg && !pq) + "</div>";
  return s;
}

}  // namespace vhist::report
