// A reference histogram and what the viewer does with it, on the CPU: the distances of a live
// histogram to it, the reference drawn at the live histogram's bins and pixel count, and the
// histogram matching table (the GPU's match pass, hist_match.comp, must equal it exactly).
// Plain C++, no Vulkan.
//
// Histograms of different bin counts or depths are compared as fractions of the code range: the
// finer one is coarsened to the coarser one's bins. Each channel is normalised by its own total,
// so a region, another frame size or another file compares by shares of pixels.
#pragma once

#include "vhist/compute/cdf.h"
#include "vhist/compute/histogram_types.h"

#include <array>
#include <cstdint>
#include <vector>

namespace vhist {

// Per channel (R, G, B, L), at `bins` bins (the coarser of the two histograms'):
// - earth mover's distance, in bins: sum over bins of |CDF_live - CDF_reference| with both CDFs
//   as fractions of their totals (the area between the two cumulative curves; a histogram moved
//   by k bins is k away);
// - total variation: half the sum of |share_live - share_reference| over bins, 0..1 (the share
//   of pixels that would have to change bins; 1 when the two never overlap).
// NaN for a channel whose total is 0 in either histogram.
struct HistogramDistances {
  std::uint32_t bins = 0;
  std::array<double, 4> emd{}, total_variation{};
};
HistogramDistances histogram_distances(const Histogram& live, const Histogram& reference);

// The reference as the live histogram's bars would draw it: `bins` x 4 counts (bin * 4 + channel),
// each channel scaled to `live_pixels` pixels; a coarser reference is spread evenly over the finer
// bins of each of its bins.
std::vector<float> reference_at(const Histogram& reference, std::uint32_t bins, std::uint64_t live_pixels);

// The histogram matching table of a `bits`-bit frame whose statistics histogram has the prefix
// sum `live` (stats_levels(bits) levels) to a reference with the prefix sum `reference` (a power
// of two of levels, at most live's): per channel, level v goes to the lowest code of the smallest
// reference level u whose share reaches v's, i.e. R(u) * N >= C(v) * M, with C and R the two
// cumulative counts and N and M their totals (compared exactly, in 64 bits). A channel empty in
// either keeps its codes (identity). Stored like an equalization table, to be applied by the
// equalize pass per channel (EqualizeMode::channels).
EqualizeTable reference_match_table(const Cdf& live, const Cdf& reference, std::uint32_t bits);

// The reference at the bins a match against a live `bits`-bit frame uses: coarsened to
// stats_levels(bits) when finer, else as it is.
Histogram match_bins(const Histogram& reference, std::uint32_t bits);

}  // namespace vhist
