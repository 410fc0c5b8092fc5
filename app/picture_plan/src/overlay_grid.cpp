#include "vhist/picture/overlay_grid.h"

#include "vhist/font_shared.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace vhist::viewer {

namespace {

constexpr std::uint32_t kWordsPerSlot = sizeof(shader::OverlayItem) / sizeof(std::uint32_t);

struct Grid {
  float x0 = 0, y0 = 0;
  std::uint32_t columns = 0, rows = 0;
};

Grid grid_over(const std::array<float, 4>& rect) {
  Grid g;
  g.x0 = std::floor(rect[0]);
  g.y0 = std::floor(rect[1]);
  g.columns = static_cast<std::uint32_t>(std::max(0.0f, std::ceil((std::ceil(rect[2]) - g.x0) / kOverlayCellSize)));
  g.rows = static_cast<std::uint32_t>(std::max(0.0f, std::ceil((std::ceil(rect[3]) - g.y0) / kOverlayCellSize)));
  return g;
}

// The cells [c0, c1) x [r0, r1) that the item's rect (half-open, pixels) touches, clipped to the grid.
std::array<std::uint32_t, 4> cells_of(const Grid& g, const shader::OverlayItem& it) {
  const auto first_cell = [](float v, float origin, std::uint32_t n) {
    return static_cast<std::uint32_t>(std::clamp(std::floor((v - origin) / kOverlayCellSize), 0.0f, static_cast<float>(n)));
  };
  const auto end_cell = [](float v, float origin, std::uint32_t n) {
    return static_cast<std::uint32_t>(std::clamp(std::ceil((v - origin) / kOverlayCellSize), 0.0f, static_cast<float>(n)));
  };
  return {first_cell(it.rect[0], g.x0, g.columns), end_cell(it.rect[2], g.x0, g.columns),
          first_cell(it.rect[1], g.y0, g.rows), end_cell(it.rect[3], g.y0, g.rows)};
}

// The item as the shaders read it: a glyph with its pixels (OverlayItem::pixels_low, _high).
shader::OverlayItem with_pixels(shader::OverlayItem it) {
  if (it.kind == shader::kOverlayGlyph && it.glyph < shader::kGlyphCount) {
    it.pixels_low = shader::kFont[2 * it.glyph];
    it.pixels_high = shader::kFont[2 * it.glyph + 1];
  }
  return it;
}

// One panel's slots: the grid, the cell table, the items cell by cell.
std::vector<shader::OverlayItem> panel_slots(const shader::OverlayItem* items, std::size_t n, const Grid& g) {
  const std::size_t cells = static_cast<std::size_t>(g.columns) * g.rows;
  std::vector<std::vector<std::uint32_t>> in_cell(cells);
  for (std::size_t i = 0; i < n; ++i) {
    if (items[i].rect[2] <= items[i].rect[0] || items[i].rect[3] <= items[i].rect[1]) continue;
    const auto [c0, c1, r0, r1] = cells_of(g, items[i]);
    for (std::uint32_t r = r0; r < r1; ++r) {
      for (std::uint32_t c = c0; c < c1; ++c) in_cell[static_cast<std::size_t>(r) * g.columns + c].push_back(static_cast<std::uint32_t>(i));
    }
  }
  const std::size_t table = (cells + kWordsPerSlot - 1) / kWordsPerSlot;
  std::vector<shader::OverlayItem> out(1 + table);
  shader::OverlayItem& head = out[0];
  head.rect[0] = g.x0;
  head.rect[1] = g.y0;
  head.rect[2] = head.rect[3] = kOverlayCellSize;
  head.glyph = g.columns;
  head.scale = g.rows;
  head.value = static_cast<std::uint32_t>(table);
  std::vector<std::uint32_t> words(table * kWordsPerSlot, 0);
  for (std::size_t k = 0; k < cells; ++k) {
    words[k] = static_cast<std::uint32_t>(out.size()) | static_cast<std::uint32_t>(in_cell[k].size() << 16);
    for (std::uint32_t i : in_cell[k]) out.push_back(with_pixels(items[i]));
  }
  if (!words.empty()) std::memcpy(static_cast<void*>(&out[1]), words.data(), words.size() * sizeof(std::uint32_t));
  return out;
}

// Whether one of the n items overlaps the bars' rectangle.
bool over_bars(const shader::OverlayItem* items, std::size_t n, const std::array<float, 4>& bars) {
  for (std::size_t i = 0; i < n; ++i) {
    const float* r = items[i].rect;
    if (r[0] < bars[2] && r[2] > bars[0] && r[1] < bars[3] && r[3] > bars[1]) return true;
  }
  return false;
}

}  // namespace

OverlayGrid overlay_grid(const OverlayItems& overlay, const std::vector<HistogramQuad>& quads) {
  OverlayGrid out;
  for (std::size_t i = 0; i < quads.size() && i < overlay.first.size(); ++i) {
    out.first.push_back(static_cast<std::uint32_t>(out.slots.size()));
    out.over_bars.push_back(over_bars(overlay.items.data() + overlay.first[i], overlay.count[i], quads[i].bars) ? 1 : 0);
    if (overlay.count[i] == 0) {
      out.count.push_back(0);
      continue;
    }
    const Grid g = grid_over(quads[i].rect);
    const auto slots = panel_slots(overlay.items.data() + overlay.first[i], overlay.count[i], g);
    // A panel too large for 16-bit offsets draws no overlay rather than a wrong one.
    if (slots.size() > 0xffffu) {
      out.count.push_back(0);
      continue;
    }
    out.slots.insert(out.slots.end(), slots.begin(), slots.end());
    out.count.push_back(static_cast<std::uint32_t>(slots.size()));
  }
  return out;
}

}  // namespace vhist::viewer
