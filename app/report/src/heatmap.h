// The timeline's heatmap: per column, the luma histogram of its frames as a column of pixels
// (level 0 at the bottom, 255 at the top), coloured by the share of the column's pixels at
// that level on a log scale (html_report.h states the rule).
#pragma once

#include "plot_scale.h"
#include "vhist/media/png.h"
#include "vhist/qc/heat_scale.h"
#include "vhist/qc/timeline.h"

#include <array>
#include <cstdint>
#include <string>

namespace vhist::report {

// The one colour rule of the timeline's heatmaps (qc/heat_scale.h): inferno at t, and a
// share's position on the log scale over kHeatmapDecades decades.
std::array<std::uint8_t, 3> inferno(double t);
inline constexpr double kHeatmapDecades = qc::kHeatDecades;
double heatmap_position(double share);

// The image: one pixel column per timeline column, 256 rows, row 0 = level 255.
media::RgbaImage heatmap_image(const qc::Timeline& timeline);

// The heatmap's figure: an inline SVG holding the image as a PNG data: URI, the level axis
// (percent of the nominal range on the left, 8-bit codes on the right) and the time axis.
// Empty with `error` set when the PNG cannot be encoded.
std::string heatmap_figure(const qc::Timeline& timeline, const XScale& scale, std::string& error);

// The colour map's legend: a small inline SVG gradient with its labels.
std::string heatmap_legend();

}  // namespace vhist::report
