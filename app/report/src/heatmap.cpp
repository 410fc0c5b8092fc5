#include "heatmap.h"

#include "html_text.h"

#include <algorithm>
#include <cmath>

namespace vhist::report {

namespace {

// Inferno at t = 0, 0.1, ..., 1 (matplotlib's map, as its published 11-step palette).


constexpr double kHeatTop = 10;      // the image's top in the figure's viewBox
constexpr double kHeatHeight = 256;  // one unit per level
constexpr double kFigureHeight = kHeatTop + kHeatHeight + 34;

std::string hex(const std::array<std::uint8_t, 3>& c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", c[0], c[1], c[2]);
  return buf;
}

// The y of the middle of 8-bit level `code` in the figure.
double y_of_code(double code) { return kHeatTop + (255.5 - code) * kHeatHeight / 256.0; }

// The level axis: percent of the nominal range on the left, 8-bit codes on the right (no line
// over the image: at 0 and 100 % it would hide the codes 16 and 235).
std::string level_axis(bool limited) {
  std::string s;
  for (const int percent : {0, 25, 50, 75, 100}) {
    const double code = limited ? 16 + 219 * percent / 100.0 : 255 * percent / 100.0;
    const std::string y = fixed(y_of_code(code), 1);
    s += "<line class=\"tick\" x1=\"" + fixed(kPlotLeft - 5, 1) + "\" x2=\"" + fixed(kPlotLeft, 1) + "\" y1=\"" + y +
         "\" y2=\"" + y + "\"/><text class=\"ylab\" x=\"" + fixed(kPlotLeft - 8, 1) + "\" y=\"" + y + "\">" +
         std::to_string(percent) + " %</text>";
  }
  const std::vector<int> codes = limited ? std::vector<int>{0, 16, 128, 235, 255} : std::vector<int>{0, 64, 128, 192, 255};
  for (const int code : codes) {
    const std::string y = fixed(y_of_code(code), 1);
    s += "<line class=\"tick\" x1=\"" + fixed(kPlotRight, 1) + "\" x2=\"" + fixed(kPlotRight + 5, 1) + "\" y1=\"" + y +
         "\" y2=\"" + y + "\"/><text class=\"rlab\" x=\"" + fixed(kPlotRight + 8, 1) + "\" y=\"" + y + "\">" +
         std::to_string(code) + "</text>";
  }
  return s;
}

}  // namespace

std::array<std::uint8_t, 3> inferno(double t) { return qc::inferno(t); }

double heatmap_position(double share) { return qc::heat_position(share); }

media::RgbaImage heatmap_image(const qc::Timeline& timeline) {
  const auto& columns = timeline.columns();
  media::RgbaImage image;
  image.width = static_cast<std::uint32_t>(columns.size());
  image.height = qc::kTimelineLevels;
  image.pixels.assign(std::size_t{image.width} * image.height * 4, 255);
  for (std::uint32_t x = 0; x < image.width; ++x) {
    const auto& counts = columns[x].counts;
    double total = 0;
    for (std::uint32_t level = 0; level < qc::kTimelineLevels; ++level) total += counts[level * 4 + 3];
    for (std::uint32_t level = 0; level < qc::kTimelineLevels; ++level) {
      const double share = total > 0 ? counts[level * 4 + 3] / total : 0.0;
      const auto c = inferno(heatmap_position(share));
      std::uint8_t* p = &image.pixels[(std::size_t{qc::kTimelineLevels - 1 - level} * image.width + x) * 4];
      p[0] = c[0], p[1] = c[1], p[2] = c[2];
    }
  }
  return image;
}

std::string heatmap_figure(const qc::Timeline& timeline, const XScale& scale, std::string& error) {
  const std::string png = media::encode_png(heatmap_image(timeline), error);
  if (png.empty()) return {};
  const bool limited = timeline.frames().empty() || timeline.frames().front().limited;
  // Nearest-neighbour when each column is wider than a pixel; smoothed when they are squeezed,
  // so that a narrow column is averaged in rather than dropped.
  const bool pixelated = static_cast<double>(scale.columns()) < kPlotWidth;
  std::string s = "<svg class=\"plot\" id=\"heatmap-figure\" viewBox=\"0 0 " + fixed(kViewWidth, 0) + " " +
                  fixed(kFigureHeight, 0) + "\" role=\"img\" aria-label=\"luma histogram over time\">";
  s += "<rect class=\"heatbg\" x=\"" + fixed(kPlotLeft, 1) + "\" y=\"" + fixed(kHeatTop, 1) + "\" width=\"" +
       fixed(kPlotWidth, 1) + "\" height=\"" + fixed(kHeatHeight, 1) + "\"/>";
  s += "<image id=\"heatmap\" x=\"" + fixed(kPlotLeft, 1) + "\" y=\"" + fixed(kHeatTop, 1) + "\" width=\"" +
       fixed(kPlotWidth, 1) + "\" height=\"" + fixed(kHeatHeight, 1) + "\" preserveAspectRatio=\"none\"" +
       (pixelated ? " style=\"image-rendering:pixelated\"" : "") + " href=\"data:image/png;base64," + base64(png) +
       "\"/>";
  s += level_axis(limited);
  const double axis_y = kHeatTop + kHeatHeight;
  for (const TimeTick& t : time_ticks(scale)) {
    const std::string x = fixed(t.x, 1);
    s += "<line class=\"tick\" x1=\"" + x + "\" x2=\"" + x + "\" y1=\"" + fixed(axis_y, 1) + "\" y2=\"" +
         fixed(axis_y + 5, 1) + "\"/><text class=\"xlab\" x=\"" + x + "\" y=\"" + fixed(axis_y + 18, 1) + "\">" +
         escape(t.label) + "</text>";
  }
  s += "<text class=\"axtitle\" transform=\"rotate(-90)\" x=\"" + fixed(-(kHeatTop + kHeatHeight / 2), 1) +
       "\" y=\"14\">Y\u2032 level</text>";
  s += "</svg>";
  return s;
}

std::string heatmap_legend() {
  std::string s = "<svg class=\"legend-bar\" viewBox=\"0 0 300 30\" role=\"img\" aria-label=\"colour scale\">";
  s += "<defs><linearGradient id=\"inferno\">";
  for (int k = 0; k <= 10; ++k) {
    // The bar runs over the non-empty part of the map: 0.1 (the least share drawn) to 1.
    const double t = 0.1 + 0.09 * k;
    s += "<stop offset=\"" + fixed(k / 10.0, 2) + "\" stop-color=\"" + hex(inferno(t)) + "\"/>";
  }
  s += "</linearGradient></defs>";
  s += "<rect x=\"4\" y=\"2\" width=\"16\" height=\"12\" fill=\"" + hex(inferno(0)) + "\" stroke=\"#888\" "
       "stroke-width=\"0.5\"/><text class=\"leglab\" x=\"12\" y=\"27\">0</text>";
  s += "<rect x=\"34\" y=\"2\" width=\"256\" height=\"12\" fill=\"url(#inferno)\"/>";
  const char* labels[] = {"10\u207b\u2076", "10\u207b\u2074", "10\u207b\u00b2", "1"};
  for (int k = 0; k < 4; ++k) {
    s += "<text class=\"leglab\" x=\"" + fixed(34 + 256.0 * k / 3.0, 1) + "\" y=\"27\">" + labels[k] + "</text>";
  }
  s += "</svg>";
  return s;
}

}  // namespace vhist::report
