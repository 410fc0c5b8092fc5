#include "vhist/qc/qc_frame.h"

#include "vhist/compute/frame_stats.h"

#include <algorithm>
#include <stdexcept>

namespace vhist::qc {

namespace {

// A Y' histogram's levels read as codes of a `bits`-bit frame, and codes as percent of the
// nominal range (the header's definition).
struct LumaScale {
  std::uint32_t bits = 8, levels = 256, codes_per_level = 1;
  bool limited = true;

  double percent(double code) const {
    const double s = static_cast<double>(1u << (bits - 8));
    if (limited) return (code - 16.0 * s) / (219.0 * s) * 100.0;
    return code / static_cast<double>((1u << bits) - 1u) * 100.0;
  }
  std::uint32_t low_code(std::uint32_t level) const { return level * codes_per_level; }
  std::uint32_t high_code(std::uint32_t level) const { return level * codes_per_level + codes_per_level - 1; }
};

// The nearest-rank percentile's level (frame_stats.h's rule): the lowest level whose
// cumulative count reaches ceil(p/100 * N).
std::uint32_t percentile(const std::vector<std::uint64_t>& cumulative, std::uint64_t total, std::uint32_t p) {
  std::uint64_t rank = (std::uint64_t{p} * total + 99) / 100;
  if (rank == 0) rank = 1;
  return static_cast<std::uint32_t>(std::lower_bound(cumulative.begin(), cumulative.end(), rank) - cumulative.begin());
}

void luma_levels(QcFrame& q, const Histogram& h, Channel slot, const LumaScale& scale, double black_level) {
  std::vector<std::uint64_t> cumulative(h.bins);
  std::uint64_t total = 0;
  double sum = 0;
  std::int64_t lo = -1, hi = -1;
  for (std::uint32_t l = 0; l < h.bins; ++l) {
    const std::uint32_t n = h.at(slot, l);
    total += n;
    cumulative[l] = total;
    if (n == 0) continue;
    if (lo < 0) lo = l;
    hi = l;
    sum += static_cast<double>(n) * (scale.low_code(l) + (scale.codes_per_level - 1) / 2.0);
  }
  if (total == 0) return;
  q.y_min = static_cast<float>(scale.percent(scale.low_code(static_cast<std::uint32_t>(lo))));
  q.y_max = static_cast<float>(scale.percent(scale.high_code(static_cast<std::uint32_t>(hi))));
  q.y_mean = static_cast<float>(scale.percent(sum / static_cast<double>(total)));
  q.y_p10 = static_cast<float>(scale.percent(scale.low_code(percentile(cumulative, total, 10))));
  q.y_p90 = static_cast<float>(scale.percent(scale.low_code(percentile(cumulative, total, 90))));
  // Black: the levels whose every code is at or below the black level.
  std::uint64_t black = 0;
  for (std::uint32_t l = 0; l < h.bins && scale.percent(scale.high_code(l)) <= black_level + 1e-9; ++l) {
    black += h.at(slot, l);
  }
  q.black = static_cast<float>(static_cast<double>(black) / static_cast<double>(total));
}

// R 103's luma rule: the share of Y' samples outside codes 5..246 scaled to the depth. Where a
// level spans several codes (deeper than 10 bits) a level counts as outside only when all its
// codes are.
float r103_luma_share(const Histogram& h, Channel slot, const LumaScale& scale) {
  const std::uint32_t s = 1u << (scale.bits - 8);
  const std::uint32_t lowest = 5 * s, highest = 246 * s;
  std::uint64_t out = 0, total = 0;
  for (std::uint32_t l = 0; l < h.bins; ++l) {
    const std::uint32_t n = h.at(slot, l);
    total += n;
    if (scale.high_code(l) < lowest || scale.low_code(l) > highest) out += n;
  }
  return total == 0 ? 0.0f : static_cast<float>(static_cast<double>(out) / static_cast<double>(total));
}

// Clipping: the share of Y' samples at or above white (100 %) and at or below black (0 %):
// the levels whose every code is there.
void clipping(QcFrame& q, const Histogram& h, Channel slot, const LumaScale& scale) {
  std::uint64_t low = 0, high = 0, total = 0;
  for (std::uint32_t l = 0; l < h.bins; ++l) {
    const std::uint32_t n = h.at(slot, l);
    total += n;
    if (scale.percent(scale.high_code(l)) <= 1e-9) low += n;
    if (scale.percent(scale.low_code(l)) >= 100.0 - 1e-9) high += n;
  }
  if (total == 0) return;
  q.clip_low = static_cast<float>(static_cast<double>(low) / static_cast<double>(total));
  q.clip_high = static_cast<float>(static_cast<double>(high) / static_cast<double>(total));
}

// FNV-1a over the counts: equal histograms give equal hashes.
std::uint64_t hash_counts(std::uint64_t h, const std::vector<std::uint32_t>& counts) {
  for (std::uint32_t v : counts) {
    for (int k = 0; k < 4; ++k) {
      h ^= (v >> (8 * k)) & 0xffu;
      h *= 1099511628211ull;
    }
  }
  return h;
}

void timeline_histogram(const FrameCounts& c, Channel luma_slot, std::array<std::uint32_t, kTimelineLevels * 4>& out) {
  const Histogram rgb = coarsen(*c.levels, kTimelineLevels);
  const Histogram luma = c.planes ? coarsen(c.planes->histogram, kTimelineLevels) : rgb;
  for (std::uint32_t l = 0; l < kTimelineLevels; ++l) {
    out[l * 4 + 0] = rgb.at(Channel::r, l);
    out[l * 4 + 1] = rgb.at(Channel::g, l);
    out[l * 4 + 2] = rgb.at(Channel::b, l);
    out[l * 4 + 3] = luma.at(luma_slot, l);
  }
}

}  // namespace

QcFrame measure(const FrameCounts& c, double black_level, std::array<std::uint32_t, kTimelineLevels * 4>* timeline) {
  if (c.format == nullptr || c.levels == nullptr) throw std::invalid_argument("qc::measure needs the format and levels");
  const VideoFormat& f = *c.format;
  QcFrame q;
  q.frame = c.frame;
  q.pts = c.pts;
  q.bits = f.bits;
  const bool planes = c.planes != nullptr;
  // R'G'B' frames' luma is the engine's L of full-range R'G'B'.
  q.limited = planes && f.range == ColourRange::limited;
  const Histogram& luma = planes ? c.planes->histogram : *c.levels;
  const Channel slot = planes ? kPlaneY : Channel::l;
  const LumaScale scale{f.bits, luma.bins, (1u << f.bits) / luma.bins, q.limited};
  luma_levels(q, luma, slot, scale, black_level);
  clipping(q, luma, slot, scale);
  if (q.limited) q.r103_luma = r103_luma_share(luma, slot, scale);
  if (c.gamut != nullptr) {
    const double pixels = static_cast<double>(std::uint64_t{f.width} * f.height);
    q.r103_rgb = pixels > 0 ? static_cast<float>(c.gamut->out / pixels) : 0.0f;
  }
  if (c.light != nullptr) {
    q.pq = !c.hlg;
    q.hlg = c.hlg;
    q.max_cll = static_cast<float>(c.light->max_cll);
    q.fall = static_cast<float>(c.light->fall);
  }
  q.checksum = c.checksum;
  std::uint64_t h = hash_counts(1469598103934665603ull, c.levels->counts);
  if (planes) h = hash_counts(h, c.planes->histogram.counts);
  q.histogram_hash = h;
  if (timeline) timeline_histogram(c, slot, *timeline);
  return q;
}

}  // namespace vhist::qc
