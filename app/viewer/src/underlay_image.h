// A small image of pixels copied into the window's picture before the UI is drawn over it (the
// timeline's heatmap, presenter.h's Underlay): uploaded through a staging buffer only when the
// pixels change, then scaled into its rectangle of the swapchain image each tick by a blit with
// nearest filtering (its cells stay sharp). Debian's ImGui 1.86 Vulkan backend draws every
// command with its font texture (no user textures), so the heatmap is drawn under ImGui instead,
// and ImGui draws the strip's curves, markers and background around it. Main thread only.
#pragma once

#include "vhist/render/buffer.h"
#include "vhist/render/context.h"
#include "vhist/render/image.h"
#include "vhist/viewer/presenter.h"

#include <cstdint>

namespace vhist::viewer {

class UnderlayImage {
 public:
  // Whether the device can blit from the image (R8G8B8A8_UNORM) into images of `target` (both
  // with optimal tiling). Where it cannot, the caller draws the pixels some other way.
  static bool supported(const render::Context& context, VkFormat target);

  explicit UnderlayImage(const render::Context& context) : context_(context) {}

  // Whether `underlay`'s pixels are not yet staged (its stamp differs).
  bool stale(const Underlay& underlay) const noexcept { return underlay.stamp != stamp_; }
  // Copies `underlay`'s pixels into the staging buffer (a new buffer and image when its size
  // changed); the next record() uploads them. The caller has waited for every command buffer that
  // used the old ones. Throws render::VulkanError when the device cannot make them.
  void stage(const Underlay& underlay);
  // Records into `cmd`, after the picture was written into `target` (in `layout`, by
  // `written_stage` with `written_access`): the staged upload if there is one, then the image
  // scaled into `rect` (x0, y0, x1, y1 pixels; nothing when it is empty or not inside `extent`).
  // The blit's writes are made available to the colour attachment stage (the UI's render pass
  // loads the image). Nothing without staged pixels.
  void record(VkCommandBuffer cmd, VkImage target, VkImageLayout layout, VkExtent2D extent,
              VkPipelineStageFlags2 written_stage, VkAccessFlags2 written_access, const std::array<std::int32_t, 4>& rect);

 private:
  void record_upload(VkCommandBuffer cmd);

  const render::Context& context_;
  render::Image2D image_;   // R8G8B8A8_UNORM, TRANSFER_SRC_OPTIMAL once uploaded
  render::Buffer staging_;  // host-visible, the image's pixels tightly packed
  std::uint64_t stamp_ = 0;
  bool upload_pending_ = false, uploaded_ = false;
};

}  // namespace vhist::viewer
