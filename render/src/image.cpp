#include "vhist/render/image.h"

#include "vhist/render/vk_check.h"

namespace vhist::render {

Image2D::Image2D(const Context& context, VkExtent2D extent, VkFormat format, VkImageUsageFlags usage,
                 const std::string& name)
    : extent_(extent), format_(format) {
  const VkDevice device = context.device();
  VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  info.imageType = VK_IMAGE_TYPE_2D;
  info.format = format;
  info.extent = {extent.width, extent.height, 1};
  info.mipLevels = 1;
  info.arrayLayers = 1;
  info.samples = VK_SAMPLE_COUNT_1_BIT;
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  info.usage = usage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  VkImage image = VK_NULL_HANDLE;
  VHIST_VK_CHECK(vkCreateImage(device, &info, nullptr, &image));
  image_ = UniqueImage(device, image);
  VkMemoryRequirements req{};
  vkGetImageMemoryRequirements(device, image, &req);
  VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  alloc.allocationSize = req.size;
  alloc.memoryTypeIndex = context.find_memory_type(req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VHIST_VK_CHECK(vkAllocateMemory(device, &alloc, nullptr, &memory));
  memory_ = UniqueMemory(device, memory);
  VHIST_VK_CHECK(vkBindImageMemory(device, image, memory, 0));
  view_ = make_image_view(device, image, format);
  context.set_name(VK_OBJECT_TYPE_IMAGE, reinterpret_cast<std::uint64_t>(image), name.c_str());
}

UniqueImageView make_image_view(VkDevice device, VkImage image, VkFormat format) {
  VkImageViewCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  info.image = image;
  info.viewType = VK_IMAGE_VIEW_TYPE_2D;
  info.format = format;
  info.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  VkImageView view = VK_NULL_HANDLE;
  VHIST_VK_CHECK(vkCreateImageView(device, &info, nullptr, &view));
  return UniqueImageView(device, view);
}

bool storage_writable(const Context& context, VkFormat format) {
  VkFormatProperties3 props3{VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_3};
  VkFormatProperties2 props{VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_2};
  props.pNext = &props3;
  vkGetPhysicalDeviceFormatProperties2(context.physical_device(), format, &props);
  const VkFormatFeatureFlags2 want = VK_FORMAT_FEATURE_2_STORAGE_IMAGE_BIT | VK_FORMAT_FEATURE_2_STORAGE_WRITE_WITHOUT_FORMAT_BIT;
  return (props3.optimalTilingFeatures & want) == want;
}

void image_barrier(VkCommandBuffer cmd, VkImage image, VkImageLayout from, VkImageLayout to,
                   VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access, VkPipelineStageFlags2 dst_stage,
                   VkAccessFlags2 dst_access) {
  VkImageMemoryBarrier2 barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
  barrier.srcStageMask = src_stage;
  barrier.srcAccessMask = src_access;
  barrier.dstStageMask = dst_stage;
  barrier.dstAccessMask = dst_access;
  barrier.oldLayout = from;
  barrier.newLayout = to;
  barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.image = image;
  barrier.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
  dep.imageMemoryBarrierCount = 1;
  dep.pImageMemoryBarriers = &barrier;
  vkCmdPipelineBarrier2(cmd, &dep);
}

}  // namespace vhist::render
