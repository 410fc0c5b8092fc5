#include "vhist/compute/frame_stats.h"

#include <stdexcept>

namespace vhist {

std::uint32_t stats_levels(std::uint32_t bits) { return bits <= 10 ? (1u << bits) : shader::kMaxBins; }

namespace {

// The lowest level whose cumulative count reaches the nearest rank of `percent`.
std::uint32_t percentile_level(const Cdf& cdf, Channel c, std::uint64_t total, std::uint32_t percent) {
  std::uint64_t rank = (std::uint64_t{percent} * total + 99) / 100;  // ceil(p/100 * N)
  if (rank == 0) rank = 1;
  std::uint32_t lo = 0, hi = cdf.bins - 1;  // the CDF is non-decreasing: binary search
  while (lo < hi) {
    const std::uint32_t mid = lo + (hi - lo) / 2;
    if (cdf.at(c, mid) >= rank) hi = mid; else lo = mid + 1;
  }
  return lo;
}

}  // namespace

std::array<ChannelStats, 4> channel_stats(const Histogram& levels, std::uint32_t bits) {
  return channel_stats(reference_cdf(levels), bits);
}

std::array<ChannelStats, 4> channel_stats(const Cdf& cdf, std::uint32_t bits) {
  if (bits < 8 || bits > 16 || cdf.bins != stats_levels(bits)) {
    throw std::invalid_argument("channel_stats needs a CDF of stats_levels(bits) levels");
  }
  const std::uint32_t codes_per_level = (1u << bits) / cdf.bins;
  std::array<ChannelStats, 4> out{};
  for (Channel c : kAllChannels) {
    ChannelStats& s = out[static_cast<std::uint32_t>(c)];
    const std::uint64_t total = cdf.total(c);
    if (total == 0) continue;
    const auto count = [&](std::uint32_t level) { return cdf.at(c, level) - (level ? cdf.at(c, level - 1) : 0u); };
    const std::uint32_t lo = percentile_level(cdf, c, total, 0);  // the first level holding a pixel
    std::uint32_t hi = cdf.bins - 1;
    while (count(hi) == 0) --hi;
    s.min = lo * codes_per_level;
    s.max = hi * codes_per_level + codes_per_level - 1;
    double sum = 0;
    const double half_span = (codes_per_level - 1) / 2.0;
    for (std::uint32_t level = lo; level <= hi; ++level) {
      sum += (level * double(codes_per_level) + half_span) * count(level);
    }
    s.mean = sum / static_cast<double>(total);
    s.median = percentile_level(cdf, c, total, 50) * codes_per_level;
    s.p1 = percentile_level(cdf, c, total, 1) * codes_per_level;
    s.p99 = percentile_level(cdf, c, total, 99) * codes_per_level;
    s.clip_low = count(0) / static_cast<double>(total);
    s.clip_high = count(cdf.bins - 1) / static_cast<double>(total);
  }
  return out;
}

Histogram coarsen(const Histogram& fine, std::uint32_t bins) {
  const bool power_of_two = bins != 0 && (bins & (bins - 1)) == 0;
  if (!power_of_two || bins > fine.bins) throw std::invalid_argument("coarsen: bins must be a power of two <= the fine histogram's");
  if (bins == fine.bins) return fine;
  Histogram out(bins);
  const std::uint32_t ratio = fine.bins / bins;
  for (std::uint32_t b = 0; b < fine.bins; ++b) {
    for (std::uint32_t ch = 0; ch < 4; ++ch) out.counts[(b / ratio) * 4 + ch] += fine.counts[b * 4 + ch];
  }
  return out;
}

}  // namespace vhist
