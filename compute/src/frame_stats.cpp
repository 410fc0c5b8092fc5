#include "vhist/compute/frame_stats.h"

#include <stdexcept>

namespace vhist {

std::uint32_t stats_levels(std::uint32_t bits) { return bits <= 10 ? (1u << bits) : shader::kMaxBins; }

namespace {

// One channel's cumulative counts, 64-bit, whatever they are stored in: `at(level)`.
template <typename At>
struct Cumulative {
  At at;
  std::uint32_t levels = 0;
  std::uint64_t total() const { return at(levels - 1); }
  std::uint64_t count(std::uint32_t level) const { return at(level) - (level ? at(level - 1) : 0u); }
};

// The lowest level whose cumulative count reaches the nearest rank of `percent`.
template <typename At>
std::uint32_t percentile_level(const Cumulative<At>& cdf, std::uint32_t percent) {
  const std::uint64_t total = cdf.total();
  // ceil(percent / 100 * total) without overflow: the hundreds and the rest apart.
  std::uint64_t rank = percent * (total / 100) + (percent * (total % 100) + 99) / 100;
  if (rank == 0) rank = 1;
  std::uint32_t lo = 0, hi = cdf.levels - 1;  // the CDF is non-decreasing: binary search
  while (lo < hi) {
    const std::uint32_t mid = lo + (hi - lo) / 2;
    if (cdf.at(mid) >= rank) hi = mid; else lo = mid + 1;
  }
  return lo;
}

// The statistics of one channel (the header's rules), `codes_per_level` codes to a level.
template <typename At>
ChannelStats stats_of(const Cumulative<At>& cdf, std::uint32_t codes_per_level) {
  ChannelStats s;
  const std::uint64_t total = cdf.total();
  if (total == 0) return s;
  const std::uint32_t lo = percentile_level(cdf, 0);  // the first level holding a pixel
  std::uint32_t hi = cdf.levels - 1;
  while (cdf.count(hi) == 0) --hi;
  s.min = lo * codes_per_level;
  s.max = hi * codes_per_level + codes_per_level - 1;
  double sum = 0;
  const double half_span = (codes_per_level - 1) / 2.0;
  for (std::uint32_t level = lo; level <= hi; ++level) {
    sum += (level * double(codes_per_level) + half_span) * static_cast<double>(cdf.count(level));
  }
  s.mean = sum / static_cast<double>(total);
  s.median = percentile_level(cdf, 50) * codes_per_level;
  s.p1 = percentile_level(cdf, 1) * codes_per_level;
  s.p99 = percentile_level(cdf, 99) * codes_per_level;
  s.clip_low = static_cast<double>(cdf.count(0)) / static_cast<double>(total);
  s.clip_high = static_cast<double>(cdf.count(cdf.levels - 1)) / static_cast<double>(total);
  return s;
}

void check_levels(std::size_t levels, std::uint32_t bits) {
  if (bits < 8 || bits > 16 || levels != stats_levels(bits)) {
    throw std::invalid_argument("channel_stats needs a CDF of stats_levels(bits) levels");
  }
}

}  // namespace

std::array<ChannelStats, 4> channel_stats(const Histogram& levels, std::uint32_t bits) {
  return channel_stats(reference_cdf(levels), bits);
}

std::array<ChannelStats, 4> channel_stats(const Cdf& cdf, std::uint32_t bits) {
  check_levels(cdf.bins, bits);
  std::array<ChannelStats, 4> out{};
  for (Channel c : kAllChannels) {
    const auto at = [&cdf, c](std::uint32_t level) -> std::uint64_t { return cdf.at(c, level); };
    out[static_cast<std::uint32_t>(c)] = stats_of(Cumulative<decltype(at)>{at, cdf.bins}, (1u << bits) / cdf.bins);
  }
  return out;
}

std::array<ChannelStats, 4> channel_stats(std::span<const std::uint64_t> cumulative, std::uint32_t bits) {
  if (cumulative.size() % 4 != 0) throw std::invalid_argument("channel_stats needs four channels' cumulative counts");
  const auto levels = static_cast<std::uint32_t>(cumulative.size() / 4);
  check_levels(levels, bits);
  std::array<ChannelStats, 4> out{};
  for (std::uint32_t c = 0; c < 4; ++c) {
    const auto at = [cumulative, c](std::uint32_t level) { return cumulative[std::size_t{level} * 4 + c]; };
    out[c] = stats_of(Cumulative<decltype(at)>{at, levels}, (1u << bits) / levels);
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
