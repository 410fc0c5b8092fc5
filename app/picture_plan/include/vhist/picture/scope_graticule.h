// The scopes' graticules laid out as overlay items (the kinds picture_overlay.h draws: solid
// rects and glyphs of the 5x7 font) in target pixels over a scope's plot rectangle: the
// waveform's level lines and labels, the vectorscope's colour-bar target boxes, skin-tone line,
// legal limits and centre cross. Lines are line_width(s) pixels (s = text_scale at the style's
// ui_scale), text is drawn at s, and labels that would overlap a kept one or leave the plot are
// left out, so the graticule reads at every window size (640x360 up to 4K with ui_scale). Plain
// C++, no Vulkan, any thread; the numbers come from scope_scale.h.
#pragma once

#include "vhist/picture/scope_scale.h"

#include "vhist/draw_shared.h"

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace vhist::viewer {

// Colours of the scopes' graticules (RGB, 0..1); text and guides as the histograms' overlay.
inline constexpr std::array<float, 3> kScopeMinorLine{0.35f, 0.35f, 0.35f};
inline constexpr std::array<float, 3> kScopeMajorLine{0.55f, 0.55f, 0.55f};
inline constexpr std::array<float, 3> kScopeReferenceWhite{0.45f, 0.75f, 1.0f};
inline constexpr std::array<float, 3> kScopeLegal{1.0f, 0.75f, 0.2f};  // the histograms' legal guides' amber
inline constexpr std::array<float, 3> kScopeSkinTone{0.85f, 0.6f, 0.45f};

// A label as laid out: its text and top-left corner; kept says whether it is drawn.
struct ScopeLabel {
  std::string text;
  float x = 0, y = 0;
  bool kept = false;
};

struct WaveformGraticuleInput {
  LevelSource source;
  LevelUnits units = LevelUnits::percent;
  bool legal = false;               // the EBU R 103 lines
  std::array<float, 4> plot{};      // target pixels (x0, y0, x1, y1): codes 0 .. 2^bits - 1 bottom to top
  float ui_scale = 1.0f;            // DrawStyle::ui_scale
  bool labels = true;               // false: lines only (the second and third plots of a parade)
};
// The y (top row) of the line at `code` in `plot` (bottom = code 0), as code_x does for x: the
// pixel row holding the code's centre, for a line `lw` pixels thick centred on it.
float level_y(const std::array<float, 4>& plot, double code, std::uint32_t bits, float lw);
// The waveform graticule's items: a horizontal line across the plot per level of
// waveform_levels() (minor lines are left out where levels come closer than 3 line widths), and
// its label just above the line (below it where it would leave the plot): at the plot's left edge,
// the legal and reference white ones at its right edge. Labels are placed in priority order
// (legal, reference white, major, minor; then bottom to top) and left out where they would
// overlap one already placed; the lines come first in the items (legal ones last), the labels
// after them all. `labels_out`, when given, gets every label with where it went.
std::vector<shader::OverlayItem> waveform_graticule(const WaveformGraticuleInput& in,
                                                    std::vector<ScopeLabel>* labels_out = nullptr);

struct VectorscopeGraticuleInput {
  ChromaSource source;
  float zoom = 1.0f;                // kVectorscopeZooms
  bool targets75 = true, targets100 = true;
  bool skin_tone = true;
  bool legal = true;                // the legal chroma box and the R'G'B' gamut hexagon
  std::array<float, 4> plot{};      // target pixels; the scope is its centred square
  float ui_scale = 1.0f;
};
// The vectorscope graticule's items, clipped to the square: a centre cross, each bar's target
// boxes (outlines; the 75 % and 100 % ones) in the bar's colour lightened, its label beside the
// 100 % box (away from the centre), the skin-tone line from the centre to the square's edge,
// the legal chroma box and the gamut hexagon (amber). Slanted lines are runs of whole-pixel
// rects. `labels_out` as for the waveform.
std::vector<shader::OverlayItem> vectorscope_graticule(const VectorscopeGraticuleInput& in,
                                                       std::vector<ScopeLabel>* labels_out = nullptr);

// The slanted line from a to b `lw` pixels thick as solid rects, clipped to `clip`: the pixels of
// a 1-pixel line at 1/lw of the resolution, scaled up (its position snapped to multiples of lw
// across the line), one rect per run of them.
void add_segment(std::vector<shader::OverlayItem>& out, std::array<float, 2> a, std::array<float, 2> b, float lw,
                 const std::array<float, 3>& colour, const std::array<float, 4>& clip);

}  // namespace vhist::viewer
