#include "vhist/compute/colour.h"

#include "vhist/colour_shared.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace vhist {

namespace {

struct MatrixConstants {
  double kr, kb;
};

MatrixConstants matrix_constants(ColourMatrix m) {
  switch (m) {
    case ColourMatrix::bt601: return {0.299, 0.114};     // ITU-R BT.601-7
    case ColourMatrix::bt709: return {0.2126, 0.0722};   // ITU-R BT.709-6
    case ColourMatrix::bt2020: return {0.2627, 0.0593};  // ITU-R BT.2020-2, non-constant luminance
  }
  throw std::invalid_argument("unknown colour matrix");
}

std::int32_t fixed(double value, int shift) { return static_cast<std::int32_t>(std::llround(std::ldexp(value, shift))); }

}  // namespace

ConversionCoefficients conversion_coefficients(ColourMatrix matrix, ColourRange range, std::uint32_t bits) {
  if (bits < 8 || bits > 16) throw std::invalid_argument("conversion depth must be 8 to 16 bits");
  const auto [kr, kb] = matrix_constants(matrix);
  const double kg = 1.0 - kr - kb;
  const double max_code = std::ldexp(1.0, static_cast<int>(bits)) - 1.0;
  const double unit = std::ldexp(1.0, static_cast<int>(bits) - 8);  // one 8-bit step at this depth
  const bool limited = range == ColourRange::limited;
  const double y_range = limited ? 219.0 * unit : max_code;
  const double c_range = limited ? 224.0 * unit : max_code;

  ConversionCoefficients k;
  k.shift = shader::vhist_convert_shift(bits);
  k.max_code = static_cast<std::int32_t>(max_code);
  k.yoff = limited ? static_cast<std::int32_t>(16.0 * unit) : 0;
  k.coff8 = static_cast<std::int32_t>(std::ldexp(1.0, static_cast<int>(bits) - 1)) * 8;
  const double c_gain = max_code / c_range;
  k.cy = fixed(max_code / y_range, k.shift);
  k.crv = fixed(c_gain * 2.0 * (1.0 - kr), k.shift);
  k.cgu = fixed(c_gain * 2.0 * (1.0 - kb) * kb / kg, k.shift);
  k.cgv = fixed(c_gain * 2.0 * (1.0 - kr) * kr / kg, k.shift);
  k.cbu = fixed(c_gain * 2.0 * (1.0 - kb), k.shift);
  return k;
}

FrameFormat converted_format(const VideoFormat& format) {
  return FrameFormat{format.width, format.height, format.bits == 8 ? PixelPacking::rgba8 : PixelPacking::rgba16,
                     format.bits};
}

std::uint32_t read_sample(const VideoFormat& format, const VideoPlanes& planes, std::uint32_t c, std::uint32_t x,
                          std::uint32_t y) {
  const ComponentLayout& comp = format.components[c];
  const std::byte* p = planes.data[comp.plane] + std::size_t{y} * planes.stride[comp.plane] +
                       std::size_t{x} * comp.step + comp.offset;
  std::uint32_t raw = 0;
  if (format.sample_bytes == 1) {
    raw = std::to_integer<std::uint32_t>(p[0]);
  } else {
    raw = std::to_integer<std::uint32_t>(p[0]) | (std::to_integer<std::uint32_t>(p[1]) << 8);
  }
  return (raw >> comp.shift) & ((1u << format.bits) - 1u);
}

RgbUnclamped reference_pixel_unclamped(const VideoFormat& f, const VideoPlanes& planes, const ConversionCoefficients& k,
                                       std::uint32_t x, std::uint32_t y) {
  const auto sample = [&](std::uint32_t c, std::uint32_t sx, std::uint32_t sy) {
    return static_cast<int>(read_sample(f, planes, c, sx, sy));
  };
  if (f.model == ColourModel::rgb) return {sample(0, x, y), sample(1, x, y), sample(2, x, y)};
  const int luma = sample(0, x, y);
  if (f.model == ColourModel::gray) {
    if (f.range == ColourRange::full) return {luma, luma, luma};
    const int v = shader::vhist_yuv_component_unclamped(luma, 0, 0, k.cy, 0, 0, k.yoff, 0, k.shift);
    return {v, v, v};
  }
  // Chroma upsampling: the chroma column(s) and row(s) this pixel takes from.
  const std::uint32_t sx = f.chroma_shift_x, sy = f.chroma_shift_y;
  const std::uint32_t cw = f.chroma_width(), ch = f.chroma_height();
  const std::uint32_t col_a = x >> sx;
  const std::uint32_t col_b = (sx != 0 && col_a + 1 < cw) ? col_a + 1 : col_a;
  const std::uint32_t row_near = y >> sy;
  const std::uint32_t row_far = sy != 0 ? shader::vhist_chroma_far_row(y, ch) : row_near;
  int chroma8[2];
  for (std::uint32_t c = 1; c <= 2; ++c) {
    const auto h = [&](std::uint32_t row) { return shader::vhist_chroma_h(sample(c, col_a, row), sample(c, col_b, row), sx, x); };
    chroma8[c - 1] = shader::vhist_chroma8(h(row_near), sy != 0 ? h(row_far) : 0, sy);
  }
  const int cb8 = chroma8[0], cr8 = chroma8[1];
  return {shader::vhist_yuv_component_unclamped(luma, cb8, cr8, k.cy, 0, k.crv, k.yoff, k.coff8, k.shift),
          shader::vhist_yuv_component_unclamped(luma, cb8, cr8, k.cy, -k.cgu, -k.cgv, k.yoff, k.coff8, k.shift),
          shader::vhist_yuv_component_unclamped(luma, cb8, cr8, k.cy, k.cbu, 0, k.yoff, k.coff8, k.shift)};
}

Rgb reference_pixel(const VideoFormat& f, const VideoPlanes& planes, const ConversionCoefficients& k, std::uint32_t x,
                    std::uint32_t y) {
  const RgbUnclamped v = reference_pixel_unclamped(f, planes, k, x, y);
  const auto clamp = [&](int c) { return static_cast<std::uint32_t>(std::clamp(c, 0, k.max_code)); };
  return {clamp(v.r), clamp(v.g), clamp(v.b)};
}

std::vector<std::byte> reference_convert(const VideoFormat& format, const VideoPlanes& planes) {
  if (const auto err = check_video_format(format); !err.empty()) throw std::invalid_argument(err);
  const FrameFormat out = converted_format(format);
  const ConversionCoefficients k = conversion_coefficients(format.matrix, format.range, format.bits);
  std::vector<std::byte> pixels(out.byte_size());
  const std::uint32_t alpha = (1u << format.bits) - 1u;
  for (std::uint32_t y = 0; y < format.height; ++y) {
    for (std::uint32_t x = 0; x < format.width; ++x) {
      const Rgb c = reference_pixel(format, planes, k, x, y);
      const std::size_t i = std::size_t{y} * format.width + x;
      if (out.packing == PixelPacking::rgba8) {
        const std::uint8_t v[4] = {static_cast<std::uint8_t>(c.r), static_cast<std::uint8_t>(c.g),
                                   static_cast<std::uint8_t>(c.b), static_cast<std::uint8_t>(alpha)};
        std::memcpy(pixels.data() + i * 4, v, 4);
      } else {
        const std::uint16_t v[4] = {static_cast<std::uint16_t>(c.r), static_cast<std::uint16_t>(c.g),
                                    static_cast<std::uint16_t>(c.b), static_cast<std::uint16_t>(alpha)};
        std::memcpy(pixels.data() + i * 8, v, 8);
      }
    }
  }
  return pixels;
}

}  // namespace vhist
