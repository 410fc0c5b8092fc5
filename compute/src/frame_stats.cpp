#include "vhist/compute/frame_stats.h"

#include <stdexcept>

namespace vhist {

std::uint32_t stats_levels(std::uint32_t bits) { return bits <= 10 ? (1u << bits) : shader::kMaxBins; }

namespace {

std::uint32_t percentile_level(const Histogram& h, Channel c, std::uint64_t total, std::uint32_t percent) {
  std::uint64_t rank = (std::uint64_t{percent} * total + 99) / 100;  // ceil(p/100 * N)
  if (rank == 0) rank = 1;
  std::uint64_t seen = 0;
  for (std::uint32_t level = 0; level < h.bins; ++level) {
    seen += h.at(c, level);
    if (seen >= rank) return level;
  }
  return h.bins - 1;
}

}  // namespace

std::array<ChannelStats, 4> channel_stats(const Histogram& levels, std::uint32_t bits) {
  if (bits < 8 || bits > 16 || levels.bins != stats_levels(bits)) {
    throw std::invalid_argument("channel_stats needs a histogram of stats_levels(bits) bins");
  }
  const std::uint32_t codes_per_level = (1u << bits) / levels.bins;
  std::array<ChannelStats, 4> out{};
  for (Channel c : kAllChannels) {
    ChannelStats& s = out[static_cast<std::uint32_t>(c)];
    const std::uint64_t total = levels.total(c);
    if (total == 0) continue;
    std::uint32_t lo = 0, hi = levels.bins - 1;
    while (levels.at(c, lo) == 0) ++lo;
    while (levels.at(c, hi) == 0) --hi;
    s.min = lo * codes_per_level;
    s.max = hi * codes_per_level + codes_per_level - 1;
    double sum = 0;
    const double half_span = (codes_per_level - 1) / 2.0;
    for (std::uint32_t level = lo; level <= hi; ++level) {
      sum += (level * double(codes_per_level) + half_span) * levels.at(c, level);
    }
    s.mean = sum / static_cast<double>(total);
    s.median = percentile_level(levels, c, total, 50) * codes_per_level;
    s.p1 = percentile_level(levels, c, total, 1) * codes_per_level;
    s.p99 = percentile_level(levels, c, total, 99) * codes_per_level;
    s.clip_low = levels.at(c, 0) / static_cast<double>(total);
    s.clip_high = levels.at(c, levels.bins - 1) / static_cast<double>(total);
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
