#include "vhist/render/render_pass.h"

#include "vhist/render/vk_check.h"

namespace vhist::render {

UniqueRenderPass make_colour_pass(VkDevice device, VkFormat format, VkImageLayout initial_layout,
                                  VkImageLayout final_layout, VkSubpassDependency before) {
  VkAttachmentDescription colour{};
  colour.format = format;
  colour.samples = VK_SAMPLE_COUNT_1_BIT;
  colour.loadOp = initial_layout == VK_IMAGE_LAYOUT_UNDEFINED ? VK_ATTACHMENT_LOAD_OP_CLEAR : VK_ATTACHMENT_LOAD_OP_LOAD;
  colour.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  colour.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  colour.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  colour.initialLayout = initial_layout;
  colour.finalLayout = final_layout;
  VkAttachmentReference ref{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.colorAttachmentCount = 1;
  subpass.pColorAttachments = &ref;
  before.srcSubpass = VK_SUBPASS_EXTERNAL;
  before.dstSubpass = 0;
  VkRenderPassCreateInfo info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
  info.attachmentCount = 1;
  info.pAttachments = &colour;
  info.subpassCount = 1;
  info.pSubpasses = &subpass;
  info.dependencyCount = 1;
  info.pDependencies = &before;
  VkRenderPass pass = VK_NULL_HANDLE;
  VHIST_VK_CHECK(vkCreateRenderPass(device, &info, nullptr, &pass));
  return UniqueRenderPass(device, pass);
}

VkFramebuffer make_framebuffer(VkDevice device, VkRenderPass pass, VkImageView view, VkExtent2D extent) {
  VkFramebufferCreateInfo info{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
  info.renderPass = pass;
  info.attachmentCount = 1;
  info.pAttachments = &view;
  info.width = extent.width;
  info.height = extent.height;
  info.layers = 1;
  VkFramebuffer framebuffer = VK_NULL_HANDLE;
  VHIST_VK_CHECK(vkCreateFramebuffer(device, &info, nullptr, &framebuffer));
  return framebuffer;
}

}  // namespace vhist::render
