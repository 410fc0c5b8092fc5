// The timeline heatmap's colour rule, one for the viewer's strip and the HTML report: a level's
// share of its column's pixels on a log scale over kHeatDecades decades, coloured by
// matplotlib's perceptual "inferno" map (its 11 published stops, linearly between).
#pragma once

#include <array>
#include <cstdint>

namespace vhist::qc {

inline constexpr double kHeatDecades = 6;  // shares from 1e-6 to 1

// The colour-map position of a share (0..1): 0 for none, else
// 0.1 + 0.9 * clamp(1 + log10(share) / kHeatDecades, 0, 1) (the least share still shows).
double heat_position(double share);

// Inferno at t in [0, 1], as 8-bit sRGB.
std::array<std::uint8_t, 3> inferno(double t);

}  // namespace vhist::qc
