#include "vhist/compute/frame_upload.h"

#include "vhist/render/compute_pipeline.h"
#include "vhist/render/vk_check.h"
#include "vhist/compute_push.h"
#include "vhist/shaders/rect_copy.spv.h"

#include <algorithm>
#include <cstring>
#include <thread>
#include <vector>

namespace vhist {

bool grow_buffer(const render::Context& context, render::Buffer& buffer, std::uint64_t bytes, VkBufferUsageFlags usage,
                 render::MemoryUse use, bool addressable, const char* name, bool exportable) {
  if (!needs_growth(buffer, bytes)) return false;
  const std::uint64_t size = (bytes + bytes / 8 + 15) & ~std::uint64_t{15};
  buffer = render::Buffer(context, size, usage, use, addressable, name, exportable);
  return true;
}

bool grow_frame_buffer(const render::Context& context, render::Buffer& buffer, const FrameFormat& format,
                       const char* name) {
  const std::uint64_t bytes = (format.byte_size() + 15) & ~std::uint64_t{15};
  return grow_buffer(context, buffer, bytes,
                     VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                         VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                     render::MemoryUse::device, true, name);
}

FrameUpload::FrameUpload(render::Context& context, unsigned copy_threads, Staging staging)
    : context_(context),
      direct_(staging == Staging::automatic && context.host_visible_device_heap() >= kDirectStagingHeap),
      converter_(context),
      rect_copy_(context, rect_copy_spv, {}, sizeof(shader::RectCopyPush), "rect copy"),
      // A copy of a 4K frame (12 MB) takes about a millisecond on one core: use up to four
      // threads, leaving the other cores to the decoder.
      copiers_(copy_threads != 0 ? copy_threads : std::clamp(std::thread::hardware_concurrency() / 4, 1u, 4u)) {}

std::string FrameUpload::check(const VideoFormat& format, const VideoPlanes& planes) const {
  return converter_.check(format, planes.stride);
}

PlaneOffsets FrameUpload::stage(const VideoFormat& format, const VideoPlanes& planes, render::Buffer& staging) {
  const PlaneOffsets layout = plane_offsets(format, planes.stride);
  grow_staging(staging, layout.total);
  auto* dst = static_cast<std::byte*>(staging.mapped());
  if (layout.total < kParallelCopyBytes || copiers_.size() == 1) {
    copy_planes(format, planes, layout, dst);
    return layout;
  }
  const unsigned parts = copiers_.size();
  copiers_.run([&](unsigned part) {
    for (std::uint32_t p = 0; p < format.plane_count; ++p) {
      const std::uint64_t begin = layout.bytes[p] * part / parts, end = layout.bytes[p] * (part + 1) / parts;
      std::memcpy(dst + layout.offset[p] + begin, planes.data[p] + begin, end - begin);
    }
  });
  return layout;
}

void FrameUpload::grow_staging(render::Buffer& staging, std::uint64_t bytes) {
  if (direct_) {
    try {
      grow_buffer(context_, staging, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                  render::MemoryUse::upload_device, true, "frame planes (staged in device memory)");
      return;
    } catch (const render::VulkanError&) {
      // That heap is full (other programs share it): host staging and a copy from now on. A
      // slot's earlier device-memory staging still serves as a copy source.
      direct_ = false;
    }
  }
  grow_buffer(context_, staging, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, render::MemoryUse::upload, false,
              "frame staging");
}

bool FrameUpload::grow_device_planes(render::Buffer& device_planes, const PlaneOffsets& layout) const {
  if (direct_) return false;
  return grow_buffer(context_, device_planes, layout.total,
                     VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, render::MemoryUse::device,
                     true, "frame planes");
}

const render::Buffer& FrameUpload::record_copy(VkCommandBuffer cmd, const render::Buffer& staging,
                                              const render::Buffer& device_planes, const PlaneOffsets& layout) const {
  if (direct_) return staging;
  const VkBufferCopy region{0, 0, layout.total};
  vkCmdCopyBuffer(cmd, staging.get(), device_planes.get(), 1, &region);
  render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                         VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
  return device_planes;
}

void FrameUpload::record_convert(VkCommandBuffer cmd, const VideoFormat& format, const VideoPlanes& planes,
                                 const render::Buffer& device_planes, const PlaneOffsets& layout,
                                 VkDeviceAddress dst, VkDeviceAddress measures) const {
  converter_.record(cmd, format, gpu_planes(format, planes, device_planes, layout), dst, measures);
}

GpuPlanes gpu_planes(const VideoFormat& format, const VideoPlanes& planes, const render::Buffer& device_planes,
                     const PlaneOffsets& layout) {
  GpuPlanes gpu;
  for (std::uint32_t p = 0; p < format.plane_count; ++p) {
    gpu.address[p] = device_planes.address() + layout.offset[p];
    gpu.stride[p] = planes.stride[p];
  }
  return gpu;
}

void FrameUpload::record_rect_copy(VkCommandBuffer cmd, VkDeviceAddress from, VkDeviceAddress to,
                                   const FrameFormat& whole, const PixelRect& rect) const {
  const std::uint32_t words = whole.bytes_per_pixel() / 4;  // per pixel
  const shader::RectCopyPush push{from, to, whole.width * words, rect.x * words, rect.width * words, rect.y};
  rect_copy_.dispatch(cmd, push, std::min((rect.width * words + 255) / 256, 64u), rect.height);
  render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                         VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
}

}  // namespace vhist
