// The decoded-frame makers of synthetic_frames.h: FFmpeg-like plane layouts.
#include "vhist/compute/synthetic_frames.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <stdexcept>

namespace vhist {

VideoPlanes SyntheticVideoFrame::view() const {
  VideoPlanes v;
  for (std::size_t p = 0; p < planes.size(); ++p) {
    v.data[p] = planes[p].data();
    v.stride[p] = stride[p];
  }
  return v;
}

const std::vector<std::string>& synthetic_layouts() {
  static const std::vector<std::string> names = {"yuv420p", "nv12",   "nv21",   "yuv422p", "yuv444p", "yuyv422", "uyvy422",
                                                 "yuv420p10", "p010", "yuv422p10", "yuv444p12", "gray",  "gray10", "gray16",
                                                 "rgb24",   "bgra",   "gbrp",   "gbrp10",  "rgb48",   "rgba64"};
  return names;
}

namespace {

// Planar Y'CbCr with one component per plane.
void set_planar(VideoFormat& f, std::uint32_t bits, std::uint32_t sx, std::uint32_t sy) {
  f.bits = bits;
  f.sample_bytes = bits > 8 ? 2 : 1;
  f.model = ColourModel::yuv;
  f.chroma_shift_x = sx;
  f.chroma_shift_y = sy;
  f.plane_count = 3;
  for (std::uint32_t c = 0; c < 3; ++c) f.components[c] = {c, 0, f.sample_bytes, 0};
}

// One plane of interleaved components at these byte offsets.
void set_packed(VideoFormat& f, ColourModel model, std::uint32_t bits, std::uint32_t step,
                std::array<std::uint32_t, 3> offsets) {
  f.bits = bits;
  f.sample_bytes = bits > 8 ? 2 : 1;
  f.model = model;
  f.plane_count = 1;
  for (std::uint32_t c = 0; c < 3; ++c) f.components[c] = {0, offsets[c], step, 0};
}

// The layouts that are not plain planar Y'CbCr; false for an unknown name.
bool set_other_layout(VideoFormat& f, const std::string& name) {
  if (name == "nv12" || name == "nv21" || name == "p010") {
    const bool deep = name == "p010";
    set_planar(f, deep ? 10 : 8, 1, 1);
    f.plane_count = 2;
    const std::uint32_t s = f.sample_bytes;
    f.components[0] = {0, 0, s, deep ? 6u : 0u};
    f.components[1] = {1, name == "nv21" ? s : 0, 2 * s, deep ? 6u : 0u};
    f.components[2] = {1, name == "nv21" ? 0 : s, 2 * s, deep ? 6u : 0u};
  } else if (name == "yuyv422" || name == "uyvy422") {
    set_planar(f, 8, 1, 0);
    f.plane_count = 1;
    const bool yuyv = name == "yuyv422";
    f.components[0] = {0, yuyv ? 0u : 1u, 2, 0};
    f.components[1] = {0, yuyv ? 1u : 0u, 4, 0};
    f.components[2] = {0, yuyv ? 3u : 2u, 4, 0};
  } else if (name == "gray" || name == "gray10" || name == "gray16") {
    set_packed(f, ColourModel::gray, name == "gray" ? 8 : (name == "gray10" ? 10 : 16), name == "gray" ? 1 : 2, {0, 0, 0});
  } else if (name == "rgb24") {
    set_packed(f, ColourModel::rgb, 8, 3, {0, 1, 2});
  } else if (name == "bgra") {
    set_packed(f, ColourModel::rgb, 8, 4, {2, 1, 0});
  } else if (name == "rgb48") {
    set_packed(f, ColourModel::rgb, 16, 6, {0, 2, 4});
  } else if (name == "rgba64") {
    set_packed(f, ColourModel::rgb, 16, 8, {0, 2, 4});
  } else if (name == "gbrp" || name == "gbrp10") {
    set_planar(f, name == "gbrp" ? 8 : 10, 0, 0);
    f.model = ColourModel::rgb;
    f.components[0] = {2, 0, f.sample_bytes, 0};  // R in plane 2, as FFmpeg's gbrp
    f.components[1] = {0, 0, f.sample_bytes, 0};
    f.components[2] = {1, 0, f.sample_bytes, 0};
  } else {
    return false;
  }
  return true;
}

}  // namespace

VideoFormat synthetic_layout_format(const std::string& name, std::uint32_t width, std::uint32_t height) {
  VideoFormat f;
  f.width = width;
  f.height = height;
  f.pixel_format = name;
  if (name == "yuv420p") set_planar(f, 8, 1, 1);
  else if (name == "yuv422p") set_planar(f, 8, 1, 0);
  else if (name == "yuv444p") set_planar(f, 8, 0, 0);
  else if (name == "yuv420p10") set_planar(f, 10, 1, 1);
  else if (name == "yuv422p10") set_planar(f, 10, 1, 0);
  else if (name == "yuv444p12") set_planar(f, 12, 0, 0);
  else if (!set_other_layout(f, name)) throw std::invalid_argument("unknown synthetic frame layout " + name);
  if (f.model != ColourModel::yuv) f.range = ColourRange::full;
  return f;
}

SyntheticVideoFrame make_synthetic_frame(const std::string& layout, std::uint32_t width, std::uint32_t height,
                                         std::uint32_t seed, ColourMatrix matrix, ColourRange range) {
  SyntheticVideoFrame t;
  t.format = synthetic_layout_format(layout, width, height);
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

SyntheticVideoFrame make_natural_yuv420(std::uint32_t w, std::uint32_t h, std::uint32_t bits, std::uint32_t seed) {
  const bool deep = bits > 8;
  SyntheticVideoFrame frame;
  frame.format = synthetic_layout_format(deep ? "yuv420p10" : "yuv420p", w, h);
  frame.format.pixel_format = deep ? "yuv420p10le" : "yuv420p";
  const std::uint32_t max = (1u << frame.format.bits) - 1, sample_bytes = frame.format.sample_bytes;
  std::uint32_t state = seed * 2654435761u + 1;
  const auto noise = [&] {
    state = state * 1664525u + 1013904223u;
    return state >> 28;  // 0..15
  };
  const double scale = deep ? 4.0 : 1.0;
  for (std::uint32_t p = 0; p < 3; ++p) {
    const std::uint32_t pw = p == 0 ? w : (w + 1) / 2, ph = p == 0 ? h : (h + 1) / 2;
    std::vector<std::byte> plane(std::size_t{pw} * ph * sample_bytes);
    for (std::uint32_t y = 0; y < ph; ++y) {
      for (std::uint32_t x = 0; x < pw; ++x) {
        const double v = p == 0 ? 40 + 150.0 * x / pw + 30 * std::sin(y * 0.01 + seed) + noise()
                                : 128 + 40 * std::sin((x + y * (p == 1 ? 1.0 : -1.0)) * 0.004 + seed);
        const auto code = static_cast<std::uint16_t>(std::min(static_cast<std::uint32_t>(v * scale), max));
        std::memcpy(plane.data() + (std::size_t{y} * pw + x) * sample_bytes, &code, sample_bytes);  // little-endian
      }
    }
    frame.stride[p] = pw * sample_bytes;
    frame.planes.push_back(std::move(plane));
  }
  return frame;
}

}  // namespace vhist
