// A descriptor pool, owned: the one place a VkDescriptorPool is made (the ImGui backend, the
// present pass and the frame renderer's composite sets each ask for the descriptors they need).
#pragma once

#include "vhist/render/handles.h"

#include <cstdint>
#include <initializer_list>

namespace vhist::render {

// A pool for `max_sets` sets that holds, of each type in `sizes`, that many descriptors in all.
// `flags`: VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT where sets are freed one by one (as
// ImGui's backend does); the pool's own sets otherwise live as long as it. Throws VulkanError
// (VHIST_VK_CHECK) when the driver refuses it.
UniqueDescriptorPool make_descriptor_pool(VkDevice device, std::uint32_t max_sets,
                                          std::initializer_list<VkDescriptorPoolSize> sizes,
                                          VkDescriptorPoolCreateFlags flags = 0);

}  // namespace vhist::render
