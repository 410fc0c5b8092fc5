#include "vhist/picture/offscreen.h"

#include "vhist/render/compute_pipeline.h"
#include "vhist/render/vk_check.h"

#include <cstring>

namespace vhist::viewer {

OffscreenTarget::OffscreenTarget(render::Context& context, VkExtent2D extent) : extent_(extent) {
  const VkDeviceSize bytes = VkDeviceSize{extent.width} * extent.height * 4;
  composite_ = render::Buffer(context, bytes,
                              VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                  VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                              render::MemoryUse::device, true, "offscreen composite");
  readback_ = render::Buffer(context, bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, render::MemoryUse::readback, false,
                             "offscreen readback");
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
