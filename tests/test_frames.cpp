#include "test_frames.h"

#include <random>
#include <stdexcept>

namespace vhist::test {

VideoPlanes TestFrame::view() const {
  VideoPlanes v;
  for (std::size_t p = 0; p < planes.size(); ++p) {
    v.data[p] = planes[p].data();
    v.stride[p] = stride[p];
  }
  return v;
}

const std::vector<std::string>& test_layouts() {
  static const std::vector<std::string> names = {"yuv420p", "nv12",   "nv21",   "yuv422p", "yuv444p", "yuyv422", "uyvy422",
                                                 "yuv420p10", "p010", "yuv422p10", "yuv444p12", "gray",  "gray10", "gray16",
                                                 "rgb24",   "bgra",   "gbrp",   "gbrp10",  "rgb48",   "rgba64"};
  return names;
}

VideoFormat layout_format(const std::string& name, std::uint32_t width, std::uint32_t height) {
  VideoFormat f;
  f.width = width;
  f.height = height;
  f.pixel_format = name;
  const auto planar = [&](std::uint32_t bits, std::uint32_t sx, std::uint32_t sy) {
    f.bits = bits;
    f.sample_bytes = bits > 8 ? 2 : 1;
    f.model = ColourModel::yuv;
    f.chroma_shift_x = sx;
    f.chroma_shift_y = sy;
    f.plane_count = 3;
    for (std::uint32_t c = 0; c < 3; ++c) f.components[c] = {c, 0, f.sample_bytes, 0};
  };
  const auto packed = [&](ColourModel model, std::uint32_t bits, std::uint32_t step, std::array<std::uint32_t, 3> offsets) {
    f.bits = bits;
    f.sample_bytes = bits > 8 ? 2 : 1;
    f.model = model;
    f.plane_count = 1;
    for (std::uint32_t c = 0; c < 3; ++c) f.components[c] = {0, offsets[c], step, 0};
  };
  if (name == "yuv420p") planar(8, 1, 1);
  else if (name == "yuv422p") planar(8, 1, 0);
  else if (name == "yuv444p") planar(8, 0, 0);
  else if (name == "yuv420p10") planar(10, 1, 1);
  else if (name == "yuv422p10") planar(10, 1, 0);
  else if (name == "yuv444p12") planar(12, 0, 0);
  else if (name == "nv12" || name == "nv21" || name == "p010") {
    const bool deep = name == "p010";
    planar(deep ? 10 : 8, 1, 1);
    f.plane_count = 2;
    const std::uint32_t s = f.sample_bytes;
    f.components[0] = {0, 0, s, deep ? 6u : 0u};
    f.components[1] = {1, name == "nv21" ? s : 0, 2 * s, deep ? 6u : 0u};
    f.components[2] = {1, name == "nv21" ? 0 : s, 2 * s, deep ? 6u : 0u};
  } else if (name == "yuyv422" || name == "uyvy422") {
    planar(8, 1, 0);
    f.plane_count = 1;
    const bool yuyv = name == "yuyv422";
    f.components[0] = {0, yuyv ? 0u : 1u, 2, 0};
    f.components[1] = {0, yuyv ? 1u : 0u, 4, 0};
    f.components[2] = {0, yuyv ? 3u : 2u, 4, 0};
  } else if (name == "gray" || name == "gray10" || name == "gray16") {
    packed(ColourModel::gray, name == "gray" ? 8 : (name == "gray10" ? 10 : 16), name == "gray" ? 1 : 2, {0, 0, 0});
  } else if (name == "rgb24") packed(ColourModel::rgb, 8, 3, {0, 1, 2});
  else if (name == "bgra") packed(ColourModel::rgb, 8, 4, {2, 1, 0});
  else if (name == "rgb48") packed(ColourModel::rgb, 16, 6, {0, 2, 4});
  else if (name == "rgba64") packed(ColourModel::rgb, 16, 8, {0, 2, 4});
  else if (name == "gbrp" || name == "gbrp10") {
    planar(name == "gbrp" ? 8 : 10, 0, 0);
    f.model = ColourModel::rgb;
    f.components[0] = {2, 0, f.sample_bytes, 0};  // R in plane 2, as FFmpeg's gbrp
    f.components[1] = {0, 0, f.sample_bytes, 0};
    f.components[2] = {1, 0, f.sample_bytes, 0};
  } else {
    throw std::invalid_argument("unknown test layout " + name);
  }
  if (f.model != ColourModel::yuv) f.range = ColourRange::full;
  return f;
}

TestFrame make_test_frame(const std::string& layout, std::uint32_t width, std::uint32_t height, std::uint32_t seed,
                          ColourMatrix matrix, ColourRange range) {
  TestFrame t;
  t.format = layout_format(layout, width, height);
  t.format.matrix = matrix;
  if (t.format.model != ColourModel::rgb) t.format.range = range;
  std::mt19937 rng(seed);
  for (std::uint32_t p = 0; p < t.format.plane_count; ++p) {
    // Odd padding, rounded to whole samples: strides that are not multiples of 4.
    t.stride[p] = t.format.plane_row_bytes(p) + 3 * t.format.sample_bytes;
    std::vector<std::byte> bytes(std::size_t{t.stride[p]} * t.format.plane_rows(p));
    for (auto& b : bytes) b = static_cast<std::byte>(rng() & 0xff);
    t.planes.push_back(std::move(bytes));
  }
  return t;
}

}  // namespace vhist::test
