#include "vhist/compute/match_pass.h"

#include "vhist/compute/frame_stats.h"
#include "vhist/compute_push.h"
#include "vhist/shaders/hist_match.spv.h"

#include <stdexcept>

namespace vhist {

MatchPass::MatchPass(render::Context& context) : context_(context) {}

void MatchPass::record(VkCommandBuffer cmd, VkDeviceAddress live_cdf, std::uint32_t bits, VkDeviceAddress reference_cdf,
                       std::uint32_t reference_levels, VkDeviceAddress table) {
  if (bits < 8 || bits > 16) throw std::invalid_argument("MatchPass: frames of 8 to 16 bits");
  const std::uint32_t levels = stats_levels(bits);
  if (reference_levels == 0 || reference_levels > levels || (reference_levels & (reference_levels - 1)) != 0) {
    throw std::invalid_argument("MatchPass: the reference needs a power of two of levels, at most the frame's");
  }
  auto& pipeline = pipelines_[{levels, bits}];
  if (!pipeline) {
    const render::SpecConstant constants[] = {{shader::kSpecBins, levels}, {shader::kSpecBits, bits}};
    pipeline = std::make_unique<render::ComputePipeline>(context_, hist_match_spv, constants,
                                                         sizeof(shader::MatchPush), "match");
  }
  const shader::MatchPush push{live_cdf, reference_cdf, table, reference_levels, 0};
  pipeline->dispatch(cmd, push, 1);
}

}  // namespace vhist
