// FrameRenderer's passes, in recording order. Each records its work and the barrier that makes
// its writes visible to the passes after it; the plan (frame_plan.h) says which run.
#include "vhist/picture/frame_renderer.h"

#include "frame_renderer_scopes.h"
#include "frame_renderer_slot.h"
#include "vhist/picture/video_fit.h"

#include "vhist/clip_shared.h"
#include "vhist/hdr_display_shared.h"

#include "vhist/render/vk_check.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace vhist::viewer {

namespace {

// composite.comp's workgroup: kCompositeGroup x kCompositeGroup pixels.
constexpr std::uint32_t kCompositeGroup = 16;
std::uint32_t groups(std::uint32_t pixels) { return (pixels + kCompositeGroup - 1) / kCompositeGroup; }

// composite.comp's kPart.
constexpr std::uint32_t kPartBars = 1, kPartFrame = 2, kPartWhole = 3;

// The pixels [x0, x1) x [y0, y1) of a target.
struct PixelSpan {
  std::uint32_t x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};

// The first pixel whose centre lies at or past `edge` (of a target `size` pixels), by the
// shader's own test (float(p) + 0.5 >= edge), so that the passes' spans and its tests agree.
std::uint32_t first_pixel_from(float edge, std::uint32_t size) {
  auto p = static_cast<std::int64_t>(std::ceil(std::clamp(edge, 0.0f, static_cast<float>(size)) - 0.5f));
  while (p > 0 && static_cast<float>(p - 1) + 0.5f >= edge) --p;
  while (p < static_cast<std::int64_t>(size) && static_cast<float>(p) + 0.5f < edge) ++p;
  return static_cast<std::uint32_t>(std::clamp<std::int64_t>(p, 0, size));
}

// The pixels whose centres lie in rect r (x0, y0, x1, y1).
PixelSpan pixels_of(const float* r, VkExtent2D extent) {
  return {first_pixel_from(r[0], extent.width), first_pixel_from(r[1], extent.height),
          first_pixel_from(r[2], extent.width), first_pixel_from(r[3], extent.height)};
}

PixelSpan clip(PixelSpan s, const PixelSpan& to) {
  s.x0 = std::clamp(s.x0, to.x0, to.x1);
  s.x1 = std::clamp(s.x1, s.x0, to.x1);
  s.y0 = std::clamp(s.y0, to.y0, to.y1);
  s.y1 = std::clamp(s.y1, s.y0, to.y1);
  return s;
}

bool overlap(const PixelSpan& a, const PixelSpan& b) {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

std::uint32_t scale_mode_id(ScaleMode m) {
  switch (m) {
    case ScaleMode::automatic: return 0;
    case ScaleMode::logarithmic: return 1;
    case ScaleMode::fixed: return 2;
  }
  return 0;
}

// Compute-shader writes to the readers named.
void compute_writes_to(VkCommandBuffer cmd, VkPipelineStageFlags2 stages, VkAccessFlags2 access) {
  render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, stages,
                         access);
}

// The divider of the split view in target pixels: its fraction of the area's width.
float split_x(const DrawStyle& style, const std::array<float, 4>& area) {
  if (!style.split_view) return area[0];
  return area[0] + std::round(std::clamp(style.split_position, 0.0f, 1.0f) * (area[2] - area[0]));
}

// The channels whose reference outline is drawn: those drawn, when a reference is set.
std::uint32_t reference_mask(const DrawStyle& style) {
  if (!style.reference || style.ycbcr) return 0;
  std::uint32_t mask = 0;
  for (std::uint32_t c = 0; c < 4; ++c) mask |= style.channels[c] ? 1u << c : 0u;
  return mask;
}

// The clip markers and the ends' own scale (clip_shared.h kEnds*): markers on the R'G'B'
// histograms (a plane's share is not of the pixels).
std::uint32_t ends_flags(const DrawStyle& style) {
  return (style.ycbcr ? 0u : shader::kEndsMarkers) | (style.end_scale ? shader::kEndsOwnScale : 0u);
}

// The shaders' display mapping of an HDR picture (hdr_display_shared.h).
std::uint32_t hdr_mode(const DrawStyle& style) {
  return style.hdr.mapped == LightScale::pq ? shader::kHdrPq : style.hdr.mapped == LightScale::hlg ? shader::kHdrHlg
                                                                                                   : shader::kHdrNone;
}

}  // namespace

void FrameRenderer::record_compute_passes(VkCommandBuffer cmd, const FramePlan& plan, const VideoFormat* format,
                                          const VideoPlanes* planes, const DrawStyle& style) {
  // The shared frame and histogram buffers are rewritten below while the previous tick's
  // commands may still read them: order everything after everything before.
  render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                         VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
  if (plan.convert_on_gpu) {
    record_convert(cmd, *format, *planes);
    record_source_measures(cmd, *format, style.light);
  }
  if (plan.upload_rgb || plan.upload_counts || plan.upload_levels) record_host_uploads(cmd, plan);
  slots_[next_slot_]->timer->write(cmd, 1);  // upload and convert done (the stats page's times)
  if (plan.count_on_gpu) record_count(cmd, plan.next.counted_bins, style.ycbcr);
  if (plan.scan) record_scan(cmd);
  if (plan.equalize) record_equalize(cmd, style);
  if (plan.inner_scale) {
    // The display histogram's writes are visible: the count's or the upload's barrier, or the
    // opening one.
    engine_.record_inner_scale(cmd, display_.histogram, inner_scale_, plan.next.counted_bins,
                               counted_format_.pixel_count());
    compute_writes_to(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                      VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
  }
  if (plan.scopes) record_scope_counts(cmd, plan, style);
  slots_[next_slot_]->timer->write(cmd, 2);  // histograms, CDF and equalization done
}

// convert: the staged planes to the device, then the convert pass into the R'G'B' buffer.
void FrameRenderer::record_convert(VkCommandBuffer cmd, const VideoFormat& format, const VideoPlanes& planes) {
  // An imported frame is in place once the submission's wait for the importer's copy is over.
  const render::Buffer& source =
      imported_ ? *imported_planes_ : upload_.record_copy(cmd, slots_[next_slot_]->staging, planes_, plane_layout_);
  upload_.record_convert(cmd, format, planes, source, plane_layout_, rgb_.address());
  // Where the planes are for the passes that read them again (plane counts, scopes): planes_,
  // or the slot's staging when frames are staged in device memory.
  planes_gpu_ = gpu_planes(format, planes, source, plane_layout_);
  // To the count, equalize and draw passes (compute).
  compute_writes_to(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_COPY_BIT,
                    VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_TRANSFER_READ_BIT);
}

// source measures: the plane pass reads the uploaded planes, the light pass the converted frame
// (both visible after the convert pass's barrier); the counts go to the slot's readback buffer.
void FrameRenderer::record_source_measures(VkCommandBuffer cmd, const VideoFormat& format, LightScale scale) {
  const bool light = scale != LightScale::none;
  Slot& slot = *slots_[next_slot_];
  const std::uint32_t levels = stats_levels(format.bits);
  slot.planes_pending = has_planes(format);
  slot.light_pending = light;
  slot.range = format.range;
  if (slot.planes_pending) {
    planes_format_ = format;
    source_pass_.record_planes(cmd, format, planes_gpu_, levels, plane_counts_);
  }
  if (light) {
    source_pass_.record_max_rgb(cmd, rgb_.address(), converted_format(format), light_counts_,
                                scale == LightScale::hlg ? LightSignal::hlg : LightSignal::pq);
  }
  if (!slot.planes_pending && !light) return;
  compute_writes_to(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
  if (slot.planes_pending) {
    const VkBufferCopy region{0, kReadbackPlanesOffset, VkDeviceSize{shader::kPlaneCountsWords} * 4};
    vkCmdCopyBuffer(cmd, plane_counts_.get(), slot.readback.get(), 1, &region);
  }
  if (light) {
    const VkBufferCopy region{0, kReadbackLightOffset, VkDeviceSize{light_levels(format.bits)} * 4};
    vkCmdCopyBuffer(cmd, light_counts_.get(), slot.readback.get(), 1, &region);
  }
}

// upload (CPU engine): what prepare() left in the slot's staging memory, to the buffers the GPU
// passes read.
void FrameRenderer::record_host_uploads(VkCommandBuffer cmd, const FramePlan& plan) {
  const VkBuffer staging = slots_[next_slot_]->staging.get();
  if (plan.upload_rgb) {
    // The compute composite and the equalize pass read the frame from the R'G'B' buffer.
    const VkBufferCopy region{kStagingRgbOffset, 0, rgb_format_.byte_size()};
    vkCmdCopyBuffer(cmd, staging, rgb_.get(), 1, &region);
  }
  if (plan.upload_counts) {
    const VkBufferCopy counts{0, 0, VkDeviceSize{plan.next.counted_bins} * 16};
    vkCmdCopyBuffer(cmd, staging, display_.histogram.get(), 1, &counts);
    const VkBufferCopy scale{kStagingScaleOffset, 0, 32};
    vkCmdCopyBuffer(cmd, staging, display_.scale.get(), 1, &scale);
  }
  if (plan.upload_levels) {
    // The prefix sum runs on the GPU: the statistics histogram goes up for it.
    const VkBufferCopy counts{kStagingLevelsOffset, 0, VkDeviceSize{cpu_levels_.bins} * 16};
    vkCmdCopyBuffer(cmd, staging, levels_.histogram.get(), 1, &counts);
    levels_source_ = &levels_;
  }
  // To the draws (compute reads), the prefix sum and the equalize pass (compute).
  render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                         VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                         VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
}

// count (GPU engine): the display histogram and, when the display bins are not one per code,
// the statistics histogram; the latter copied to the slot's readback buffer.
void FrameRenderer::record_count(VkCommandBuffer cmd, std::uint32_t bins, bool ycbcr) {
  const std::uint32_t levels = stats_levels(rgb_format_.bits);
  if (ycbcr) {
    record_plane_count(cmd, bins, levels);
  } else {
    VkDeviceAddress counted = rgb_.address();
    if (counted_rect_) {  // the region's rows, packed
      upload_.record_rect_copy(cmd, rgb_.address(), region_.address(), rgb_format_, *counted_rect_);
      counted = region_.address();
    }
    engine_.record(cmd, counted, counted_format_, bins, Strategy::fast, display_);
    levels_source_ = &display_;
    if (levels != bins) {
      engine_.record(cmd, counted, counted_format_, levels, Strategy::fast, levels_);
      levels_source_ = &levels_;
    }
  }
  // To the draws (compute reads), the prefix sum (compute) and the statistics
  // readback (copy).
  compute_writes_to(cmd,
                    VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT |
                        VK_PIPELINE_STAGE_2_COPY_BIT,
                    VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_TRANSFER_READ_BIT);
  Slot& slot = *slots_[next_slot_];
  const VkBufferCopy region{0, 0, VkDeviceSize{levels} * 16};
  vkCmdCopyBuffer(cmd, levels_source_->histogram.get(), slot.readback.get(), 1, &region);
  slot.readback_pending = true;
  slot.ycbcr = ycbcr;
  slot.levels = levels;
  slot.bits = rgb_format_.bits;
  slot.width = counted_format_.width;
  slot.height = counted_format_.height;
}

void FrameRenderer::record_plane_count(VkCommandBuffer cmd, std::uint32_t bins, std::uint32_t levels) {
  // plane_counts_ holds the frame's planes at one level per code (record_source_measures, this
  // tick or when the frame came); other display bins count the planes again.
  const render::Buffer* display_counts = &plane_counts_;
  if (bins != levels) {
    source_pass_.record_planes(cmd, planes_format_, planes_gpu_, bins, plane_display_counts_);
    display_counts = &plane_display_counts_;
  }
  compute_writes_to(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
  const VkBufferCopy display{0, 0, VkDeviceSize{bins} * 16};
  vkCmdCopyBuffer(cmd, display_counts->get(), display_.histogram.get(), 1, &display);
  const VkBufferCopy stats{0, 0, VkDeviceSize{levels} * 16};
  vkCmdCopyBuffer(cmd, plane_counts_.get(), levels_.histogram.get(), 1, &stats);
  render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                         VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
  engine_.record_scale(cmd, display_, bins, counted_format_.pixel_count());
  levels_source_ = &levels_;
}

// scan: the prefix sum of the statistics histogram. Its writes are visible: the count's or the
// upload's barrier this tick, or the one that opens the command buffer (a count from an
// earlier tick).
void FrameRenderer::record_scan(VkCommandBuffer cmd) {
  engine_.record_cdf(cmd, levels_source_->histogram, stats_levels(rgb_format_.bits), rgb_format_.bits, cdf_);
  compute_writes_to(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                    VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
}

// equalize: the current frame through the table into equalized_.
void FrameRenderer::record_equalize(VkCommandBuffer cmd, const DrawStyle& style) {
  const std::uint32_t levels = stats_levels(rgb_format_.bits);
  if (style.match && style.reference && reference_levels_ != 0) {
    // The match table from the prefix sum (visible: record_scan's barrier) and the reference's.
    match_pass_.record(cmd, cdf_.cdf.address(), rgb_format_.bits,
                       slots_[next_slot_]->reference.address() + kReferenceCdfOffset, reference_levels_,
                       match_.table.address());
    compute_writes_to(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
    engine_.record_equalize(cmd, rgb_.address(), rgb_format_, levels, match_.table, EqualizeMode::channels,
                            equalized_.address());
  } else {
    engine_.record_equalize(cmd, rgb_.address(), rgb_format_, levels, cdf_.table, style.equalize,
                            equalized_.address());
  }
  compute_writes_to(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_COPY_BIT,
                    VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_TRANSFER_READ_BIT);
}

OverlayItems FrameRenderer::panel_overlay(const FramePlan& plan, const DrawStyle& style,
                                          const std::vector<HistogramQuad>& quads) const {
  return overlay_items(style, quads, {rgb_format_.bits, plan.next.counted_bins, counted_format_.pixel_count()});
}

std::size_t FrameRenderer::write_overlay(const std::vector<shader::OverlayItem>& slots) {
  const std::size_t n = std::min<std::size_t>(slots.size(), kMaxOverlayItems);
  // memcpy from an empty vector's data() (nullptr) is undefined even for 0 bytes: no panels drawn.
  if (n != 0) std::memcpy(slots_[next_slot_]->overlay.mapped(), slots.data(), n * sizeof(shader::OverlayItem));
  return n;
}

VkDeviceAddress FrameRenderer::shown_scale(const DrawStyle& style) const {
  return style.end_scale ? inner_scale_.address() : display_.scale.address();
}

// The composite's geometry: the area, the video's place in it, the panels and their overlay.
void FrameRenderer::fill_composite_geometry(shader::CompositeParams& params, const FramePlan& plan,
                                            const DrawStyle& style, VkExtent2D extent) {
  const auto w = static_cast<float>(extent.width), h = static_cast<float>(extent.height);
  const auto a = picture_area(style, w, h);
  std::memcpy(params.area, a.data(), sizeof params.area);
  const auto video = place_video(style, w, h, shape_.width, shape_.height).rect;
  std::memcpy(params.video_rect, video.data(), sizeof params.video_rect);
  params.rotation = shape_.rotation;
  params.split_x = split_x(style, a);
  params.marks = exposure_marks(style);
  params.zebra_low = zebra_code(style.zebra_low, rgb_format_.bits);
  params.zebra_high = zebra_code(style.zebra_high, rgb_format_.bits);
  params.phase = style.zebra_phase;
  params.range_mask = style.range_mask;
  params.range_low = style.range_low;
  params.range_high = style.range_high;
  params.hdr = hdr_mode(style);
  params.hdr_peak = style.hdr.source_peak;
  params.hdr_target = style.hdr.target;
  const auto bands = band_codes(rgb_format_.bits, style.light);
  std::memcpy(params.band_lo, bands.data(), sizeof params.band_lo);
  std::memcpy(params.band_hi, bands.data() + 4, sizeof params.band_hi);
  if (!plan.draw_histograms) return;
  const auto quads = layout_quads(style, w, h);
  OverlayGrid overlay = overlay_grid(panel_overlay(plan, style, quads), quads);
  const std::size_t written = write_overlay(overlay.slots);
  for (std::size_t i = 0; i < overlay.first.size(); ++i) {  // never past the buffer: a panel's all or none
    if (overlay.first[i] + overlay.count[i] > written) overlay.count[i] = 0;
  }
  params.overlay = slots_[next_slot_]->overlay.address();
  params.quad_count = static_cast<std::uint32_t>(std::min<std::size_t>(quads.size(), 4));
  for (std::uint32_t i = 0; i < params.quad_count; ++i) {
    for (int k = 0; k < 4; ++k) {
      params.quad_rect[i][k] = quads[i].rect[static_cast<std::size_t>(k)];
      params.quad_bars[i][k] = quads[i].bars[static_cast<std::size_t>(k)];
      params.quad_mult[i][k] = quads[i].channel_mult[static_cast<std::size_t>(k)];
    }
    params.overlay_first[i] = overlay.first[i];
    params.overlay_count[i] = overlay.count[i];
    params.overlay_over_bars[i] = overlay.over_bars[i];
  }
}

// draw, composite: the same picture by one compute pass into the target's RGBA8 buffer.
void FrameRenderer::record_draw_composite(VkCommandBuffer cmd, const FramePlan& plan, const DrawStyle& style,
                                          const CompositeTarget& target) {
  const VkExtent2D extent = target.extent;
  if (style.scopes_only && target.buffer != VK_NULL_HANDLE) {
    // No video and no histogram: the composite would write opaque black (0, 0, 0, 255) to every
    // pixel, the scopes' background. A fill does that without the pass (on a CPU device its
    // shader costs more than the scopes' own drawing).
    vkCmdFillBuffer(cmd, target.buffer, 0, VkDeviceSize{extent.width} * extent.height * 4, 0xff000000u);
    render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                           VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                           VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    if (plan.scopes) scopes_->record_draw(cmd, style, target);
    return;
  }
  shader::CompositeParams params{};
  params.frame = rgb_.address();
  params.output_ = target.output;
  params.bgra = target.bgra ? 1u : 0u;
  params.histogram = display_.histogram.address();
  params.scale = shown_scale(style);
  params.palette = palettes_[static_cast<std::size_t>(style.palette)].address();
  params.width = rgb_format_.width;
  params.height = rgb_format_.height;
  params.bits = rgb_format_.bits;
  params.has_video = plan.draw_video ? 1u : 0u;
  params.target_w = extent.width;
  params.target_h = extent.height;
  params.mode = scale_mode_id(style.scale);
  fill_composite_geometry(params, plan, style, extent);
  params.bins = plan.next.counted_bins ? plan.next.counted_bins : 1;
  params.opacity = style.opacity;
  params.pixels = static_cast<float>(counted_format_.pixel_count());
  params.cdf = cdf_.cdf.address();
  params.equalized = plan.draw_equalized ? equalized_.address() : 0;
  params.levels = stats_levels(rgb_format_.bits);
  params.cdf_fill = plan.draw_cdf ? cdf_mask(style, CdfMode::instead) : 0;
  params.cdf_line = plan.draw_cdf ? cdf_mask(style, CdfMode::over) : 0;
  params.divider = style.split_view && plan.draw_equalized ? 1u : 0u;
  params.reference = slots_[next_slot_]->reference.address();
  params.reference_line = reference_mask(style);
  params.level_counts = levels_source_->histogram.address();
  params.ends = ends_flags(style);
  Slot& slot = *slots_[next_slot_];
  std::memcpy(slot.composite_params.mapped(), &params, sizeof params);
  render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_COPY_BIT,
                         VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT,
                         VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
  // The video pass over the whole target (every pixel no panel covers), then the panels'
  // passes: each pixel is written once, by one pass.
  const shader::CompositePush push{0, 0, 0, 0};
  composite_pipeline(0, params.hdr != shader::kHdrNone)
      .dispatch(cmd, push, slot.composite_set, groups(extent.width), groups(extent.height));
  record_composite_panels(cmd, params, extent);
  if (plan.scopes) scopes_->record_draw(cmd, style, target);
}

// Each panel over its rect (the pixels no earlier panel covers): a panel that overlaps no other
// in parts (composite.comp's kPart), its bars (no overlay code, unless the overlay lies over
// them) and the strips round them (no bars code); any other in one.
void FrameRenderer::record_composite_panels(VkCommandBuffer cmd, const shader::CompositeParams& params,
                                            VkExtent2D extent) {
  const bool hdr = params.hdr != shader::kHdrNone;
  const VkDescriptorSet set = slots_[next_slot_]->composite_set;
  const auto dispatch = [&](std::uint32_t part, std::uint32_t quad, const PixelSpan& s) {
    if (s.x1 <= s.x0 || s.y1 <= s.y0) return;
    const shader::CompositePush push{quad, s.x0, s.y0, 0};
    composite_pipeline(part, hdr).dispatch(cmd, push, set, groups(s.x1 - s.x0), groups(s.y1 - s.y0));
  };
  for (std::uint32_t i = 0; i < params.quad_count; ++i) {
    const PixelSpan panel = pixels_of(params.quad_rect[i], extent);
    bool alone = true;
    for (std::uint32_t j = 0; j < params.quad_count; ++j) {
      alone = alone && (j == i || !overlap(panel, pixels_of(params.quad_rect[j], extent)));
    }
    if (!alone) {
      dispatch(kPartWhole, i, panel);
      continue;
    }
    const PixelSpan bars = clip(pixels_of(params.quad_bars[i], extent), panel);
    if (params.overlay_over_bars[i] != 0) {
      dispatch(kPartWhole, i, bars);
    } else {
      // The bars without the overlay's code, but their top row by the whole pass, so that its
      // pipeline is compiled at the first frame, not when a marker first lies over the bars.
      dispatch(kPartWhole, i, {bars.x0, bars.y0, bars.x1, std::min(bars.y0 + 1, bars.y1)});
      dispatch(kPartBars, i, {bars.x0, std::min(bars.y0 + 1, bars.y1), bars.x1, bars.y1});
    }
    dispatch(kPartFrame, i, {panel.x0, panel.y0, panel.x1, bars.y0});  // above the bars
    dispatch(kPartFrame, i, {panel.x0, bars.y1, panel.x1, panel.y1});  // below
    dispatch(kPartFrame, i, {panel.x0, bars.y0, bars.x0, bars.y1});    // left
    dispatch(kPartFrame, i, {bars.x1, bars.y0, panel.x1, bars.y1});    // right
  }
}

}  // namespace vhist::viewer
