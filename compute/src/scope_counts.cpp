#include "vhist/compute/scope_counts.h"

#include "vhist/compute/histogram_types.h"

#include <cstdlib>

namespace vhist {

namespace {

// `what` names the level count in the message ("waveform levels").
std::string check_common(const VideoFormat& format, const std::optional<PixelRect>& region, std::uint32_t levels,
                         const std::string& what) {
  if (auto err = check_video_format(format); !err.empty()) return err;
  if (format.rotation % 90 != 0 || format.rotation >= 360) {
    return "the frame's rotation must be 0, 90, 180 or 270 degrees (got " + std::to_string(format.rotation) + ")";
  }
  if (region) {
    if (auto err = check_rect(*region, format.width, format.height); !err.empty()) return "region: " + err;
  }
  const std::string err = check_bins(levels, format.bits);  // "bins must be a power of two ..."
  return err.empty() ? err : what + err.substr(4);
}

// Kr and Kb of the matrix, in units of 1/10000 (docs/colour.md's table).
std::array<std::int64_t, 2> matrix_k(ColourMatrix m) {
  if (m == ColourMatrix::bt601) return {2990, 1140};
  if (m == ColourMatrix::bt2020) return {2627, 593};
  return {2126, 722};
}

// num / den rounded to nearest, halves away from zero (den > 0).
std::int32_t round_ratio(std::int64_t num, std::int64_t den) {
  const std::int64_t q = (2 * std::llabs(num) + den) / (2 * den);
  return static_cast<std::int32_t>(num < 0 ? -q : q);
}

}  // namespace

std::string_view waveform_mode_name(WaveformMode m) {
  switch (m) {
    case WaveformMode::luma: return "luma";
    case WaveformMode::rgb: return "rgb";
    case WaveformMode::ycbcr: return "ycbcr";
  }
  return "?";
}

std::uint32_t waveform_components(WaveformMode m) { return m == WaveformMode::luma ? 1u : 3u; }

PixelRect scope_region(const VideoFormat& format, const std::optional<PixelRect>& region) {
  return region.value_or(PixelRect{0, 0, format.width, format.height});
}

std::uint32_t display_columns(const VideoFormat& format, const PixelRect& region) {
  return format.rotation == 90 || format.rotation == 270 ? region.height : region.width;
}

WaveformShape waveform_shape(std::uint32_t columns, std::uint32_t plot_width) {
  if (columns == 0 || plot_width == 0) return {columns, 0, 0};
  const std::uint32_t run = (columns + plot_width - 1) / plot_width;
  return {columns, run, (columns + run - 1) / run};
}

std::string check_waveform(const VideoFormat& format, const WaveformRequest& request) {
  if (auto err = check_common(format, request.region, request.levels, "waveform levels"); !err.empty()) return err;
  if (request.plot_width == 0 || request.plot_width > kMaxPlotWidth) {
    return "the waveform's plot width must be 1 to " + std::to_string(kMaxPlotWidth) + " columns (got " +
           std::to_string(request.plot_width) + ")";
  }
  if (request.mode == WaveformMode::ycbcr && format.model != ColourModel::yuv) {
    return "the Y'CbCr waveform needs Y'CbCr planes; the frame is " + std::string(model_name(format.model)) + " (" +
           format.pixel_format + "): use the luma or RGB waveform";
  }
  return {};
}

WaveformCounts empty_waveform(const VideoFormat& format, const WaveformRequest& request) {
  WaveformCounts out;
  out.mode = request.mode;
  out.components = waveform_components(request.mode);
  out.levels = request.levels;
  out.shape = waveform_shape(display_columns(format, scope_region(format, request.region)), request.plot_width);
  out.counts.assign(std::size_t{out.components} * out.shape.plot_columns * out.levels, 0);
  return out;
}

std::string check_vectorscope(const VideoFormat& format, const VectorscopeRequest& request) {
  return check_common(format, request.region, request.size, "the vectorscope's size");
}

bool vectorscope_from_planes(const VideoFormat& format) { return format.model == ColourModel::yuv; }

PixelRect vectorscope_samples(const VideoFormat& format, const PixelRect& r) {
  if (!vectorscope_from_planes(format)) return r;
  const std::uint32_t sx = format.chroma_shift_x, sy = format.chroma_shift_y;
  const std::uint32_t x0 = r.x >> sx, y0 = r.y >> sy;
  return {x0, y0, ((r.x + r.width - 1) >> sx) - x0 + 1, ((r.y + r.height - 1) >> sy) - y0 + 1};
}

ChromaFromRgb chroma_from_rgb(ColourMatrix matrix, ColourRange range, std::uint32_t bits) {
  const auto [kr, kb] = matrix_k(matrix);
  const std::int64_t kg = 10000 - kr - kb;
  const std::int64_t m = (std::int64_t{1} << bits) - 1;
  const std::int64_t s = range == ColourRange::full ? m : std::int64_t{224} << (bits - 8);
  // -2^14 S K / (2 M (1 - K')) with K in 1/10000: -2^13 S k / (M (10000 - k')).
  const auto coefficient = [&](std::int64_t k, std::int64_t k_other) {
    return round_ratio(-(std::int64_t{1} << 13) * s * k, m * (10000 - k_other));
  };
  ChromaFromRgb out;
  out.cb[0] = coefficient(kr, kb);
  out.cb[1] = coefficient(kg, kb);
  out.cb[2] = -out.cb[0] - out.cb[1];
  out.cr[1] = coefficient(kg, kr);
  out.cr[2] = coefficient(kb, kr);
  out.cr[0] = -out.cr[1] - out.cr[2];
  out.zero = std::int32_t{1} << (bits - 1);
  out.max_code = static_cast<std::int32_t>(m);
  return out;
}

}  // namespace vhist
