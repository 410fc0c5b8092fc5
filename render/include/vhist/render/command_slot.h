// One command buffer in a transient pool of its own, with the fence of its last submission: the
// unit that frames in flight cycle through (the video pipeline's slots, the viewer's ticks).
#pragma once

#include "vhist/render/context.h"
#include "vhist/render/handles.h"

#include <cstdint>
#include <span>

namespace vhist::render {

class CommandSlot {
 public:
  CommandSlot() = default;
  // `signaled`: the fence starts signaled, so the first wait for it returns at once.
  CommandSlot(const Context& context, bool signaled);

  // Resets the pool and begins the command buffer for a one-time submission. The caller has
  // waited for (and reset) the fence of the previous one.
  VkCommandBuffer begin();
  VkCommandBuffer cmd() const noexcept { return cmd_; }
  VkFence fence() const noexcept { return fence_.get(); }

 private:
  VkDevice device_ = VK_NULL_HANDLE;
  UniqueCommandPool pool_;
  VkCommandBuffer cmd_ = VK_NULL_HANDLE;
  UniqueFence fence_;
};

// Submits `cmd` to the context's queue, signalling `fence`; optionally waiting for `wait` at
// `wait_stage` and signalling `signal` (the swapchain's acquire and present semaphores).
void submit(const Context& context, VkCommandBuffer cmd, VkFence fence, VkSemaphore wait = VK_NULL_HANDLE,
            VkPipelineStageFlags2 wait_stage = 0, VkSemaphore signal = VK_NULL_HANDLE);

// A point on a timeline semaphore: wait for (or signal) `value`, at `stage`.
struct TimelinePoint {
  VkSemaphore semaphore = VK_NULL_HANDLE;
  std::uint64_t value = 0;
  VkPipelineStageFlags2 stage = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
};

// Submits `cmd` signalling `fence`, waiting for the timeline points `waits` and signalling
// `signals` (those with a null semaphore are left out): the hardware decoder's sync (app/hwdec).
void submit_timeline(const Context& context, VkCommandBuffer cmd, VkFence fence, std::span<const TimelinePoint> waits,
                     std::span<const TimelinePoint> signals);

}  // namespace vhist::render
