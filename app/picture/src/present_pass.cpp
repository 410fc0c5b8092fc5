#include "vhist/picture/present_pass.h"

#include "vhist/compute_push.h"
#include "vhist/shaders/present_pass.spv.h"

#include "vhist/render/descriptor_pool.h"
#include "vhist/render/image.h"
#include "vhist/render/vk_check.h"


namespace vhist::viewer {

namespace {

render::UniqueDescriptorSetLayout make_set_layout(VkDevice device) {
  const VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
  VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  info.bindingCount = 1;
  info.pBindings = &binding;
  VkDescriptorSetLayout layout = VK_NULL_HANDLE;
  VHIST_VK_CHECK(vkCreateDescriptorSetLayout(device, &info, nullptr, &layout));
  return render::UniqueDescriptorSetLayout(device, layout);
}

}  // namespace

PresentPass::PresentPass(const render::Context& context)
    : device_(context.device()), set_layout_(make_set_layout(device_)), pool_(render::make_descriptor_pool(device_, kSlots, {{VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, kSlots}})) {
  for (VkDescriptorSet& set : sets_) {
    VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    alloc.descriptorPool = pool_.get();
    alloc.descriptorSetCount = 1;
    const VkDescriptorSetLayout layout = set_layout_.get();
    alloc.pSetLayouts = &layout;
    VHIST_VK_CHECK(vkAllocateDescriptorSets(device_, &alloc, &set));
  }
  pipeline_ = render::ComputePipeline(context, present_pass_spv, {}, sizeof(shader::PresentPush), "present pass",
                                      set_layout_.get());
}

void PresentPass::record(VkCommandBuffer cmd, std::uint32_t slot, VkDeviceAddress picture, bool bgra, VkImage image,
                         VkImageView view, VkExtent2D extent) {
  const VkDescriptorSet set = sets_.at(slot);
  const VkDescriptorImageInfo info{VK_NULL_HANDLE, view, VK_IMAGE_LAYOUT_GENERAL};
  VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
  write.dstSet = set;
  write.dstBinding = 0;
  write.descriptorCount = 1;
  write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
  write.pImageInfo = &info;
  vkUpdateDescriptorSets(device_, 1, &write, 0, nullptr);

  render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                         VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
  render::image_barrier(cmd, image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_2_COPY_BIT, 0,
                        VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
  const shader::PresentPush push{picture, extent.width, extent.height, bgra ? 1u : 0u, 0u};
  pipeline_.dispatch(cmd, push, set, (extent.width + 31) / 32, (extent.height + 7) / 8);
}

}  // namespace vhist::viewer
