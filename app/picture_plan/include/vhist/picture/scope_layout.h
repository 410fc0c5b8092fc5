// Where the scopes go in the picture (issue 26), in plain numbers (no Vulkan): the panels of the
// waveform, the parade and the vectorscope from the picture's area and DrawStyle::scope_place,
// and the area left to the video and the histograms. Beside (a column at the right) and under (a
// row at the bottom) take their room from the video and the histograms, so that what reads
// DrawStyle::area (hit tests, the region, the hover) keeps working; over lays the panels on the
// video's top like the histograms at its bottom. Also the counts each panel asks for: the
// waveform's plot width (one plot column per pixel column of its plot) and levels, the
// vectorscope's grid. The frame renderer draws them (frame_renderer_scopes.cpp).
#pragma once

#include "vhist/picture/draw_style.h"

#include "vhist/compute/scope_counts.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace vhist::viewer {

enum class ScopeKind { waveform, parade, vectorscope };

// One scope's panel, target pixels (x0, y0, x1, y1): `rect` its background, `title` the strip
// of its label line at the top, `plot` where its counts are drawn. A parade's plot holds its
// three parts side by side, `part` pixels wide with `gap` pixels between them.
struct ScopePanel {
  ScopeKind kind = ScopeKind::waveform;
  std::array<float, 4> rect{}, title{}, plot{};
  float part = 0, gap = 0;
  bool operator==(const ScopePanel&) const = default;
};

struct ScopeLayout {
  std::array<float, 4> picture{};  // what the video and the histograms get
  std::vector<ScopePanel> panels;  // waveform, parade, vectorscope (those shown), in that order
};

// Whether any scope is shown.
inline bool any_scope(const PictureOptions& o) { return o.waveform || o.parade || o.vectorscope; }

// The panels in `area` (target pixels, whole) for the scopes `style` shows at its text scale.
// Beside: a column 32 % of the width, the panels one above the other in equal heights; under: a
// row 32 % of the height, the vectorscope a square at its right end, the others sharing the rest;
// over: that row at the top of the area, the picture left whole; DrawStyle::scopes_only: that row
// is the whole area (and the picture, drawing nothing, left whole under it). Every rect is whole pixels and
// panels do not overlap each other or the picture (beside, under).
ScopeLayout scope_layout(const DrawStyle& style, const std::array<float, 4>& area);

// `style` with its scopes laid out in a width x height target: DrawStyle::scope_area set to the
// area shared by the picture and the scopes (once: a style that has it keeps it) and
// DrawStyle::area to what the video and histograms get. The viewer and the renderer both call it.
DrawStyle with_scope_layout(const DrawStyle& style, float width, float height);
// The scopes' panels of a style with_scope_layout() returned (none before).
std::vector<ScopePanel> scope_panels(const DrawStyle& style);

// The waveform counts a panel asks for: the plot's (a parade part's) width in plot columns and
// levels = the plot's height rounded up to a power of two, within 16 .. max_bins_for_bits(bits).
std::uint32_t scope_plot_width(const ScopePanel& panel);
std::uint32_t scope_levels(const ScopePanel& panel, std::uint32_t bits);
// The vectorscope's grid: the square's side times the zoom, rounded up to a power of two, within
// 16 .. max_bins_for_bits(bits).
std::uint32_t vectorscope_grid(const ScopePanel& panel, float zoom, std::uint32_t bits);
float zoom_value(ScopeZoom zoom);  // 1, 2, 5

// What a waveform or parade panel counts for a frame: the waveform's view (luma or rgb), the
// parade's rgb or, for a frame with planes, ycbcr.
WaveformMode panel_mode(const DrawStyle& style, ScopeKind kind, bool frame_has_planes);
// The label line: "Waveform  luma  1 plot column = 4 picture columns", "Parade  Y'CbCr planes
// ...", "Parade  R'G'B' (no Y'CbCr planes: R'G'B' source)", "Vectorscope  BT.709  x2"; with
// `split` (the split view), "  left: original, right: equalized" (or matched) after it.
std::string scope_title(const DrawStyle& style, ScopeKind kind, WaveformMode mode, std::uint32_t run,
                        ColourMatrix matrix, bool frame_has_planes, bool split = false);
// A title in at most `chars` characters: its whole parts (two spaces apart) while they fit; where
// not even the first does, its first chars - 1 characters and a full stop ("Vectors."), so that a
// cut word reads as cut; nothing below 2 characters.
std::string fit_title(std::string text, std::size_t chars);

}  // namespace vhist::viewer
