// Synthetic decoded frames for the conversion tests: the planes of the common FFmpeg layouts
// (planar, semi-planar, packed; 8 and 16-bit samples), filled with pseudo-random samples, with
// row strides larger than the rows so that padding is never read as pixels.
#pragma once

#include "vhist/compute/video_frame.h"

#include <cstdint>
#include <string>
#include <vector>

namespace vhist::test {

struct TestFrame {
  VideoFormat format;
  std::vector<std::vector<std::byte>> planes;
  std::array<std::uint32_t, 3> stride{};
  VideoPlanes view() const;
};

// Layout names as FFmpeg's: yuv420p nv12 nv21 yuv422p yuv444p yuyv422 uyvy422 yuv420p10 p010
// yuv422p10 yuv444p12 gray gray10 gray16 rgb24 bgra gbrp gbrp10 rgb48 rgba64.
const std::vector<std::string>& test_layouts();
VideoFormat layout_format(const std::string& layout, std::uint32_t width, std::uint32_t height);
TestFrame make_test_frame(const std::string& layout, std::uint32_t width, std::uint32_t height, std::uint32_t seed,
                          ColourMatrix matrix = ColourMatrix::bt709, ColourRange range = ColourRange::limited);

}  // namespace vhist::test
