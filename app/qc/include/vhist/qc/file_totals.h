// A whole file's R', G', B' and luma histograms, summed over its frames in 64-bit counts (a
// frame's 32-bit counts would overflow within seconds of 4K), and their statistics computed by
// the frame statistics' own function (frame_stats.h's channel_stats: nearest-rank percentiles,
// clip shares at the end levels), so that a file's figures and its frames' cannot drift apart:
// the exposure columns of `vhist batch`'s summary row. Plain C++.
#pragma once

#include "vhist/compute/frame_stats.h"
#include "vhist/compute/histogram_types.h"

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace vhist::qc {

class FileTotals {
 public:
  // Adds a frame's histogram at stats_levels(bits) levels. A frame of another depth than the
  // first (a stream that changes format) is counted apart: stats() then has none.
  void add(const Histogram& levels, std::uint32_t bits);
  // Each channel's statistics over every pixel added (code values of the source depth), or none
  // when nothing was added or the depth changed within the file.
  std::optional<std::array<ChannelStats, 4>> stats() const;
  std::uint64_t frames() const { return frames_; }

 private:
  std::uint32_t bits_ = 0, levels_ = 0;
  bool mixed_ = false;
  std::uint64_t frames_ = 0;
  std::vector<std::uint64_t> counts_;  // levels x 4 (R, G, B, L), as Histogram's layout
};

}  // namespace vhist::qc
