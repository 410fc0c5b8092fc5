// Move-only owners for Vulkan handles. A handle is destroyed exactly once, when its owner dies
// or is reset; the owner never outlives the VkDevice or VkInstance it was created from
// (Context owns those and is destroyed last).
#pragma once

#include <vulkan/vulkan.h>

#include <utility>

namespace vhist::render {

template <typename Handle, void (*Destroy)(VkDevice, Handle, const VkAllocationCallbacks*)>
class DeviceHandle {
 public:
  DeviceHandle() = default;
  DeviceHandle(VkDevice device, Handle handle) : device_(device), handle_(handle) {}
  DeviceHandle(const DeviceHandle&) = delete;
  DeviceHandle& operator=(const DeviceHandle&) = delete;
  DeviceHandle(DeviceHandle&& other) noexcept
      : device_(other.device_), handle_(std::exchange(other.handle_, Handle{})) {}
  DeviceHandle& operator=(DeviceHandle&& other) noexcept {
    if (this != &other) {
      reset();
      device_ = other.device_;
      handle_ = std::exchange(other.handle_, Handle{});
    }
    return *this;
  }
  ~DeviceHandle() { reset(); }

  void reset() noexcept {
    if (handle_ != Handle{}) {
      Destroy(device_, handle_, nullptr);
      handle_ = Handle{};
    }
  }
  Handle get() const noexcept { return handle_; }
  explicit operator bool() const noexcept { return handle_ != Handle{}; }

 private:
  VkDevice device_ = VK_NULL_HANDLE;
  Handle handle_{};
};

using UniqueBuffer = DeviceHandle<VkBuffer, vkDestroyBuffer>;
using UniqueMemory = DeviceHandle<VkDeviceMemory, vkFreeMemory>;
using UniqueShaderModule = DeviceHandle<VkShaderModule, vkDestroyShaderModule>;
using UniquePipelineLayout = DeviceHandle<VkPipelineLayout, vkDestroyPipelineLayout>;
using UniquePipeline = DeviceHandle<VkPipeline, vkDestroyPipeline>;
using UniqueCommandPool = DeviceHandle<VkCommandPool, vkDestroyCommandPool>;
using UniqueFence = DeviceHandle<VkFence, vkDestroyFence>;
using UniqueSemaphore = DeviceHandle<VkSemaphore, vkDestroySemaphore>;
using UniqueQueryPool = DeviceHandle<VkQueryPool, vkDestroyQueryPool>;
using UniqueImage = DeviceHandle<VkImage, vkDestroyImage>;
using UniqueImageView = DeviceHandle<VkImageView, vkDestroyImageView>;
using UniqueDescriptorPool = DeviceHandle<VkDescriptorPool, vkDestroyDescriptorPool>;
using UniqueDescriptorSetLayout = DeviceHandle<VkDescriptorSetLayout, vkDestroyDescriptorSetLayout>;
using UniqueRenderPass = DeviceHandle<VkRenderPass, vkDestroyRenderPass>;

}  // namespace vhist::render
