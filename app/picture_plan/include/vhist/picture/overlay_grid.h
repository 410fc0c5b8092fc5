// The histogram panels' overlay as the shaders read it (overlay.glsl): per panel a grid of
// cells over its rectangle, each cell listing the items that touch it, so a pixel tests the few
// items of its cell instead of every item of the panel. Scanning a panel's items per pixel cost
// about 15 ms of a 1280x720 frame on lavapipe (60 -> 29 fps); the grid makes the text nearly free.
#pragma once

#include "vhist/picture/picture_geometry.h"
#include "vhist/picture/picture_overlay.h"

#include "vhist/draw_shared.h"

#include <cstdint>
#include <vector>

namespace vhist::viewer {

// Cell size in target pixels. Glyphs are 5x7 font pixels at scale s, so a cell holds one to
// four of them; the guides and the axis line are duplicated into every cell they cross.
inline constexpr float kOverlayCellSize = 16.0f;

// Panel i occupies slots[first[i] .. first[i] + count[i]) (count 0: nothing drawn over it):
//   slots[first]: the grid. rect = (x0, y0, cell width, cell height) in target pixels,
//                 glyph = columns, scale = rows, value = cell-table slots.
//   the next `value` slots: the cell table, 16 words a slot, cell (col, row) at word
//                 row * columns + col: (offset of its first item from `first`) | (items << 16).
//   then the items, cell after cell, each cell's in the panel's drawing order (the last that
//   covers a pixel wins, as in overlay_items()); a glyph with its pixels from the font
//   (OverlayItem::pixels_low, _high).
// over_bars[i]: 1 when one of panel i's items lies over its bars (the guides), else 0, so the
// shaders read no overlay for the bars' pixels at all (one load a pixel cost lavapipe ~8 ms of
// a 1280x720 frame).
struct OverlayGrid {
  std::vector<shader::OverlayItem> slots;
  std::vector<std::uint32_t> first, count, over_bars;
};
// The grid of `overlay` (overlay_items(style, quads, ...)) over each of `quads`.
OverlayGrid overlay_grid(const OverlayItems& overlay, const std::vector<HistogramQuad>& quads);

}  // namespace vhist::viewer
