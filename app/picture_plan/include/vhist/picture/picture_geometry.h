// Where things go in the picture, in plain numbers (no Vulkan): the histogram quads of a layout,
// the video's cover fit and the palettes' colours. Both draw passes (raster and composite) and
// the tests use them.
#pragma once

#include "vhist/picture/draw_style.h"

#include <array>
#include <cstdint>
#include <vector>

namespace vhist::viewer {

// Rectangles in window pixels (x0, y0, x1, y1) and the channels each histogram quad draws.
struct HistogramQuad {
  std::array<float, 4> rect{};
  std::array<std::uint32_t, 4> channel_mult{};
};
std::vector<HistogramQuad> layout_quads(const DrawStyle& style, float width, float height);
// The articles' cover scale: the video quad spans [-sx, sx] x [-sy, sy] in clip space, so the
// video fills the window and keeps its aspect ratio (the overflow is cropped).
std::array<float, 2> cover_scale(float window_w, float window_h, float video_w, float video_h);
// The palette's 16 colours (RGBA) by channel mask (R 1, G 2, B 4, L 8).
std::array<std::array<float, 4>, 16> palette_colours(Palette palette);

}  // namespace vhist::viewer
