#include "vhist/render/vk_check.h"

#include <cstring>
#include <string>

namespace vhist::render {

std::string_view result_name(VkResult result) {
  switch (result) {
#define VHIST_RESULT_CASE(name) \
  case name:                    \
    return #name;
    VHIST_RESULT_CASE(VK_SUCCESS)
    VHIST_RESULT_CASE(VK_NOT_READY)
    VHIST_RESULT_CASE(VK_TIMEOUT)
    VHIST_RESULT_CASE(VK_EVENT_SET)
    VHIST_RESULT_CASE(VK_EVENT_RESET)
    VHIST_RESULT_CASE(VK_INCOMPLETE)
    VHIST_RESULT_CASE(VK_ERROR_OUT_OF_HOST_MEMORY)
    VHIST_RESULT_CASE(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    VHIST_RESULT_CASE(VK_ERROR_INITIALIZATION_FAILED)
    VHIST_RESULT_CASE(VK_ERROR_DEVICE_LOST)
    VHIST_RESULT_CASE(VK_ERROR_MEMORY_MAP_FAILED)
    VHIST_RESULT_CASE(VK_ERROR_LAYER_NOT_PRESENT)
    VHIST_RESULT_CASE(VK_ERROR_EXTENSION_NOT_PRESENT)
    VHIST_RESULT_CASE(VK_ERROR_FEATURE_NOT_PRESENT)
    VHIST_RESULT_CASE(VK_ERROR_INCOMPATIBLE_DRIVER)
    VHIST_RESULT_CASE(VK_ERROR_TOO_MANY_OBJECTS)
    VHIST_RESULT_CASE(VK_ERROR_FORMAT_NOT_SUPPORTED)
    VHIST_RESULT_CASE(VK_ERROR_FRAGMENTED_POOL)
    VHIST_RESULT_CASE(VK_ERROR_UNKNOWN)
    VHIST_RESULT_CASE(VK_ERROR_OUT_OF_POOL_MEMORY)
    VHIST_RESULT_CASE(VK_ERROR_INVALID_EXTERNAL_HANDLE)
    VHIST_RESULT_CASE(VK_ERROR_FRAGMENTATION)
    VHIST_RESULT_CASE(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
    VHIST_RESULT_CASE(VK_PIPELINE_COMPILE_REQUIRED)
    VHIST_RESULT_CASE(VK_ERROR_SURFACE_LOST_KHR)
    VHIST_RESULT_CASE(VK_ERROR_NATIVE_WINDOW_IN_USE_KHR)
    VHIST_RESULT_CASE(VK_SUBOPTIMAL_KHR)
    VHIST_RESULT_CASE(VK_ERROR_OUT_OF_DATE_KHR)
    VHIST_RESULT_CASE(VK_ERROR_INCOMPATIBLE_DISPLAY_KHR)
    VHIST_RESULT_CASE(VK_ERROR_VALIDATION_FAILED_EXT)
    VHIST_RESULT_CASE(VK_ERROR_INVALID_SHADER_NV)
#undef VHIST_RESULT_CASE
    default:
      break;
  }
  thread_local std::string fallback;
  fallback = "VkResult(" + std::to_string(static_cast<int>(result)) + ")";
  return fallback;
}

namespace {

std::string describe(std::string_view call, VkResult result, std::source_location where) {
  // Keep only the call's name: "vkCreateDevice(physical, &info, ...)" -> "vkCreateDevice".
  const std::string_view name = call.substr(0, call.find('('));
  // Paths relative to the repository read better than absolute build paths.
  std::string_view file = where.file_name();
  for (const char* top : {"/render/", "/compute/", "/app/", "/tests/"}) {
    if (const auto pos = file.rfind(top); pos != std::string_view::npos) {
      file = file.substr(pos + 1);
      break;
    }
  }
  std::string message;
  message += name;
  message += " failed: ";
  message += result_name(result);
  message += " (";
  message += file;
  message += ':';
  message += std::to_string(where.line());
  message += ')';
  return message;
}

}  // namespace

VulkanError::VulkanError(std::string_view call, VkResult result, std::source_location where)
    : std::runtime_error(describe(call, result, where)), result_(result) {}

VulkanError::VulkanError(const std::string& message, VkResult result)
    : std::runtime_error(message), result_(result) {}

}  // namespace vhist::render
