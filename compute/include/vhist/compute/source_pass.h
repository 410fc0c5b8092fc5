// The GPU source passes (source_measures.h defines what they count and is their CPU reference):
// the plane pass (planes.comp) counts the Y'CbCr planes as uploaded, with the range check's
// counters; the light pass (max_rgb.comp) counts max(R', G', B') of the converted frame; the
// checksum pass (checksum.comp) sums the samples for frame_checksum.h's checksum, and the cells
// pass (cells.comp) the picture's cell sums beside it.
//
// One thread records at a time (pipelines are created lazily on first use).
#pragma once

#include "vhist/compute/frame_converter.h"
#include "vhist/compute/histogram_types.h"
#include "vhist/compute/source_measures.h"
#include "vhist/render/buffer.h"
#include "vhist/render/compute_pipeline.h"
#include "vhist/render/context.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace vhist {

class SourcePass {
 public:
  explicit SourcePass(render::Context& context);

  // Device-local buffers for one frame slot's results, readable by transfers and shaders:
  // kPlaneCountsWords words (plane histograms, then the range counters), and kMaxLightLevels
  // words (the light levels).
  render::Buffer create_plane_counts(const std::string& name) const;
  render::Buffer create_light_counts(const std::string& name) const;
  // kMeasureWords words (measures_shared.h): the gamut counts and the checksum's sums.
  render::Buffer create_measures(const std::string& name) const;

  // Empty when the plane pass counts such a frame at `bins` bins; else why.
  std::string check_planes(const VideoFormat& format, std::uint32_t bins) const;

  // Records the clear of `counts` and the plane pass over `planes` (as FrameUpload::record_copy
  // left them: visible to compute reads). After: counts written by the compute stage.
  // Throws std::invalid_argument when check_planes() fails.
  void record_planes(VkCommandBuffer cmd, const VideoFormat& format, const GpuPlanes& planes, std::uint32_t bins,
                     const render::Buffer& counts);
  // Records the clear of `counts` and the light pass over the converted frame at `frame`
  // (its writes visible to compute reads), counting `signal`'s light levels (reference_max_rgb's).
  // After: counts written by the compute stage. The first HLG frame of a depth uploads that
  // depth's tables (hlg_light.h) first, waiting on the queue (this thread's).
  void record_max_rgb(VkCommandBuffer cmd, VkDeviceAddress frame, const FrameFormat& format,
                      const render::Buffer& counts, LightSignal signal = LightSignal::pq);
  // Records the clear of `measures` (then visible to compute reads and writes, for this pass
  // and the convert pass's gamut counts).
  static void record_clear_measures(VkCommandBuffer cmd, const render::Buffer& measures);
  // Records the checksum pass over `planes` (as for record_planes; any model), adding its sums
  // into the cleared `measures`, and the cells pass, writing the cell sums there. After: measures written by the compute stage. Throws
  // std::invalid_argument when check_video_format() fails.
  void record_checksum(VkCommandBuffer cmd, const VideoFormat& format, const GpuPlanes& planes,
                       const render::Buffer& measures);

 private:
  // The light pass's pipeline (max_rgb.comp) for `levels` levels of `format`.
  const render::ComputePipeline& pipeline(std::uint32_t levels, const FrameFormat& format, bool hlg);
  // The HLG light tables of `bits`-bit frames in device memory, uploaded on first use.
  const render::Buffer& hlg_tables(std::uint32_t bits);

  render::Context& context_;
  std::map<std::array<std::uint32_t, 4>, std::unique_ptr<render::ComputePipeline>> pipelines_;
  // The plane pass's, by bins, workgroup size, copies and merging (planes.comp).
  std::map<std::array<std::uint32_t, 4>, std::unique_ptr<render::ComputePipeline>> plane_pipelines_;
  std::map<std::uint32_t, std::unique_ptr<render::Buffer>> hlg_tables_;
  std::unique_ptr<render::ComputePipeline> checksum_;  // created on first use
  std::unique_ptr<render::ComputePipeline> cells_;     // created on first use
};

// The plane counts as the plane pass leaves them in its buffer (`words`: kPlaneCountsWords).
PlaneCounts plane_counts_from_words(const std::uint32_t* words, std::uint32_t bins);

}  // namespace vhist
