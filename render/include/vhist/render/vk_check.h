// Checking VkResult values. Every Vulkan call that returns a VkResult goes through
// VHIST_VK_CHECK, which throws VulkanError naming the call, the result and the source location:
//   "vkCreateDevice failed: VK_ERROR_INITIALIZATION_FAILED (render/src/context.cpp:212)".
#pragma once

#include <vulkan/vulkan.h>

#include <source_location>
#include <stdexcept>
#include <string>
#include <string_view>

namespace vhist::render {

// The enumerator name of a VkResult ("VK_ERROR_DEVICE_LOST"), or "VkResult(<n>)".
std::string_view result_name(VkResult result);

// Thrown for a failed Vulkan call; result() keeps the VkResult for callers that recover.
class VulkanError : public std::runtime_error {
 public:
  VulkanError(std::string_view call, VkResult result, std::source_location where);
  VulkanError(const std::string& message, VkResult result);
  VkResult result() const noexcept { return result_; }

 private:
  VkResult result_;
};

// Throws VulkanError unless `result` is VK_SUCCESS (or another non-error status: VK_INCOMPLETE,
// VK_SUBOPTIMAL_KHR ... are returned to the caller, which decides).
inline VkResult check(VkResult result, std::string_view call,
                      std::source_location where = std::source_location::current()) {
  if (result < 0) {
    throw VulkanError(call, result, where);
  }
  return result;
}

}  // namespace vhist::render

// VHIST_VK_CHECK(vkCreateBuffer(device, &info, nullptr, &buffer));
#define VHIST_VK_CHECK(call) ::vhist::render::check((call), #call)
