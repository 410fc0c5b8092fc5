#include "vhist/compute/histogram_match.h"

#include "vhist/compute/frame_stats.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace vhist {

namespace {

std::uint64_t total(const Histogram& h, std::uint32_t c) {
  std::uint64_t sum = 0;
  for (std::uint32_t b = 0; b < h.bins; ++b) sum += h.counts[std::size_t{b} * 4 + c];
  return sum;
}

}  // namespace

HistogramDistances histogram_distances(const Histogram& live, const Histogram& reference) {
  if (live.bins == 0 || reference.bins == 0) throw std::invalid_argument("histogram_distances: an empty histogram");
  HistogramDistances d;
  d.bins = std::min(live.bins, reference.bins);
  const Histogram a = coarsen(live, d.bins), b = coarsen(reference, d.bins);
  for (std::uint32_t c = 0; c < 4; ++c) {
    const std::uint64_t na = total(a, c), nb = total(b, c);
    if (na == 0 || nb == 0) {
      d.emd[c] = d.total_variation[c] = std::numeric_limits<double>::quiet_NaN();
      continue;
    }
    double emd = 0, tv = 0;
    std::uint64_t ca = 0, cb = 0;
    for (std::uint32_t k = 0; k < d.bins; ++k) {
      const std::uint64_t ka = a.counts[std::size_t{k} * 4 + c], kb = b.counts[std::size_t{k} * 4 + c];
      ca += ka;
      cb += kb;
      const double pa = static_cast<double>(ka) / static_cast<double>(na);
      const double pb = static_cast<double>(kb) / static_cast<double>(nb);
      tv += std::abs(pa - pb);
      emd += std::abs(static_cast<double>(ca) / static_cast<double>(na) - static_cast<double>(cb) / static_cast<double>(nb));
    }
    d.emd[c] = emd;
    d.total_variation[c] = tv / 2;
  }
  return d;
}

std::vector<float> reference_at(const Histogram& reference, std::uint32_t bins, std::uint64_t live_pixels) {
  if (reference.bins == 0 || bins == 0) throw std::invalid_argument("reference_at: no bins");
  const Histogram fit = reference.bins > bins ? coarsen(reference, bins) : reference;
  const std::uint32_t spread = bins / fit.bins;  // display bins per reference bin
  std::vector<float> out(std::size_t{bins} * 4, 0.0f);
  for (std::uint32_t c = 0; c < 4; ++c) {
    const std::uint64_t n = total(fit, c);
    if (n == 0) continue;
    const double scale = static_cast<double>(live_pixels) / static_cast<double>(n) / spread;
    for (std::uint32_t b = 0; b < bins; ++b) {
      out[std::size_t{b} * 4 + c] = static_cast<float>(fit.counts[std::size_t{b / spread} * 4 + c] * scale);
    }
  }
  return out;
}

EqualizeTable reference_match_table(const Cdf& live, const Cdf& reference, std::uint32_t bits) {
  if (bits < 8 || bits > 16 || live.bins != stats_levels(bits)) {
    throw std::invalid_argument("reference_match_table: the live CDF must have stats_levels(bits) levels");
  }
  if (reference.bins == 0 || reference.bins > live.bins || (reference.bins & (reference.bins - 1)) != 0) {
    throw std::invalid_argument("reference_match_table: the reference needs a power of two of levels, at most live's");
  }
  EqualizeTable t{live.bins, bits, std::vector<std::uint32_t>(std::size_t{live.bins} * 4)};
  const std::uint32_t live_codes = (1u << bits) / live.bins, ref_codes = (1u << bits) / reference.bins;
  for (std::uint32_t c = 0; c < 4; ++c) {
    const auto ch = static_cast<Channel>(c);
    const std::uint64_t n = live.total(ch), m = reference.total(ch);
    for (std::uint32_t v = 0; v < live.bins; ++v) {
      std::uint32_t code = v * live_codes;
      if (n != 0 && m != 0) {
        const std::uint64_t want = std::uint64_t{live.at(ch, v)} * m;
        std::uint32_t u = 0;
        while (std::uint64_t{reference.at(ch, u)} * n < want) ++u;  // ends: R(last) * n = m * n >= want
        code = u * ref_codes;
      }
      t.codes[std::size_t{v} * 4 + c] = code;
    }
  }
  return t;
}

Histogram match_bins(const Histogram& reference, std::uint32_t bits) {
  const std::uint32_t levels = stats_levels(bits);
  return reference.bins > levels ? coarsen(reference, levels) : reference;
}

}  // namespace vhist
