// A headless target for the FrameRenderer: a device-local RGBA8 buffer the picture is drawn
// into, and a host-readable copy of it. Used by the benchmark and the tests; no window needed.
#pragma once

#include "vhist/picture/frame_renderer.h"

#include "vhist/render/buffer.h"

#include <cstdint>
#include <vector>

namespace vhist::viewer {

class OffscreenTarget {
 public:
  OffscreenTarget(render::Context& context, VkExtent2D extent);
  OffscreenTarget(const OffscreenTarget&) = delete;
  OffscreenTarget& operator=(const OffscreenTarget&) = delete;

  CompositeTarget composite() const { return {extent_, composite_.address(), false, composite_.get()}; }

  // Records a copy of the buffer (after a tick) into the host-visible readback buffer; after the
  // submission completes, pixels() returns it as RGBA8, top row first.
  void record_readback_composite(VkCommandBuffer cmd) const;
  std::vector<std::uint8_t> pixels() const;

 private:
  VkExtent2D extent_{};
  render::Buffer composite_;
  render::Buffer readback_;
};

}  // namespace vhist::viewer
