#include "vhist/compute/source_measures.h"

#include "vhist/compute/colour.h"
#include "vhist/compute/hlg_light.h"
#include "vhist/compute/transfer.h"
#include "vhist/colour_shared.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace vhist {

bool has_planes(const VideoFormat& format) { return format.model != ColourModel::rgb; }

namespace {

// Code value of sample (x, y) of component c on its own grid (ComponentLayout's rule).
std::uint32_t sample_at(const VideoFormat& f, const VideoPlanes& planes, std::uint32_t c, std::uint32_t x,
                        std::uint32_t y) {
  const ComponentLayout& comp = f.components[c];
  const std::byte* p = planes.data[comp.plane] + std::size_t{y} * planes.stride[comp.plane] + std::size_t{x} * comp.step +
                       comp.offset;
  std::uint32_t raw = 0;
  if (f.sample_bytes == 1) {
    raw = static_cast<std::uint32_t>(*p);
  } else {
    std::uint16_t v;
    std::memcpy(&v, p, sizeof v);
    raw = v;
  }
  return (raw >> comp.shift) & ((1u << f.bits) - 1u);
}

}  // namespace

void count_plane_rows(const VideoFormat& f, const VideoPlanes& planes, std::uint32_t component, std::uint32_t y0,
                      std::uint32_t y1, PlaneCounts& out) {
  const std::uint32_t bins = out.histogram.bins;
  const std::uint32_t w = component == 0 ? f.width : f.chroma_width();
  const std::uint32_t low = shader::vhist_limited_low(f.bits);
  const std::uint32_t high = shader::vhist_limited_high(f.bits, component != 0);
  const auto slot = static_cast<Channel>(shader::vhist_plane_slot(component));
  for (std::uint32_t y = y0; y < y1; ++y) {
    for (std::uint32_t x = 0; x < w; ++x) {
      const std::uint32_t code = sample_at(f, planes, component, x, y);
      ++out.histogram.at(slot, shader::vhist_bin(code, bins, f.bits));
      out.below[static_cast<std::uint32_t>(slot)] += code < low;
      out.above[static_cast<std::uint32_t>(slot)] += code > high;
    }
  }
}

GamutCounts reference_gamut(const VideoFormat& f, const VideoPlanes& planes) {
  if (!has_planes(f)) throw std::invalid_argument("an R'G'B' frame has no Y'CbCr values to check the gamut of");
  if (auto err = check_video_format(f); !err.empty()) throw std::invalid_argument(err);
  const ConversionCoefficients k = conversion_coefficients(f.matrix, f.range, f.bits);
  GamutCounts out;
  for (std::uint32_t y = 0; y < f.height; ++y) {
    for (std::uint32_t x = 0; x < f.width; ++x) {
      const RgbUnclamped v = reference_pixel_unclamped(f, planes, k, x, y);
      const bool low = shader::vhist_gamut_low(v.r, k.max_code) || shader::vhist_gamut_low(v.g, k.max_code) ||
                       shader::vhist_gamut_low(v.b, k.max_code);
      const bool high = shader::vhist_gamut_high(v.r, k.max_code) || shader::vhist_gamut_high(v.g, k.max_code) ||
                        shader::vhist_gamut_high(v.b, k.max_code);
      out.low += low ? 1u : 0u;
      out.high += high ? 1u : 0u;
      out.out += low || high ? 1u : 0u;
    }
  }
  return out;
}

std::uint32_t plane_components(const VideoFormat& format) { return format.model == ColourModel::gray ? 1 : 3; }

PlaneCounts reference_planes(const VideoFormat& f, const VideoPlanes& planes, std::uint32_t bins) {
  if (!has_planes(f)) throw std::invalid_argument("an R'G'B' frame has no Y'CbCr planes");
  if (auto err = check_bins(bins, f.bits); !err.empty()) throw std::invalid_argument(err);
  PlaneCounts out{Histogram(bins), {}, {}};
  for (std::uint32_t c = 0; c < plane_components(f); ++c) {
    count_plane_rows(f, planes, c, 0, c == 0 ? f.height : f.chroma_height(), out);
  }
  return out;
}

std::uint64_t PlaneCounts::chroma_total() const {
  return histogram.total(kPlaneCb) + histogram.total(kPlaneCr) + 2 * chroma_unbinned;
}

RangeCheck range_check(const PlaneCounts& counts, ColourRange nominal) {
  RangeCheck out;
  const auto share = [&](std::uint32_t n, std::uint64_t total) {
    return nominal == ColourRange::limited && total != 0 ? static_cast<double>(n) / static_cast<double>(total) : 0.0;
  };
  const auto y = static_cast<std::uint32_t>(kPlaneY);
  const auto cb = static_cast<std::uint32_t>(kPlaneCb);
  const auto cr = static_cast<std::uint32_t>(kPlaneCr);
  const std::uint64_t luma = counts.histogram.total(kPlaneY);
  const std::uint64_t chroma = counts.chroma_total();
  out.luma = {share(counts.below[y], luma), share(counts.above[y], luma)};
  out.has_chroma = chroma != 0;
  out.chroma = {share(counts.below[cb] + counts.below[cr], chroma), share(counts.above[cb] + counts.above[cr], chroma)};
  if (counts.histogram.bins >= 256) {
    LumaLevels levels;
    levels.add(counts);
    out.verdict = judge_range(levels, nominal);
  }
  return out;
}

std::uint32_t light_levels(std::uint32_t bits) { return shader::vhist_light_levels(bits); }

std::optional<LightSignal> light_signal_of(ColourTransfer transfer) {
  if (transfer == ColourTransfer::smpte2084) return LightSignal::pq;
  if (transfer == ColourTransfer::arib_std_b67) return LightSignal::hlg;
  return std::nullopt;
}

namespace {

// The light level of a pixel of codes r, g, b (reference_max_rgb's).
std::uint32_t light_level(std::uint32_t r, std::uint32_t g, std::uint32_t b, std::uint32_t bits, LightSignal signal) {
  if (signal == LightSignal::hlg) return hlg_light_level(r, g, b, bits);
  return shader::vhist_bin(std::max({r, g, b}), light_levels(bits), bits);
}

}  // namespace

std::vector<std::uint32_t> reference_max_rgb(std::span<const std::byte> pixels, const FrameFormat& format,
                                             LightSignal signal) {
  if (auto err = check_format(format); !err.empty()) throw std::invalid_argument(err);
  const std::uint32_t levels = light_levels(format.bits);
  std::vector<std::uint32_t> out(levels, 0u);
  for (std::uint64_t i = 0; i < format.pixel_count(); ++i) {
    std::uint32_t r, g, b;
    if (format.packing == PixelPacking::rgba8) {
      const std::byte* p = pixels.data() + i * 4;
      r = std::to_integer<std::uint32_t>(p[0]);
      g = std::to_integer<std::uint32_t>(p[1]);
      b = std::to_integer<std::uint32_t>(p[2]);
    } else {
      std::uint16_t c[3];
      std::memcpy(c, pixels.data() + i * 8, sizeof c);
      r = c[0], g = c[1], b = c[2];
    }
    ++out[light_level(r, g, b, format.bits, signal)];
  }
  return out;
}

LightLevel pq_light_level(std::span<const std::uint32_t> max_rgb, std::uint32_t bits) {
  const auto levels = static_cast<std::uint32_t>(max_rgb.size());
  if (levels != light_levels(bits)) throw std::invalid_argument("pq_light_level needs light_levels(bits) levels");
  const std::uint32_t codes = (1u << bits) / levels;
  const double top = static_cast<double>((1u << bits) - 1);
  LightLevel out;
  double sum = 0;
  std::uint64_t total = 0;
  for (std::uint32_t level = 0; level < levels; ++level) {
    if (max_rgb[level] == 0) continue;
    const double low = static_cast<double>(level) * codes;
    out.max_cll = pq_nits((low + codes - 1) / top);
    sum += pq_nits((low + (codes - 1) / 2.0) / top) * max_rgb[level];
    total += max_rgb[level];
  }
  out.fall = total != 0 ? sum / static_cast<double>(total) : 0.0;
  return out;
}

namespace {

std::uint32_t alpha_at(const AlphaPlane& a, std::uint32_t x, std::uint32_t y) {
  const std::byte* p = a.data + std::size_t{y} * a.stride + std::size_t{x} * a.layout.step + a.layout.offset;
  std::uint32_t raw = static_cast<std::uint32_t>(p[0]);
  if (a.sample_bytes == 2) raw |= static_cast<std::uint32_t>(p[1]) << 8;
  return (raw >> a.layout.shift) & ((1u << a.bits) - 1u);
}

}  // namespace

TransparentCounts transparent_counts(const VideoFormat& format, const VideoPlanes& planes, const AlphaPlane& alpha,
                                     std::uint32_t levels, const std::optional<PixelRect>& region,
                                     LightSignal signal) {
  if (alpha.data == nullptr) throw std::invalid_argument("the frame's alpha is not available");
  const FrameFormat rgb = converted_format(format);
  const std::vector<std::byte> pixels = reference_convert(format, planes);
  TransparentCounts out{Histogram(levels), std::vector<std::uint32_t>(light_levels(rgb.bits), 0u), 0};
  const PixelRect r = region.value_or(PixelRect{0, 0, format.width, format.height});
  for (std::uint32_t y = r.y; y < r.y + r.height; ++y) {
    for (std::uint32_t x = r.x; x < r.x + r.width; ++x) {
      if (alpha_at(alpha, x, y) != 0) continue;
      const std::size_t i = std::size_t{y} * format.width + x;
      std::uint32_t c[3];
      if (rgb.packing == PixelPacking::rgba8) {
        for (int k = 0; k < 3; ++k) c[k] = std::to_integer<std::uint32_t>(pixels[i * 4 + static_cast<std::size_t>(k)]);
      } else {
        std::uint16_t v[3];
        std::memcpy(v, pixels.data() + i * 8, sizeof v);
        c[0] = v[0], c[1] = v[1], c[2] = v[2];
      }
      for (std::uint32_t k = 0; k < 3; ++k) ++out.levels.at(static_cast<Channel>(k), shader::vhist_bin(c[k], levels, rgb.bits));
      ++out.levels.at(Channel::l, shader::vhist_bin(shader::vhist_luma(c[0], c[1], c[2]), levels, rgb.bits));
      ++out.light[light_level(c[0], c[1], c[2], rgb.bits, signal)];
      ++out.pixels;
    }
  }
  return out;
}

}  // namespace vhist
