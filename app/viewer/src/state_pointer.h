// What the pointer does over the picture: the histogram range under it, the pixel readout and
// pin, the region of interest, gestures in progress. Changed by viewer_input.cpp (gestures),
// viewer_readout.cpp (range, pixel), viewer_region.cpp (region) and the split view's divider
// (viewer_overlay.cpp). Main thread only.
#pragma once

#include "vhist/picture/frame_renderer.h"

#include <array>
#include <cstdint>
#include <optional>

namespace vhist::viewer {

struct Pointer {
  // The histogram range under the pointer, highlighted in the picture (DrawStyle::range_*): the
  // channels (R 1, G 2, B 4, L 8; 0: none) and the codes; a drag's starting bin.
  std::uint32_t range_mask = 0, range_low = 0, range_high = 0;
  std::optional<std::uint32_t> range_drag_bin;
  std::optional<std::array<std::uint32_t, 3>> kept_range;  // a dragged range (mask, low, high), lit until cleared
  // Picture to histogram: the stored pixel under the pointer, and one pinned by a click.
  std::optional<std::array<std::uint32_t, 2>> hovered_pixel, pinned_pixel;
  // The region of interest, in stored pixels (DrawStyle::region); while the left button drags
  // across the video: the pixel it went down on and the rectangle so far.
  std::optional<PixelRect> region;
  std::optional<std::array<std::uint32_t, 2>> region_anchor;
  std::optional<PixelRect> region_drag;
  double last_click_time = -1;  // glfwGetTime() of the last left click on the picture
  // A click pins only once it is known not to be the first of a double click (pending_pin waits
  // kDoubleClickSeconds); the press that makes a double click, and its release after the window
  // changed mode, neither pin nor start a region or a range.
  std::optional<std::array<std::uint32_t, 2>> pending_pin;
  bool left_press_spent = false;
  double scroll_notches = 0;  // the wheel's movement not yet turned into seeks
  bool dragging_divider = false;  // the split view's divider
  bool panning = false;           // a middle-button drag of a 1:1 picture
};

}  // namespace vhist::viewer
