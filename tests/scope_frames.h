// Test frames of known content for the scope tests (test_scopes.cpp, test_gpu_scopes.cpp):
// synthetic frames whose samples the test writes itself, so that the expected counts follow
// from the test's own arithmetic.
#pragma once

#include "vhist/compute/scope_counts.h"
#include "vhist/compute/synthetic_frames.h"

#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace vhist::test {

// Writes every sample of component c of `t` (on its own grid) as value(x, y).
inline void fill_component(SyntheticVideoFrame& t, std::uint32_t c,
                           const std::function<std::uint32_t(std::uint32_t, std::uint32_t)>& value) {
  const VideoFormat& f = t.format;
  const ComponentLayout& comp = f.components[c];
  const bool chroma = f.model == ColourModel::yuv && c != 0;
  const std::uint32_t w = chroma ? f.chroma_width() : f.width, h = chroma ? f.chroma_height() : f.height;
  for (std::uint32_t y = 0; y < h; ++y) {
    for (std::uint32_t x = 0; x < w; ++x) {
      std::byte* p = t.planes[comp.plane].data() + std::size_t{y} * t.stride[comp.plane] + std::size_t{x} * comp.step +
                     comp.offset;
      const std::uint32_t v = value(x, y) << comp.shift;
      p[0] = static_cast<std::byte>(v & 0xff);
      if (f.sample_bytes == 2) p[1] = static_cast<std::byte>(v >> 8);
    }
  }
}

// A frame of `layout` with every sample random (make_synthetic_frame), turned `rotation`.
inline SyntheticVideoFrame scope_frame(const std::string& layout, std::uint32_t w, std::uint32_t h, std::uint32_t seed,
                                       ColourRange range, std::uint32_t rotation,
                                       ColourMatrix matrix = ColourMatrix::bt709) {
  SyntheticVideoFrame t = make_synthetic_frame(layout, w, h, seed, matrix, range);
  t.format.rotation = rotation;
  return t;
}

// One case of the equality tests: a layout, a rotation, a range and maybe a region.
struct ScopeCase {
  std::string layout;
  std::uint32_t rotation;
  ColourRange range;
  std::optional<PixelRect> region;
};

// Small frames (lavapipe is slow): 8-, 10- and 12-bit Y'CbCr of each subsampling, R'G'B' and
// gray; every rotation, both ranges, regions at odd offsets. 37 x 23 is divided by no plot width
// the tests use.
inline std::vector<ScopeCase> scope_cases() {
  std::vector<ScopeCase> cases;
  const std::optional<PixelRect> regions[] = {std::nullopt, PixelRect{3, 5, 27, 13}, PixelRect{0, 1, 36, 22}};
  const char* layouts[] = {"yuv420p", "nv12", "yuv422p10", "p010", "yuv444p12", "yuyv422", "rgb24", "gbrp10", "gray"};
  std::uint32_t k = 0;
  for (const char* layout : layouts) {
    for (std::uint32_t rotation : {0u, 90u, 180u, 270u}) {
      for (ColourRange range : {ColourRange::limited, ColourRange::full}) {
        cases.push_back({layout, rotation, range, regions[k++ % 3]});
      }
    }
  }
  return cases;
}

inline std::string describe(const ScopeCase& c) {
  std::string s = c.layout + " rot " + std::to_string(c.rotation) + " " + std::string(range_name(c.range));
  if (c.region) {
    s += " region " + std::to_string(c.region->x) + "," + std::to_string(c.region->y) + " " +
         std::to_string(c.region->width) + "x" + std::to_string(c.region->height);
  }
  return s;
}

}  // namespace vhist::test
