// What is drawn over each histogram panel besides the bars, laid out in target pixels on the CPU
// (plain C++, no Vulkan) and drawn by overlay.glsl in the composite: a horizontal axis under
// the bars with ticks and code values in the source's codes (0..255 at 8 bits, 0..1023 at 10),
// optional legal-range guides, a legend of the channels drawn in their palette colours, and
// the scale mode with the count a full-height bar means (read by the GPU from the scale buffer).
// Text is the 5x7 font of font_shared.h at text_scale(style) pixels per font pixel.
#pragma once

#include "vhist/picture/draw_style.h"
#include "vhist/picture/picture_geometry.h"

#include "vhist/draw_shared.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace vhist::viewer {

// Colours of the overlay (RGB, 0..1).
inline constexpr std::array<float, 3> kOverlayText{0.8f, 0.8f, 0.8f};  // 204 of 255, exactly
inline constexpr std::array<float, 3> kOverlayLegalGuide{1.0f, 0.75f, 0.2f};
inline constexpr std::array<float, 3> kOverlayRangeGuide{0.55f, 0.55f, 0.55f};
// The legend's letters: each channel's palette colour this far towards white.
inline constexpr float kLegendLighten = 0.4f;

// The codes labelled on the axis of bars `bars_width` pixels wide at `bits` bits: 0, a quarter,
// a half, three quarters and the top code (0, 64, 128, 192, 255 at 8 bits); 0, half and top
// where five labels would not fit with two characters' room between them; 0 and top below that.
std::vector<std::uint32_t> axis_codes(std::uint32_t bits, float bars_width, float scale);
// The guides' codes at `bits` bits: the full-range ends 0 and 2^bits - 1, and the legal range
// of 8-bit video, 16 and 235, scaled to the depth (64 and 940 at 10 bits).
std::array<std::uint32_t, 4> guide_codes(std::uint32_t bits);
// The x of the left edge of the one-pixel column at the centre of `code` in bars (x0, .., x1, ..).
float code_x(const std::array<float, 4>& bars, std::uint32_t code, std::uint32_t bits);
// The scale label's words before the count, e.g. "auto  max ".
std::string_view scale_words(ScaleMode mode);
// n with thousands commas: 12345 -> "12,345". The shader writes the count the same way.
std::string count_text(std::uint64_t n);
// Width in pixels of `chars` characters at scale s.
float text_width(std::size_t chars, float s);
// `text` at (x, y), its top-left corner, at text scale s: one glyph item of the 5x7 font
// (font_shared.h) per character, each starting on a whole pixel so that every glyph of a size
// looks the same. Spaces draw nothing; so would a character the font lacks (text_drawable says;
// a test checks every label and title the overlay draws).
void add_text(std::vector<shader::OverlayItem>& out, float x, float y, float s, const std::array<float, 3>& colour,
              std::string_view text);
// Whether the font has a glyph for every character of `text` but spaces.
bool text_drawable(std::string_view text);
// The characters reserved for the count (up to 4,294,967,295).
inline constexpr std::size_t kCountChars = 13;

// What the overlay needs of the frame.
struct OverlayInput {
  std::uint32_t bits = 8;
  std::uint32_t bins = 256;     // as drawn
  std::uint64_t pixels = 0;     // of the frame
};

// Every panel's items, one after the other; panel i's are items[first[i] .. first[i] + count[i]),
// in drawing order (the last that covers a pixel wins): its guides, its axis, its header.
// overlay_grid() arranges them for the shaders.
struct OverlayItems {
  std::vector<shader::OverlayItem> items;
  std::vector<std::uint32_t> first, count;
};
// The items of `quads` (layout_quads(style, ...)) for a frame of `input`.
OverlayItems overlay_items(const DrawStyle& style, const std::vector<HistogramQuad>& quads, const OverlayInput& input);

}  // namespace vhist::viewer
