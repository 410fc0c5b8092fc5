// One command buffer in a transient pool of its own, with the fence of its last submission: the
// unit that frames in flight cycle through (the video pipeline's slots, the viewer's ticks).
#pragma once

#include "vhist/render/context.h"
#include "vhist/render/handles.h"

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

}  // namespace vhist::render
