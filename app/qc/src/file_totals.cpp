#include "vhist/qc/file_totals.h"

#include <stdexcept>

namespace vhist::qc {

void FileTotals::add(const Histogram& levels, std::uint32_t bits) {
  if (levels.bins != stats_levels(bits)) throw std::invalid_argument("FileTotals::add needs stats_levels(bits) levels");
  if (frames_ == 0) {
    bits_ = bits, levels_ = levels.bins;
    counts_.assign(std::size_t{levels_} * 4, 0);
  } else if (bits != bits_) {
    mixed_ = true;
  }
  ++frames_;
  if (mixed_) return;
  for (std::size_t i = 0; i < counts_.size(); ++i) counts_[i] += levels.counts[i];
}

namespace {

// The lowest level whose cumulative count reaches the nearest rank of `percent` (frame_stats.cpp's rule).
std::uint32_t percentile_level(const std::vector<std::uint64_t>& cumulative, std::uint32_t percent) {
  const std::uint64_t total = cumulative.back();
  // ceil(percent / 100 * total) without overflow: the hundreds and the rest apart.
  std::uint64_t rank = percent * (total / 100) + (percent * (total % 100) + 99) / 100;
  if (rank == 0) rank = 1;
  std::uint32_t level = 0;
  while (cumulative[level] < rank) ++level;
  return level;
}

ChannelStats channel(const std::vector<std::uint64_t>& counts, std::uint32_t ch, std::uint32_t levels,
                     std::uint32_t bits) {
  std::vector<std::uint64_t> cumulative(levels);
  std::uint64_t running = 0;
  for (std::uint32_t l = 0; l < levels; ++l) cumulative[l] = running += counts[std::size_t{l} * 4 + ch];
  ChannelStats s;
  if (running == 0) return s;
  const std::uint32_t span = (1u << bits) / levels;  // codes per level
  const std::uint32_t lo = percentile_level(cumulative, 0);
  std::uint32_t hi = levels - 1;
  while (counts[std::size_t{hi} * 4 + ch] == 0) --hi;
  s.min = lo * span;
  s.max = hi * span + span - 1;
  double sum = 0;
  for (std::uint32_t l = lo; l <= hi; ++l) {
    sum += (l * double(span) + (span - 1) / 2.0) * static_cast<double>(counts[std::size_t{l} * 4 + ch]);
  }
  s.mean = sum / static_cast<double>(running);
  s.median = percentile_level(cumulative, 50) * span;
  s.p1 = percentile_level(cumulative, 1) * span;
  s.p99 = percentile_level(cumulative, 99) * span;
  s.clip_low = static_cast<double>(counts[ch]) / static_cast<double>(running);
  s.clip_high = static_cast<double>(counts[std::size_t{levels - 1} * 4 + ch]) / static_cast<double>(running);
  return s;
}

}  // namespace

std::optional<std::array<ChannelStats, 4>> FileTotals::stats() const {
  if (frames_ == 0 || mixed_) return std::nullopt;
  std::array<ChannelStats, 4> out{};
  for (std::uint32_t ch = 0; ch < 4; ++ch) out[ch] = channel(counts_, ch, levels_, bits_);
  return out;
}

}  // namespace vhist::qc
