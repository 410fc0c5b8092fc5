// A device-local 2D colour image with a view, and image layout barriers. The viewer draws into
// its swapchain's images; Image2D is vhist-bench's stand-in for one (the present copy's target).
#pragma once

#include "vhist/render/context.h"
#include "vhist/render/handles.h"

#include <string>

namespace vhist::render {

class Image2D {
 public:
  Image2D() = default;
  Image2D(const Context& context, VkExtent2D extent, VkFormat format, VkImageUsageFlags usage, const std::string& name);

  VkImage get() const noexcept { return image_.get(); }
  VkImageView view() const noexcept { return view_.get(); }
  VkExtent2D extent() const noexcept { return extent_; }
  VkFormat format() const noexcept { return format_; }
  explicit operator bool() const noexcept { return static_cast<bool>(image_); }

 private:
  UniqueMemory memory_;  // declared first: destroyed after the image and view
  UniqueImage image_;
  UniqueImageView view_;
  VkExtent2D extent_{};
  VkFormat format_ = VK_FORMAT_UNDEFINED;
};

// A 2D view of the single-mip colour image `image` (the video frames, the swapchain's images).
UniqueImageView make_image_view(VkDevice device, VkImage image, VkFormat format);

// Whether a compute shader can write images of `format` (optimal tiling) bound as storage images
// declared without a format: the features STORAGE_IMAGE and STORAGE_WRITE_WITHOUT_FORMAT (the
// window's present pass; B8G8R8A8 has no SPIR-V image format, so it is written unformatted).
bool storage_writable(const Context& context, VkFormat format);

// A layout transition of a whole single-mip colour image (synchronization2).
void image_barrier(VkCommandBuffer cmd, VkImage image, VkImageLayout from, VkImageLayout to,
                   VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access, VkPipelineStageFlags2 dst_stage,
                   VkAccessFlags2 dst_access);

}  // namespace vhist::render
