// The GPU scope passes: the waveform's and the vectorscope's counts (scope_counts.h defines
// them; scope_reference.h is their CPU reference), recorded into a caller's command buffer
// after the frame's upload and convert pass.
//  - waveform (scope_waveform.comp): a fill of the counts, then one dispatch; each workgroup
//    owns as many plot columns as fit in 16 KiB of shared memory and a band of lines across
//    them, counts there and adds its non-zero counts to the buffer by global atomics.
//  - vectorscope (scope_vector.comp): a fill of the counts, then one dispatch of global atomics
//    (the grid does not fit in shared memory), one per run of equal cells of an invocation.
//
// One thread records at a time (pipelines are created lazily on first use; prepare() creates
// them ahead). The pass must outlive the command buffers it recorded.
#pragma once

#include "vhist/compute/frame_converter.h"
#include "vhist/compute/scope_counts.h"
#include "vhist/render/buffer.h"
#include "vhist/render/compute_pipeline.h"
#include "vhist/render/context.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>

namespace vhist {

// What the scopes read of one frame on the GPU.
struct ScopeInputs {
  VideoFormat format;        // the decoded frame: size, depth, layout, matrix, range, rotation
  GpuPlanes planes;          // its planes as FrameUpload::record_copy left them: read by the
                             // ycbcr waveform and the vectorscope of Y'CbCr frames
  VkDeviceAddress rgb = 0;   // the converted frame (converted_format(format), tightly packed):
                             // read by the luma and rgb waveforms and the vectorscope of others
};

class ScopePass {
 public:
  explicit ScopePass(render::Context& context);

  // Bytes of the counts of a request: components x plot columns x levels words (waveform),
  // size x size words (vectorscope). 0 when the request's check fails.
  static VkDeviceSize waveform_bytes(const VideoFormat& format, const WaveformRequest& request);
  static VkDeviceSize vectorscope_bytes(const VectorscopeRequest& request);

  // A device-local counts buffer of `bytes` (storage, transfer source and destination).
  render::Buffer create_counts(VkDeviceSize bytes, const std::string& name) const;

  // How the waveform's dispatch divides the plot: workgroups of `group_columns` plot columns
  // (as many as fit in shared memory) by `band_rows` lines of the region (stored rows, or
  // stored columns at 90 and 270 degrees) sized so that a workgroup counts about
  // `group_pixels` samples of luma; groups_x x groups_y workgroups.
  struct WaveformPlan {
    std::uint32_t group_columns = 0, band_rows = 0, groups_x = 0, groups_y = 0;
  };
  static WaveformPlan waveform_plan(const WaveformRequest& request, const WaveformShape& shape, std::uint32_t lines,
                                    std::uint32_t group_pixels);
  // Samples of luma per waveform workgroup (default kWaveformGroupPixels); tests set it low to
  // make many bands of small frames.
  void set_waveform_group_pixels(std::uint32_t pixels) { group_pixels_ = pixels; }
  static constexpr std::uint32_t kWaveformGroupPixels = 16384;
  // Whether the vectorscope keeps a window around zero chroma in shared memory (default off:
  // every count goes to the buffer by a global atomic, which was faster on an H100 at 4K, 0.020
  // against 0.025 ms, and on lavapipe; on: for comparing the two in the benchmark). The counts
  // are the same either way.
  void set_vectorscope_window(bool on) { vector_window_ = on; }

  // Records the clear of `counts` (at least waveform_bytes()) and the waveform's counts of
  // `inputs` into it, laid out as WaveformCounts::counts. Before: the planes or the converted frame written and
  // visible to compute reads, and earlier readers of `counts` finished (the caller's barrier).
  // After: counts written by the compute stage; the caller's barrier before reading them.
  // Throws std::invalid_argument when check_waveform() fails, the input it reads is missing or
  // the buffer is too small.
  void record_waveform(VkCommandBuffer cmd, const ScopeInputs& inputs, const WaveformRequest& request,
                       const render::Buffer& counts);
  // Records the clear of `counts` (at least vectorscope_bytes()) and the vectorscope's counts
  // of `inputs` into it; laid out as VectorscopeCounts::counts. Before and after as above.
  void record_vectorscope(VkCommandBuffer cmd, const ScopeInputs& inputs, const VectorscopeRequest& request,
                          const render::Buffer& counts);

  // Creates the pipelines the two records would use for this format and these requests.
  void prepare(const VideoFormat& format, const WaveformRequest& waveform, const VectorscopeRequest& vectorscope);

 private:
  // `window`: the vectorscope's shared window side (0: none); 0 for the waveform.
  const render::ComputePipeline& pipeline(bool waveform, std::uint32_t levels, std::uint32_t packing,
                                          std::uint32_t source, std::uint32_t window = 0);

  render::Context& context_;
  std::uint32_t group_pixels_ = kWaveformGroupPixels;
  bool vector_window_ = false;
  std::map<std::array<std::uint32_t, 5>, std::unique_ptr<render::ComputePipeline>> pipelines_;
};

// The counts as a pass left them in its buffer (`words`: at least the request's bytes / 4).
WaveformCounts waveform_from_words(const VideoFormat& format, const WaveformRequest& request,
                                   const std::uint32_t* words);
VectorscopeCounts vectorscope_from_words(const VideoFormat& format, const VectorscopeRequest& request,
                                         const std::uint32_t* words);

}  // namespace vhist
