#include "vhist/picture/scope_layout.h"

#include "vhist/picture/picture_geometry.h"
#include "vhist/picture/scope_scale.h"

#include "vhist/compute/histogram_types.h"

#include <algorithm>
#include <cmath>

namespace vhist::viewer {

namespace {

using Rect = std::array<float, 4>;

constexpr float kScopeShare = 0.32f;  // of the width (beside) or the height (under, over)

std::vector<ScopeKind> shown(const PictureOptions& o) {
  std::vector<ScopeKind> kinds;
  if (o.waveform) kinds.push_back(ScopeKind::waveform);
  if (o.parade) kinds.push_back(ScopeKind::parade);
  if (o.vectorscope) kinds.push_back(ScopeKind::vectorscope);
  return kinds;
}

// A panel in `r`: a margin of a line width round it, the title strip at the top, the plot below
// it inset by the margin; a parade's plot split in three.
ScopePanel panel_in(ScopeKind kind, const Rect& r, float s) {
  ScopePanel p;
  p.kind = kind;
  const float m = std::max(1.0f, std::round(2 * s)), title = header_height(s) + m;
  p.rect = {r[0] + m, r[1] + m, r[2] - m, r[3] - m};
  p.title = {p.rect[0], p.rect[1], p.rect[2], std::min(p.rect[1] + title, p.rect[3])};
  p.plot = {p.rect[0] + m, p.title[3], p.rect[2] - m, p.rect[3] - m};
  for (float& v : p.plot) v = std::round(v);
  p.plot[2] = std::max(p.plot[2], p.plot[0]);
  p.plot[3] = std::max(p.plot[3], p.plot[1]);
  if (kind == ScopeKind::parade) {
    p.gap = std::max(2.0f, std::round(3 * s));
    p.part = std::max(0.0f, std::floor((p.plot[2] - p.plot[0] - 2 * p.gap) / 3));
    p.plot[2] = p.plot[0] + 3 * p.part + 2 * p.gap;
  }
  return p;
}

// The kinds side by side in `row`, the vectorscope a square at the right end.
void lay_row(const std::vector<ScopeKind>& kinds, const Rect& row, float s, std::vector<ScopePanel>& out) {
  const float h = row[3] - row[1], w = row[2] - row[0];
  const bool vector = kinds.back() == ScopeKind::vectorscope;
  const std::size_t others = kinds.size() - (vector ? 1 : 0);
  const float vector_w = vector ? (others == 0 ? w : std::min(h, w / 2)) : 0;
  const float each = others == 0 ? 0 : std::floor((w - vector_w) / static_cast<float>(others));
  float x = row[0];
  for (std::size_t i = 0; i < others; ++i, x += each) out.push_back(panel_in(kinds[i], {x, row[1], x + each, row[3]}, s));
  if (vector) out.push_back(panel_in(ScopeKind::vectorscope, {row[2] - vector_w, row[1], row[2], row[3]}, s));
}

}  // namespace

ScopeLayout scope_layout(const DrawStyle& style, const Rect& area) {
  ScopeLayout out;
  out.picture = area;
  const auto kinds = shown(style);
  if (kinds.empty()) return out;
  const float s = text_scale(style);
  const float w = area[2] - area[0], h = area[3] - area[1];
  if (style.scopes_only) {
    lay_row(kinds, area, s, out.panels);
    return out;
  }
  switch (style.scope_place) {
    case ScopePlace::beside: {
      const float x0 = area[2] - std::round(kScopeShare * w);
      out.picture[2] = x0;
      const float each = std::floor(h / static_cast<float>(kinds.size()));
      for (std::size_t i = 0; i < kinds.size(); ++i) {
        const float y0 = area[1] + each * static_cast<float>(i);
        const float y1 = i + 1 == kinds.size() ? area[3] : y0 + each;
        out.panels.push_back(panel_in(kinds[i], {x0, y0, area[2], y1}, s));
      }
      break;
    }
    case ScopePlace::under: {
      const float y0 = area[3] - std::round(kScopeShare * h);
      out.picture[3] = y0;
      lay_row(kinds, {area[0], y0, area[2], area[3]}, s, out.panels);
      break;
    }
    case ScopePlace::over:
      lay_row(kinds, {area[0], area[1], area[2], area[1] + std::round(kScopeShare * h)}, s, out.panels);
      break;
  }
  return out;
}

DrawStyle with_scope_layout(const DrawStyle& style, float width, float height) {
  DrawStyle out = style;
  if (out.scope_area != Rect{}) return out;
  out.scope_area = picture_area(style, width, height);
  out.area = scope_layout(out, out.scope_area).picture;
  return out;
}

std::vector<ScopePanel> scope_panels(const DrawStyle& style) {
  if (style.scope_area == Rect{}) return {};
  return scope_layout(style, style.scope_area).panels;
}

std::uint32_t scope_plot_width(const ScopePanel& p) {
  const float w = p.kind == ScopeKind::parade ? p.part : p.plot[2] - p.plot[0];
  return static_cast<std::uint32_t>(std::clamp(w, 1.0f, static_cast<float>(kMaxPlotWidth)));
}

namespace {
std::string matrix_label(ColourMatrix m) {
  return m == ColourMatrix::bt601 ? "BT.601" : m == ColourMatrix::bt2020 ? "BT.2020" : "BT.709";
}
std::uint32_t pow2_within(float v, std::uint32_t bits) {
  std::uint32_t n = 16;
  const std::uint32_t top = max_bins_for_bits(bits);
  while (n < top && static_cast<float>(n) < v) n *= 2;
  return std::min(n, top);
}
}  // namespace

std::uint32_t scope_levels(const ScopePanel& p, std::uint32_t bits) { return pow2_within(p.plot[3] - p.plot[1], bits); }

std::uint32_t vectorscope_grid(const ScopePanel& p, float zoom, std::uint32_t bits) {
  const auto sq = vectorscope_square(p.plot);
  return pow2_within((sq[2] - sq[0]) * zoom, bits);
}

float zoom_value(ScopeZoom zoom) { return zoom == ScopeZoom::x5 ? 5.0f : zoom == ScopeZoom::x2 ? 2.0f : 1.0f; }

WaveformMode panel_mode(const DrawStyle& style, ScopeKind kind, bool frame_has_planes) {
  if (kind == ScopeKind::parade) {
    return style.parade_view == ParadeView::ycbcr && frame_has_planes ? WaveformMode::ycbcr : WaveformMode::rgb;
  }
  return style.waveform_view == WaveformView::rgb ? WaveformMode::rgb : WaveformMode::luma;
}

namespace {
std::string kind_title(const DrawStyle& style, ScopeKind kind, WaveformMode mode, std::uint32_t run,
                       ColourMatrix matrix, bool frame_has_planes) {
  if (kind == ScopeKind::vectorscope) {
    const char* z = style.scope_zoom == ScopeZoom::x5 ? "x5" : style.scope_zoom == ScopeZoom::x2 ? "x2" : "x1";
    return std::string("Vectorscope  ") + matrix_label(matrix) + "  " + z;
  }
  std::string t = kind == ScopeKind::parade ? "Parade  " : "Waveform  ";
  if (mode == WaveformMode::ycbcr) {
    t += "Y'CbCr planes";
  } else if (mode == WaveformMode::rgb) {
    t += kind == ScopeKind::parade ? "R'G'B'" : "R'G'B' overlay";
    if (kind == ScopeKind::parade && style.parade_view == ParadeView::ycbcr && !frame_has_planes) {
      t += " (no Y'CbCr planes: R'G'B' source)";
    }
  } else {
    t += "luma";
  }
  return t + "  " + column_binning_text(run);
}
}  // namespace

std::string fit_title(std::string text, std::size_t chars) {
  while (text.size() > chars) {
    const auto cut = text.rfind("  ");
    if (cut == std::string::npos || cut == 0) {
      if (chars < 2) return {};
      text.resize(chars - 1);
      while (!text.empty() && text.back() == ' ') text.pop_back();
      return text + ".";
    }
    text.resize(cut);
  }
  return text;
}

std::string scope_title(const DrawStyle& style, ScopeKind kind, WaveformMode mode, std::uint32_t run,
                        ColourMatrix matrix, bool frame_has_planes, bool split) {
  std::string t = kind_title(style, kind, mode, run, matrix, frame_has_planes);
  if (split) t += style.match ? "  left: original, right: matched" : "  left: original, right: equalized";
  return t;
}

}  // namespace vhist::viewer
