#include "vhist/compute/cpu_reference.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace vhist {

std::uint64_t Histogram::total(Channel c) const {
  std::uint64_t sum = 0;
  for (std::uint32_t b = 0; b < bins; ++b) sum += at(c, b);
  return sum;
}

std::uint32_t Histogram::max_count(Channel c) const {
  std::uint32_t m = 0;
  for (std::uint32_t b = 0; b < bins; ++b) m = std::max(m, at(c, b));
  return m;
}

std::uint32_t max_bins_for_bits(std::uint32_t bits) { return bits <= 8 ? shader::kMaxBins8Bit : shader::kMaxBins; }

std::uint32_t bins_for_frame(std::uint32_t asked, std::uint32_t bits) { return std::min(asked, max_bins_for_bits(bits)); }

std::string check_bins(std::uint32_t bins, std::uint32_t bits) {
  const std::uint32_t max_bins = max_bins_for_bits(bits);
  const bool power_of_two = bins != 0 && (bins & (bins - 1)) == 0;
  if (!power_of_two || bins < shader::kMinBins || bins > max_bins) {
    return "bins must be a power of two from " + std::to_string(shader::kMinBins) + " to " + std::to_string(max_bins) +
           " for " + std::to_string(bits) + "-bit components (got " + std::to_string(bins) + ")";
  }
  return {};
}

std::string check_format(const FrameFormat& f) {
  if (f.width == 0 || f.height == 0) {
    return "frame size " + std::to_string(f.width) + "x" + std::to_string(f.height) + " is empty";
  }
  if (f.packing == PixelPacking::rgba8 && f.bits != 8) {
    return "rgba8 frames have 8-bit components (got " + std::to_string(f.bits) + ")";
  }
  if (f.packing == PixelPacking::rgba16 && (f.bits < 8 || f.bits > 16)) {
    return "rgba16 frames hold 8- to 16-bit components (got " + std::to_string(f.bits) + ")";
  }
  // The scale pass computes 5 * pixels in 32 bits; 16384 x 16384 is far below that limit.
  if (f.pixel_count() * 5u >= (1ull << 31)) {
    return "frame of " + std::to_string(f.pixel_count()) + " pixels is too large (at most 429496729)";
  }
  return {};
}

Histogram reference_histogram(std::span<const std::byte> pixels, const FrameFormat& format, std::uint32_t bins) {
  if (const auto err = check_format(format); !err.empty()) throw std::invalid_argument(err);
  if (const auto err = check_bins(bins, format.bits); !err.empty()) throw std::invalid_argument(err);
  if (pixels.size() < format.byte_size()) throw std::invalid_argument("pixel buffer smaller than the frame");

  Histogram h(bins);
  const std::uint64_t n = format.pixel_count();
  const std::uint32_t bits = format.bits;
  for (std::uint64_t i = 0; i < n; ++i) {
    std::uint32_t r = 0, g = 0, b = 0;
    if (format.packing == PixelPacking::rgba8) {
      const auto* p = reinterpret_cast<const unsigned char*>(pixels.data()) + i * 4;
      r = p[0];
      g = p[1];
      b = p[2];
    } else {
      std::uint16_t c[4];
      std::memcpy(c, pixels.data() + i * 8, sizeof c);  // little-endian 16-bit fields R, G, B, A
      r = c[0];
      g = c[1];
      b = c[2];
    }
    const std::uint32_t l = shader::vhist_luma(r, g, b);
    ++h.at(Channel::r, shader::vhist_bin(r, bins, bits));
    ++h.at(Channel::g, shader::vhist_bin(g, bins, bits));
    ++h.at(Channel::b, shader::vhist_bin(b, bins, bits));
    ++h.at(Channel::l, shader::vhist_bin(l, bins, bits));
  }
  return h;
}

float quotient_rn(std::uint32_t n, std::uint32_t d) {
  return static_cast<float>(static_cast<double>(n) / static_cast<double>(d));
}

Scale reference_scale(const Histogram& histogram, std::uint64_t pixel_count) {
  Scale s;
  const float floor_scale = quotient_rn(histogram.bins, static_cast<std::uint32_t>(5u * pixel_count));
  for (std::size_t c = 0; c < 4; ++c) {
    const std::uint32_t m = histogram.max_count(kAllChannels[c]);
    s.max_count[c] = m;
    s.scale[c] = m == 0 ? floor_scale : std::max(quotient_rn(1u, m), floor_scale);
  }
  return s;
}

}  // namespace vhist
