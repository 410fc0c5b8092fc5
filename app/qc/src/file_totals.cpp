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

std::optional<std::array<ChannelStats, 4>> FileTotals::stats() const {
  if (frames_ == 0 || mixed_) return std::nullopt;
  // The running sums of each channel, then the frame statistics' own rules over them.
  std::vector<std::uint64_t> cumulative(counts_.size());
  std::array<std::uint64_t, 4> running{};
  for (std::size_t i = 0; i < counts_.size(); ++i) cumulative[i] = running[i % 4] += counts_[i];
  return channel_stats(cumulative, bits_);
}

}  // namespace vhist::qc
