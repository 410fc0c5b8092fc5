#include "underlay_image.h"

#include "vhist/render/compute_pipeline.h"

#include <cstring>

namespace vhist::viewer {

namespace {

constexpr VkFormat kFormat = VK_FORMAT_R8G8B8A8_UNORM;  // 0xAABBGGRR in memory order R, G, B, A

}  // namespace

bool UnderlayImage::supported(const render::Context& context, VkFormat target) {
  VkFormatProperties source{}, destination{};
  vkGetPhysicalDeviceFormatProperties(context.physical_device(), kFormat, &source);
  vkGetPhysicalDeviceFormatProperties(context.physical_device(), target, &destination);
  return (source.optimalTilingFeatures & VK_FORMAT_FEATURE_BLIT_SRC_BIT) != 0 &&
         (source.optimalTilingFeatures & VK_FORMAT_FEATURE_TRANSFER_DST_BIT) != 0 &&
         (destination.optimalTilingFeatures & VK_FORMAT_FEATURE_BLIT_DST_BIT) != 0;
}

void UnderlayImage::stage(const Underlay& underlay) {
  stamp_ = underlay.stamp;
  upload_pending_ = false;
  if (underlay.width == 0 || underlay.height == 0 || !underlay.pixels) {
    image_ = {}, staging_ = {}, uploaded_ = false;
    return;
  }
  const VkDeviceSize bytes = VkDeviceSize{underlay.width} * underlay.height * 4;
  if (!image_ || image_.extent().width != underlay.width || image_.extent().height != underlay.height) {
    image_ = {}, staging_ = {}, uploaded_ = false;  // freed before the new ones are made
    // SAMPLED: Image2D makes a view, which needs a usage of views; the image is only blitted.
    image_ = render::Image2D(context_, {underlay.width, underlay.height}, kFormat,
                             VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_SAMPLED_BIT,
                             "timeline heatmap");
    staging_ = render::Buffer(context_, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, render::MemoryUse::upload, false,
                              "timeline heatmap staging");
  }
  std::memcpy(staging_.mapped(), underlay.pixels, bytes);
  upload_pending_ = true;
}

void UnderlayImage::record_upload(VkCommandBuffer cmd) {
  // Earlier ticks' blits read the image: the copy waits for them (write after read).
  render::image_barrier(cmd, image_.get(), uploaded_ ? VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL : VK_IMAGE_LAYOUT_UNDEFINED,
                        VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_BLIT_BIT, 0, VK_PIPELINE_STAGE_2_COPY_BIT,
                        VK_ACCESS_2_TRANSFER_WRITE_BIT);
  VkBufferImageCopy region{};
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.imageExtent = {image_.extent().width, image_.extent().height, 1};
  vkCmdCopyBufferToImage(cmd, staging_.get(), image_.get(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
  render::image_barrier(cmd, image_.get(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                        VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_BLIT_BIT,
                        VK_ACCESS_2_TRANSFER_READ_BIT);
  upload_pending_ = false;
  uploaded_ = true;
}

void UnderlayImage::record(VkCommandBuffer cmd, VkImage target, VkImageLayout layout, VkExtent2D extent,
                           VkPipelineStageFlags2 written_stage, VkAccessFlags2 written_access,
                           const std::array<std::int32_t, 4>& rect) {
  if (!image_) return;
  if (upload_pending_) record_upload(cmd);
  const bool inside = rect[0] >= 0 && rect[1] >= 0 && rect[0] < rect[2] && rect[1] < rect[3] &&
                      rect[2] <= static_cast<std::int32_t>(extent.width) && rect[3] <= static_cast<std::int32_t>(extent.height);
  if (!inside) return;
  // The picture's writes before the blit's (write after write), in the layout they left.
  render::image_barrier(cmd, target, layout, layout, written_stage, written_access, VK_PIPELINE_STAGE_2_BLIT_BIT,
                        VK_ACCESS_2_TRANSFER_WRITE_BIT);
  VkImageBlit blit{};
  blit.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  blit.srcOffsets[1] = {static_cast<std::int32_t>(image_.extent().width), static_cast<std::int32_t>(image_.extent().height), 1};
  blit.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  blit.dstOffsets[0] = {rect[0], rect[1], 0};
  blit.dstOffsets[1] = {rect[2], rect[3], 1};
  vkCmdBlitImage(cmd, image_.get(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, target, layout, 1, &blit, VK_FILTER_NEAREST);
  render::image_barrier(cmd, target, layout, layout, VK_PIPELINE_STAGE_2_BLIT_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                        VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                        VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
}

}  // namespace vhist::viewer
