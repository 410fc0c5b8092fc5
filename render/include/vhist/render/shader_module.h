// A shader module from SPIR-V words (the generated vhist/shaders/*.spv.h arrays), owned.
#pragma once

#include "vhist/render/handles.h"

#include <cstdint>
#include <span>

namespace vhist::render {

// Throws VulkanError (VHIST_VK_CHECK) when the driver refuses the code.
UniqueShaderModule make_shader_module(VkDevice device, std::span<const std::uint32_t> spirv);

}  // namespace vhist::render
