// The report's plots share one horizontal scale: the timeline's columns across the same width,
// so that the heatmap, the curves and the event lanes line up. The curves are drawn per column,
// never per frame (a 2-hour file has 180,000 frames but at most qc::kMaxColumns columns), from
// qc::column_measures() (column_measures.h), the viewer's timeline strip's rule too.
#pragma once

#include "vhist/qc/checks.h"
#include "vhist/qc/timeline.h"

#include <string>
#include <string_view>
#include <vector>

namespace vhist::report {

// Every plot's SVG viewBox is kViewWidth wide, its plot area from kPlotLeft to kPlotRight.
inline constexpr double kViewWidth = 1100;
inline constexpr double kPlotLeft = 64;
inline constexpr double kPlotRight = kViewWidth - 56;
inline constexpr double kPlotWidth = kPlotRight - kPlotLeft;

// Frame numbers and times to x in the plots' viewBox.
class XScale {
 public:
  explicit XScale(const qc::Timeline& timeline) : timeline_(timeline) {}
  std::size_t columns() const { return timeline_.columns().size(); }
  // The left edge of frame `frame`'s share of its column.
  double x_of_frame(std::int64_t frame) const;
  // The right edge of frame `frame`'s share of its column.
  double x_after_frame(std::int64_t frame) const;
  // The x of a time: between the frames around it.
  double x_of_time(double seconds) const;
  double first_time() const;
  double end_time() const;  // the last frame's time plus one frame

 private:
  double x_of_column(double column) const { return kPlotLeft + kPlotWidth * column / static_cast<double>(columns()); }
  const qc::Timeline& timeline_;
};

// The time axis's ticks between first_time() and end_time(): about 6 to 10 of them, at a round
// step (0.1 s ... 2 h).
struct TimeTick {
  double x = 0;
  std::string label;
};
std::vector<TimeTick> time_ticks(const XScale& scale);

// The smallest of 1, 2, 5 times a power of ten at or above `value` (> 0).
double nice_ceil(double value);

// The colour of a check's marks (Okabe-Ito's colour-blind-safe set), as "#rrggbb".
std::string_view check_colour(qc::Check check);

}  // namespace vhist::report
