// A graphics pipeline for full-screen-style quads: no vertex buffers (the vertex shader makes
// the quad from gl_VertexIndex), push constants visible to both stages, dynamic viewport and
// scissor, optional alpha blending. Data reaches the shaders through buffer device addresses in
// the push constants, as in the compute passes, plus at most one descriptor set (the video's
// sampled image).
#pragma once

#include "vhist/render/context.h"
#include "vhist/render/handles.h"
#include "vhist/render/specialization.h"

#include <cstdint>
#include <span>
#include <string>

namespace vhist::render {

class GraphicsPipeline {
 public:
  GraphicsPipeline() = default;
  GraphicsPipeline(const Context& context, VkRenderPass render_pass, std::span<const std::uint32_t> vertex_spirv,
                   std::span<const std::uint32_t> fragment_spirv, std::uint32_t push_constant_bytes, bool blend,
                   const std::string& name, VkDescriptorSetLayout set_layout = VK_NULL_HANDLE,
                   std::span<const SpecConstant> fragment_constants = {});

  VkPipeline get() const noexcept { return pipeline_.get(); }
  VkPipelineLayout layout() const noexcept { return layout_.get(); }

  // Binds the pipeline (and `set` as set 0, when given), pushes `push` and draws the 6 vertices
  // of a quad.
  template <typename Push>
  void draw_quad(VkCommandBuffer cmd, const Push& push, VkDescriptorSet set = VK_NULL_HANDLE) const {
    draw(cmd, &push, sizeof(Push), set);
  }

 private:
  void draw(VkCommandBuffer cmd, const void* push, std::uint32_t bytes, VkDescriptorSet set) const;

  UniquePipelineLayout layout_;
  UniquePipeline pipeline_;
  std::uint32_t push_bytes_ = 0;
};

}  // namespace vhist::render
