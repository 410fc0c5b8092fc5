#include "vhist/picture/picture_overlay.h"

#include "vhist/font_shared.h"
#include "vhist/picture/light_scale.h"

#include <algorithm>
#include <cmath>

namespace vhist::viewer {

std::vector<std::uint32_t> axis_codes(std::uint32_t bits, float bars_width, float scale) {
  const std::uint32_t n = 1u << bits, top = n - 1;
  // The widest label and two characters of room: five labels need four gaps of that.
  const float room = text_width(std::to_string(top).size() + 2, scale);
  if (bars_width >= 4 * room) return {0, n / 4, n / 2, 3 * n / 4, top};
  if (bars_width >= 2 * room) return {0, n / 2, top};
  return {0, top};
}

std::array<std::uint32_t, 4> guide_codes(std::uint32_t bits) {
  const std::uint32_t shift = bits > 8 ? bits - 8 : 0;
  return {0, 16u << shift, 235u << shift, (1u << bits) - 1};
}

float code_x(const std::array<float, 4>& bars, std::uint32_t code, std::uint32_t bits) {
  const double centre = bars[0] + (code + 0.5) * (static_cast<double>(bars[2]) - bars[0]) / (1u << bits);
  return static_cast<float>(std::floor(centre));
}

std::string_view scale_words(ScaleMode mode) {
  switch (mode) {
    case ScaleMode::automatic: return "auto  max ";
    case ScaleMode::logarithmic: return "log  max ";
    case ScaleMode::fixed: return "fixed  max ";
  }
  return "";
}

std::string count_text(std::uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

float text_width(std::size_t chars, float s) {
  return chars == 0 ? 0.0f : static_cast<float>(chars * shader::kGlyphAdvance - 1) * s;
}

namespace {

using Rgb = std::array<float, 3>;

// OverlayItem::scale for text scale s: eighths of a pixel per font pixel.
std::uint32_t glyph_scale(float s) {
  return static_cast<std::uint32_t>(std::lround(s * static_cast<float>(shader::kTextScaleUnit)));
}

shader::OverlayItem item(std::uint32_t kind, std::array<float, 4> rect, const Rgb& colour) {
  shader::OverlayItem it{};
  it.kind = kind;
  std::copy(rect.begin(), rect.end(), it.rect);
  std::copy(colour.begin(), colour.end(), it.colour);
  it.colour[3] = 1;
  return it;
}

// The left edge of a tick's label `w` wide under a tick at x: centred on the tick, kept inside the panel.
float label_left(const HistogramQuad& q, float x, float w, float s) {
  const float lw = line_width(s);
  return std::clamp(x + std::floor(lw / 2) - std::floor(w / 2), std::floor(q.rect[0]) + lw,
                    std::floor(q.rect[2]) - lw - w);
}

// The axis's ticks: code values, or for a PQ or HLG source light (light_scale.h), with labels
// that would come within a character of their right neighbour, where they are drawn, left out
// (label_left pulls the last one inside the panel, which on a narrow panel ran "192" and "255"
// together). The first and the last are kept: "0.1" goes where "0" would run into it.
std::vector<LightTick> axis_ticks(const DrawStyle& style, const HistogramQuad& q, std::uint32_t bits, float s) {
  std::vector<LightTick> ticks;
  if (style.light == LightScale::none || style.light_axis == LightAxis::codes) {
    for (std::uint32_t code : axis_codes(bits, q.bars[2] - q.bars[0], s)) ticks.push_back({code, std::to_string(code)});
  } else {
    ticks = light_ticks(style.light, bits, style.light_axis);
  }
  if (ticks.size() < 2) return ticks;
  const float lw = line_width(s);
  const auto left = [&](const LightTick& t) {
    return label_left(q, code_x(q.bars, t.code, bits) - std::floor((lw - 1) / 2), text_width(t.label.size(), s), s);
  };
  const auto crowds = [&](const LightTick& a, const LightTick& b) {
    return left(a) + text_width(a.label.size() + 1, s) > left(b);
  };
  const std::size_t last = ticks.size() - 1;
  std::size_t next = last;  // the next label kept, right of i
  for (std::size_t i = last; i-- > 1;) {  // keep the last; drop those crowding the next kept one
    if (crowds(ticks[i], ticks[next])) {
      ticks[i].label.clear();
    } else {
      next = i;
    }
  }
  // Keep the first too, dropping the kept ones it crowds; but the last.
  for (; next < last && crowds(ticks[0], ticks[next]); ++next) ticks[next].label.clear();
  if (crowds(ticks[0], ticks[last])) ticks[0].label.clear();
  return ticks;
}

// The axis under the bars: its line, a tick and a centred label per axis tick (kept inside the panel).
void add_axis(std::vector<shader::OverlayItem>& out, const DrawStyle& style, const HistogramQuad& q,
              std::uint32_t bits, float s) {
  const float fs = s, lw = line_width(s);
  const auto& b = q.bars;
  out.push_back(item(shader::kOverlaySolid, {b[0], b[3], b[2], b[3] + lw}, kOverlayText));
  for (const LightTick& tick : axis_ticks(style, q, bits, s)) {
    const float x = code_x(b, tick.code, bits) - std::floor((lw - 1) / 2);
    out.push_back(item(shader::kOverlaySolid, {x, b[3] + lw, x + lw, b[3] + std::round(4 * fs)}, kOverlayText));
    const float lx = label_left(q, x, text_width(tick.label.size(), s), s);
    add_text(out, lx, b[3] + 5 * fs, s, kOverlayText, tick.label);
  }
}

// Vertical lines through the bars at the guide codes: the legal range amber, the ends grey.
void add_guides(std::vector<shader::OverlayItem>& out, const HistogramQuad& q, std::uint32_t bits, float s) {
  const auto codes = guide_codes(bits);
  const float lw = line_width(s);
  for (std::size_t i = 0; i < codes.size(); ++i) {
    const float x = code_x(q.bars, codes[i], bits) - std::floor((lw - 1) / 2);
    const bool legal = i == 1 || i == 2;
    out.push_back(item(shader::kOverlaySolid, {x, q.bars[1], x + lw, q.bars[3]},
                       legal ? kOverlayLegalGuide : kOverlayRangeGuide));
  }
}

// A marker line through the bars at each marked channel's code, in the channel's legend colour.
void add_markers(std::vector<shader::OverlayItem>& out, const DrawStyle& style, const HistogramQuad& q,
                 std::uint32_t bits, float s) {
  const auto palette = palette_colours(style.palette);
  const float lw = line_width(s);
  for (std::size_t c = 0; c < 4; ++c) {
    if (!q.channel_mult[c] || style.markers[c] < 0) continue;
    const auto code = static_cast<std::uint32_t>(style.markers[c]);
    const float x = code_x(q.bars, code, bits) - std::floor((lw - 1) / 2);
    const auto& colour = palette[std::size_t{1} << c];
    const auto light = [](float v) { return v + (1.0f - v) * kLegendLighten; };
    out.push_back(item(shader::kOverlaySolid, {x, q.bars[1], x + lw, q.bars[3]},
                       {light(colour[0]), light(colour[1]), light(colour[2])}));
  }
}

// The fixed scale's full height, and the cap of the automatic one: five times a bin's share.
double count_cap(const OverlayInput& in) {
  return in.bins ? std::round(5.0 * static_cast<double>(in.pixels) / in.bins) : 0.0;
}

// The scale label's words: the mode's ("auto  max "), or "max " alone where the panel is too
// narrow for them and the widest count the mode can show (the cap; on the log scale the frame's
// pixels), or none, and then no count either: a count cut at the panel's edge ("max 40,5" of
// 40,500) would read as another.
std::string_view header_words(const DrawStyle& style, const HistogramQuad& q, const OverlayInput& in, float x,
                              float s) {
  const double most = style.scale == ScaleMode::logarithmic ? static_cast<double>(in.pixels) : count_cap(in);
  const std::size_t widest = count_text(static_cast<std::uint64_t>(std::min(most, 4294967295.0))).size();
  for (std::string_view words : {scale_words(style.scale), std::string_view("max ")}) {
    if (x + text_width(words.size() + widest, s) <= std::floor(q.rect[2]) - 2 * s) return words;
  }
  return {};
}

// The count a full-height bar means, at (x, y): kCountChars glyphs the GPU fills from the scale
// buffer (the channels drawn, the scale mode's rule).
void add_count(std::vector<shader::OverlayItem>& out, const DrawStyle& style, const HistogramQuad& q,
               const OverlayInput& in, float x, float y, float s) {
  const std::uint32_t kind = style.scale == ScaleMode::logarithmic ? shader::kOverlayCountLog
                             : style.scale == ScaleMode::fixed   ? shader::kOverlayCountFixed
                                                                 : shader::kOverlayCountAuto;
  std::uint32_t mask = 0;
  for (std::size_t c = 0; c < 4; ++c) mask |= q.channel_mult[c] ? (1u << c) : 0u;
  const double cap = count_cap(in);
  for (std::size_t k = 0; k < kCountChars; ++k) {
    const float x0 = std::round(x + static_cast<float>(k * shader::kGlyphAdvance) * s);
    shader::OverlayItem it = item(kind, {x0, y, x0 + 5 * s, y + 7 * s}, kOverlayText);
    it.glyph = static_cast<std::uint32_t>(k);
    it.scale = glyph_scale(s);
    it.mask = mask;
    it.value = static_cast<std::uint32_t>(std::min(cap, 4294967295.0));
    out.push_back(it);
  }
}

// The header: the scale label at the left (its count drawn by the GPU), with the end bins on
// their own scale that scale's label, the legend at the right.
void add_header(std::vector<shader::OverlayItem>& out, const DrawStyle& style, const HistogramQuad& q,
                const OverlayInput& in, float s) {
  const float fs = s;
  const float y = std::round(q.rect[1] + fs), x = std::round(std::floor(q.rect[0]) + 2 * fs);
  const std::string_view words = header_words(style, q, in, x, s);
  float label_end = x;
  if (!words.empty()) {
    add_text(out, x, y, s, kOverlayText, words);
    add_count(out, style, q, in, x + static_cast<float>(words.size() * shader::kGlyphAdvance) * fs, y, s);
    label_end = x + text_width(words.size() + kCountChars, s);
  }
  // The legend, "R G B L" (or "Cr Cb Y'") for the channels drawn, each in its palette colour.
  const auto palette = palette_colours(style.palette);
  std::size_t letters = 0, names = 0;
  for (std::size_t c = 0; c < 4; ++c) {
    if (!q.channel_mult[c] || *channel_label(c, style.ycbcr) == '\0') continue;
    letters += std::string_view(channel_label(c, style.ycbcr)).size();
    ++names;
  }
  if (style.end_scale) {
    // The end bins' own scale: a full-height end bar is every pixel counted. Shorter, or left out,
    // where the panel is too narrow for it (beside the panel at 640x360 it ran into the next
    // panel's header).
    for (const std::string& ends : {"ends  max " + count_text(in.pixels), "ends " + count_text(in.pixels)}) {
      if (label_end + 2 * fs + text_width(ends.size(), s) > std::floor(q.rect[2]) - 2 * fs) continue;
      add_text(out, label_end + 2 * fs, y, s, kOverlayText, ends);
      label_end += 2 * fs + text_width(ends.size(), s);
      break;
    }
  }
  float lx = std::floor(q.rect[2]) - 2 * fs - text_width(letters + names - 1, s);
  if (names == 0 || lx < label_end + 2 * fs) return;  // no room: the scale label matters more
  for (std::size_t c = 0; c < 4; ++c) {
    const std::string_view name = channel_label(c, style.ycbcr);
    if (!q.channel_mult[c] || name.empty()) continue;
    // The channel's colour 40% of the way to white: pure blue on the dark background was hard to read.
    const auto& colour = palette[std::size_t{1} << c];
    const auto light = [](float v) { return v + (1.0f - v) * kLegendLighten; };
    add_text(out, lx, y, s, {light(colour[0]), light(colour[1]), light(colour[2])}, std::string(name));
    lx += text_width(name.size() + 1, s) + fs;
  }
}

}  // namespace

void add_text(std::vector<shader::OverlayItem>& out, float x, float y, float s, const std::array<float, 3>& colour,
              std::string_view text) {
  const float fs = s, y0 = std::round(y);
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto g = shader::kFontChars.find(text[i]);
    if (text[i] == ' ' || g == std::string_view::npos) continue;
    const float x0 = std::round(x + static_cast<float>(i * shader::kGlyphAdvance) * fs);
    shader::OverlayItem it = item(shader::kOverlayGlyph, {x0, y0, x0 + 5 * fs, y0 + 7 * fs}, colour);
    it.glyph = static_cast<std::uint32_t>(g);
    it.scale = glyph_scale(s);
    out.push_back(it);
  }
}

bool text_drawable(std::string_view text) {
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return c == ' ' || shader::kFontChars.find(c) != std::string_view::npos; });
}

OverlayItems overlay_items(const DrawStyle& style, const std::vector<HistogramQuad>& quads, const OverlayInput& in) {
  OverlayItems out;
  const float s = text_scale(style);
  for (const HistogramQuad& q : quads) {
    const auto first = static_cast<std::uint32_t>(out.items.size());
    if (style.guides) add_guides(out.items, q, in.bits, s);
    add_markers(out.items, style, q, in.bits, s);
    if (q.axis) add_axis(out.items, style, q, in.bits, s);
    if (q.header) add_header(out.items, style, q, in, s);
    out.first.push_back(first);
    out.count.push_back(static_cast<std::uint32_t>(out.items.size()) - first);
  }
  return out;
}

}  // namespace vhist::viewer
