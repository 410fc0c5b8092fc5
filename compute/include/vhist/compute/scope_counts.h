// The scopes' counts, defined without Vulkan: what the waveform and the vectorscope count, their
// geometry and buffer layout, and the checks of a request. The GPU passes (scope_pass.h), the CPU
// engine (CpuEngine::waveform, ::vectorscope) and the CPU reference (scope_reference.h) all give
// these counts, equal bit for bit. docs/architecture.md ("Scope counts") has the definitions.
#pragma once

#include "vhist/compute/region.h"
#include "vhist/compute/video_frame.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vhist {

// What a waveform counts: luma (the histograms' L of the converted R'G'B'), R', G' and B' of the
// converted frame (parade and overlay share them), or the stored Y', Cb and Cr planes.
enum class WaveformMode : std::uint32_t { luma = 0, rgb = 1, ycbcr = 2 };
std::string_view waveform_mode_name(WaveformMode m);  // "luma", "rgb", "ycbcr"
std::uint32_t waveform_components(WaveformMode m);    // 1, 3, 3

// The stored-pixel rectangle the scopes count: `region`, or the whole frame without one.
PixelRect scope_region(const VideoFormat& format, const std::optional<PixelRect>& region);
// Display columns of `region` shown as the frame's rotation says: its width for 0 and 180
// degrees, its height for 90 and 270. The sample aspect ratio does not change them.
std::uint32_t display_columns(const VideoFormat& format, const PixelRect& region);

// How picture columns are binned to a plot `plot_width` wide: each plot column sums `run`
// consecutive display columns, run = ceil(columns / plot_width); plot_columns = ceil(columns /
// run) <= plot_width are used (the last may sum fewer).
struct WaveformShape {
  std::uint32_t columns = 0;
  std::uint32_t run = 0;
  std::uint32_t plot_columns = 0;
  bool operator==(const WaveformShape&) const = default;
};
WaveformShape waveform_shape(std::uint32_t columns, std::uint32_t plot_width);

// Largest plot width accepted.
inline constexpr std::uint32_t kMaxPlotWidth = 16384;

struct WaveformRequest {
  WaveformMode mode = WaveformMode::luma;
  std::uint32_t levels = 256;      // a power of two, 16 .. max_bins_for_bits(bits): level = code >> (bits - log2 levels)
  std::uint32_t plot_width = 256;  // 1 .. kMaxPlotWidth
  std::optional<PixelRect> region;
};
// Empty when a frame of `format` can be counted so; else what is wrong.
std::string check_waveform(const VideoFormat& format, const WaveformRequest& request);

// counts[(component * plot_columns + plot column) * levels + level]: the samples of that
// component in that plot column at that level. Components: luma: L; rgb: R', G', B'; ycbcr:
// Y', Cb, Cr (chroma at its own grid, each sample in the plot column of its first luma pixel
// inside the region).
struct WaveformCounts {
  WaveformMode mode = WaveformMode::luma;
  std::uint32_t components = 0;
  std::uint32_t levels = 0;
  WaveformShape shape;
  std::vector<std::uint32_t> counts;

  std::uint32_t at(std::uint32_t component, std::uint32_t column, std::uint32_t level) const {
    return counts[(std::size_t{component} * shape.plot_columns + column) * levels + level];
  }
  bool operator==(const WaveformCounts&) const = default;
};
// An all-zero result of the request's size (check_waveform must pass).
WaveformCounts empty_waveform(const VideoFormat& format, const WaveformRequest& request);

struct VectorscopeRequest {
  std::uint32_t size = 256;  // N: an N x N grid, a power of two, 16 .. max_bins_for_bits(bits)
  std::optional<PixelRect> region;
};
std::string check_vectorscope(const VideoFormat& format, const VectorscopeRequest& request);

// Whether the vectorscope reads the stored Cb, Cr planes (Y'CbCr frames) or computes Cb, Cr
// from the converted R'G'B' (R'G'B' and gray frames) with chroma_from_rgb().
bool vectorscope_from_planes(const VideoFormat& format);
// The samples the vectorscope counts, on the grid it reads: the chroma samples of the region
// (columns x0 >> sx .. (x0 + w - 1) >> sx, rows likewise) from planes, else the region.
PixelRect vectorscope_samples(const VideoFormat& format, const PixelRect& region);

// counts[Cr level * size + Cb level], level = code >> (bits - log2 size).
struct VectorscopeCounts {
  std::uint32_t size = 0;
  bool from_planes = false;
  std::vector<std::uint32_t> counts;
  std::uint32_t at(std::uint32_t cr, std::uint32_t cb) const { return counts[std::size_t{cr} * size + cb]; }
  bool operator==(const VectorscopeCounts&) const = default;
};

// Cb and Cr from full-range R'G'B' codes of `bits` bits, in `range`'s chroma codes:
//   Cb = clamp(zero + ((cb[0] R' + cb[1] G' + cb[2] B' + 2^13) >> 14), 0, 2^bits - 1), Cr alike,
// with cb[0] = round(-2^14 S Kr / (2 M (1 - Kb))), cb[1] = round(-2^14 S Kg / (2 M (1 - Kb))),
// cb[2] = -cb[0] - cb[1]; cr[1] = round(-2^14 S Kg / (2 M (1 - Kr))), cr[2] = round(-2^14 S Kb /
// (2 M (1 - Kr))), cr[0] = -cr[1] - cr[2]; M = 2^bits - 1, S the chroma span (M full, 224 *
// 2^(bits-8) limited), zero = 2^(bits-1), Kr, Kb the matrix's (docs/colour.md), each round()
// of the exact rational, halves away from zero.
struct ChromaFromRgb {
  std::array<std::int32_t, 3> cb{}, cr{};
  std::int32_t zero = 0, max_code = 0;
  bool operator==(const ChromaFromRgb&) const = default;
};
ChromaFromRgb chroma_from_rgb(ColourMatrix matrix, ColourRange range, std::uint32_t bits);

}  // namespace vhist
