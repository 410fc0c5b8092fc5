// Cumulative histograms (CDFs) and histogram equalization on the CPU: the reference the GPU's
// prefix sum (hist_cdf.comp) and its equalization must equal exactly, and what the CPU engine
// and the statistics use. Plain C++, no Vulkan.
#pragma once

#include "vhist/compute/histogram_types.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace vhist {

// Four cumulative histograms of `bins` bins, stored like Histogram: counts[bin * 4 + channel]
// is the number of the channel's pixels in bins 0..bin (inclusive), so the last bin holds the
// channel's pixel count.
struct Cdf {
  std::uint32_t bins = 0;
  std::vector<std::uint32_t> counts;

  Cdf() = default;
  explicit Cdf(std::uint32_t bin_count) : bins(bin_count), counts(std::size_t{bin_count} * 4u, 0u) {}
  std::uint32_t at(Channel c, std::uint32_t bin) const {
    return counts[std::size_t{bin} * 4u + static_cast<std::uint32_t>(c)];
  }
  std::uint32_t total(Channel c) const { return bins == 0 ? 0 : at(c, bins - 1); }
  bool operator==(const Cdf&) const = default;
};

// The running sum of each channel, bin by bin, in 64 bits; throws std::overflow_error when a
// channel holds 2^32 pixels or more (a frame that large cannot be histogrammed either).
Cdf reference_cdf(const Histogram& histogram);

// The CDF with `bins` bins (a power of two no larger than fine.bins) of the histogram that
// coarsen(fine histogram, bins) gives: the fine CDF at the last fine bin of each coarse bin.
Cdf coarsen(const Cdf& fine, std::uint32_t bins);

// Per-level equalization table for a `bits`-bit frame (equalize_shared.h has the formula):
// codes[level * 4 + channel], from the CDF at stats_levels(bits) levels (any power of two up to
// 2^bits levels is accepted; each level then stands for 2^bits / levels codes).
struct EqualizeTable {
  std::uint32_t levels = 0, bits = 8;
  std::vector<std::uint32_t> codes;
  std::uint32_t at(Channel c, std::uint32_t level) const {
    return codes[std::size_t{level} * 4u + static_cast<std::uint32_t>(c)];
  }
  bool operator==(const EqualizeTable&) const = default;
};
// Throws std::invalid_argument for other level counts or depths.
EqualizeTable reference_equalize_table(const Cdf& levels_cdf, std::uint32_t bits);

enum class EqualizeMode : std::uint32_t { off = 0, luma = 1, channels = 2 };

// One pixel's components (codes of table.bits bits) equalized by `mode`.
std::array<std::uint32_t, 3> equalize_pixel(const EqualizeTable& table, EqualizeMode mode, std::uint32_t r,
                                            std::uint32_t g, std::uint32_t b);

// A whole frame (tightly packed as `format` says) equalized into `out` (same layout and size;
// the alpha/padding bits are copied through).
void reference_equalize(std::span<const std::byte> pixels, const FrameFormat& format, const EqualizeTable& table,
                        EqualizeMode mode, std::span<std::byte> out);

}  // namespace vhist
