// Plain descriptions of frames and histograms, shared by the GPU engine and the CPU reference.
// No Vulkan here.
#pragma once

#include "vhist/shader_shared.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace vhist {

enum class PixelPacking : std::uint32_t {
  rgba8 = shader::kPackingRgba8,    // 4 bytes per pixel, 8-bit components
  rgba16 = shader::kPackingRgba16,  // 8 bytes per pixel, 16-bit fields holding `bits`-bit codes
};

// A frame of tightly packed rows (row stride == width). Components are R'G'B' code values of
// `bits` bits: 8 for rgba8; 8 to 16 for rgba16 (10-bit video gives 0..1023 in each field).
struct FrameFormat {
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  PixelPacking packing = PixelPacking::rgba8;
  std::uint32_t bits = 8;

  std::uint64_t pixel_count() const { return std::uint64_t{width} * height; }
  std::uint32_t bytes_per_pixel() const { return packing == PixelPacking::rgba8 ? 4u : 8u; }
  std::uint64_t byte_size() const { return pixel_count() * bytes_per_pixel(); }
};

enum class Channel : std::uint32_t { r = 0, g = 1, b = 2, l = 3 };
inline constexpr std::array<Channel, 4> kAllChannels{Channel::r, Channel::g, Channel::b, Channel::l};

// Four histograms of `bins` bins, stored as on the GPU: counts[bin * 4 + channel].
struct Histogram {
  std::uint32_t bins = 0;
  std::vector<std::uint32_t> counts;

  Histogram() = default;
  explicit Histogram(std::uint32_t bin_count) : bins(bin_count), counts(std::size_t{bin_count} * 4u, 0u) {}
  std::uint32_t& at(Channel c, std::uint32_t bin) { return counts[std::size_t{bin} * 4u + static_cast<std::uint32_t>(c)]; }
  std::uint32_t at(Channel c, std::uint32_t bin) const {
    return counts[std::size_t{bin} * 4u + static_cast<std::uint32_t>(c)];
  }
  std::uint64_t total(Channel c) const;
  std::uint32_t max_count(Channel c) const;
  bool operator==(const Histogram&) const = default;
};

// The scale pass's output: per channel (R, G, B, L) the factor mapping a count to a bar height
// in [0, 1], and the highest count.
struct Scale {
  std::array<float, 4> scale{};
  std::array<std::uint32_t, 4> max_count{};
  bool operator==(const Scale&) const = default;
};

// Largest bin count allowed for components of `bits` bits: 256 for 8-bit, 1024 deeper.
std::uint32_t max_bins_for_bits(std::uint32_t bits);

// The bins a frame of `bits`-bit components is counted and drawn in when `asked` are asked for
// (a setting made for a deeper clip): at most max_bins_for_bits(bits). The one rule the viewer's
// renderer, its hover and range readouts and its panel all use, once the frame is known.
std::uint32_t bins_for_frame(std::uint32_t asked, std::uint32_t bits);

// Empty when the pair is acceptable, else what is wrong and what is allowed.
std::string check_bins(std::uint32_t bins, std::uint32_t bits);
std::string check_format(const FrameFormat& format);

}  // namespace vhist
