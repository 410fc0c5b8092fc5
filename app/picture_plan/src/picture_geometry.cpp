#include "vhist/picture/picture_geometry.h"
#include "vhist/draw_shared.h"

#include "vhist/picture/video_fit.h"
#include "vhist/clip_shared.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>

namespace vhist::viewer {

std::array<float, 4> picture_area(const DrawStyle& style, float w, float h) {
  const auto& a = style.area;
  if (a[0] == 0 && a[1] == 0 && a[2] == 0 && a[3] == 0) return {0, 0, w, h};
  const float x0 = std::clamp(std::round(a[0]), 0.0f, w), y0 = std::clamp(std::round(a[1]), 0.0f, h);
  const float x1 = std::clamp(std::round(a[2]), x0, w), y1 = std::clamp(std::round(a[3]), y0, h);
  if (x1 <= x0 || y1 <= y0) return {0, 0, w, h};
  return {x0, y0, x1, y1};
}

float text_scale(const DrawStyle& style) {
  const float unit = static_cast<float>(shader::kTextScaleUnit);
  return std::max(kMinTextScale, std::round(style.ui_scale * unit) / unit);
}

float line_width(float s) { return std::max(1.0f, std::round(s)); }

float picture_ui_scale(float content_scale, float area_height) {
  return std::max({kMinTextScale, content_scale, area_height / 720.0f});
}

namespace {

// The quads of the layout in an area of w x h pixels at the origin.
std::vector<HistogramQuad> layout_in(const DrawStyle& style, float w, float h) {
  const auto bit = [&](int c) { return style.channels[static_cast<std::size_t>(c)] ? (1u << c) : 0u; };
  const float margin_x = 0.025f * w, bottom = h - 0.025f * h;
  std::vector<HistogramQuad> quads;
  switch (style.layout) {
    case Layout::split: {
      // As in the articles: R, G and B together bottom left, luma bottom right, each 45% of the
      // width and 25% of the height.
      const float top = bottom - 0.25f * h;
      if (bit(0) | bit(1) | bit(2)) quads.push_back({{margin_x, top, margin_x + 0.45f * w, bottom}, {bit(0), bit(1), bit(2), 0}});
      if (bit(3)) quads.push_back({{w - margin_x - 0.45f * w, top, w - margin_x, bottom}, {0, 0, 0, bit(3)}});
      break;
    }
    case Layout::overlay: {
      const float top = bottom - 0.25f * h;
      if (bit(0) | bit(1) | bit(2) | bit(3)) {
        quads.push_back({{margin_x, top, w - margin_x, bottom}, {bit(0), bit(1), bit(2), bit(3)}});
      }
      break;
    }
    case Layout::stacked: {
      // One quad per channel, one above the other, bottom left.
      const float band = 0.12f * h, gap = 0.01f * h;
      float y1 = bottom;
      for (int c = 3; c >= 0; --c) {
        if (!bit(c)) continue;
        std::array<std::uint32_t, 4> mult{};
        mult[static_cast<std::size_t>(c)] = bit(c);
        quads.push_back({{margin_x, y1 - band, margin_x + 0.45f * w, y1}, mult});
        y1 -= band + gap;
      }
      break;
    }
  }
  return quads;
}

// The bars inside the panel, below its header strip and above its axis strip where it has room.
void place_bars(HistogramQuad& q, float s) {
  const auto& r = q.rect;
  const float height = r[3] - r[1];
  q.axis = height >= 3 * axis_height(s);
  q.header = height >= 3 * (header_height(s) + axis_height(s));
  q.bars = r;
  if (q.header) q.bars[1] = std::round(r[1]) + header_height(s);
  if (q.axis) q.bars[3] = std::round(r[3]) - axis_height(s);
}

}  // namespace

std::vector<HistogramQuad> layout_quads(const DrawStyle& style, float w, float h) {
  if (style.scopes_only) return {};  // the channels drawn choose the scopes' components only
  const auto area = picture_area(style, w, h);
  std::vector<HistogramQuad> quads = layout_in(style, area[2] - area[0], area[3] - area[1]);
  for (HistogramQuad& q : quads) {
    for (int k = 0; k < 4; ++k) q.rect[static_cast<std::size_t>(k)] += area[static_cast<std::size_t>(k % 2)];
    place_bars(q, text_scale(style));
  }
  return quads;
}

std::optional<bool> clip_corner_at(const DrawStyle& style, float w, float h, float x, float y) {
  for (const HistogramQuad& q : layout_quads(style, w, h)) {
    const auto& b = q.bars;
    if (x < b[0] || x >= b[2] || y < b[1] || y >= b[3]) continue;
    const float largest = shader::vhist_clip_marker(1.0f, 1.0f, b[3] - b[1]);
    const float dy = y - b[1];
    if (x - b[0] + dy < largest) return false;
    if (b[2] - x + dy < largest) return true;
  }
  return std::nullopt;
}

std::string clip_share_text(const Histogram& levels, std::uint64_t pixels, const std::array<std::uint32_t, 4>& channel_mult,
                            bool high) {
  std::string line = high ? "at the top code:" : "at code 0:";
  if (levels.bins == 0) return line;
  const std::uint32_t level = high ? levels.bins - 1 : 0;
  for (std::uint32_t c = 0; c < 4; ++c) {
    if (channel_mult[c] == 0) continue;
    const auto count = static_cast<double>(levels.at(static_cast<Channel>(c), level));
    char part[48];
    std::snprintf(part, sizeof part, "  %s %.2f%%", channel_label(c, false),
                  100.0 * count / static_cast<double>(std::max<std::uint64_t>(pixels, 1)));
    line += part;
  }
  return line;
}

std::optional<BinHit> hit_bin(const DrawStyle& style, float w, float h, float x, float y, std::uint32_t bins,
                              std::uint32_t bits) {
  if (bins == 0 || bits == 0 || bits > 16) return std::nullopt;
  const auto quads = layout_quads(style, w, h);
  for (std::size_t i = quads.size(); i-- > 0;) {  // the last drawn is on top
    const HistogramQuad& q = quads[i];
    if (x < q.bars[0] || x >= q.bars[2] || y < q.rect[1] || y >= q.rect[3]) continue;
    BinHit hit;
    hit.quad = i;
    hit.channel_mult = q.channel_mult;
    const double u = (static_cast<double>(x) - q.bars[0]) / (static_cast<double>(q.bars[2]) - q.bars[0]);
    hit.bin = std::min(static_cast<std::uint32_t>(u * bins), bins - 1);
    const std::uint32_t codes = std::max<std::uint32_t>(1, (1u << bits) / bins);
    hit.code_lo = hit.bin * codes;
    hit.code_hi = hit.code_lo + codes - 1;
    return hit;
  }
  return std::nullopt;
}

std::array<float, 2> cover_scale(float window_w, float window_h, float video_w, float video_h) {
  const float canvas_aspect = window_w / window_h, video_aspect = video_w / video_h;
  if (canvas_aspect > video_aspect) return {1.0f, canvas_aspect / video_aspect};
  return {video_aspect / canvas_aspect, 1.0f};
}

std::optional<std::array<std::uint32_t, 2>> stored_pixel_at(const DrawStyle& style, float width, float height,
                                                            const PictureShape& shape, float x, float y) {
  const auto a = picture_area(style, width, height);
  if (x < a[0] || x >= a[2] || y < a[1] || y >= a[3]) return std::nullopt;
  const auto r = place_video(style, width, height, shape.shown_w, shape.shown_h).rect;
  if (x < r[0] || x >= r[2] || y < r[1] || y >= r[3]) return std::nullopt;  // a letterbox bar
  // The video's upright [0, 1] (as the shaders' quad spans it), then the stored frame's (stored_uv).
  const float u = (x - r[0]) / (r[2] - r[0]), v = (y - r[1]) / (r[3] - r[1]);
  float su = u, sv = v;
  if (shape.rotation == 90) su = v, sv = 1 - u;
  if (shape.rotation == 180) su = 1 - u, sv = 1 - v;
  if (shape.rotation == 270) su = 1 - v, sv = u;
  const auto column = static_cast<std::int64_t>(std::floor(su * static_cast<float>(shape.stored_w)));
  const auto row = static_cast<std::int64_t>(std::floor(sv * static_cast<float>(shape.stored_h)));
  return std::array<std::uint32_t, 2>{static_cast<std::uint32_t>(std::clamp<std::int64_t>(column, 0, shape.stored_w - 1)),
                                      static_cast<std::uint32_t>(std::clamp<std::int64_t>(row, 0, shape.stored_h - 1))};
}

std::array<float, 4> target_rect_of(const DrawStyle& style, float width, float height, const PictureShape& shape,
                                    const PixelRect& rect) {
  // Not a structured binding: clang 14 (the fuzz build) cannot capture one in the lambda below.
  const auto r = place_video(style, width, height, shape.shown_w, shape.shown_h).rect;
  // A point of the stored frame in [0, 1] to the target: stored_pixel_at's steps backwards.
  const auto to_target = [&](float su, float sv) {
    float u = su, v = sv;
    if (shape.rotation == 90) u = 1 - sv, v = su;
    if (shape.rotation == 180) u = 1 - su, v = 1 - sv;
    if (shape.rotation == 270) u = sv, v = 1 - su;
    return std::array<float, 2>{r[0] + u * (r[2] - r[0]), r[1] + v * (r[3] - r[1])};
  };
  const auto w = static_cast<float>(shape.stored_w), h = static_cast<float>(shape.stored_h);
  const auto p = to_target(static_cast<float>(rect.x) / w, static_cast<float>(rect.y) / h);
  const auto q = to_target(static_cast<float>(rect.x + rect.width) / w, static_cast<float>(rect.y + rect.height) / h);
  return {std::min(p[0], q[0]), std::min(p[1], q[1]), std::max(p[0], q[0]), std::max(p[1], q[1])};
}

std::array<std::array<float, 4>, 16> palette_colours(Palette palette) {
  std::array<std::array<float, 4>, 16> c{};
  c[0] = {0, 0, 0, 1};  // background; its alpha is scaled by the overlay opacity
  switch (palette) {
    case Palette::classic:
      // The articles' colours: the three primaries, their mixtures, grey where all three
      // overlap, white wherever luma is.
      c[1] = {1, 0, 0, 1};
      c[2] = {0, 1, 0, 1};
      c[3] = {1, 1, 0, 1};
      c[4] = {0, 0, 1, 1};
      c[5] = {1, 0, 1, 1};
      c[6] = {0, 1, 1, 1};
      c[7] = {0.5f, 0.5f, 0.5f, 1};
      for (int i = 8; i < 16; ++i) c[static_cast<std::size_t>(i)] = {1, 1, 1, 1};
      break;
    case Palette::colorblind: {
      // Okabe and Ito's colours, distinguishable with the common colour-vision deficiencies:
      // vermillion for R, bluish green for G, blue for B; overlaps averaged, luma white.
      const std::array<std::array<float, 3>, 3> base = {{{0.84f, 0.37f, 0.0f}, {0.0f, 0.62f, 0.45f}, {0.0f, 0.45f, 0.70f}}};
      for (int i = 1; i < 8; ++i) {
        std::array<float, 3> sum{};
        int n = 0;
        for (int ch = 0; ch < 3; ++ch) {
          if (i & (1 << ch)) {
            for (int k = 0; k < 3; ++k) sum[static_cast<std::size_t>(k)] += base[static_cast<std::size_t>(ch)][static_cast<std::size_t>(k)];
            ++n;
          }
        }
        c[static_cast<std::size_t>(i)] = {sum[0] / static_cast<float>(n), sum[1] / static_cast<float>(n),
                                          sum[2] / static_cast<float>(n), 1};
      }
      c[7] = {0.6f, 0.6f, 0.6f, 1};
      for (int i = 8; i < 16; ++i) c[static_cast<std::size_t>(i)] = {0.95f, 0.9f, 0.25f, 1};  // luma: yellow
      break;
    }
    case Palette::mono:
      // Brightness by how many channels reach this height.
      for (int i = 1; i < 16; ++i) {
        const float v = 0.35f + 0.65f * static_cast<float>(__builtin_popcount(static_cast<unsigned>(i))) / 4.0f;
        c[static_cast<std::size_t>(i)] = {v, v, v, 1};
      }
      break;
  }
  return c;
}

}  // namespace vhist::viewer
