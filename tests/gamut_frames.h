// Frames for the gamut and checksum tests: planar Y'CbCr and gray frames with chosen samples,
// a writer of single samples in any layout, and R'G'B' worked out from the standards'
// equations in double (BT.601/709/2020 Kr and Kb), independent of the fixed-point code under
// test (colour_shared.h).
#pragma once

#include "vhist/compute/synthetic_frames.h"
#include "vhist/compute/video_frame.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>

namespace vhist::test {

// A planar frame (three planes, or one for gray) of `bits`-bit samples, chroma subsampled by
// 2^sx x 2^sy, every sample 0, row strides 5 samples longer than the rows with the padding
// filled with 0xa5 (read as a sample it would show).
inline SyntheticVideoFrame planar_frame(std::uint32_t bits, std::uint32_t sx, std::uint32_t sy, std::uint32_t w,
                                        std::uint32_t h, ColourRange range,
                                        ColourMatrix matrix = ColourMatrix::bt709, bool gray = false) {
  SyntheticVideoFrame f;
  VideoFormat& v = f.format;
  v.width = w;
  v.height = h;
  v.bits = bits;
  v.sample_bytes = bits > 8 ? 2 : 1;
  v.model = gray ? ColourModel::gray : ColourModel::yuv;
  v.chroma_shift_x = gray ? 0 : sx;
  v.chroma_shift_y = gray ? 0 : sy;
  v.plane_count = gray ? 1 : 3;
  for (std::uint32_t c = 0; c < 3; ++c) v.components[c] = ComponentLayout{gray ? 0 : c, 0, v.sample_bytes, 0};
  v.matrix = matrix;
  v.range = range;
  v.pixel_format = gray ? "gray" + std::to_string(bits) : "yuv" + std::to_string(bits) + "-test";
  for (std::uint32_t p = 0; p < v.plane_count; ++p) {
    const std::uint32_t pw = p == 0 ? w : v.chroma_width(), ph = p == 0 ? h : v.chroma_height();
    f.stride[p] = (pw + 5) * v.sample_bytes;
    f.planes.emplace_back(std::size_t{f.stride[p]} * ph, std::byte{0xa5});
    for (std::uint32_t y = 0; y < ph; ++y) std::memset(f.planes[p].data() + std::size_t{y} * f.stride[p], 0, pw * v.sample_bytes);
  }
  return f;
}

// Writes `value` as sample (x, y) of component c (on its own grid), in any layout: the bits
// [shift, shift + bits) of the sample's little-endian word, leaving its other bits as they are.
inline void write_sample(SyntheticVideoFrame& f, std::uint32_t c, std::uint32_t x, std::uint32_t y,
                         std::uint32_t value) {
  const ComponentLayout& l = f.format.components[c];
  std::byte* p = f.planes[l.plane].data() + std::size_t{y} * f.stride[l.plane] + std::size_t{x} * l.step + l.offset;
  std::uint32_t word = std::to_integer<std::uint32_t>(p[0]);
  if (f.format.sample_bytes == 2) word |= std::to_integer<std::uint32_t>(p[1]) << 8;
  const std::uint32_t mask = ((1u << f.format.bits) - 1u) << l.shift;
  word = (word & ~mask) | ((value << l.shift) & mask);
  p[0] = std::byte(word & 0xffu);
  if (f.format.sample_bytes == 2) p[1] = std::byte(word >> 8);
}

// The same samples with other strides and other padding bytes.
inline SyntheticVideoFrame restrided(const SyntheticVideoFrame& f, std::uint32_t extra, std::byte fill) {
  SyntheticVideoFrame g;
  g.format = f.format;
  for (std::uint32_t p = 0; p < f.format.plane_count; ++p) {
    const std::uint32_t row = f.format.plane_row_bytes(p), rows = f.format.plane_rows(p);
    g.stride[p] = f.stride[p] + extra;
    g.planes.emplace_back(std::size_t{g.stride[p]} * rows, fill);
    for (std::uint32_t y = 0; y < rows; ++y) {
      std::memcpy(g.planes[p].data() + std::size_t{y} * g.stride[p], f.planes[p].data() + std::size_t{y} * f.stride[p], row);
    }
  }
  return g;
}

// R', G', B' of codes (Y', Cb, Cr) on the full-range scale 0..M (M = 2^bits - 1), in double,
// from the standard's equations: E'Y and E'Pb/E'Pr from the codes (limited: 219 and 224
// steps of 2^(bits-8) above 16 and around 128; full: 0..M, chroma around 2^(bits-1)), then
// R' = Y + 2(1-Kr)Pr, B' = Y + 2(1-Kb)Pb, G' = (Y - Kr R' - Kb B')/Kg.
inline std::array<double, 3> standard_rgb(double y, double cb, double cr, std::uint32_t bits, ColourRange range,
                                          ColourMatrix matrix) {
  const double kr = matrix == ColourMatrix::bt601 ? 0.299 : matrix == ColourMatrix::bt709 ? 0.2126 : 0.2627;
  const double kb = matrix == ColourMatrix::bt601 ? 0.114 : matrix == ColourMatrix::bt709 ? 0.0722 : 0.0593;
  const double kg = 1 - kr - kb;
  const double m = std::ldexp(1.0, static_cast<int>(bits)) - 1, unit = std::ldexp(1.0, static_cast<int>(bits) - 8);
  const double mid = std::ldexp(1.0, static_cast<int>(bits) - 1);
  const bool limited = range == ColourRange::limited;
  const double e_y = limited ? (y - 16 * unit) / (219 * unit) : y / m;
  const double e_pb = (cb - mid) / (limited ? 224 * unit : m), e_pr = (cr - mid) / (limited ? 224 * unit : m);
  const double r = e_y + 2 * (1 - kr) * e_pr, b = e_y + 2 * (1 - kb) * e_pb;
  const double g = (e_y - kr * r - kb * b) / kg;
  return {r * m, g * m, b * m};
}

// Which side of R 103's limits a component of value d (on the 0..M scale) falls once rounded to
// the nearest integer v: -1 below (20 v < -M), +1 above (20 v > 21 M), 0 inside; nullopt when d
// lies within 0.01 of a rounding tie at a limit (the fixed-point matrix could go either way).
inline std::optional<int> gamut_side(double d, std::uint32_t bits) {
  const double m = std::ldexp(1.0, static_cast<int>(bits)) - 1;
  const double lowest_inside = std::ceil(-m / 20), highest_inside = std::floor(21 * m / 20);
  const double low_tie = lowest_inside - 0.5, high_tie = highest_inside + 0.5;  // v = floor(d + 0.5)
  if (std::abs(d - low_tie) < 0.01 || std::abs(d - high_tie) < 0.01) return std::nullopt;
  return d < low_tie ? -1 : d >= high_tie ? 1 : 0;
}

}  // namespace vhist::test
