#include "vhist/render/compute_pipeline.h"

#include "vhist/render/context.h"
#include "vhist/render/shader_module.h"
#include "vhist/render/vk_check.h"

#include <stdexcept>

namespace vhist::render {

ComputePipeline::ComputePipeline(const Context& context, std::span<const std::uint32_t> spirv,
                                 std::span<const SpecConstant> constants, std::uint32_t push_constant_bytes,
                                 const std::string& name, VkDescriptorSetLayout set_layout)
    : push_bytes_(push_constant_bytes) {
  const VkDevice device = context.device();

  const UniqueShaderModule module = make_shader_module(device, spirv);

  VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, push_constant_bytes};
  VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layout_info.pushConstantRangeCount = push_constant_bytes ? 1u : 0u;
  layout_info.pPushConstantRanges = &range;
  layout_info.setLayoutCount = set_layout != VK_NULL_HANDLE ? 1u : 0u;
  layout_info.pSetLayouts = &set_layout;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VHIST_VK_CHECK(vkCreatePipelineLayout(device, &layout_info, nullptr, &layout));
  layout_ = UniquePipelineLayout(device, layout);

  const Specialization spec(constants);

  VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = module.get();
  info.stage.pName = "main";
  info.stage.pSpecializationInfo = spec.info();
  info.layout = layout;
  VkPipeline pipeline = VK_NULL_HANDLE;
  VHIST_VK_CHECK(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline));
  pipeline_ = UniquePipeline(device, pipeline);
  context.set_name(VK_OBJECT_TYPE_PIPELINE, reinterpret_cast<std::uint64_t>(pipeline), name.c_str());
  context.set_name(VK_OBJECT_TYPE_PIPELINE_LAYOUT, reinterpret_cast<std::uint64_t>(layout), name.c_str());
}

void ComputePipeline::bind_and_push(VkCommandBuffer cmd, const void* data, std::uint32_t bytes) const {
  if (bytes != push_bytes_) {
    throw std::logic_error("push constant size mismatch for a compute pipeline");
  }
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_.get());
  if (bytes) vkCmdPushConstants(cmd, layout_.get(), VK_SHADER_STAGE_COMPUTE_BIT, 0, bytes, data);
}

void memory_barrier(VkCommandBuffer cmd, VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access,
                    VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access) {
  VkMemoryBarrier2 barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
  barrier.srcStageMask = src_stage;
  barrier.srcAccessMask = src_access;
  barrier.dstStageMask = dst_stage;
  barrier.dstAccessMask = dst_access;
  VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
  dep.memoryBarrierCount = 1;
  dep.pMemoryBarriers = &barrier;
  vkCmdPipelineBarrier2(cmd, &dep);
}

}  // namespace vhist::render
