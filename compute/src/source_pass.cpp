#include "vhist/compute/source_pass.h"

#include "plane_push.h"

#include "vhist/compute/blocking_io.h"
#include "vhist/compute/hlg_light.h"
#include "vhist/compute_push.h"
#include "vhist/hlg_light_shared.h"
#include "vhist/measures_shared.h"
#include "vhist/shaders/cells.spv.h"
#include "vhist/shaders/checksum.spv.h"
#include "vhist/shaders/max_rgb.spv.h"
#include "vhist/shaders/planes.spv.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <thread>

namespace vhist {

namespace {

using shader::MaxRgbPush;
using shader::PlaneReadPush;

constexpr VkDeviceSize kPlaneCountsBytes = VkDeviceSize{shader::kPlaneCountsWords} * 4;
constexpr VkDeviceSize kLightCountsBytes = VkDeviceSize{shader::kMaxLightLevels} * 4;
constexpr VkDeviceSize kMeasuresBytes = VkDeviceSize{shader::kMeasureWords} * 4;
constexpr std::uint32_t kWorkgroupSize = 256;
// Each invocation walks at least this many samples, so small frames use few workgroups (each
// adds its whole shared histogram to the global one); at most kMaxWorkgroups run.
constexpr std::uint32_t kSamplesPerInvocation = 32;
constexpr std::uint32_t kMaxWorkgroups = 1024;

std::uint32_t workgroups_for(std::uint64_t samples) {
  const std::uint64_t per_group = std::uint64_t{kWorkgroupSize} * kSamplesPerInvocation;
  return static_cast<std::uint32_t>(std::clamp<std::uint64_t>((samples + per_group - 1) / per_group, 1, kMaxWorkgroups));
}

// The plane pass's shape (planes.comp). A GPU: workgroups of 1024 invocations, one per
// multiprocessor, one shared copy, no merging, as the histogram engine's table measured best for
// its own counts on an H200 (histogram_engine.cpp); a CPU device: 256 invocations, two
// workgroups per thread, merging. Either way each invocation walks at least kMinRuns runs of 4
// luma samples, so small frames use few workgroups (each adds its whole histogram once).
struct PlaneConfig {
  std::uint32_t workgroup_size = 256, copies = 1, workgroups = 1;
  bool merge = false;
};
constexpr std::uint64_t kMinRuns = 8;

PlaneConfig plane_config(const render::GpuProperties& p, const VideoFormat& f) {
  const bool cpu = p.kind == render::DeviceKind::cpu;
  PlaneConfig c;
  c.workgroup_size = std::min<std::uint32_t>(cpu ? 256 : 1024, p.max_workgroup_invocations);
  c.merge = cpu;
  const std::uint32_t units = p.multiprocessor_count ? p.multiprocessor_count : 32;
  const std::uint32_t resident = cpu ? 2 * std::max(1u, std::thread::hardware_concurrency()) : units;
  const std::uint64_t runs = std::uint64_t{(f.width + 3) / 4} * f.height;
  const std::uint64_t per_group = std::uint64_t{c.workgroup_size} * kMinRuns;
  const auto useful = static_cast<std::uint32_t>(std::max<std::uint64_t>(1, (runs + per_group - 1) / per_group));
  c.workgroups = std::clamp<std::uint32_t>(std::min(resident, useful), 1, p.max_workgroup_count_x);
  return c;
}

void clear(VkCommandBuffer cmd, const render::Buffer& counts, VkDeviceSize bytes) {
  vkCmdFillBuffer(cmd, counts.get(), 0, bytes, 0);
  render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                         VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                         VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
}

render::Buffer counts_buffer(const render::Context& context, VkDeviceSize bytes, const std::string& name) {
  return render::Buffer(context, bytes,
                        VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                            VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                        render::MemoryUse::device, true, name);
}

}  // namespace

SourcePass::SourcePass(render::Context& context) : context_(context) {}

render::Buffer SourcePass::create_plane_counts(const std::string& name) const {
  return counts_buffer(context_, kPlaneCountsBytes, name + " plane counts");
}

render::Buffer SourcePass::create_light_counts(const std::string& name) const {
  return counts_buffer(context_, kLightCountsBytes, name + " light counts");
}

render::Buffer SourcePass::create_measures(const std::string& name) const {
  return counts_buffer(context_, kMeasuresBytes, name + " measures");
}

std::string SourcePass::check_planes(const VideoFormat& format, std::uint32_t bins) const {
  if (auto err = check_video_format(format); !err.empty()) return err;
  if (!has_planes(format)) return "the frame is stored as R'G'B' (" + format.pixel_format + "): it has no Y'CbCr planes";
  return check_bins(bins, format.bits);
}

const render::ComputePipeline& SourcePass::pipeline(std::uint32_t levels, const FrameFormat& format, bool hlg) {
  const std::array<std::uint32_t, 4> key{levels, static_cast<std::uint32_t>(format.packing), format.bits,
                                         hlg ? 1u : 0u};
  auto& slot = pipelines_[key];
  if (!slot) {
    const render::SpecConstant constants[] = {{shader::kSpecBins, levels},
                                              {shader::kSpecPacking, key[1]},
                                              {shader::kSpecBits, std::max(8u, key[2])},
                                              {shader::kSpecHlg, key[3]}};
    slot = std::make_unique<render::ComputePipeline>(context_, max_rgb_spv, constants, sizeof(MaxRgbPush), "max rgb");
  }
  return *slot;
}

void SourcePass::record_planes(VkCommandBuffer cmd, const VideoFormat& f, const GpuPlanes& planes, std::uint32_t bins,
                               const render::Buffer& counts) {
  if (auto err = check_planes(f, bins); !err.empty()) throw std::invalid_argument(err);
  clear(cmd, counts, kPlaneCountsBytes);
  PlaneReadPush push{};
  push.result = counts.address();
  plane_push(push, f, planes);
  const PlaneConfig c = plane_config(context_.properties(), f);
  const std::array<std::uint32_t, 4> key{bins, c.workgroup_size, c.copies, c.merge ? 1u : 0u};
  auto& pipeline = plane_pipelines_[key];
  if (!pipeline) {
    const render::SpecConstant constants[] = {{shader::kSpecBins, key[0]},
                                              {shader::kSpecWorkgroupSize, key[1]},
                                              {shader::kSpecCopies, key[2]},
                                              {shader::kSpecMerge, key[3]}};
    pipeline = std::make_unique<render::ComputePipeline>(context_, planes_spv, constants, sizeof(PlaneReadPush), "planes");
  }
  pipeline->dispatch(cmd, push, c.workgroups);
}

void SourcePass::record_clear_measures(VkCommandBuffer cmd, const render::Buffer& measures) {
  clear(cmd, measures, kMeasuresBytes);
}

void SourcePass::record_checksum(VkCommandBuffer cmd, const VideoFormat& f, const GpuPlanes& planes,
                                 const render::Buffer& measures) {
  if (auto err = check_video_format(f); !err.empty()) throw std::invalid_argument(err);
  if (!checksum_) {
    checksum_ = std::make_unique<render::ComputePipeline>(context_, checksum_spv, std::span<const render::SpecConstant>{},
                                                          sizeof(PlaneReadPush), "checksum");
  }
  PlaneReadPush push{};
  push.result = measures.address();
  plane_push(push, f, planes);
  checksum_->dispatch(cmd, push, workgroups_for(std::uint64_t{f.width} * f.height));
  if (!cells_) {
    cells_ = std::make_unique<render::ComputePipeline>(context_, cells_spv, std::span<const render::SpecConstant>{},
                                                       sizeof(PlaneReadPush), "cells");
  }
  cells_->dispatch(cmd, push, shader::kCellRows);  // one workgroup per row of cells
}

const render::Buffer& SourcePass::hlg_tables(std::uint32_t bits) {
  auto& slot = hlg_tables_[bits];
  if (!slot) {
    const std::span<const std::uint32_t> words = hlg_light_tables(bits);
    auto tables = std::make_unique<render::Buffer>(context_, words.size_bytes(),
                                                   VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                                   render::MemoryUse::device, true, "HLG light tables");
    upload_blocking(context_, *tables, std::as_bytes(words));
    slot = std::move(tables);
  }
  return *slot;
}

void SourcePass::record_max_rgb(VkCommandBuffer cmd, VkDeviceAddress frame, const FrameFormat& format,
                                const render::Buffer& counts, LightSignal signal) {
  if (auto err = check_format(format); !err.empty()) throw std::invalid_argument(err);
  const bool hlg = signal == LightSignal::hlg;
  // The tables are uploaded (once per depth, waiting) before the commands that read them.
  const VkDeviceAddress tables = hlg ? hlg_tables(format.bits).address() : 0;
  clear(cmd, counts, kLightCountsBytes);
  const MaxRgbPush push{frame, counts.address(), tables, static_cast<std::uint32_t>(format.pixel_count()), 0};
  pipeline(light_levels(format.bits), format, hlg).dispatch(cmd, push, workgroups_for(format.pixel_count()));
}

PlaneCounts plane_counts_from_words(const std::uint32_t* words, std::uint32_t bins) {
  PlaneCounts out{Histogram(bins), {}, {}};
  std::memcpy(out.histogram.counts.data(), words, std::size_t{bins} * shader::kChannelCount * 4);
  const std::uint32_t* counters = words + std::size_t{shader::kPlaneCounterRecord} * shader::kChannelCount;
  std::memcpy(out.below.data(), counters, 16);
  std::memcpy(out.above.data(), counters + 4, 16);
  return out;
}

}  // namespace vhist
