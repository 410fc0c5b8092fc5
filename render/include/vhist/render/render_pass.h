// The one render-pass shape vhist draws with: a single colour attachment, cleared at the start
// (or, from `initial_layout` other than UNDEFINED, loaded: drawn over what is there), stored,
// ending in `final_layout`; and framebuffers for it.
#pragma once

#include "vhist/render/handles.h"

#include <vulkan/vulkan.h>

namespace vhist::render {

// `before` orders the pass after earlier work on the attachment (its dstSubpass is set to 0).
UniqueRenderPass make_colour_pass(VkDevice device, VkFormat format, VkImageLayout initial_layout,
                                  VkImageLayout final_layout, VkSubpassDependency before);

// A framebuffer of `view` for `pass`; the caller destroys it (vkDestroyFramebuffer).
VkFramebuffer make_framebuffer(VkDevice device, VkRenderPass pass, VkImageView view, VkExtent2D extent);

}  // namespace vhist::render
