// A compute pipeline built from SPIR-V compiled into the binary, specialized with
// (constant_id, value) pairs, whose resource interface is a push-constant block (shaders reach
// buffers through device addresses) and, where given, one descriptor set (set 0): a uniform
// buffer's fields are read once for all invocations on CPU devices, where every read through a
// device address is one load per invocation.
#pragma once

#include "vhist/render/handles.h"
#include "vhist/render/specialization.h"

#include <vulkan/vulkan.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace vhist::render {

class Context;

class ComputePipeline {
 public:
  ComputePipeline() = default;
  ComputePipeline(const Context& context, std::span<const std::uint32_t> spirv, std::span<const SpecConstant> constants,
                  std::uint32_t push_constant_bytes, const std::string& name,
                  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE);

  VkPipeline get() const noexcept { return pipeline_.get(); }
  VkPipelineLayout layout() const noexcept { return layout_.get(); }

  // Binds the pipeline, pushes `push` (push_constant_bytes of it) and dispatches.
  template <typename Push>
  void dispatch(VkCommandBuffer cmd, const Push& push, std::uint32_t x, std::uint32_t y = 1) const {
    bind_and_push(cmd, &push, sizeof(Push));
    vkCmdDispatch(cmd, x, y, 1);
  }
  // The same with `set` bound as set 0 (a pipeline made with a set layout).
  template <typename Push>
  void dispatch(VkCommandBuffer cmd, const Push& push, VkDescriptorSet set, std::uint32_t x, std::uint32_t y) const {
    bind_and_push(cmd, &push, sizeof(Push));
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout_.get(), 0, 1, &set, 0, nullptr);
    vkCmdDispatch(cmd, x, y, 1);
  }
  // For a pipeline without push constants.
  void dispatch_without_push(VkCommandBuffer cmd, std::uint32_t x, std::uint32_t y = 1) const {
    bind_and_push(cmd, nullptr, 0);
    vkCmdDispatch(cmd, x, y, 1);
  }

 private:
  void bind_and_push(VkCommandBuffer cmd, const void* data, std::uint32_t bytes) const;

  UniquePipelineLayout layout_;
  UniquePipeline pipeline_;
  std::uint32_t push_bytes_ = 0;
};

// A memory dependency between commands in one command buffer (synchronization2).
void memory_barrier(VkCommandBuffer cmd, VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access,
                    VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access);

}  // namespace vhist::render
