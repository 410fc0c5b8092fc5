#include "vhist/qc/timeline.h"

#include <algorithm>

namespace vhist::qc {

Timeline::Timeline(std::int64_t expected_frames) : expected_(expected_frames > 0 ? expected_frames : 0) {
  if (expected_ > 0) {
    per_column_ = static_cast<std::uint32_t>((expected_ + kMaxColumns - 1) / kMaxColumns);
  }
}

void Timeline::add(const QcFrame& frame, const std::array<std::uint32_t, kTimelineLevels * 4>& histogram) {
  frames_.push_back(frame);
  if (columns_.empty() || columns_.back().frames >= per_column_) {
    // A longer input than expected keeps its grouping until the columns outgrow the limit.
    if (columns_.size() >= kMaxColumns) merge_pairs();
    if (columns_.empty() || columns_.back().frames >= per_column_) {
      TimelineColumn column;
      column.first_frame = frame.frame;
      columns_.push_back(column);
    }
  }
  TimelineColumn& column = columns_.back();
  for (std::size_t k = 0; k < histogram.size(); ++k) column.counts[k] += histogram[k];
  ++column.frames;
}

void Timeline::merge_pairs() {
  std::vector<TimelineColumn> merged;
  merged.reserve(columns_.size() / 2 + 1);
  for (std::size_t k = 0; k < columns_.size(); k += 2) {
    TimelineColumn column = columns_[k];
    if (k + 1 < columns_.size()) {
      for (std::size_t i = 0; i < column.counts.size(); ++i) column.counts[i] += columns_[k + 1].counts[i];
      column.frames += columns_[k + 1].frames;
    }
    merged.push_back(column);
  }
  columns_ = std::move(merged);
  per_column_ *= 2;
}

std::int64_t Timeline::column_of(std::int64_t frame) const {
  if (columns_.empty()) return -1;
  const auto after = std::upper_bound(columns_.begin(), columns_.end(), frame,
                                      [](std::int64_t f, const TimelineColumn& c) { return f < c.first_frame; });
  if (after == columns_.begin()) return 0;
  return static_cast<std::int64_t>(after - columns_.begin()) - 1;
}

void Timeline::restore(std::int64_t expected, std::uint32_t per_column, std::vector<QcFrame> frames,
                       std::vector<TimelineColumn> columns) {
  expected_ = expected;
  per_column_ = per_column == 0 ? 1 : per_column;
  frames_ = std::move(frames);
  columns_ = std::move(columns);
}

}  // namespace vhist::qc
