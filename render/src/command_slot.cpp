#include "vhist/render/command_slot.h"

#include "vhist/render/vk_check.h"

#include <vector>

namespace vhist::render {

CommandSlot::CommandSlot(const Context& context, bool signaled) : device_(context.device()) {
  VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool_info.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
  pool_info.queueFamilyIndex = context.queue_family();
  VkCommandPool pool = VK_NULL_HANDLE;
  VHIST_VK_CHECK(vkCreateCommandPool(device_, &pool_info, nullptr, &pool));
  pool_ = UniqueCommandPool(device_, pool);
  VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  alloc.commandPool = pool;
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = 1;
  VHIST_VK_CHECK(vkAllocateCommandBuffers(device_, &alloc, &cmd_));
  VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  if (signaled) fence_info.flags = VK_FENCE_CREATE_SIGNALED_BIT;
  VkFence fence = VK_NULL_HANDLE;
  VHIST_VK_CHECK(vkCreateFence(device_, &fence_info, nullptr, &fence));
  fence_ = UniqueFence(device_, fence);
}

VkCommandBuffer CommandSlot::begin() {
  VHIST_VK_CHECK(vkResetCommandPool(device_, pool_.get(), 0));
  VkCommandBufferBeginInfo begin_info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin_info.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  VHIST_VK_CHECK(vkBeginCommandBuffer(cmd_, &begin_info));
  return cmd_;
}

void submit(const Context& context, VkCommandBuffer cmd, VkFence fence, VkSemaphore wait,
            VkPipelineStageFlags2 wait_stage, VkSemaphore signal) {
  VkSemaphoreSubmitInfo wait_info{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
  wait_info.semaphore = wait;
  wait_info.stageMask = wait_stage;
  VkSemaphoreSubmitInfo signal_info{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
  signal_info.semaphore = signal;
  signal_info.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
  VkCommandBufferSubmitInfo cmd_info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
  cmd_info.commandBuffer = cmd;
  VkSubmitInfo2 info{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
  info.waitSemaphoreInfoCount = wait != VK_NULL_HANDLE ? 1 : 0;
  info.pWaitSemaphoreInfos = &wait_info;
  info.commandBufferInfoCount = 1;
  info.pCommandBufferInfos = &cmd_info;
  info.signalSemaphoreInfoCount = signal != VK_NULL_HANDLE ? 1 : 0;
  info.pSignalSemaphoreInfos = &signal_info;
  context.submit(info, fence);
}

void submit_timeline(const Context& context, VkCommandBuffer cmd, VkFence fence, std::span<const TimelinePoint> waits,
                     std::span<const TimelinePoint> signals) {
  const auto infos = [](std::span<const TimelinePoint> points) {
    std::vector<VkSemaphoreSubmitInfo> out;
    for (const TimelinePoint& p : points) {
      if (p.semaphore == VK_NULL_HANDLE) continue;
      VkSemaphoreSubmitInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
      info.semaphore = p.semaphore;
      info.value = p.value;
      info.stageMask = p.stage;
      out.push_back(info);
    }
    return out;
  };
  const std::vector<VkSemaphoreSubmitInfo> wait_infos = infos(waits), signal_infos = infos(signals);
  VkCommandBufferSubmitInfo cmd_info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
  cmd_info.commandBuffer = cmd;
  VkSubmitInfo2 info{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
  info.waitSemaphoreInfoCount = static_cast<std::uint32_t>(wait_infos.size());
  info.pWaitSemaphoreInfos = wait_infos.data();
  info.commandBufferInfoCount = 1;
  info.pCommandBufferInfos = &cmd_info;
  info.signalSemaphoreInfoCount = static_cast<std::uint32_t>(signal_infos.size());
  info.pSignalSemaphoreInfos = signal_infos.data();
  context.submit(info, fence);
}

}  // namespace vhist::render
