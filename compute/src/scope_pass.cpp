#include "vhist/compute/scope_pass.h"

#include "plane_push.h"

#include "vhist/compute/colour.h"
#include "vhist/scope_shared.h"
#include "vhist/shaders/scope_vector.spv.h"
#include "vhist/shaders/scope_waveform.spv.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace vhist {

namespace {

using shader::VectorPush;
using shader::WaveformPush;

// Workgroups of the vectorscope: one per kVectorGroupSamples samples (each adds its shared
// window to the buffer at the end, so not too many), at most this many.
constexpr std::uint32_t kMaxVectorWorkgroups = 1024;
constexpr std::uint64_t kVectorGroupSamples = std::uint64_t{shader::kScopeWorkgroupSize} * shader::kScopeVectorRun * 4;

std::uint32_t waveform_source(WaveformMode mode) {
  return mode == WaveformMode::luma ? shader::kScopeLuma : mode == WaveformMode::rgb ? shader::kScopeRgb
                                                                                    : shader::kScopePlanes;
}

void require_input(bool planes, const ScopeInputs& inputs) {
  if (planes && inputs.planes.address[0] == 0) throw std::invalid_argument("scope pass: the frame's planes are missing");
  if (!planes && inputs.rgb == 0) throw std::invalid_argument("scope pass: the converted frame is missing");
}

// Checks that `counts` holds `bytes` and records their clear, visible to the pass's atomics.
void clear_counts(VkCommandBuffer cmd, const render::Buffer& counts, VkDeviceSize bytes) {
  if (!counts || counts.size() < bytes) {
    throw std::invalid_argument("scope pass: the counts buffer holds " + std::to_string(counts ? counts.size() : 0) +
                                " bytes; the request needs " + std::to_string(bytes));
  }
  vkCmdFillBuffer(cmd, counts.get(), 0, bytes, 0);
  render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                         VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                         VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
}

}  // namespace

ScopePass::ScopePass(render::Context& context) : context_(context) {}

VkDeviceSize ScopePass::waveform_bytes(const VideoFormat& format, const WaveformRequest& request) {
  if (!check_waveform(format, request).empty()) return 0;
  const WaveformShape shape =
      waveform_shape(display_columns(format, scope_region(format, request.region)), request.plot_width);
  return VkDeviceSize{waveform_components(request.mode)} * shape.plot_columns * request.levels * 4;
}

VkDeviceSize ScopePass::vectorscope_bytes(const VectorscopeRequest& request) {
  return VkDeviceSize{request.size} * request.size * 4;
}

render::Buffer ScopePass::create_counts(VkDeviceSize bytes, const std::string& name) const {
  return render::Buffer(context_, std::max<VkDeviceSize>(bytes, 16),
                        VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                            VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                        render::MemoryUse::device, true, name + " scope counts");
}

ScopePass::WaveformPlan ScopePass::waveform_plan(const WaveformRequest& request, const WaveformShape& shape,
                                                 std::uint32_t lines, std::uint32_t group_pixels) {
  WaveformPlan plan;
  const std::uint32_t fit = shader::kScopeSharedWords / (waveform_components(request.mode) * request.levels);
  plan.group_columns = std::clamp(shape.plot_columns, 1u, std::max(fit, 1u));
  const std::uint32_t strip = plan.group_columns * shape.run;  // display columns of a workgroup
  plan.band_rows = std::clamp((std::max(group_pixels, 1u) + strip - 1) / strip, 1u, std::max(lines, 1u));
  plan.groups_x = (shape.plot_columns + plan.group_columns - 1) / plan.group_columns;
  plan.groups_y = (lines + plan.band_rows - 1) / plan.band_rows;
  return plan;
}

const render::ComputePipeline& ScopePass::pipeline(bool waveform, std::uint32_t levels, std::uint32_t packing,
                                                   std::uint32_t source, std::uint32_t window) {
  const std::array<std::uint32_t, 5> key{waveform ? 1u : 0u, levels, packing, source, window};
  auto& slot = pipelines_[key];
  if (!slot) {
    const render::SpecConstant constants[] = {{shader::kSpecBins, levels},
                                              {shader::kSpecPacking, packing},
                                              {shader::kSpecScopeSource, source},
                                              {shader::kSpecScopeWindow, window}};
    if (waveform) {
      slot = std::make_unique<render::ComputePipeline>(context_, scope_waveform_spv, std::span(constants, 3),
                                                       sizeof(WaveformPush), "scope waveform");
    } else {
      slot = std::make_unique<render::ComputePipeline>(context_, scope_vector_spv, constants, sizeof(VectorPush),
                                                       "scope vectorscope");
    }
  }
  return *slot;
}

void ScopePass::record_waveform(VkCommandBuffer cmd, const ScopeInputs& inputs, const WaveformRequest& request,
                                const render::Buffer& counts) {
  const VideoFormat& f = inputs.format;
  if (auto err = check_waveform(f, request); !err.empty()) throw std::invalid_argument(err);
  const bool planes = request.mode == WaveformMode::ycbcr;
  require_input(planes, inputs);
  clear_counts(cmd, counts, waveform_bytes(f, request));
  const PixelRect r = scope_region(f, request.region);
  const WaveformShape shape = waveform_shape(display_columns(f, r), request.plot_width);
  WaveformPush push{};
  if (planes) {
    plane_fields(push, f, inputs.planes);
  } else {
    push.frame = inputs.rgb;
    push.format = converted_format(f).bits;
  }
  push.counts = counts.address();
  push.frame_width = f.width;
  push.x0 = r.x, push.y0 = r.y, push.w = r.width, push.h = r.height;
  push.rotation = f.rotation;
  push.run = shape.run;
  push.columns = shape.columns;
  push.plot_columns = shape.plot_columns;
  const std::uint32_t lines = f.rotation == 90 || f.rotation == 270 ? r.width : r.height;
  const WaveformPlan plan = waveform_plan(request, shape, lines, group_pixels_);
  push.group_columns = plan.group_columns;
  push.band_rows = plan.band_rows;
  const auto packing = static_cast<std::uint32_t>(converted_format(f).packing);
  pipeline(true, request.levels, planes ? 0u : packing, waveform_source(request.mode))
      .dispatch(cmd, push, plan.groups_x, plan.groups_y);
}

void ScopePass::record_vectorscope(VkCommandBuffer cmd, const ScopeInputs& inputs, const VectorscopeRequest& request,
                                   const render::Buffer& counts) {
  const VideoFormat& f = inputs.format;
  if (auto err = check_vectorscope(f, request); !err.empty()) throw std::invalid_argument(err);
  const bool planes = vectorscope_from_planes(f);
  require_input(planes, inputs);
  clear_counts(cmd, counts, vectorscope_bytes(request));
  const PixelRect s = vectorscope_samples(f, scope_region(f, request.region));
  VectorPush push{};
  if (planes) {
    plane_fields(push, f, inputs.planes);
  } else {
    push.frame = inputs.rgb;
    push.format = converted_format(f).bits;
    const ChromaFromRgb k = chroma_from_rgb(f.matrix, f.range, f.bits);
    std::copy(k.cb.begin(), k.cb.end(), push.kcb);
    std::copy(k.cr.begin(), k.cr.end(), push.kcr);
    push.zero = k.zero;
    push.max_code = k.max_code;
  }
  push.counts = counts.address();
  push.frame_width = f.width;
  push.x0 = s.x, push.y0 = s.y, push.w = s.width, push.h = s.height;
  const auto groups = static_cast<std::uint32_t>(std::clamp<std::uint64_t>(
      (s.pixel_count() + kVectorGroupSamples - 1) / kVectorGroupSamples, 1, kMaxVectorWorkgroups));
  const auto packing = static_cast<std::uint32_t>(converted_format(f).packing);
  pipeline(false, request.size, planes ? 0u : packing, planes ? shader::kScopePlanes : shader::kScopeRgb,
           vector_window_ ? shader::kScopeVectorWindow : 0u)
      .dispatch(cmd, push, groups);
}

void ScopePass::prepare(const VideoFormat& f, const WaveformRequest& waveform, const VectorscopeRequest& vectorscope) {
  const auto packing = static_cast<std::uint32_t>(converted_format(f).packing);
  if (check_waveform(f, waveform).empty()) {
    const bool planes = waveform.mode == WaveformMode::ycbcr;
    pipeline(true, waveform.levels, planes ? 0u : packing, waveform_source(waveform.mode));
  }
  if (check_vectorscope(f, vectorscope).empty()) {
    const bool planes = vectorscope_from_planes(f);
    pipeline(false, vectorscope.size, planes ? 0u : packing, planes ? shader::kScopePlanes : shader::kScopeRgb,
             vector_window_ ? shader::kScopeVectorWindow : 0u);
  }
}

WaveformCounts waveform_from_words(const VideoFormat& format, const WaveformRequest& request,
                                   const std::uint32_t* words) {
  WaveformCounts out = empty_waveform(format, request);
  std::memcpy(out.counts.data(), words, out.counts.size() * 4);
  return out;
}

VectorscopeCounts vectorscope_from_words(const VideoFormat& format, const VectorscopeRequest& request,
                                         const std::uint32_t* words) {
  VectorscopeCounts out{request.size, vectorscope_from_planes(format),
                        std::vector<std::uint32_t>(std::size_t{request.size} * request.size)};
  std::memcpy(out.counts.data(), words, out.counts.size() * 4);
  return out;
}

}  // namespace vhist
