#include "vhist/render/shader_module.h"

#include "vhist/render/vk_check.h"

namespace vhist::render {

UniqueShaderModule make_shader_module(VkDevice device, std::span<const std::uint32_t> spirv) {
  VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  info.codeSize = spirv.size_bytes();
  info.pCode = spirv.data();
  VkShaderModule module = VK_NULL_HANDLE;
  VHIST_VK_CHECK(vkCreateShaderModule(device, &info, nullptr, &module));
  return UniqueShaderModule(device, module);
}

}  // namespace vhist::render
