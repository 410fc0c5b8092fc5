#include "vhist/compute/range_verdict.h"

#include "vhist/compute/source_measures.h"

#include <numeric>
#include <stdexcept>
#include <string>

namespace vhist {

std::uint64_t LumaLevels::total() const { return std::accumulate(counts.begin(), counts.end(), std::uint64_t{0}); }

void LumaLevels::add(const PlaneCounts& planes) {
  const std::uint32_t bins = planes.histogram.bins;
  if (bins < 256 || (bins & (bins - 1)) != 0) {
    throw std::invalid_argument("LumaLevels needs the luma at 256 or more bins (a power of two), not " +
                                std::to_string(bins));
  }
  const std::uint32_t per_level = bins / 256;
  for (std::uint32_t bin = 0; bin < bins; ++bin) counts[bin / per_level] += planes.histogram.at(kPlaneY, bin);
}

namespace {

// The lowest level at or below which at least `share` of the samples lie.
std::uint32_t percentile(const LumaLevels& luma, std::uint64_t total, double share) {
  const auto want = static_cast<double>(total) * share;
  std::uint64_t seen = 0;
  for (std::uint32_t level = 0; level < 256; ++level) {
    seen += luma.counts[level];
    if (static_cast<double>(seen) >= want && seen > 0) return level;
  }
  return 255;
}

bool looks_full(const LumaLevels& luma, const RangeVerdict& v) {
  if (v.below < kSubBlackShare) return false;
  std::uint64_t low_mid = 0;  // at 4-15
  for (std::uint32_t level = 4; level < 16; ++level) low_mid += luma.counts[level];
  const double mid = static_cast<double>(low_mid) / static_cast<double>(v.samples);
  const bool unmirrored = v.below > kMirrorRatio * v.near_black;
  const bool pile = v.bottom >= kSubBlackShare && v.bottom > kPileRatio * mid;
  const bool black_below = v.peak >= kSubBlackShare && v.peak > kPeakRatio * v.near_black / 16;
  const bool both_ends = v.above >= kSubBlackShare && v.below > kBothEndsMirrorRatio * v.near_black;
  return unmirrored || pile || black_below || both_ends;
}

bool looks_limited(const RangeVerdict& v) {
  return v.below <= kOutsideLimitedShare && v.above <= kOutsideLimitedShare && v.p1 >= 16 && v.p1 <= 16 + kEndReach &&
         v.p99 <= 235 && v.p99 + kEndReach >= 235;
}

}  // namespace

RangeVerdict judge_range(const LumaLevels& luma, ColourRange nominal) {
  RangeVerdict v;
  v.samples = luma.total();
  if (v.samples == 0) return v;
  const auto share = [&](std::uint32_t from, std::uint32_t to) {  // levels [from, to]
    std::uint64_t n = 0;
    for (std::uint32_t level = from; level <= to; ++level) n += luma.counts[level];
    return static_cast<double>(n) / static_cast<double>(v.samples);
  };
  v.below = share(0, 15);
  v.above = share(236, 255);
  v.near_black = share(16, 31);
  v.bottom = share(0, 3);
  for (std::uint32_t level = 5; level < 16; ++level) {
    if (luma.counts[level] > luma.counts[v.peak_level]) v.peak_level = level;
  }
  v.peak = share(v.peak_level, v.peak_level);
  v.p1 = percentile(luma, v.samples, 0.01);
  v.p99 = percentile(luma, v.samples, 0.99);
  if (nominal == ColourRange::limited && looks_full(luma, v)) v.look = RangeLook::full_as_limited;
  if (nominal == ColourRange::full && looks_limited(v)) v.look = RangeLook::limited_as_full;
  return v;
}

}  // namespace vhist
