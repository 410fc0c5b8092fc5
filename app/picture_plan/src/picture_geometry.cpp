#include "vhist/picture/picture_geometry.h"

#include <cstddef>

namespace vhist::viewer {

std::vector<HistogramQuad> layout_quads(const DrawStyle& style, float w, float h) {
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

std::array<float, 2> cover_scale(float window_w, float window_h, float video_w, float video_h) {
  const float canvas_aspect = window_w / window_h, video_aspect = video_w / video_h;
  if (canvas_aspect > video_aspect) return {1.0f, canvas_aspect / video_aspect};
  return {video_aspect / canvas_aspect, 1.0f};
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
