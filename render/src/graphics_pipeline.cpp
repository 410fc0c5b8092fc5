#include "vhist/render/graphics_pipeline.h"

#include "vhist/render/shader_module.h"
#include "vhist/render/vk_check.h"

#include <stdexcept>

namespace vhist::render {

namespace {

// Writes all four components; with `blend`, "over" blending (source alpha).
VkPipelineColorBlendAttachmentState colour_attachment(bool blend) {
  VkPipelineColorBlendAttachmentState attachment{};
  attachment.colorWriteMask =
      VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
  if (blend) {
    attachment.blendEnable = VK_TRUE;
    attachment.srcColorBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA;
    attachment.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
    attachment.colorBlendOp = VK_BLEND_OP_ADD;
    attachment.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
    attachment.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
    attachment.alphaBlendOp = VK_BLEND_OP_ADD;
  }
  return attachment;
}

}  // namespace

GraphicsPipeline::GraphicsPipeline(const Context& context, VkRenderPass render_pass,
                                   std::span<const std::uint32_t> vertex_spirv,
                                   std::span<const std::uint32_t> fragment_spirv, std::uint32_t push_constant_bytes,
                                   bool blend, const std::string& name, VkDescriptorSetLayout set_layout,
                                   std::span<const SpecConstant> fragment_constants)
    : push_bytes_(push_constant_bytes) {
  const VkDevice device = context.device();
  const VkPushConstantRange range{VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, push_constant_bytes};
  VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layout_info.pushConstantRangeCount = push_constant_bytes ? 1 : 0;
  layout_info.pPushConstantRanges = &range;
  layout_info.setLayoutCount = set_layout != VK_NULL_HANDLE ? 1 : 0;
  layout_info.pSetLayouts = &set_layout;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VHIST_VK_CHECK(vkCreatePipelineLayout(device, &layout_info, nullptr, &layout));
  layout_ = UniquePipelineLayout(device, layout);

  const UniqueShaderModule vs = make_shader_module(device, vertex_spirv);
  const UniqueShaderModule fs = make_shader_module(device, fragment_spirv);
  VkPipelineShaderStageCreateInfo stages[2]{};
  stages[0].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
  stages[0].module = vs.get();
  stages[0].pName = "main";
  stages[1].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
  stages[1].module = fs.get();
  stages[1].pName = "main";
  const Specialization spec(fragment_constants);
  stages[1].pSpecializationInfo = spec.info();

  VkPipelineVertexInputStateCreateInfo vertex_input{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  VkPipelineInputAssemblyStateCreateInfo assembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  VkPipelineViewportStateCreateInfo viewport{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
  viewport.viewportCount = 1;
  viewport.scissorCount = 1;
  VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  raster.polygonMode = VK_POLYGON_MODE_FILL;
  raster.cullMode = VK_CULL_MODE_NONE;
  raster.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
  raster.lineWidth = 1.0f;
  VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  const VkPipelineColorBlendAttachmentState attachment = colour_attachment(blend);
  VkPipelineColorBlendStateCreateInfo blend_state{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  blend_state.attachmentCount = 1;
  blend_state.pAttachments = &attachment;
  const VkDynamicState dynamic_states[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
  VkPipelineDynamicStateCreateInfo dynamic{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
  dynamic.dynamicStateCount = 2;
  dynamic.pDynamicStates = dynamic_states;

  VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
  info.stageCount = 2;
  info.pStages = stages;
  info.pVertexInputState = &vertex_input;
  info.pInputAssemblyState = &assembly;
  info.pViewportState = &viewport;
  info.pRasterizationState = &raster;
  info.pMultisampleState = &multisample;
  info.pColorBlendState = &blend_state;
  info.pDynamicState = &dynamic;
  info.layout = layout;
  info.renderPass = render_pass;
  info.subpass = 0;
  VkPipeline pipeline = VK_NULL_HANDLE;
  VHIST_VK_CHECK(vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline));
  pipeline_ = UniquePipeline(device, pipeline);
  context.set_name(VK_OBJECT_TYPE_PIPELINE, reinterpret_cast<std::uint64_t>(pipeline), name.c_str());
}

void GraphicsPipeline::draw(VkCommandBuffer cmd, const void* push, std::uint32_t bytes, VkDescriptorSet set) const {
  if (bytes != push_bytes_) throw std::invalid_argument("push constant size differs from the pipeline's");
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline_.get());
  if (set != VK_NULL_HANDLE) {
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout_.get(), 0, 1, &set, 0, nullptr);
  }
  if (bytes) {
    vkCmdPushConstants(cmd, layout_.get(), VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, bytes, push);
  }
  vkCmdDraw(cmd, 6, 1, 0, 0);
}

}  // namespace vhist::render
