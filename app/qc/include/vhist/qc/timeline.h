// The whole file at a glance: the histograms of every frame gathered into columns (one column
// per frame, or per group of consecutive frames for long files) for the heatmap, beside the
// per-frame measures (qc_frame.h) the curves and the checks read. Built as frames arrive, in
// decode order, by the viewer's background scan and by `vhist qc`; saved to and loaded from a
// cache file (timeline_cache.h). Plain C++: no Vulkan, no FFmpeg.
#pragma once

#include "vhist/qc/qc_frame.h"

#include <array>
#include <cstdint>
#include <vector>

namespace vhist::qc {

// At most this many columns: one per frame up to it, else frames grouped evenly.
inline constexpr std::uint32_t kMaxColumns = 2048;

struct TimelineColumn {
  std::int64_t first_frame = 0;  // the first frame in the column
  std::uint32_t frames = 0;      // how many frames it holds
  std::array<std::uint32_t, kTimelineLevels * 4> counts{};  // summed histograms, counts[level * 4 + channel]
};

class Timeline {
 public:
  // `expected_frames`: the input's frame count as far as known (its duration times its rate;
  // <= 0: unknown, one column per frame until kMaxColumns, then pairs are merged).
  explicit Timeline(std::int64_t expected_frames = 0);

  // Adds the next frame (frames arrive in order) with its 256-level histogram.
  void add(const QcFrame& frame, const std::array<std::uint32_t, kTimelineLevels * 4>& histogram);

  const std::vector<QcFrame>& frames() const { return frames_; }
  const std::vector<TimelineColumn>& columns() const { return columns_; }
  std::uint32_t frames_per_column() const { return per_column_; }
  std::int64_t expected_frames() const { return expected_; }
  // The column holding frame number `frame` (clamped to the last), or -1 when there is none.
  std::int64_t column_of(std::int64_t frame) const;

  // For the cache (timeline_cache.h): replaces everything.
  void restore(std::int64_t expected, std::uint32_t per_column, std::vector<QcFrame> frames,
               std::vector<TimelineColumn> columns);

 private:
  void merge_pairs();  // halves the columns when an unknown-length input outgrows kMaxColumns

  std::int64_t expected_ = 0;
  std::uint32_t per_column_ = 1;
  std::vector<QcFrame> frames_;
  std::vector<TimelineColumn> columns_;
};

}  // namespace vhist::qc
