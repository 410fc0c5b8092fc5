// Deterministic synthetic frames for the tests and the benchmark, in one place: R'G'B' frames of
// the engine's formats (make_frame), and decoded frames in the common FFmpeg layouts
// (make_synthetic_frame: random samples, padded strides; make_natural_yuv420: a decoded-looking
// 4:2:0 frame). No Vulkan.
#pragma once

#include "vhist/compute/histogram_types.h"
#include "vhist/compute/video_frame.h"

#include <array>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace vhist {

enum class Content {
  natural,  // smooth gradients with a little noise, like a defocused photo
  random,   // uniform random bytes (every component, alpha too)
  solid,    // one colour everywhere
  checker,  // a per-pixel checkerboard of two colours
};
inline constexpr Content kAllContents[] = {Content::natural, Content::random, Content::solid, Content::checker};

std::string_view content_name(Content c);
// Parses a content name; returns false for an unknown one.
bool parse_content(std::string_view name, Content& out);

// A frame of `format` filled with `content`, byte_size() bytes (rgba16: little-endian fields).
// The same (format, content, seed) always gives the same bytes.
std::vector<std::byte> make_frame(const FrameFormat& format, Content content, std::uint32_t seed = 1);

// A decoded frame in host memory, owning its planes.
struct SyntheticVideoFrame {
  VideoFormat format;
  std::vector<std::vector<std::byte>> planes;
  std::array<std::uint32_t, 3> stride{};
  VideoPlanes view() const;  // valid while this frame lives and is not moved
};

// Layout names as FFmpeg's: yuv420p nv12 nv21 yuv422p yuv444p yuyv422 uyvy422 yuv420p10 p010
// yuv422p10 yuv444p12 gray gray10 gray16 rgb24 bgra gbrp gbrp10 rgb48 rgba64.
const std::vector<std::string>& synthetic_layouts();
// The VideoFormat of `layout` (one of synthetic_layouts(); else std::invalid_argument); yuv
// layouts are BT.709 limited range, the others full range.
VideoFormat synthetic_layout_format(const std::string& layout, std::uint32_t width, std::uint32_t height);
// A frame of `layout` whose bytes (samples and padding) are pseudo-random from `seed`, with row
// strides 3 samples longer than the rows (not multiples of 4), so that padding read as pixels
// shows. `range` applies to yuv and gray layouts.
SyntheticVideoFrame make_synthetic_frame(const std::string& layout, std::uint32_t width, std::uint32_t height,
                                         std::uint32_t seed, ColourMatrix matrix = ColourMatrix::bt709,
                                         ColourRange range = ColourRange::limited);
// A natural-looking planar 4:2:0 frame, BT.709 limited range: luma gradients with texture,
// slowly varying chroma; 8-bit samples (yuv420p) or, with `bits` 10, 10-bit samples in
// little-endian 16-bit words (yuv420p10le). Tight strides.
SyntheticVideoFrame make_natural_yuv420(std::uint32_t width, std::uint32_t height, std::uint32_t bits,
                                        std::uint32_t seed);

}  // namespace vhist
