// Per-channel statistics of a frame from its histogram, in code values of the source depth, and
// the derivation of coarser histograms from a finer one.
#pragma once

#include "vhist/compute/cdf.h"
#include "vhist/compute/histogram_types.h"

#include <array>
#include <cstdint>
#include <span>

namespace vhist {

struct ChannelStats {
  std::uint32_t min = 0, max = 0;   // lowest and highest code present
  double mean = 0;
  std::uint32_t median = 0;         // the 50th percentile
  std::uint32_t p1 = 0, p99 = 0;    // 1st and 99th percentiles
  double clip_low = 0;              // fraction of pixels at the lowest code (0)
  double clip_high = 0;             // fraction of pixels at the highest code (2^bits - 1)
};

// The histogram resolution statistics are computed from: one level per code up to 10 bits
// (exact statistics), 1024 levels for deeper sources (each level then spans 2^(bits-10) codes).
std::uint32_t stats_levels(std::uint32_t bits);

// Statistics of the four channels (R, G, B, L) from `levels_cdf`, the cumulative histogram at
// stats_levels(bits) levels of a `bits`-bit frame (the GPU's prefix sum or reference_cdf()).
// Percentiles are nearest-rank, read off the CDF: the p-th is the lowest code c whose cumulative
// count reaches ceil(p/100 * N) (never less than one pixel).
// When a level spans several codes (deeper than 10 bits) min, median and percentiles report
// its lowest code, max its highest, the mean uses its midpoint, and the clip fractions count
// the whole lowest and highest level. Throws std::invalid_argument on a mismatched CDF.
std::array<ChannelStats, 4> channel_stats(const Cdf& levels_cdf, std::uint32_t bits);
// The same from the histogram at stats_levels(bits) levels (its reference_cdf()).
std::array<ChannelStats, 4> channel_stats(const Histogram& levels, std::uint32_t bits);
// The same from cumulative counts in 64 bits, laid out as Cdf's (cumulative[level * 4 + channel]
// at stats_levels(bits) levels): a whole file's, summed over its frames, which 32-bit counts
// could not hold (qc::FileTotals). One rule for a frame and a file: the same statistics.
std::array<ChannelStats, 4> channel_stats(std::span<const std::uint64_t> cumulative, std::uint32_t bits);

// The histogram with `bins` bins (a power of two no larger than fine.bins) whose bin b holds
// the bins of `fine` that vhist_bin maps into b. Exact because bin counts are powers of two.
Histogram coarsen(const Histogram& fine, std::uint32_t bins);

}  // namespace vhist
