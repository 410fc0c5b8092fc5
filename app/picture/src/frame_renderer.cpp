// FrameRenderer: resources, the slots of the frames in flight, and the host side of a tick (the
// plan, buffer growth, the new frame staged or converted on the CPU). The passes are recorded
// in frame_renderer_passes.cpp.
#include "vhist/picture/frame_renderer.h"

#include "frame_renderer_scopes.h"
#include "frame_renderer_slot.h"

#include "vhist/compute/cpu_reference.h"
#include "vhist/compute/histogram_match.h"
#include "vhist/render/command_slot.h"
#include "vhist/render/descriptor_pool.h"
#include "vhist/picture/scope_layout.h"
#include "vhist/render/vk_check.h"
#include "vhist/shaders/composite.spv.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace vhist::viewer {

FrameRenderer::FrameRenderer(render::Context& context, Engine engine, Pipelines pipelines)
    : context_(context),
      engine_kind_(engine),
      engine_(context),
      upload_(context),
      source_pass_(context),
      match_pass_(context) {
  for (std::uint32_t i = 0; i < kFramesInFlight; ++i) {
    auto slot = std::make_unique<Slot>();
    slot->commands = render::CommandSlot(context, true);
    slot->readback = render::Buffer(context, kReadbackBytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                    render::MemoryUse::readback, false, "viewer readback");
    slot->timer = std::make_unique<render::GpuTimer>(context, 4);
    slot->composite_params = render::Buffer(context, sizeof(shader::CompositeParams), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                            render::MemoryUse::upload, false, "composite params");
    slot->overlay = render::Buffer(context, kMaxOverlayItems * sizeof(shader::OverlayItem),
                                   VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, render::MemoryUse::upload, true, "overlay items");
    slot->reference = render::Buffer(context, kReferenceBytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                     render::MemoryUse::upload, true, "reference");
    slots_.push_back(std::move(slot));
  }
  if (engine == Engine::cpu) cpu_ = std::make_unique<CpuEngine>();
  scopes_ = std::make_unique<FrameScopes>(context, engine, kFramesInFlight, pipelines == Pipelines::ahead);
  make_composite_descriptors();
  display_ = engine_.create_target("viewer display");
  levels_ = engine_.create_target("viewer levels");
  inner_scale_ = render::Buffer(context, 32, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, render::MemoryUse::device, true,
                                "viewer inner scale");
  cdf_ = engine_.create_cdf_target("viewer");
  match_ = engine_.create_cdf_target("viewer match");
  plane_counts_ = source_pass_.create_plane_counts("viewer");
  light_counts_ = source_pass_.create_light_counts("viewer");
  plane_display_counts_ = source_pass_.create_plane_counts("viewer display");
  for (Palette p : {Palette::classic, Palette::colorblind, Palette::mono}) {
    const auto colours = palette_colours(p);
    auto& buffer = palettes_[static_cast<std::size_t>(p)];
    buffer = render::Buffer(context, sizeof colours, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, render::MemoryUse::upload, true,
                            "palette");
    std::memcpy(buffer.mapped(), colours.data(), sizeof colours);
  }
  // The SDR picture's pipelines, made now, so that none is first compiled mid-interaction
  // (lavapipe compiles one in about a second on a cold shader cache, which lost the window tests'
  // drags and keys): the video pass and the three panel passes. Not for Pipelines::on_first_use.
  if (pipelines == Pipelines::on_first_use) return;
  for (std::uint32_t part = 0; part < 4; ++part) composite_pipeline(part, false);
}

FrameRenderer::~FrameRenderer() { wait_idle(); }

void FrameRenderer::wait_idle() { render::wait_idle_for_teardown(context_.device()); }

void FrameRenderer::make_composite_descriptors() {
  const VkDevice device = context_.device();
  VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
  VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  set_info.bindingCount = 1;
  set_info.pBindings = &binding;
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  VHIST_VK_CHECK(vkCreateDescriptorSetLayout(device, &set_info, nullptr, &set_layout));
  composite_set_layout_ = render::UniqueDescriptorSetLayout(device, set_layout);
  composite_pool_ =
      render::make_descriptor_pool(device, kFramesInFlight, {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kFramesInFlight}});
  for (auto& slot : slots_) {
    VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    alloc.descriptorPool = composite_pool_.get();
    alloc.descriptorSetCount = 1;
    alloc.pSetLayouts = &set_layout;
    VHIST_VK_CHECK(vkAllocateDescriptorSets(device, &alloc, &slot->composite_set));
    const VkDescriptorBufferInfo buffer{slot->composite_params.get(), 0, sizeof(shader::CompositeParams)};
    VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    write.dstSet = slot->composite_set;
    write.dstBinding = 0;
    write.descriptorCount = 1;
    write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    write.pBufferInfo = &buffer;
    vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);
  }
}

const render::ComputePipeline& FrameRenderer::composite_pipeline(std::uint32_t part, bool hdr) {
  const std::uint32_t key = (hdr ? 4u : 0u) | part;
  auto it = composite_pipelines_.find(key);
  if (it == composite_pipelines_.end()) {
    const bool panels = part != 0;
    const render::SpecConstant constants[] = {
        {0, hdr ? 1u : 0u}, {1, panels ? 1u : 0u}, {2, panels ? part : 3u}};
    const std::string name = std::string("composite ") + (panels ? "panel" : "video") + (hdr ? " (HDR display)" : "");
    it = composite_pipelines_
             .emplace(key, render::ComputePipeline(context_, composite_spv, constants, sizeof(shader::CompositePush), name,
                                                   composite_set_layout_.get()))
             .first;
  }
  return it->second;
}

std::string FrameRenderer::check(const VideoFormat& format, const VideoPlanes& planes, std::uint32_t bins) const {
  if (auto err = upload_.check(format, planes); !err.empty()) return err;
  const FrameFormat rgb = converted_format(format);
  return engine_.check(rgb, bins_for_frame(bins, rgb.bits));
}

void FrameRenderer::collect(Slot& slot) {
  if (!slot.submitted) return;
  if (slot.readback_pending) {
    Histogram levels(slot.levels);
    std::memcpy(levels.counts.data(), slot.readback.mapped(), std::size_t{slot.levels} * 16);
    statistics_.valid = true;
    statistics_.bits = slot.bits;
    statistics_.width = slot.width;
    statistics_.height = slot.height;
    statistics_.stats = channel_stats(levels, slot.bits);
    statistics_.levels = std::move(levels);
    statistics_.ycbcr = slot.ycbcr;
    slot.readback_pending = false;
    collect_source_measures(slot);
  }
  const auto ns = slot.timer->read_ns(4);
  statistics_.gpu_ms = (ns[3] - ns[0]) * 1e-6;
  statistics_.gpu_upload_ms = (ns[1] - ns[0]) * 1e-6;
  statistics_.gpu_histogram_ms = (ns[2] - ns[1]) * 1e-6;
  statistics_.gpu_draw_ms = (ns[3] - ns[2]) * 1e-6;
  if (slot.imported && import_) {  // the importer's copy, before the command buffer (its slot's last)
    const double copy_ms = import_->copy_ms(next_slot_);
    statistics_.gpu_upload_ms += copy_ms;
    statistics_.gpu_ms += copy_ms;
  }
}

void FrameRenderer::collect_source_measures(Slot& slot) {
  const auto* bytes = static_cast<const std::byte*>(slot.readback.mapped());
  statistics_.range.reset();
  statistics_.light.reset();
  if (slot.planes_pending) {
    const auto* words = reinterpret_cast<const std::uint32_t*>(bytes + kReadbackPlanesOffset);
    statistics_.range = range_check(plane_counts_from_words(words, slot.levels), slot.range);
  }
  if (slot.light_pending) {
    const auto* words = reinterpret_cast<const std::uint32_t*>(bytes + kReadbackLightOffset);
    statistics_.light = pq_light_level({words, light_levels(slot.bits)}, slot.bits);
  }
  slot.planes_pending = slot.light_pending = false;
}

void FrameRenderer::begin() {
  Slot& slot = *slots_[next_slot_];
  const VkFence fence = slot.commands.fence();
  VHIST_VK_CHECK(vkWaitForFences(context_.device(), 1, &fence, VK_TRUE, UINT64_MAX));
  collect(slot);
}

VkFence FrameRenderer::fence() const { return slots_[next_slot_]->commands.fence(); }

void FrameRenderer::end() {
  slots_[next_slot_]->submitted = true;
  if (import_) ++ticks_submitted_;  // it signalled import_release()
  import_wait_ = {};
  next_slot_ = (next_slot_ + 1) % kFramesInFlight;
}

FramePlan FrameRenderer::prepare(const VideoFormat* format, const VideoPlanes* planes, bool rehistogram,
                                 const DrawStyle& style, const DeviceFrame* device) {
  const bool on_device = format && device && device->memory != FrameMemory::host;
  slots_[next_slot_]->imported = false;  // prepare_imported_frame says otherwise
  if (on_device && engine_kind_ == Engine::cpu) {
    throw std::invalid_argument("the CPU engine reads frames in host memory; this frame is in another API's GPU memory");
  }
  if ((format == nullptr) != (planes == nullptr)) throw std::invalid_argument("a new frame needs its format and planes");
  const FrameFormat rgb = format ? converted_format(*format) : rgb_format_;
  TickRequest request;
  request.new_frame = format != nullptr;
  request.rehistogram = rehistogram;
  request.bins = bins_for_frame(style.bins, rgb.bits);
  request.engine = engine_kind_;
  request.style = style;
  const FramePlan plan = plan_tick(state_, request);
  if (plan.count_on_gpu || plan.convert_on_cpu) {  // the CPU engine counts as it converts
    counted_rect_ = counted_region(style, rgb);
    counted_format_ = counted_rect_ ? region_format(rgb, *counted_rect_) : rgb;
  }
  prepare_buffers(plan, rgb);
  if (plan.convert_on_gpu) prepare_gpu_frame(*format, *planes, on_device ? device : nullptr);
  if (plan.convert_on_cpu) prepare_cpu_frame(*format, *planes, rgb, style);
  prepare_cpu_uploads(plan, request.bins);
  prepare_reference(plan, style, rgb);
  prepare_scopes(plan, format, planes, rehistogram, style);
  if (format) {
    rgb_format_ = rgb;
    shape_ = {format->rotation, static_cast<float>(format->display_width()), static_cast<float>(format->display_height())};
  }
  return plan;
}

std::optional<PixelRect> FrameRenderer::counted_region(const DrawStyle& style, const FrameFormat& rgb) {
  if (!style.region || style.ycbcr || !check_rect(*style.region, rgb.width, rgb.height).empty()) return std::nullopt;
  return style.region;
}

// The buffers this tick's passes write, grown for its frame. Those shared by the
// frames in flight are replaced only after waiting for them (once per growth, not per frame).
void FrameRenderer::prepare_buffers(const FramePlan& plan, const FrameFormat& rgb) {
  const std::uint64_t rgb_bytes = (rgb.byte_size() + 15) & ~std::uint64_t{15};
  if ((plan.convert_on_gpu || plan.upload_rgb) && needs_growth(rgb_, rgb_bytes)) {
    wait_idle();
    grow_frame_buffer(context_, rgb_, rgb, "viewer rgb");
  }
  if (plan.count_on_gpu && counted_rect_ && needs_growth(region_, (counted_format_.byte_size() + 15) & ~std::uint64_t{15})) {
    wait_idle();
    grow_frame_buffer(context_, region_, counted_format_, "viewer region");
  }
  if (plan.equalize && needs_growth(equalized_, rgb_bytes)) {
    wait_idle();  // the frames in flight may read the old buffer
    grow_frame_buffer(context_, equalized_, rgb, "viewer equalized");
  }
}

// GPU engine: the planes into the slot's staging memory (its previous use is done: begin()),
// and the shared device planes grown for them.
void FrameRenderer::prepare_gpu_frame(const VideoFormat& format, const VideoPlanes& planes, const DeviceFrame* device) {
  imported_ = device != nullptr;
  if (device) {
    prepare_imported_frame(format, planes, *device);
    return;
  }
  plane_layout_ = upload_.stage(format, planes, slots_[next_slot_]->staging);
  if (needs_growth(planes_, plane_layout_.total)) {
    wait_idle();
    upload_.grow_device_planes(planes_, plane_layout_);
  }
}

// CPU engine: the new frame converted and counted into the slot's staging memory; its
// statistics are known at once.
void FrameRenderer::prepare_cpu_frame(const VideoFormat& format, const VideoPlanes& planes, const FrameFormat& rgb,
                                      const DrawStyle& style) {
  Slot& slot = *slots_[next_slot_];
  grow_staging(slot, kStagingRgbOffset + rgb.byte_size());
  auto* rgb_bytes = static_cast<std::byte*>(slot.staging.mapped()) + kStagingRgbOffset;
  const std::uint32_t levels = stats_levels(rgb.bits);
  if (style.scopes_only && !scopes_only_read_rgb(style, format)) {
    // Nothing reads the converted frame, its histogram or the statistics: the frame is not
    // converted (the scopes count its planes), and the statistics say there are none.
    cpu_levels_ = Histogram(levels);
    statistics_ = FrameStatistics{};
    return;
  }
  cpu_levels_ = cpu_->convert_and_histogram(format, planes, levels, rgb_bytes);
  if (counted_rect_) {  // the region's pixels as converted in the whole frame
    const auto region = crop_frame({rgb_bytes, rgb.byte_size()}, rgb, *counted_rect_);
    cpu_levels_ = reference_histogram(region, counted_format_, levels);
  }
  statistics_.range.reset();
  statistics_.light.reset();
  statistics_.ycbcr = false;
  // Nor, with scopes only, the planes' range check and the light level (more passes over it).
  const bool measures = !style.scopes_only;
  if (measures && has_planes(format)) {
    PlaneCounts counts = cpu_->planes(format, planes, levels);
    statistics_.range = range_check(counts, format.range);
    if (style.ycbcr) cpu_levels_ = std::move(counts.histogram);  // what is drawn and described
    statistics_.ycbcr = style.ycbcr;
  }
  if (measures && style.light != LightScale::none) {  // PQ's, or HLG's on the reference display
    const LightSignal signal = style.light == LightScale::hlg ? LightSignal::hlg : LightSignal::pq;
    statistics_.light = pq_light_level(reference_max_rgb({rgb_bytes, rgb.byte_size()}, rgb, signal), rgb.bits);
  }
  statistics_.valid = true;
  statistics_.bits = rgb.bits;
  statistics_.width = counted_format_.width;
  statistics_.height = counted_format_.height;
  statistics_.stats = channel_stats(cpu_levels_, rgb.bits);
  statistics_.levels = cpu_levels_;
}

// CPU engine: the display histogram and its scale (from the levels), and the statistics
// histogram for the prefix sum, into the slot's staging memory.
void FrameRenderer::prepare_cpu_uploads(const FramePlan& plan, std::uint32_t bins) {
  if (!plan.upload_counts && !plan.upload_levels) return;
  Slot& slot = *slots_[next_slot_];
  grow_staging(slot, kStagingRgbOffset);
  auto* staging = static_cast<std::byte*>(slot.staging.mapped());
  if (plan.upload_counts) {
    const Histogram display = coarsen(cpu_levels_, bins);
    const Scale scale = reference_scale(display, counted_format_.pixel_count());
    std::memcpy(staging, display.counts.data(), display.counts.size() * sizeof(std::uint32_t));
    std::memcpy(staging + kStagingScaleOffset, scale.scale.data(), 16);
    std::memcpy(staging + kStagingScaleOffset + 16, scale.max_count.data(), 16);
  }
  if (plan.upload_levels) {
    std::memcpy(staging + kStagingLevelsOffset, cpu_levels_.counts.data(),
                cpu_levels_.counts.size() * sizeof(std::uint32_t));
  }
}

// The reference (when one is drawn) at the display bins and the counted pixels, for the outline;
// its prefix sum at the match's levels when the picture is matched this tick.
void FrameRenderer::prepare_reference(const FramePlan& plan, const DrawStyle& style, const FrameFormat& rgb) {
  if (!style.reference || style.ycbcr || !plan.next.has_frame) return;
  auto* bytes = static_cast<std::byte*>(slots_[next_slot_]->reference.mapped());
  const std::vector<float> bars = reference_at(*style.reference, plan.next.counted_bins, counted_format_.pixel_count());
  std::memcpy(bytes, bars.data(), bars.size() * sizeof(float));
  if (plan.equalize && style.match) {
    const Cdf cumulative = reference_cdf(match_bins(*style.reference, rgb.bits));
    std::memcpy(bytes + kReferenceCdfOffset, cumulative.counts.data(), cumulative.counts.size() * sizeof(std::uint32_t));
    reference_levels_ = cumulative.bins;
  }
}

void FrameRenderer::grow_staging(Slot& slot, std::uint64_t bytes) {
  grow_buffer(context_, slot.staging, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, render::MemoryUse::upload, false,
              "viewer staging");
}

VkCommandBuffer FrameRenderer::begin_commands() {
  Slot& slot = *slots_[next_slot_];
  const VkFence fence = slot.commands.fence();
  VHIST_VK_CHECK(vkResetFences(context_.device(), 1, &fence));
  const VkCommandBuffer cmd = slot.commands.begin();
  slot.timer->reset(cmd);
  slot.timer->write(cmd, 0);
  return cmd;
}

VkCommandBuffer FrameRenderer::end_commands(VkCommandBuffer cmd, const FramePlan& plan) {
  slots_[next_slot_]->timer->write(cmd, 3);
  VHIST_VK_CHECK(vkEndCommandBuffer(cmd));
  state_ = plan.next;
  return cmd;
}

VkCommandBuffer FrameRenderer::record_composite(const VideoFormat* format, const VideoPlanes* planes,
                                                bool rehistogram, const DrawStyle& style_in,
                                                const CompositeTarget& target, const RecordHook& after_pass,
                                                const DeviceFrame* device) {
  if (target.output == 0) throw std::invalid_argument("a compute-composited target needs an output buffer");
  // The scopes' panels laid out in the target; the video and histograms get the rest.
  const DrawStyle& style = with_scope_layout(style_in, static_cast<float>(target.extent.width),
                                             static_cast<float>(target.extent.height));
  const FramePlan plan = prepare(format, planes, rehistogram, style, device);
  const VkCommandBuffer cmd = begin_commands();
  record_compute_passes(cmd, plan, format, planes, style);
  record_draw_composite(cmd, plan, style, target);
  if (after_pass) after_pass(cmd);
  return end_commands(cmd, plan);
}

}  // namespace vhist::viewer
