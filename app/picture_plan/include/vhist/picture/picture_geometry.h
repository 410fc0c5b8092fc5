// Where things go in the picture, in plain numbers (no Vulkan): the histogram quads of a layout,
// the video's cover fit and the palettes' colours. The compute composite and the tests use
// them.
#pragma once

#include "vhist/picture/draw_style.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace vhist::viewer {

// The picture's rectangle in a target of width x height pixels (x0, y0, x1, y1): style.area
// rounded to whole pixels and clipped to the target; all zero (or empty): the whole target.
std::array<float, 4> picture_area(const DrawStyle& style, float width, float height);
// The smallest text on the picture: one pixel per font pixel, so a glyph of the 5x7 font
// (font_shared.h) is kMinGlyphHeight = 7 pixels tall (its cap height), at every window size.
inline constexpr float kMinTextScale = 1.0f;
inline constexpr int kMinGlyphHeight = 7;
// Pixels per font pixel of the text on the picture: style.ui_scale to the nearest eighth
// (shader::kTextScaleUnit), at least kMinTextScale. Not a whole number in general: the glyphs'
// pixels are then 1 or 2 pixels wide in turn, and text grows smoothly with the window.
float text_scale(const DrawStyle& style);
// The width of lines on the picture (axis, ticks, guides, markers) at text scale s: s rounded,
// at least one pixel, so a line is always whole pixels.
float line_width(float s);
// DrawStyle::ui_scale for a picture area `area_height` target pixels tall on a screen whose
// content scale is `content_scale`: one font pixel per 720 target pixels of height, so a glyph
// is 7 pixels tall at 720 and below, 10.5 at 1080 and 21 at 2160 (1% of the height; no steps),
// and never less than the content scale (a HiDPI screen's text keeps its physical size).
float picture_ui_scale(float content_scale, float area_height);

// Rectangles in window pixels (x0, y0, x1, y1) and the channels each histogram quad draws.
// `rect` is the whole panel (its background); `bars` the part the bars fill: below a header
// strip (the scale label and legend) and above an axis strip (axis, ticks, code values), each
// kept only where the panel is tall enough (header and axis: 3x their height; axis alone: 3x
// its height); without strips, bars == rect.
struct HistogramQuad {
  std::array<float, 4> rect{};
  std::array<std::uint32_t, 4> channel_mult{};
  std::array<float, 4> bars{};
  bool header = false, axis = false;
};
// Heights of the strips in pixels at text scale s.
inline float header_height(float s) { return std::round(10.0f * s); }
inline float axis_height(float s) { return std::round(13.0f * s); }
// The quads of style.layout inside picture_area(style, width, height) (fractions of the area).
std::vector<HistogramQuad> layout_quads(const DrawStyle& style, float width, float height);

// A window point over a histogram panel: which quad, its channels, the bin under the point
// (from the bars' left edge, at `bins` bins) and the codes that bin holds at `bits` bits.
struct BinHit {
  std::size_t quad = 0;
  std::array<std::uint32_t, 4> channel_mult{};
  std::uint32_t bin = 0, code_lo = 0, code_hi = 0;
};
// The bin under window point (x, y) of a target of width x height pixels: anywhere in a panel
// (its axis and header strips included) within the bars' left and right edges; none elsewhere.
// `bins` as drawn (a power of two, at most 2^bits).
std::optional<BinHit> hit_bin(const DrawStyle& style, float width, float height, float x, float y, std::uint32_t bins,
                              std::uint32_t bits);
// Which end's clip marker corner (clip_shared.h) holds window point (x, y): the top left of a
// panel's bars (the lowest code; false) or its top right (the highest; true), within the largest
// marker's legs; none elsewhere.
std::optional<bool> clip_corner_at(const DrawStyle& style, float width, float height, float x, float y);
// The hover readout's line for a clip marker: the share of `pixels` at the lowest (`high` false)
// or highest level of `levels` (one level per code up to 10 bits) for each channel whose
// channel_mult is set: "at code 0:  R 3.95%  B 0.00%", "at the top code:  L 0.01%".
std::string clip_share_text(const Histogram& levels, std::uint64_t pixels, const std::array<std::uint32_t, 4>& channel_mult,
                            bool high);
// The articles' cover scale: the video quad spans [-sx, sx] x [-sy, sy] in clip space, so the
// video fills the window and keeps its aspect ratio (the overflow is cropped). FitMode::cover's
// scale; place_video() (video_fit.h) places the video in every mode.
std::array<float, 2> cover_scale(float window_w, float window_h, float video_w, float video_h);

// How a frame is shown: rotation (degrees clockwise to upright), the size it is shown at
// (VideoFormat::display_width/height) and the size it is stored at.
struct PictureShape {
  std::uint32_t rotation = 0;
  float shown_w = 1, shown_h = 1;
  std::uint32_t stored_w = 1, stored_h = 1;
};
// The stored pixel (column, row) drawn at target point (x, y) of a width x height target, with
// the video placed in picture_area() by style.fit (video_fit.h) as the shaders draw it
// (stored_uv.glsl); none outside the area or on a letterbox bar (outside the video).
std::optional<std::array<std::uint32_t, 2>> stored_pixel_at(const DrawStyle& style, float width, float height,
                                                            const PictureShape& shape, float x, float y);
// The target rectangle (x0, y0, x1, y1) that the stored pixels of `rect` cover, drawn as
// stored_pixel_at() maps them (it may reach past the picture area, where cover or 1:1 crops).
std::array<float, 4> target_rect_of(const DrawStyle& style, float width, float height, const PictureShape& shape,
                                    const PixelRect& rect);
// The palette's 16 colours (RGBA) by channel mask (R 1, G 2, B 4, L 8).
std::array<std::array<float, 4>, 16> palette_colours(Palette palette);

}  // namespace vhist::viewer
