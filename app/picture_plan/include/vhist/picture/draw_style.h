// What the picture looks like: the histogram's scale, layout, palette, cumulative curves and the
// equalization, as the frame renderer draws them. Plain values, no Vulkan.
#pragma once

#include "vhist/picture/picture_modes.h"
#include "vhist/picture/picture_options.h"

#include "vhist/compute/cdf.h"
#include "vhist/compute/region.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>

namespace vhist::viewer {

// How a PQ or HLG source's picture is shown on the SDR target (hdr_display_shared.h): tone-mapped
// for display only, or its codes as they are. The histograms and marks count codes either way.
struct HdrDisplay {
  LightScale mapped = LightScale::none;  // pq or hlg: tone-mapped; none: the codes as they are
  float source_peak = 1000.0f;           // cd/m2: PQ, the mastering display's peak (else 1000); HLG, 1000
  float target = 203.0f;                 // cd/m2 shown as SDR white (BT.2408's HDR reference white)
};

// What one tick draws: the picture's options (picture_options.h, the viewer's settings) and what
// this tick adds (where, the frame's light and planes, the pointer's marks). frame_style() in the
// viewer fills the second part; some options are resolved for the frame there too (`equalize`:
// off for the Y'CbCr planes, channels while matching).
struct DrawStyle : PictureOptions {
  // The options' defaults, but for the fit: cover, as the headless picture and the benchmarks
  // draw it (the viewer passes its own options, whose default fit is FitMode::automatic).
  DrawStyle() { fit = FitMode::cover; }
  explicit DrawStyle(const PictureOptions& options) : PictureOptions(options) {}

  bool video = true;  // draw the video (false: the histograms over black)
  // Where the picture (video and histograms) goes in the target, in target pixels (x0, y0, x1,
  // y1); all zero: the whole target. The rest of the target is left clear (the UI's side).
  std::array<float, 4> area{};
  // The area the picture and the scopes share (scope_layout.h's with_scope_layout() sets it and
  // shrinks `area` to the picture's part); all zero: not laid out yet.
  std::array<float, 4> scope_area{};
  // The scopes shown fill the whole area side by side (scope_layout()), whatever scope_place says,
  // and no histogram is drawn (layout_quads() has none; `channels` choose the scopes' components):
  // `vhist scope`'s PNG, which draws nothing else (and no video: `video` false).
  bool scopes_only = false;
  // With FitMode::actual, how far the video is moved from the area's centre (target pixels; held
  // so that no gap opens at an edge).
  std::array<float, 2> pan{};
  float ui_scale = 1.0f;  // text and line sizes on the picture: the window's content scale (HiDPI)
  // The axis labelled in light (cd/m2) for a PQ or HLG source (light_scale.h); none: code values.
  LightScale light = LightScale::none;
  HdrDisplay hdr;  // the picture of a PQ or HLG source (display only; `tone_map` chose it)
  // The histograms count the frame's Y'CbCr planes (`domain` ycbcr, for a frame that has them).
  bool ycbcr = false;
  float zebra_phase = 0.0f;  // pixels: moves the zebra stripes
  // The histogram range under the pointer (kMarkRange): pixels with a code of one of these
  // channels (R 1, G 2, B 4, L 8) in [range_low, range_high] keep their colour, the rest are
  // dimmed. 0: none.
  std::uint32_t range_mask = 0, range_low = 0, range_high = 0;
  // Markers on the histograms: a pixel's code per channel (R, G, B, L; in the Y'CbCr domain the
  // slots' planes), drawn as a line at its bin in the panels showing the channel; -1: none.
  std::array<std::int32_t, 4> markers{-1, -1, -1, -1};
  // The region of interest, in stored pixels: the histograms, statistics, CDF and equalization
  // table describe its pixels only (the R'G'B' domain; one outside the frame counts the whole).
  std::optional<PixelRect> region;
  // A reference histogram (any power of two of bins, any pixel count): drawn as an outline over
  // the live bars of the channels drawn, at their scale; with `match`, the picture transform
  // (`equalize`, then EqualizeMode::channels) maps each channel so its histogram matches it.
  std::shared_ptr<const Histogram> reference;
  bool match = false;
};

// The exposure marks of a style (kMark* bits) and its thresholds as codes of `bits` bits.
std::uint32_t exposure_marks(const DrawStyle& style);
std::uint32_t zebra_code(float percent, std::uint32_t bits);
// The first luma codes of false-colour bands 1 to 8 at `bits` bits, for the shaders' band_of():
// vhist_band_of's thresholds, or for a PQ or HLG source those of light (hdr_band_codes).
std::array<std::uint32_t, 8> band_codes(std::uint32_t bits, LightScale light = LightScale::none);

// The name of histogram slot c (0..3) as drawn: R, G, B, L; or with ycbcr Cr, (none), Cb, Y'.
inline const char* channel_label(std::size_t c, bool ycbcr) {
  static constexpr const char* kRgb[] = {"R", "G", "B", "L"};
  static constexpr const char* kYcbcr[] = {"Cr", "", "Cb", "Y'"};
  return (ycbcr ? kYcbcr : kRgb)[c & 3];
}

// Channel bits (1 << c) of the drawn channels whose cumulative histogram is drawn in `mode`.
std::uint32_t cdf_mask(const DrawStyle& style, CdfMode mode);
// Whether the style needs the prefix sum of the statistics histogram: a cumulative histogram
// drawn, or the picture equalized (the table comes from the prefix sum).
bool needs_cdf(const DrawStyle& style);

}  // namespace vhist::viewer
