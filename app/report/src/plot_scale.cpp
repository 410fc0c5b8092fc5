#include "plot_scale.h"

#include "html_text.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace vhist::report {

double XScale::x_of_frame(std::int64_t frame) const {
  const std::int64_t k = timeline_.column_of(frame);
  if (k < 0) return kPlotLeft;
  const qc::TimelineColumn& c = timeline_.columns()[static_cast<std::size_t>(k)];
  const double share = c.frames == 0 ? 0.0 : static_cast<double>(frame - c.first_frame) / c.frames;
  return x_of_column(static_cast<double>(k) + std::clamp(share, 0.0, 1.0));
}

double XScale::x_after_frame(std::int64_t frame) const {
  const std::int64_t k = timeline_.column_of(frame);
  if (k < 0) return kPlotLeft;
  const qc::TimelineColumn& c = timeline_.columns()[static_cast<std::size_t>(k)];
  const double share = c.frames == 0 ? 1.0 : static_cast<double>(frame + 1 - c.first_frame) / c.frames;
  return x_of_column(static_cast<double>(k) + std::clamp(share, 0.0, 1.0));
}

double XScale::first_time() const { return timeline_.frames().empty() ? 0.0 : timeline_.frames().front().pts; }

double XScale::end_time() const {
  const auto& frames = timeline_.frames();
  if (frames.empty()) return 0.0;
  const double period = frames.size() > 1 ? (frames.back().pts - frames.front().pts) / (frames.size() - 1.0) : 0.04;
  return frames.back().pts + std::max(period, 0.0);
}

double XScale::x_of_time(double seconds) const {
  const auto& frames = timeline_.frames();
  if (frames.empty()) return kPlotLeft;
  const auto it = std::lower_bound(frames.begin(), frames.end(), seconds,
                                   [](const qc::QcFrame& f, double t) { return f.pts < t; });
  if (it == frames.end()) {
    const double span = end_time() - frames.back().pts;
    const double share = span > 0 ? std::clamp((seconds - frames.back().pts) / span, 0.0, 1.0) : 1.0;
    const double a = x_of_frame(frames.back().frame), b = x_after_frame(frames.back().frame);
    return a + (b - a) * share;
  }
  if (it == frames.begin()) return x_of_frame(it->frame);
  const qc::QcFrame& before = *(it - 1);
  const double gap = it->pts - before.pts;
  const double share = gap > 0 ? (seconds - before.pts) / gap : 1.0;
  const double a = x_of_frame(before.frame), b = x_of_frame(it->frame);
  return a + (b - a) * std::clamp(share, 0.0, 1.0);
}

std::vector<TimeTick> time_ticks(const XScale& scale) {
  static constexpr std::array<double, 18> kSteps{0.1, 0.2, 0.5, 1,   2,   5,    10,   15,   30,
                                                 60,  120, 300, 600, 900, 1800, 3600, 7200, 14400};
  const double first = scale.first_time(), end = scale.end_time(), span = end - first;
  if (span <= 0) return {};
  double step = kSteps.back();
  for (const double s : kSteps) {
    if (span / s <= 10) {
      step = s;
      break;
    }
  }
  std::vector<TimeTick> ticks;
  for (double t = std::ceil(first / step - 1e-9) * step; t <= end + 1e-9; t += step) {
    ticks.push_back({scale.x_of_time(t), time_label(t + 0.0, step, end)});  // + 0.0: never "-0 s"
  }
  return ticks;
}

double nice_ceil(double value) {
  if (!(value > 0) || !std::isfinite(value)) return 1;
  const double power = std::pow(10.0, std::floor(std::log10(value)));
  for (const double m : {1.0, 2.0, 5.0, 10.0}) {
    if (m * power >= value * (1 - 1e-12)) return m * power;
  }
  return 10 * power;
}

std::string_view check_colour(qc::Check check) {
  switch (check) {
    case qc::Check::r103_luma: return "#D55E00";
    case qc::Check::r103_rgb: return "#CC79A7";
    case qc::Check::clipped: return "#E69F00";
    case qc::Check::black: return "#3d3d3d";
    case qc::Check::frozen: return "#0072B2";
    case qc::Check::light: return "#56B4E9";
    case qc::Check::range: return "#009E73";
    case qc::Check::decode_error: return "#000000";
  }
  return "#777777";
}

}  // namespace vhist::report
