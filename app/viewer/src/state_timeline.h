// The timeline strip's state: the background scan, what the strip draws and the choices made in
// its panel section (this session's). Changed by viewer_timeline.cpp (poll, draw, pointer) and
// viewer_timeline_panel.cpp (the choices); the presenter reads the heatmap's pixels. Main thread
// only: the scan's worker thread is behind TimelineScan's own interface.
#pragma once

#include "timeline_cells.h"
#include "timeline_scan.h"

#include <array>
#include <cstdint>
#include <vector>

namespace vhist::viewer {

// The heatmap as pixels (heat_image(), one per pixel of the heatmap) that the presenter copies
// under the UI, where it can (by_image; else ImGui draws the cells): remade when the cells or the
// heatmap's place (place: x0, x1, top, bottom) change, stamp counting the remakes; rect: where
// this tick draws them (window coordinates, whole pixels; empty: not this tick).
struct HeatImage {
  bool by_image = false;
  std::vector<std::uint32_t> pixels;
  std::uint32_t width = 0, height = 0;
  std::uint64_t stamp = 0;
  std::array<float, 4> place{};
  std::array<float, 4> rect{};
};

// The strip's place under the picture (window coordinates; empty: not shown) and its heatmap's
// as last drawn, the frame a drag last sought and the frame an event key or a click went to (the
// next key starts from there while it is on its way).
struct TimelineView {
  TimelineScan scan;
  TimelineCells cells;
  TimelineChannel channel = TimelineChannel::luma;
  bool log = true, curves = true, shares = true;
  std::array<float, 4> area{};
  std::array<float, 4> heat_area{};
  std::int64_t drag_frame = -1, target = -1;
  HeatImage heat;
};

}  // namespace vhist::viewer
