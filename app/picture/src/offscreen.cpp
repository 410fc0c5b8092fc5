#include "vhist/picture/offscreen.h"

#include "vhist/render/compute_pipeline.h"
#include "vhist/render/render_pass.h"
#include "vhist/render/vk_check.h"

#include <cstring>

namespace vhist::viewer {

OffscreenTarget::OffscreenTarget(render::Context& context, VkExtent2D extent) : device_(context.device()), extent_(extent) {
  image_ = render::Image2D(context, extent, VK_FORMAT_R8G8B8A8_UNORM,
                           VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT, "offscreen");
  // Earlier readback copies of the image finish before this tick clears it.
  VkSubpassDependency after_readback{};
  after_readback.srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
  after_readback.dstStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
  after_readback.srcAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
  after_readback.dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  pass_ = render::make_colour_pass(device_, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, after_readback);
  framebuffer_ = render::make_framebuffer(device_, pass_.get(), image_.view(), extent);
  const VkDeviceSize bytes = VkDeviceSize{extent.width} * extent.height * 4;
  composite_ = render::Buffer(context, bytes,
                              VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                  VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                              render::MemoryUse::device, true, "offscreen composite");
  readback_ = render::Buffer(context, bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, render::MemoryUse::readback, false,
                             "offscreen readback");
}

OffscreenTarget::~OffscreenTarget() {
  if (framebuffer_ != VK_NULL_HANDLE) vkDestroyFramebuffer(device_, framebuffer_, nullptr);
}

void OffscreenTarget::record_readback_raster(VkCommandBuffer cmd) const {
  VkBufferImageCopy region{};
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.imageExtent = {extent_.width, extent_.height, 1};
  vkCmdCopyImageToBuffer(cmd, image_.get(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback_.get(), 1, &region);
  render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                         VK_ACCESS_2_HOST_READ_BIT);
}

void OffscreenTarget::record_readback_composite(VkCommandBuffer cmd) const {
  render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                         VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
  const VkBufferCopy region{0, 0, readback_.size()};
  vkCmdCopyBuffer(cmd, composite_.get(), readback_.get(), 1, &region);
  render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                         VK_ACCESS_2_HOST_READ_BIT);
}

std::vector<std::uint8_t> OffscreenTarget::pixels() const {
  const auto* bytes = static_cast<const std::uint8_t*>(readback_.mapped());
  return {bytes, bytes + readback_.size()};
}

}  // namespace vhist::viewer
