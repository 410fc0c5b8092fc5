// Helpers of the headless picture tests (test_overlay.cpp, test_picture_tools.cpp): one frame
// drawn by a FrameRenderer into an offscreen target, and frames made from a formula.
#pragma once

#include "vhist/compute/synthetic_frames.h"
#include "vhist/picture/frame_renderer.h"
#include "vhist/picture/offscreen.h"
#include "vhist/render/command_slot.h"
#include "vhist/render/vk_check.h"

#include <array>
#include <cstdint>
#include <vector>

namespace vhist {

// Draws one tick of `frame` into `target` and returns the picture.
inline std::vector<std::uint8_t> draw_once(render::Context& context, viewer::FrameRenderer& overlay, viewer::OffscreenTarget& target,
                                    const SyntheticVideoFrame& frame, const viewer::DrawStyle& style) {
  std::vector<std::uint8_t> pixels;
  for (int tick = 0; tick < 2; ++tick) {  // the second tick redraws the same frame, counted already
    overlay.begin();
    const VideoPlanes planes = frame.view();
    const VideoFormat* format = tick == 0 ? &frame.format : nullptr;
    const VideoPlanes* new_planes = tick == 0 ? &planes : nullptr;
    const VkCommandBuffer cmd = overlay.record_composite(format, new_planes, false, style, target.composite(),
                                                         [&](VkCommandBuffer c) { target.record_readback_composite(c); });
    render::submit(context, cmd, overlay.fence());
    overlay.end();
    overlay.wait_idle();
    pixels = target.pixels();
  }
  return pixels;
}

// The RGB of pixel (x, y) of a picture `width` pixels wide.
inline std::array<int, 3> rgb_at(const std::vector<std::uint8_t>& pixels, std::uint32_t width, int x, int y) {
  const std::size_t i = (static_cast<std::size_t>(y) * width + static_cast<std::size_t>(x)) * 4;
  return {pixels[i], pixels[i + 1], pixels[i + 2]};
}

// An rgb24 frame filled by f(x, y) -> {r, g, b}.
template <typename F>
SyntheticVideoFrame pattern_frame(std::uint32_t width, std::uint32_t height, F f) {
  SyntheticVideoFrame frame = make_synthetic_frame("rgb24", width, height, 1, ColourMatrix::bt709, ColourRange::full);
  for (std::uint32_t y = 0; y < height; ++y) {
    for (std::uint32_t x = 0; x < width; ++x) {
      const std::array<int, 3> v = f(x, y);
      auto* p = frame.planes[0].data() + std::size_t{y} * frame.stride[0] + std::size_t{x} * 3;
      for (int c = 0; c < 3; ++c) p[c] = static_cast<std::byte>(v[static_cast<std::size_t>(c)]);
    }
  }
  return frame;
}

}  // namespace vhist
