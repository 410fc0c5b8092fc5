#include "vhist/qc/column_measures.h"

#include <algorithm>

namespace vhist::qc {

namespace {

// A column's values as its frames arrive: the extremes as they go, the means' sums in doubles.
class ColumnSum {
 public:
  void add(const QcFrame& f) {
    ColumnMeasures& m = m_;
    if (m.frames++ == 0) m.y_min = f.y_min, m.y_max = f.y_max;
    m.y_min = std::min(m.y_min, f.y_min), m.y_max = std::max(m.y_max, f.y_max);
    p10_ += f.y_p10, mean_ += f.y_mean, p90_ += f.y_p90;
    m.clip_low = std::max(m.clip_low, f.clip_low), m.clip_high = std::max(m.clip_high, f.clip_high);
    m.r103_luma = std::max(m.r103_luma, f.r103_luma), m.r103_rgb = std::max(m.r103_rgb, f.r103_rgb);
    m.max_cll = std::max(m.max_cll, f.max_cll), m.fall = std::max(m.fall, f.fall);
    m.pq = m.pq || f.pq;
    m.hlg = m.hlg || f.hlg;
  }

  ColumnMeasures result() const {
    ColumnMeasures m = m_;
    if (m.frames == 0) return m;
    const double n = m.frames;
    m.y_p10 = static_cast<float>(p10_ / n), m.y_mean = static_cast<float>(mean_ / n);
    m.y_p90 = static_cast<float>(p90_ / n);
    return m;
  }

 private:
  ColumnMeasures m_;
  double p10_ = 0, mean_ = 0, p90_ = 0;
};

}  // namespace

ColumnMeasures column_measures(std::span<const QcFrame> frames) {
  ColumnSum sum;
  for (const QcFrame& f : frames) sum.add(f);
  return sum.result();
}

std::vector<ColumnMeasures> column_measures(const Timeline& timeline) {
  std::vector<ColumnSum> sums(timeline.columns().size());
  for (const QcFrame& f : timeline.frames()) {
    const std::int64_t k = timeline.column_of(f.frame);
    if (k >= 0) sums[static_cast<std::size_t>(k)].add(f);
  }
  std::vector<ColumnMeasures> out;
  out.reserve(sums.size());
  for (const ColumnSum& s : sums) out.push_back(s.result());
  return out;
}

}  // namespace vhist::qc
