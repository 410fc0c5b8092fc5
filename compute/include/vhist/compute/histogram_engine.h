// The GPU histogram engine: R, G, B and luma histograms of a frame in GPU memory, plus the
// per-channel scale buffer, recorded into a caller's command buffer.
//
// Two strategies with identical results (both equal reference_histogram() exactly):
//  - Strategy::fast (default): persistent workgroups, privatized shared-memory sub-histograms,
//    one global atomicAdd per non-zero bin per workgroup into the target's running sums; the
//    last workgroup to finish moves the sums into the histogram (leaving them zero for the next
//    frame) and computes the scale: one dispatch per frame, no clear, no barrier. Parameters
//    from the device's properties and a table measured with vhist-bench --sweep (fast_config()).
//  - Strategy::baseline: the articles' part-1 design: one workgroup per 256-pixel chunk writes
//    a chunk histogram to a storage buffer, then log2(chunks) pairwise reduction dispatches.
//
// Thread safety: one thread records at a time (pipelines are created lazily on first use).
// The engine must outlive the command buffers it recorded.
#pragma once

#include "vhist/compute/cdf.h"
#include "vhist/compute/histogram_types.h"
#include "vhist/render/buffer.h"
#include "vhist/render/compute_pipeline.h"
#include "vhist/render/context.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace vhist {

enum class Strategy { fast, baseline };
std::string_view strategy_name(Strategy s);

// Parameters of the fast strategy for one frame format and bin count.
struct FastConfig {
  std::uint32_t workgroup_size = 256;  // invocations per workgroup
  std::uint32_t copies = 1;            // shared-memory copies of the four histograms
  std::uint32_t workgroups = 1;        // persistent workgroups in the dispatch
  std::uint32_t unroll = 2;            // 4-pixel groups loaded per loop iteration (1, 2 or 4)
  bool merge = true;                   // merge equal bins of an invocation's 4 pixels
  std::uint32_t layout = 0;            // shader::kLayoutBlocked, kLayoutInterleaved or kLayoutPacked16
  bool fused = true;                   // clear and scale folded into the count dispatch
  std::uint32_t global_copies = 1;     // fused: copies of the running sums in global memory
  std::uint32_t shared_bytes = 0;      // shared memory per workgroup
};

// "132x1024 wg, 1 copies, unroll 2, ..." for tables and logs.
std::string fast_config_text(const FastConfig& config);

// Overrides for tuning runs (the benchmark's --sweep); 0 keeps the automatic choice.
struct FastOverrides {
  std::uint32_t workgroup_size = 0;
  std::uint32_t copies = 0;
  std::uint32_t workgroups = 0;
  std::uint32_t unroll = 0;
  int merge = -1;    // -1 automatic, 0 off, 1 on
  int layout = -1;   // -1 automatic, else shader::kLayoutBlocked, kLayoutInterleaved or kLayoutPacked16
  int fused = -1;    // -1 automatic (on), 0: fill, count, barrier, scale dispatch
  std::uint32_t global_copies = 0;
};

// Where one frame's results go: the histogram (kMaxBins records of 4 uint32, of which the first
// `bins` are written) and the scale block (vec4 scale, uvec4 max_count: 32 bytes). `accum`: the
// fast strategy's running sums and workgroup counter, zero between frames (create_target()
// zeroes it; every fast dispatch leaves it zero).
struct HistogramTarget {
  render::Buffer histogram;
  render::Buffer scale;
  render::Buffer accum;
};

// Where one frame's cumulative histogram and equalization table go: kMaxBins records of 4
// uint32 each (R, G, B, L), of which the first `levels` are written.
struct CdfTarget {
  render::Buffer cdf;    // inclusive cumulative counts
  render::Buffer table;  // equalized codes per level (vhist/equalize_shared.h)
};

class HistogramEngine {
 public:
  explicit HistogramEngine(render::Context& context);

  // Buffers for one frame slot's results; device-local, readable by transfers and shaders.
  // Zeroes the running sums with one submit_and_wait (setup time, the queue's thread).
  HistogramTarget create_target(const std::string& name) const;

  CdfTarget create_cdf_target(const std::string& name) const;

  // A device-local buffer able to hold a frame of `format` (size rounded up to 16 bytes),
  // usable as a transfer destination and through its device address.
  render::Buffer create_frame_buffer(const FrameFormat& format, const std::string& name) const;

  // Empty when the engine can histogram such a frame with that many bins; else the reason.
  std::string check(const FrameFormat& format, std::uint32_t bins) const;

  // The fast strategy's parameters for this device, frame and bin count.
  FastConfig fast_config(const FrameFormat& format, std::uint32_t bins) const;
  void set_fast_overrides(const FastOverrides& overrides) { overrides_ = overrides; }

  // Records: count the frame at `frame_address` (16-byte aligned, tightly packed as `format`
  // says) into `target.histogram` and its scale into `target.scale` (fast: one dispatch;
  // baseline: clear, count, reduce and scale passes).
  // Before: the frame's writes must be visible to compute-shader reads (the caller's barrier).
  // After: histogram and scale are written by the compute stage; the caller adds a barrier
  // before reading them elsewhere. Throws std::invalid_argument when check() fails.
  void record(VkCommandBuffer cmd, VkDeviceAddress frame_address, const FrameFormat& format, std::uint32_t bins,
              Strategy strategy, const HistogramTarget& target);

  // Records the scale pass alone (hist_scale.comp) over target.histogram, `bins` records of a
  // frame of `pixel_count` pixels, into target.scale. Before: the histogram's writes visible to
  // compute reads. After: the scale is written by the compute stage.
  void record_scale(VkCommandBuffer cmd, const HistogramTarget& target, std::uint32_t bins, std::uint64_t pixel_count);
  // The same over the bins between the end bins (bins 1 to bins - 2: the scale of a histogram
  // whose end bins are drawn to a scale of their own), from `histogram` into `scale` (32 bytes,
  // laid out as HistogramTarget::scale); equal to reference_scale() of the histogram with its
  // end bins zeroed.
  void record_inner_scale(VkCommandBuffer cmd, const render::Buffer& histogram, const render::Buffer& scale,
                          std::uint32_t bins, std::uint64_t pixel_count);

  // Records the prefix sum (hist_cdf.comp) of `histogram`, `levels` records of a `bits`-bit
  // frame's counts, into target.cdf, and the equalization table computed from it into
  // target.table. `levels` is a power of two from 16 to min(kMaxBins, 2^bits); the table is
  // the one reference_equalize_table() defines when levels == stats_levels(bits).
  // Before: the histogram's writes must be visible to compute-shader reads. After: cdf and
  // table are written by the compute stage; the caller adds a barrier before reading them.
  // Throws std::invalid_argument for other levels or depths.
  void record_cdf(VkCommandBuffer cmd, const render::Buffer& histogram, std::uint32_t levels, std::uint32_t bits,
                  const CdfTarget& target);

  // Records the equalization of the frame at `frame_address` (tightly packed as `format` says)
  // through `table` (record_cdf's, `levels` records, levels == stats_levels(format.bits)) by
  // `mode` into the frame at `out_address` (same layout and size; both 16-byte aligned): the
  // codes reference_equalize() gives. Before: the frame's and the table's writes are visible to
  // compute reads. After: the output is written by the compute stage. Throws
  // std::invalid_argument for a bad format or level count, or mode off.
  void record_equalize(VkCommandBuffer cmd, VkDeviceAddress frame_address, const FrameFormat& format,
                       std::uint32_t levels, const render::Buffer& table, EqualizeMode mode,
                       VkDeviceAddress out_address);

  // Creates the pipelines record() will use for this combination, so the first frame does not
  // pay for compilation.
  void prepare(const FrameFormat& format, std::uint32_t bins, Strategy strategy);

  render::Context& context() const noexcept { return context_; }

 private:
  enum class Kernel { fast, chunk, reduce, scale, cdf, equalize };
  struct PipelineKey {
    Kernel kernel;
    std::uint32_t bins, packing, bits, workgroup_size, copies, unroll, merge, layout, fused, global_copies;
    auto operator<=>(const PipelineKey&) const = default;
  };
  const render::ComputePipeline& pipeline(const PipelineKey& key);
  static PipelineKey fast_key(const FrameFormat& format, std::uint32_t bins, const FastConfig& config);
  void record_fast(VkCommandBuffer cmd, VkDeviceAddress frame, const FrameFormat& format, std::uint32_t bins,
                   const FastConfig& config, const HistogramTarget& target);
  void record_scale_after_count(VkCommandBuffer cmd, const FrameFormat& format, std::uint32_t bins,
                                const HistogramTarget& target);
  void record_baseline(VkCommandBuffer cmd, VkDeviceAddress frame, const FrameFormat& format, std::uint32_t bins,
                       const HistogramTarget& target);
  // Rows of the frame the baseline processes per band, bounded by the chunk buffer's size and
  // the dispatch limits.
  std::uint32_t baseline_band_rows(const FrameFormat& format, std::uint32_t bins) const;

  render::Context& context_;
  FastOverrides overrides_;
  std::map<PipelineKey, std::unique_ptr<render::ComputePipeline>> pipelines_;
  render::Buffer chunks_;  // baseline scratch; grown on demand
  std::vector<render::Buffer> retired_chunks_;
};

}  // namespace vhist
