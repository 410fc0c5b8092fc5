// Helpers for the colour images vhist does not own (the swapchain's): a 2D view of one, and a
// layout transition.
#pragma once

#include "vhist/render/handles.h"

namespace vhist::render {

// A 2D view of the single-mip colour image `image` (the swapchain's images).
UniqueImageView make_image_view(VkDevice device, VkImage image, VkFormat format);

// A layout transition of a whole single-mip colour image (synchronization2).
void image_barrier(VkCommandBuffer cmd, VkImage image, VkImageLayout from, VkImageLayout to,
                   VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access, VkPipelineStageFlags2 dst_stage,
                   VkAccessFlags2 dst_access);

}  // namespace vhist::render
