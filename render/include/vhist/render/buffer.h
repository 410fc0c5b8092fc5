// A VkBuffer with its own memory. Device-local buffers get a device address when asked
// (shaders reach frames and histograms through buffer_reference); host buffers stay mapped
// for their whole life.
#pragma once

#include "vhist/render/handles.h"

#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>

namespace vhist::render {

class Context;

enum class MemoryUse {
  device,    // device-local; not mapped
  upload,    // host-visible and coherent, written by the CPU (staging)
  // device-local, host-visible and coherent: written by the CPU, read by shaders where it lies
  // (a discrete GPU's memory through a resizable BAR, or a device whose memory is the host's)
  upload_device,
  readback,  // host-visible and coherent, preferably cached, read by the CPU
};

class Buffer {
 public:
  Buffer() = default;
  // `usage` gets SHADER_DEVICE_ADDRESS added when `addressable`; `name` labels the buffer
  // for validation messages and debuggers.
  // `exportable`: its memory is a dedicated allocation that can be exported as an opaque POSIX
  // file descriptor (VK_KHR_external_memory_fd, enabled by the caller's context) for another API
  // to write into (a hardware decoder's CUDA copy, app/hwdec).
  Buffer(const Context& context, VkDeviceSize size, VkBufferUsageFlags usage, MemoryUse use, bool addressable,
         const std::string& name, bool exportable = false);

  VkBuffer get() const noexcept { return buffer_.get(); }
  VkDeviceSize size() const noexcept { return size_; }
  VkDeviceAddress address() const noexcept { return address_; }  // 0 unless addressable
  void* mapped() const noexcept { return mapped_; }              // nullptr for MemoryUse::device
  VkDeviceMemory memory() const noexcept { return memory_.get(); }
  VkDeviceSize allocation_size() const noexcept { return allocation_size_; }  // of memory(), >= size()
  explicit operator bool() const noexcept { return static_cast<bool>(buffer_); }

 private:
  UniqueMemory memory_;  // declared first so that the buffer is destroyed before its memory
  UniqueBuffer buffer_;
  VkDeviceSize size_ = 0;
  VkDeviceSize allocation_size_ = 0;
  VkDeviceAddress address_ = 0;
  void* mapped_ = nullptr;
};

}  // namespace vhist::render
