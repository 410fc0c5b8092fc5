#include "vhist/render/descriptor_pool.h"

#include "vhist/render/vk_check.h"

namespace vhist::render {

UniqueDescriptorPool make_descriptor_pool(VkDevice device, std::uint32_t max_sets,
                                          std::initializer_list<VkDescriptorPoolSize> sizes,
                                          VkDescriptorPoolCreateFlags flags) {
  VkDescriptorPoolCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  info.flags = flags;
  info.maxSets = max_sets;
  info.poolSizeCount = static_cast<std::uint32_t>(sizes.size());
  info.pPoolSizes = sizes.begin();
  VkDescriptorPool pool = VK_NULL_HANDLE;
  VHIST_VK_CHECK(vkCreateDescriptorPool(device, &info, nullptr, &pool));
  return UniqueDescriptorPool(device, pool);
}

}  // namespace vhist::render
