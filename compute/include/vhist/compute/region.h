// A region of interest: a rectangle of a frame's stored pixels, and the frame cut down to it.
// The histograms of a region are those of its pixels as converted in the whole frame (chroma
// upsampled from the whole picture), so a region's counts are a subset of the frame's.
#pragma once

#include "vhist/compute/histogram_types.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace vhist {

// Columns x .. x + width - 1 and rows y .. y + height - 1 of the stored picture.
struct PixelRect {
  std::uint32_t x = 0, y = 0, width = 0, height = 0;
  std::uint64_t pixel_count() const { return std::uint64_t{width} * height; }
  bool operator==(const PixelRect&) const = default;
};

// Empty when `rect` is not empty and lies inside a frame_width x frame_height picture; else
// what is wrong, in words.
std::string check_rect(const PixelRect& rect, std::uint32_t frame_width, std::uint32_t frame_height);

// The format of `format` cut to `rect` (its size; same packing and depth).
FrameFormat region_format(const FrameFormat& format, const PixelRect& rect);

// The rows of `rect` of a tightly packed frame, tightly packed: a frame of region_format().
std::vector<std::byte> crop_frame(std::span<const std::byte> pixels, const FrameFormat& format, const PixelRect& rect);

}  // namespace vhist
