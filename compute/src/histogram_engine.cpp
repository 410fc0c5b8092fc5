#include "vhist/compute/histogram_engine.h"

#include "vhist/compute_push.h"

#include "vhist/compute/frame_stats.h"
#include "vhist/render/vk_check.h"
#include "vhist/shaders/equalize.spv.h"
#include "vhist/shaders/hist_cdf.spv.h"
#include "vhist/shaders/hist_chunk.spv.h"
#include "vhist/shaders/hist_chunk_reduce.spv.h"
#include "vhist/shaders/hist_fast.spv.h"
#include "vhist/shaders/hist_scale.spv.h"

#include <algorithm>
#include <stdexcept>
#include <thread>
#include <vector>

namespace vhist {
namespace {

namespace sh = shader;

// The passes' push constants, declared once for the shaders and this code (compute_push.h).
using sh::CdfPush;
using sh::ChunkPush;
using sh::EqualizePush;
using sh::FastPush;
using sh::ReducePush;
using sh::ScalePush;

constexpr VkDeviceSize kHistogramBytes = VkDeviceSize{sh::kMaxBins} * sh::kChannelCount * sizeof(std::uint32_t);
constexpr VkDeviceSize kScaleBytes = 32;
// The fused fast pass's running sums (laid out like the histogram) and its workgroup counter.
constexpr VkDeviceSize kAccumBytes = (VkDeviceSize{sh::kAccumCounterIndex} + 4) * sizeof(std::uint32_t);
// The baseline's chunk buffer never exceeds this; larger frames are processed in bands of rows.
constexpr VkDeviceSize kMaxChunkBufferBytes = 256ull << 20;
// Shared memory of the fused fast pass besides its copies: the ticket and the channels' maxima.
constexpr std::uint32_t kTailBytes = 4 * (1 + sh::kChannelCount);

std::uint32_t div_up(std::uint64_t a, std::uint64_t b) { return static_cast<std::uint32_t>((a + b - 1) / b); }

void compute_to_compute(VkCommandBuffer cmd) {
  render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                         VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT,
                         VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                         VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
}

void fill_to_compute(VkCommandBuffer cmd) {
  render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_CLEAR_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                         VK_ACCESS_2_TRANSFER_WRITE_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT,
                         VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                         VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
}

}  // namespace

std::string_view strategy_name(Strategy s) { return s == Strategy::fast ? "fast" : "baseline"; }

HistogramEngine::HistogramEngine(render::Context& context) : context_(context) {}

HistogramTarget HistogramEngine::create_target(const std::string& name) const {
  const VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                   VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
  HistogramTarget target{
      render::Buffer(context_, kHistogramBytes, usage, render::MemoryUse::device, true, name + " histogram"),
      render::Buffer(context_, kScaleBytes, usage, render::MemoryUse::device, true, name + " scale"),
      render::Buffer(context_, kAccumBytes, usage, render::MemoryUse::device, true, name + " running sums")};
  context_.submit_and_wait([&](VkCommandBuffer cmd) { vkCmdFillBuffer(cmd, target.accum.get(), 0, kAccumBytes, 0); });
  return target;
}

CdfTarget HistogramEngine::create_cdf_target(const std::string& name) const {
  const VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
  return CdfTarget{
      render::Buffer(context_, kHistogramBytes, usage, render::MemoryUse::device, true, name + " cdf"),
      render::Buffer(context_, kHistogramBytes, usage, render::MemoryUse::device, true, name + " equalize table")};
}

render::Buffer HistogramEngine::create_frame_buffer(const FrameFormat& format, const std::string& name) const {
  const VkDeviceSize size = (format.byte_size() + 15) & ~VkDeviceSize{15};
  return render::Buffer(context_, size,
                        VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                            VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                        render::MemoryUse::device, true, name);
}

std::string HistogramEngine::check(const FrameFormat& format, std::uint32_t bins) const {
  if (auto err = check_format(format); !err.empty()) return err;
  if (auto err = check_bins(bins, format.bits); !err.empty()) return err;
  const auto& p = context_.properties();
  if (format.width > p.max_image_dimension_2d || format.height > p.max_image_dimension_2d) {
    return "frame size " + std::to_string(format.width) + "x" + std::to_string(format.height) +
           " exceeds the device's limit of " + std::to_string(p.max_image_dimension_2d) + " pixels per side";
  }
  const std::uint32_t copy_bytes = (sh::kChannelCount * bins + 1) * 4 + kTailBytes;
  if (copy_bytes > p.max_shared_memory) {
    return std::to_string(bins) + " bins need " + std::to_string(copy_bytes) +
           " bytes of shared memory; the device offers " + std::to_string(p.max_shared_memory);
  }
  return {};
}

namespace {

// The fast strategy's configuration for GPUs, measured with vhist-bench --sweep on an NVIDIA
// H200 (docs/benchmarks.md): per frame size (rows in increasing max_pixels; the last row
// covers larger frames), the configuration with the lowest worst-case time over natural,
// random and solid content. Workgroup counts are per multiprocessor, so other GPUs scale with
// their multiprocessor count; copies are cut to what the device's shared memory holds.
// min_groups: each invocation gets at least this many 4-pixel groups, so that small frames use
// fewer workgroups (each workgroup's flush costs up to 4 * bins global atomics).
struct FastRow {
  std::uint64_t max_pixels;
  std::uint32_t workgroup_size, per_multiprocessor, min_groups, copies, layout, unroll;
  bool merge;
  std::uint32_t global_copies;
};
constexpr FastRow kGpuTable[] = {
    {1920ull * 1080, 1024, 1, 2, 1, sh::kLayoutBlocked, 2, false, 2},
    {3840ull * 2160, 1024, 1, 8, 1, sh::kLayoutBlocked, 2, false, 2},
    {~0ull, 1024, 1, 8, 1, sh::kLayoutBlocked, 2, false, 2},
};

const FastRow& gpu_row(std::uint64_t pixels) {
  for (const FastRow& row : kGpuTable) {
    if (pixels <= row.max_pixels) return row;
  }
  return kGpuTable[std::size(kGpuTable) - 1];
}

}  // namespace

std::string fast_config_text(const FastConfig& c) {
  return std::to_string(c.workgroups) + "x" + std::to_string(c.workgroup_size) + " wg, " + std::to_string(c.copies) +
         (c.layout == sh::kLayoutInterleaved ? " interleaved" : c.layout == sh::kLayoutPacked16 ? " packed16" : "") + " copies, unroll " + std::to_string(c.unroll) +
         (c.merge ? ", merge" : "") +
         (c.fused ? ", fused, " + std::to_string(c.global_copies) + " global" : ", unfused");
}

FastConfig HistogramEngine::fast_config(const FrameFormat& format, std::uint32_t bins) const {
  // A CPU device (lavapipe) runs a workgroup's invocations in one thread, so its atomics never
  // contend and merging saves work; a GPU takes its row of the measured table.
  const auto& p = context_.properties();
  const bool cpu = p.kind == render::DeviceKind::cpu;
  const FastRow& row = gpu_row(format.pixel_count());
  const FastOverrides& o = overrides_;
  FastConfig c;
  c.workgroup_size = std::min<std::uint32_t>(o.workgroup_size ? o.workgroup_size : (cpu ? 256 : row.workgroup_size),
                                             p.max_workgroup_invocations);
  c.layout = o.layout >= 0 ? static_cast<std::uint32_t>(o.layout) : (cpu ? sh::kLayoutBlocked : row.layout);
  // Bytes of one copy: 32-bit counters (the blocked layout pads each copy by one), or 16-bit.
  const std::uint32_t copy_bytes = c.layout == sh::kLayoutPacked16
                                       ? sh::kChannelCount * bins * 2
                                       : (sh::kChannelCount * bins + (c.layout == sh::kLayoutBlocked ? 1 : 0)) * 4;
  c.copies = o.copies ? o.copies : (cpu ? 1 : row.copies);
  c.copies = std::clamp<std::uint32_t>(c.copies, 1, std::max<std::uint32_t>(1, (p.max_shared_memory - kTailBytes) / copy_bytes));
  // Packed counters: at most 1024 invocations per copy, so that the shader flushes at least
  // every 15 groups per invocation (hist_fast.comp, kFlushGroups).
  if (c.layout == sh::kLayoutPacked16) c.copies = std::max(c.copies, div_up(c.workgroup_size, 1024));
  c.shared_bytes = c.copies * copy_bytes + kTailBytes;
  c.merge = o.merge >= 0 ? o.merge != 0 : (cpu || row.merge);
  c.unroll = std::clamp<std::uint32_t>(o.unroll ? o.unroll : (cpu ? 2 : row.unroll), 1, 4);
  c.fused = o.fused != 0;
  c.global_copies = std::clamp<std::uint32_t>(o.global_copies ? o.global_copies : (cpu ? 1 : row.global_copies), 1,
                                              sh::kMaxGlobalCopies);

  // Persistent workgroups: the table's count per multiprocessor, fewer for small frames so that
  // each invocation has real work.
  const std::uint32_t units = p.multiprocessor_count ? p.multiprocessor_count : 32;
  const std::uint32_t resident = cpu ? 2 * std::max(1u, std::thread::hardware_concurrency())
                                     : units * row.per_multiprocessor;
  const std::uint64_t groups = (format.pixel_count() + 3) / 4;
  const std::uint32_t useful = div_up(groups, std::uint64_t{c.workgroup_size} * (cpu ? 8 : row.min_groups));
  c.workgroups = std::clamp<std::uint32_t>(std::min(resident, useful), 1, p.max_workgroup_count_x);
  if (o.workgroups) c.workgroups = std::min(o.workgroups, p.max_workgroup_count_x);
  return c;
}

HistogramEngine::PipelineKey HistogramEngine::fast_key(const FrameFormat& format, std::uint32_t bins,
                                                      const FastConfig& c) {
  return {Kernel::fast, bins,     static_cast<std::uint32_t>(format.packing), format.bits, c.workgroup_size,
          c.copies,     c.unroll, c.merge ? 1u : 0u, c.layout, c.fused ? 1u : 0u, c.global_copies};
}

const render::ComputePipeline& HistogramEngine::pipeline(const PipelineKey& key) {
  auto& slot = pipelines_[key];
  if (slot) return *slot;
  std::vector<render::SpecConstant> spec{{sh::kSpecBins, key.bins}};
  switch (key.kernel) {
    case Kernel::fast:
      spec.push_back({sh::kSpecPacking, key.packing});
      spec.push_back({sh::kSpecBits, key.bits});
      spec.push_back({sh::kSpecWorkgroupSize, key.workgroup_size});
      spec.push_back({sh::kSpecCopies, key.copies});
      spec.push_back({sh::kSpecUnroll, key.unroll});
      spec.push_back({sh::kSpecMerge, key.merge});
      spec.push_back({sh::kSpecLayout, key.layout});
      spec.push_back({sh::kSpecFused, key.fused});
      spec.push_back({sh::kSpecGlobalCopies, key.global_copies});
      slot = std::make_unique<render::ComputePipeline>(context_, hist_fast_spv, spec, sizeof(FastPush), "hist_fast");
      break;
    case Kernel::chunk:
      spec.push_back({sh::kSpecPacking, key.packing});
      spec.push_back({sh::kSpecBits, key.bits});
      slot = std::make_unique<render::ComputePipeline>(context_, hist_chunk_spv, spec, sizeof(ChunkPush), "hist_chunk");
      break;
    case Kernel::reduce:
      slot = std::make_unique<render::ComputePipeline>(context_, hist_chunk_reduce_spv, spec, sizeof(ReducePush),
                                                       "hist_chunk_reduce");
      break;
    case Kernel::scale:
      slot = std::make_unique<render::ComputePipeline>(context_, hist_scale_spv, spec, sizeof(ScalePush), "hist_scale");
      break;
    case Kernel::equalize:
      spec.push_back({sh::kSpecPacking, key.packing});
      spec.push_back({sh::kSpecBits, key.bits});
      slot = std::make_unique<render::ComputePipeline>(context_, equalize_spv, spec, sizeof(EqualizePush), "equalize");
      break;
    case Kernel::cdf:
      spec.push_back({sh::kSpecBits, key.bits});
      slot = std::make_unique<render::ComputePipeline>(context_, hist_cdf_spv, spec, sizeof(CdfPush), "hist_cdf");
      break;
  }
  return *slot;
}

void HistogramEngine::prepare(const FrameFormat& format, std::uint32_t bins, Strategy strategy) {
  if (auto err = check(format, bins); !err.empty()) throw std::invalid_argument(err);
  const auto packing = static_cast<std::uint32_t>(format.packing);
  if (strategy == Strategy::fast) {
    const FastConfig c = fast_config(format, bins);
    pipeline(fast_key(format, bins, c));
  } else {
    pipeline({Kernel::chunk, bins, packing, format.bits, 0, 0, 0, 0, 0, 0, 0});
    pipeline({Kernel::reduce, bins, 0, 0, 0, 0, 0, 0, 0, 0, 0});
  }
  pipeline({Kernel::scale, bins, 0, 0, 0, 0, 0, 0, 0, 0, 0});
}

void HistogramEngine::record(VkCommandBuffer cmd, VkDeviceAddress frame_address, const FrameFormat& format,
                             std::uint32_t bins, Strategy strategy, const HistogramTarget& target) {
  if (auto err = check(format, bins); !err.empty()) throw std::invalid_argument(err);
  if (frame_address % 16 != 0) throw std::invalid_argument("frame address must be 16-byte aligned");

  if (strategy == Strategy::fast) {
    const FastConfig c = fast_config(format, bins);
    if (c.fused) {
      if (!target.accum) throw std::invalid_argument("the fast strategy needs a target made by create_target()");
      record_fast(cmd, frame_address, format, bins, c, target);
      return;
    }
    vkCmdFillBuffer(cmd, target.histogram.get(), 0, VkDeviceSize{bins} * sh::kChannelCount * 4, 0);
    fill_to_compute(cmd);
    record_fast(cmd, frame_address, format, bins, c, target);
  } else {
    vkCmdFillBuffer(cmd, target.histogram.get(), 0, VkDeviceSize{bins} * sh::kChannelCount * 4, 0);
    fill_to_compute(cmd);
    record_baseline(cmd, frame_address, format, bins, target);
  }
  record_scale_after_count(cmd, format, bins, target);
}

void HistogramEngine::record_scale_after_count(VkCommandBuffer cmd, const FrameFormat& format, std::uint32_t bins,
                                               const HistogramTarget& target) {
  compute_to_compute(cmd);
  record_scale(cmd, target, bins, format.pixel_count());
}

void HistogramEngine::record_scale(VkCommandBuffer cmd, const HistogramTarget& target, std::uint32_t bins,
                                   std::uint64_t pixel_count) {
  const ScalePush push{target.histogram.address(), target.scale.address(), static_cast<std::uint32_t>(pixel_count), 0};
  pipeline({Kernel::scale, bins, 0, 0, 0, 0, 0, 0, 0, 0, 0}).dispatch(cmd, push, 1);
}

void HistogramEngine::record_inner_scale(VkCommandBuffer cmd, const render::Buffer& histogram,
                                         const render::Buffer& scale, std::uint32_t bins, std::uint64_t pixel_count) {
  const ScalePush push{histogram.address(), scale.address(), static_cast<std::uint32_t>(pixel_count), 1};
  pipeline({Kernel::scale, bins, 0, 0, 0, 0, 0, 0, 0, 0, 0}).dispatch(cmd, push, 1);
}

void HistogramEngine::record_cdf(VkCommandBuffer cmd, const render::Buffer& histogram, std::uint32_t levels,
                                 std::uint32_t bits, const CdfTarget& target) {
  const bool power_of_two = levels != 0 && (levels & (levels - 1)) == 0;
  if (bits < 8 || bits > 16 || !power_of_two || levels < sh::kMinBins || levels > sh::kMaxBins ||
      levels > (1u << bits)) {
    throw std::invalid_argument("record_cdf: " + std::to_string(levels) + " levels of a " + std::to_string(bits) +
                                "-bit frame (levels must be a power of two from 16 to min(1024, 2^bits))");
  }
  const CdfPush push{histogram.address(), target.cdf.address(), target.table.address()};
  pipeline({Kernel::cdf, levels, 0, bits, 0, 0, 0, 0, 0, 0, 0}).dispatch(cmd, push, 1);
}

void HistogramEngine::record_equalize(VkCommandBuffer cmd, VkDeviceAddress frame_address, const FrameFormat& format,
                                      std::uint32_t levels, const render::Buffer& table, EqualizeMode mode,
                                      VkDeviceAddress out_address) {
  if (auto err = check_format(format); !err.empty()) throw std::invalid_argument(err);
  if (levels != stats_levels(format.bits)) throw std::invalid_argument("record_equalize: levels must be stats_levels(bits)");
  if (mode == EqualizeMode::off) throw std::invalid_argument("record_equalize: no mode");
  if (frame_address % 16 != 0 || out_address % 16 != 0) throw std::invalid_argument("frame addresses must be 16-byte aligned");
  const auto& p = context_.properties();
  // Blocks of 4 (RGBA8) or 2 (RGBA16) pixels, one per invocation, up to a grid of 65535 groups.
  const std::uint32_t per_block = format.packing == PixelPacking::rgba8 ? 4 : 2;
  const std::uint32_t groups = std::clamp<std::uint32_t>(div_up(div_up(format.pixel_count(), per_block), 256), 1,
                                                         std::min<std::uint32_t>(p.max_workgroup_count_x, 65535));
  const EqualizePush push{frame_address, out_address, table.address(), static_cast<std::uint32_t>(format.pixel_count()),
                          static_cast<std::uint32_t>(mode)};
  pipeline({Kernel::equalize, levels, static_cast<std::uint32_t>(format.packing), format.bits, 0, 0, 0, 0, 0, 0, 0})
      .dispatch(cmd, push, groups);
}

void HistogramEngine::record_fast(VkCommandBuffer cmd, VkDeviceAddress frame, const FrameFormat& format,
                                  std::uint32_t bins, const FastConfig& c, const HistogramTarget& target) {
  const auto& p = pipeline(fast_key(format, bins, c));
  const FastPush push{frame,
                      frame,
                      target.histogram.address(),
                      target.scale.address(),
                      target.accum ? target.accum.address() : 0,
                      static_cast<std::uint32_t>(format.pixel_count()),
                      0};
  p.dispatch(cmd, push, c.workgroups);
}

std::uint32_t HistogramEngine::baseline_band_rows(const FrameFormat& format, std::uint32_t bins) const {
  const auto& p = context_.properties();
  const std::uint32_t chunks_across = div_up(format.width, sh::kChunkWidth);
  const VkDeviceSize chunk_bytes = VkDeviceSize{bins} * sh::kChannelCount * 4;
  const VkDeviceSize max_bytes = std::min<VkDeviceSize>(kMaxChunkBufferBytes, p.max_allocation_size);
  // Pairs of the first reduction are dispatched in x, so chunks / 2 must fit the x limit.
  const VkDeviceSize max_chunks =
      std::min<VkDeviceSize>(max_bytes / chunk_bytes, 2 * VkDeviceSize{p.max_workgroup_count_x});
  const VkDeviceSize rows = std::max<VkDeviceSize>(1, max_chunks / chunks_across);
  return static_cast<std::uint32_t>(std::min<VkDeviceSize>(rows, format.height));
}

void HistogramEngine::record_baseline(VkCommandBuffer cmd, VkDeviceAddress frame, const FrameFormat& format,
                                      std::uint32_t bins, const HistogramTarget& target) {
  const std::uint32_t chunks_across = div_up(format.width, sh::kChunkWidth);
  const std::uint32_t band_rows = baseline_band_rows(format, bins);
  const VkDeviceSize chunk_bytes = VkDeviceSize{bins} * sh::kChannelCount * 4;
  const VkDeviceSize needed = VkDeviceSize{chunks_across} * band_rows * chunk_bytes;
  if (!chunks_ || chunks_.size() < needed) {
    // Command buffers recorded earlier may still use the old buffer: keep it until the engine
    // is destroyed (growth is rare and bounded by kMaxChunkBufferBytes).
    if (chunks_) retired_chunks_.push_back(std::move(chunks_));
    chunks_ = render::Buffer(context_, needed, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, render::MemoryUse::device, true,
                             "baseline chunk histograms");
  }
  const auto packing = static_cast<std::uint32_t>(format.packing);
  const auto& chunk = pipeline({Kernel::chunk, bins, packing, format.bits, 0, 0, 0, 0, 0, 0, 0});
  const auto& reduce = pipeline({Kernel::reduce, bins, 0, 0, 0, 0, 0, 0, 0, 0, 0});

  for (std::uint32_t first_row = 0; first_row < format.height; first_row += band_rows) {
    const std::uint32_t rows = std::min(band_rows, format.height - first_row);
    const std::uint32_t chunk_count = chunks_across * rows;
    chunk.dispatch(cmd, ChunkPush{frame, chunks_.address(), format.width, first_row}, chunks_across, rows);
    compute_to_compute(cmd);
    for (std::uint32_t stride = 1; stride < chunk_count; stride *= 2) {
      reduce.dispatch(cmd, ReducePush{chunks_.address(), 0, stride, chunk_count}, div_up(chunk_count, 2ull * stride));
      compute_to_compute(cmd);
    }
    reduce.dispatch(cmd, ReducePush{chunks_.address(), target.histogram.address(), 0, chunk_count}, 1);
    compute_to_compute(cmd);
  }
}

}  // namespace vhist
