// The GPU match pass (hist_match.comp): the histogram matching table of a frame to a reference,
// from the frame's prefix sum (HistogramEngine::record_cdf) and the reference's cumulative
// counts; equal to reference_match_table() (histogram_match.h). The table is applied by
// HistogramEngine::record_equalize with EqualizeMode::channels.
//
// One thread records at a time (pipelines are created lazily on first use).
#pragma once

#include "vhist/render/compute_pipeline.h"
#include "vhist/render/context.h"

#include <cstdint>
#include <map>
#include <memory>
#include <utility>

namespace vhist {

class MatchPass {
 public:
  explicit MatchPass(render::Context& context);

  // Records the table for a `bits`-bit frame into `table` (stats_levels(bits) records of 4
  // codes) from `live_cdf` (the same count of records) and `reference_cdf` (`reference_levels`
  // records, a power of two at most stats_levels(bits)). Before: both CDFs' writes visible to
  // compute reads. After: the table written by the compute stage. Throws std::invalid_argument
  // for other level counts.
  void record(VkCommandBuffer cmd, VkDeviceAddress live_cdf, std::uint32_t bits, VkDeviceAddress reference_cdf,
              std::uint32_t reference_levels, VkDeviceAddress table);

 private:
  render::Context& context_;
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::unique_ptr<render::ComputePipeline>> pipelines_;
};

}  // namespace vhist
