// The window's present pass: the composite's picture (a device buffer, 4 bytes a pixel, tightly
// packed, in the image's byte order: CompositeTarget::bgra) stored into a B8G8R8A8 or R8G8B8A8
// UNORM image by a compute shader (shaders/present_pass.comp), byte for byte what
// vkCmdCopyBufferToImage would leave there. Used by the viewer's Presenter instead of that copy
// where the swapchain stores (render::Swapchain::stores_picture()): on an H100 that copy into a
// 3840x2160 image took 0.355 ms (about 190 GB/s). vhist-bench --viewer times both.
#pragma once

#include "vhist/render/compute_pipeline.h"
#include "vhist/render/context.h"
#include "vhist/render/handles.h"

#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>

namespace vhist::viewer {

class PresentPass {
 public:
  // Descriptor sets, one per frame in flight: a slot's set is rewritten when it is recorded again,
  // after that slot's previous command buffer has completed.
  static constexpr std::uint32_t kSlots = 2;

  explicit PresentPass(const render::Context& context);
  PresentPass(const PresentPass&) = delete;
  PresentPass& operator=(const PresentPass&) = delete;

  // Records the store of `picture` (`extent`'s pixels) into `image` through `view` (a view of its
  // format, the image made with STORAGE usage). It waits for the compute shaders' writes of the
  // picture, and for the COPY stage before the image's transition UNDEFINED -> GENERAL (its old
  // contents discarded), so that a semaphore waited for at the COPY stage (the swapchain's acquire)
  // orders it; it leaves the image in GENERAL, its writes for the caller to order (a render pass
  // dependency from the COMPUTE stage, or a barrier).
  void record(VkCommandBuffer cmd, std::uint32_t slot, VkDeviceAddress picture, bool bgra, VkImage image,
              VkImageView view, VkExtent2D extent);

 private:
  VkDevice device_;
  render::UniqueDescriptorSetLayout set_layout_;
  render::UniqueDescriptorPool pool_;
  std::array<VkDescriptorSet, kSlots> sets_{};
  render::ComputePipeline pipeline_;
};

}  // namespace vhist::viewer
