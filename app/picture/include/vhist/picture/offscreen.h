// Headless targets for the FrameRenderer: an offscreen RGBA8 image with a render pass like the
// swapchain's (the rasterized picture), and a host-readable copy of it. Used by the benchmark
// and the tests; no window needed.
#pragma once

#include "vhist/picture/frame_renderer.h"

#include "vhist/render/buffer.h"
#include "vhist/render/image.h"

#include <cstdint>
#include <vector>

namespace vhist::viewer {

class OffscreenTarget {
 public:
  OffscreenTarget(render::Context& context, VkExtent2D extent);
  ~OffscreenTarget();
  OffscreenTarget(const OffscreenTarget&) = delete;
  OffscreenTarget& operator=(const OffscreenTarget&) = delete;

  // The rasterized target (render pass ends with the image ready for transfer reads).
  RasterTarget raster() const { return {pass_.get(), framebuffer_, extent_}; }
  // The compute-composited target: a device-local RGBA8 buffer of the same size.
  CompositeTarget composite() const { return {extent_, composite_.address(), composite_.get()}; }
  VkRenderPass render_pass() const { return pass_.get(); }

  // Records copies of the image (after a raster tick) or the buffer (after a composite tick)
  // into the host-visible readback buffer; after the submission completes, pixels() returns
  // them as RGBA8, top row first.
  void record_readback_raster(VkCommandBuffer cmd) const;
  void record_readback_composite(VkCommandBuffer cmd) const;
  std::vector<std::uint8_t> pixels() const;

 private:
  VkDevice device_ = VK_NULL_HANDLE;
  VkExtent2D extent_{};
  render::Image2D image_;
  render::UniqueRenderPass pass_;
  VkFramebuffer framebuffer_ = VK_NULL_HANDLE;
  render::Buffer composite_;
  render::Buffer readback_;
};

}  // namespace vhist::viewer
