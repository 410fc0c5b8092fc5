#include "vhist/compute/scope_reference.h"

#include "vhist/compute/colour.h"

#include <bit>
#include <cstring>
#include <stdexcept>

namespace vhist {

namespace {

// Where stored pixel (x, y) of region r lands across the upright picture: turn the region's
// own coordinates by the rotation and keep the horizontal one.
std::uint32_t upright_column(const PixelRect& r, std::uint32_t rotation, std::uint32_t x, std::uint32_t y) {
  const std::uint32_t u = x - r.x, v = y - r.y;  // inside the region
  switch (rotation) {
    case 90: return (r.height - 1) - v;  // the bottom row ends up on the left
    case 180: return (r.width - 1) - u;
    case 270: return v;  // the top row ends up on the left
    default: return u;
  }
}

// Level of a `bits`-bit code among `levels` (a power of two): its top log2(levels) bits.
std::uint32_t level_of(std::uint32_t code, std::uint32_t levels, std::uint32_t bits) {
  const auto keep = static_cast<std::uint32_t>(std::countr_zero(levels));
  return code >> (bits - keep);
}

// The histograms' luma: Rec.709 weights in 1/65536 (13933, 46871, 4732), rounded to nearest.
std::uint32_t luma_of(std::uint32_t r, std::uint32_t g, std::uint32_t b) {
  const std::uint64_t sum = std::uint64_t{13933} * r + std::uint64_t{46871} * g + std::uint64_t{4732} * b;
  return static_cast<std::uint32_t>((sum + 32768) / 65536);
}

// Component c of pixel i of a converted frame.
std::uint32_t rgb_component(const std::vector<std::byte>& rgb, const FrameFormat& f, std::uint64_t i, std::uint32_t c) {
  if (f.packing == PixelPacking::rgba8) return std::to_integer<std::uint32_t>(rgb[i * 4 + c]);
  std::uint16_t v = 0;
  std::memcpy(&v, rgb.data() + i * 8 + c * 2, 2);
  return v;
}

std::int64_t floor_div(std::int64_t n, std::int64_t d) {  // d > 0
  const std::int64_t q = n / d;
  return (n % d != 0 && n < 0) ? q - 1 : q;
}

// n / d (d > 0) to the nearest integer, a half rounded away from zero.
std::int64_t nearest(std::int64_t n, std::int64_t d) {
  const std::int64_t a = n < 0 ? -n : n;
  std::int64_t q = a / d;
  if (2 * (a % d) >= d) ++q;
  return n < 0 ? -q : q;
}

// The Cb, Cr codes of full-range R'G'B' (docs/architecture.md, "Scope counts").
struct ChromaPair {
  std::uint32_t cb, cr;
};
ChromaPair chroma_of(ColourMatrix matrix, ColourRange range, std::uint32_t bits, std::uint32_t r, std::uint32_t g,
                     std::uint32_t b) {
  std::int64_t kr = 2126, kb = 722;  // BT.709, in 1/10000
  if (matrix == ColourMatrix::bt601) kr = 2990, kb = 1140;
  if (matrix == ColourMatrix::bt2020) kr = 2627, kb = 593;
  const std::int64_t kg = 10000 - kr - kb;
  const std::int64_t top = (std::int64_t{1} << bits) - 1;
  const std::int64_t span = range == ColourRange::full ? top : 224 * (std::int64_t{1} << bits) / 256;
  // Cb = (B' - Y') / (2 (1 - Kb)), Cr = (R' - Y') / (2 (1 - Kr)), scaled by span / top, in 2^-14.
  const std::int64_t b_r = nearest(-16384 * span * kr, 2 * top * (10000 - kb));
  const std::int64_t b_g = nearest(-16384 * span * kg, 2 * top * (10000 - kb));
  const std::int64_t r_g = nearest(-16384 * span * kg, 2 * top * (10000 - kr));
  const std::int64_t r_b = nearest(-16384 * span * kb, 2 * top * (10000 - kr));
  const std::int64_t cb_sum = b_r * r + b_g * g - (b_r + b_g) * b;
  const std::int64_t cr_sum = -(r_g + r_b) * r + r_g * g + r_b * b;
  const std::int64_t zero = std::int64_t{1} << (bits - 1);
  const auto code = [&](std::int64_t sum) {
    const std::int64_t v = zero + floor_div(sum + 8192, 16384);
    return static_cast<std::uint32_t>(v < 0 ? 0 : v > top ? top : v);
  };
  return {code(cb_sum), code(cr_sum)};
}

void add(WaveformCounts& out, std::uint32_t c, std::uint32_t column, std::uint32_t level) {
  ++out.counts[(std::size_t{c} * out.shape.plot_columns + column / out.shape.run) * out.levels + level];
}

void waveform_of_rgb(const VideoFormat& format, const VideoPlanes& planes, const PixelRect& r, WaveformCounts& out) {
  const std::vector<std::byte> rgb = reference_convert(format, planes);
  const FrameFormat f = converted_format(format);
  for (std::uint32_t y = r.y; y < r.y + r.height; ++y) {
    for (std::uint32_t x = r.x; x < r.x + r.width; ++x) {
      const std::uint64_t i = std::uint64_t{y} * f.width + x;
      const std::uint32_t column = upright_column(r, format.rotation, x, y);
      const std::uint32_t rr = rgb_component(rgb, f, i, 0), gg = rgb_component(rgb, f, i, 1),
                          bb = rgb_component(rgb, f, i, 2);
      if (out.mode == WaveformMode::luma) {
        add(out, 0, column, level_of(luma_of(rr, gg, bb), out.levels, f.bits));
        continue;
      }
      add(out, 0, column, level_of(rr, out.levels, f.bits));
      add(out, 1, column, level_of(gg, out.levels, f.bits));
      add(out, 2, column, level_of(bb, out.levels, f.bits));
    }
  }
}

void waveform_of_planes(const VideoFormat& format, const VideoPlanes& planes, const PixelRect& r, WaveformCounts& out) {
  for (std::uint32_t y = r.y; y < r.y + r.height; ++y) {
    for (std::uint32_t x = r.x; x < r.x + r.width; ++x) {
      add(out, 0, upright_column(r, format.rotation, x, y), level_of(read_sample(format, planes, 0, x, y), out.levels, format.bits));
    }
  }
  // A chroma sample stands where its first luma pixel is; at a region's left or top edge that
  // pixel may lie outside, and the region's first column or row stands for it.
  const std::uint32_t sx = format.chroma_shift_x, sy = format.chroma_shift_y;
  for (std::uint32_t cy = r.y >> sy; cy <= (r.y + r.height - 1) >> sy; ++cy) {
    for (std::uint32_t cx = r.x >> sx; cx <= (r.x + r.width - 1) >> sx; ++cx) {
      const std::uint32_t lx = std::max(cx << sx, r.x), ly = std::max(cy << sy, r.y);
      const std::uint32_t column = upright_column(r, format.rotation, lx, ly);
      for (std::uint32_t c = 1; c < 3; ++c) {
        add(out, c, column, level_of(read_sample(format, planes, c, cx, cy), out.levels, format.bits));
      }
    }
  }
}

}  // namespace

WaveformCounts reference_waveform(const VideoFormat& format, const VideoPlanes& planes, const WaveformRequest& request) {
  if (auto err = check_waveform(format, request); !err.empty()) throw std::invalid_argument(err);
  WaveformCounts out = empty_waveform(format, request);
  const PixelRect r = scope_region(format, request.region);
  if (request.mode == WaveformMode::ycbcr) {
    waveform_of_planes(format, planes, r, out);
  } else {
    waveform_of_rgb(format, planes, r, out);
  }
  return out;
}

VectorscopeCounts reference_vectorscope(const VideoFormat& format, const VideoPlanes& planes,
                                        const VectorscopeRequest& request) {
  if (auto err = check_vectorscope(format, request); !err.empty()) throw std::invalid_argument(err);
  const std::uint32_t n = request.size;
  VectorscopeCounts out{n, format.model == ColourModel::yuv, std::vector<std::uint32_t>(std::size_t{n} * n, 0)};
  const PixelRect r = scope_region(format, request.region);
  if (out.from_planes) {
    const std::uint32_t sx = format.chroma_shift_x, sy = format.chroma_shift_y;
    for (std::uint32_t cy = r.y >> sy; cy <= (r.y + r.height - 1) >> sy; ++cy) {
      for (std::uint32_t cx = r.x >> sx; cx <= (r.x + r.width - 1) >> sx; ++cx) {
        const std::uint32_t cb = level_of(read_sample(format, planes, 1, cx, cy), n, format.bits);
        const std::uint32_t cr = level_of(read_sample(format, planes, 2, cx, cy), n, format.bits);
        ++out.counts[std::size_t{cr} * n + cb];
      }
    }
    return out;
  }
  const std::vector<std::byte> rgb = reference_convert(format, planes);
  const FrameFormat f = converted_format(format);
  for (std::uint32_t y = r.y; y < r.y + r.height; ++y) {
    for (std::uint32_t x = r.x; x < r.x + r.width; ++x) {
      const std::uint64_t i = std::uint64_t{y} * f.width + x;
      const ChromaPair c = chroma_of(format.matrix, format.range, f.bits, rgb_component(rgb, f, i, 0),
                                     rgb_component(rgb, f, i, 1), rgb_component(rgb, f, i, 2));
      ++out.counts[std::size_t{level_of(c.cr, n, f.bits)} * n + level_of(c.cb, n, f.bits)];
    }
  }
  return out;
}

}  // namespace vhist
