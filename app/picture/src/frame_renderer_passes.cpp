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

// The picture's area in whole target pixels, as a scissor rectangle.
VkRect2D area_scissor(const std::array<float, 4>& a) {
  return {{static_cast<std::int32_t>(a[0]), static_cast<std::int32_t>(a[1])},
          {static_cast<std::uint32_t>(a[2] - a[0]), static_cast<std::uint32_t>(a[3] - a[1])}};
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
    record_source_measures(cmd, *format, *planes, style.light == LightScale::pq);
  }
  if (plan.upload_rgb || plan.upload_counts || plan.upload_levels) record_host_uploads(cmd, plan);
  if (plan.upload_video_image) {
    // The converted frame into the video image: from the staging memory (CPU engine) or from
    // the convert pass's buffer.
    if (plan.convert_on_cpu) {
      record_image_upload(cmd, video_, slots_[next_slot_]->staging.get(), kStagingRgbOffset);
    } else {
      record_image_upload(cmd, video_, rgb_.get(), 0);
    }
  }
  slots_[next_slot_]->timer->write(cmd, 1);  // upload and convert done (the stats page's times)
  if (plan.count_on_gpu) record_count(cmd, plan.next.counted_bins, style.ycbcr);
  if (plan.scan) record_scan(cmd);
  if (plan.equalize) record_equalize(cmd, plan, style);
  if (plan.inner_scale) {
    // The display histogram's writes are visible: the count's or the upload's barrier, or the
    // opening one.
    engine_.record_inner_scale(cmd, display_.histogram, inner_scale_, plan.next.counted_bins,
                               counted_format_.pixel_count());
    compute_writes_to(cmd, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                      VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
  }
  if (plan.scopes) record_scope_counts(cmd, plan, style);
  slots_[next_slot_]->timer->write(cmd, 2);  // histograms, CDF and equalization done
}

// convert: the staged planes to the device, then the convert pass into the R'G'B' buffer.
void FrameRenderer::record_convert(VkCommandBuffer cmd, const VideoFormat& format, const VideoPlanes& planes) {
  upload_.record_copy(cmd, slots_[next_slot_]->staging, planes_, plane_layout_);
  upload_.record_convert(cmd, format, planes, planes_, plane_layout_, rgb_.address());
  // To the count and equalize passes (compute) and the video image upload (copy).
  compute_writes_to(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_COPY_BIT,
                    VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_TRANSFER_READ_BIT);
}

// source measures: the plane pass reads the uploaded planes, the light pass the converted frame
// (both visible after the convert pass's barrier); the counts go to the slot's readback buffer.
void FrameRenderer::record_source_measures(VkCommandBuffer cmd, const VideoFormat& format, const VideoPlanes& planes,
                                           bool light) {
  Slot& slot = *slots_[next_slot_];
  const std::uint32_t levels = stats_levels(format.bits);
  slot.planes_pending = has_planes(format);
  slot.light_pending = light;
  slot.range = format.range;
  if (slot.planes_pending) {
    planes_format_ = format;
    planes_gpu_ = gpu_planes(format, planes, planes_, plane_layout_);
    source_pass_.record_planes(cmd, format, planes_gpu_, levels, plane_counts_);
  }
  if (light) source_pass_.record_max_rgb(cmd, rgb_.address(), converted_format(format), light_counts_);
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
  // To the draws (fragment or compute reads), the prefix sum and the equalize pass (compute).
  render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                         VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                         VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
}

// video image: a frame of rgb_format_ from `buffer` at `offset` into `image`, left ready for
// sampling.
void FrameRenderer::record_image_upload(VkCommandBuffer cmd, VideoImage& v, VkBuffer buffer, VkDeviceSize offset) {
  const VkImage image = v.image.get();
  render::image_barrier(cmd, image, v.written ? VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL : VK_IMAGE_LAYOUT_UNDEFINED,
                        VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, 0,
                        VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
  VkBufferImageCopy region{};
  region.bufferOffset = offset;
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.imageExtent = {rgb_format_.width, rgb_format_.height, 1};
  vkCmdCopyBufferToImage(cmd, buffer, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
  render::image_barrier(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                        VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                        VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
  v.written = true;
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
  // To the draws (fragment or compute reads), the prefix sum (compute) and the statistics
  // readback (copy).
  compute_writes_to(cmd,
                    VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT |
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
  compute_writes_to(cmd, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                    VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
}

// equalize: the current frame through the table into equalized_, then (to be rasterized) into
// its own video image.
void FrameRenderer::record_equalize(VkCommandBuffer cmd, const FramePlan& plan, const DrawStyle& style) {
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
  if (plan.upload_equalized_image) record_image_upload(cmd, equalized_video_, equalized_.get(), 0);
}

// draw, raster: the video and the histogram panels in the target's render pass, inside the
// picture's area (the rest stays clear), then `in_pass` over the whole target.
void FrameRenderer::record_draw_raster(VkCommandBuffer cmd, const FramePlan& plan, const DrawStyle& style,
                                       const RasterTarget& target, const RecordHook& in_pass) {
  VkClearValue clear{};
  clear.color = {{0.0f, 0.0f, 0.0f, 1.0f}};
  VkRenderPassBeginInfo pass{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
  pass.renderPass = target.render_pass;
  pass.framebuffer = target.framebuffer;
  pass.renderArea = {{0, 0}, target.extent};
  pass.clearValueCount = 1;
  pass.pClearValues = &clear;
  vkCmdBeginRenderPass(cmd, &pass, VK_SUBPASS_CONTENTS_INLINE);
  const auto w = static_cast<float>(target.extent.width), h = static_cast<float>(target.extent.height);
  const VkViewport viewport{0, 0, w, h, 0, 1};
  const VkRect2D area = area_scissor(picture_area(style, w, h));
  vkCmdSetViewport(cmd, 0, 1, &viewport);
  vkCmdSetScissor(cmd, 0, 1, &area);
  if (plan.draw_video) record_video_quads(cmd, plan, style, target.extent);
  if (plan.draw_histograms) record_histogram_quads(cmd, plan, style, target.extent);
  const VkRect2D whole{{0, 0}, target.extent};
  vkCmdSetScissor(cmd, 0, 1, &whole);
  if (in_pass) in_pass(cmd);
  vkCmdEndRenderPass(cmd);
}

// The video placed in the area by the fit mode (place_video()), upright, at its display aspect;
// with the equalized frame, the original left of the divider and the equalized frame right of it
// (all of it without the split view), each scissored to its side of the area.
void FrameRenderer::record_video_quads(VkCommandBuffer cmd, const FramePlan& plan, const DrawStyle& style,
                                       VkExtent2D extent) {
  const auto w = static_cast<float>(extent.width), h = static_cast<float>(extent.height);
  const auto a = picture_area(style, w, h);
  const auto r = place_video(style, w, h, shape_.width, shape_.height).rect;
  shader::VideoPush push{};
  std::memcpy(push.rect, std::array<float, 4>{r[0] / w * 2 - 1, r[1] / h * 2 - 1, r[2] / w * 2 - 1, r[3] / h * 2 - 1}.data(),
              sizeof push.rect);
  std::memcpy(push.uv, std::array<float, 4>{0, 0, 1, 1}.data(), sizeof push.uv);
  push.code_scale =
      rgb_format_.packing == PixelPacking::rgba8 ? 1.0f : 65535.0f / static_cast<float>((1u << rgb_format_.bits) - 1u);
  push.rotation = shape_.rotation;
  push.marks = exposure_marks(style);
  push.zebra_low = zebra_code(style.zebra_low, rgb_format_.bits);
  push.zebra_high = zebra_code(style.zebra_high, rgb_format_.bits);
  push.bits = rgb_format_.bits;
  push.phase = style.zebra_phase;
  push.range_mask = style.range_mask;
  push.range_low = style.range_low;
  push.range_high = style.range_high;
  push.hdr = hdr_mode(style);
  push.hdr_peak = style.hdr.source_peak;
  push.hdr_target = style.hdr.target;
  const auto bands = band_codes(rgb_format_.bits, style.light);
  std::memcpy(push.band_lo, bands.data(), sizeof push.band_lo);
  std::memcpy(push.band_hi, bands.data() + 4, sizeof push.band_hi);
  const render::GraphicsPipeline& original = push.hdr != shader::kHdrNone ? video_hdr_pipeline_ : video_pipeline_;
  if (!plan.draw_equalized) {
    original.draw_quad(cmd, push, video_.set);
    return;
  }
  const VkRect2D area = area_scissor(a);
  const auto split = static_cast<std::uint32_t>(split_x(style, a));
  push.split_x = static_cast<float>(split);
  push.divider = style.split_view ? 1u : 0u;
  const auto x0 = static_cast<std::uint32_t>(area.offset.x), x1 = x0 + area.extent.width;
  if (split > x0) {
    const VkRect2D left{area.offset, {split - x0, area.extent.height}};
    vkCmdSetScissor(cmd, 0, 1, &left);
    original.draw_quad(cmd, push, video_.set);
  }
  if (split < x1) {
    const VkRect2D right{{static_cast<std::int32_t>(split), area.offset.y}, {x1 - split, area.extent.height}};
    vkCmdSetScissor(cmd, 0, 1, &right);
    push.hdr = shader::kHdrNone;  // the equalized picture is shown as codes
    video_pipeline_.draw_quad(cmd, push, equalized_video_.set);
  }
  vkCmdSetScissor(cmd, 0, 1, &area);
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

void FrameRenderer::record_overlay_items(VkCommandBuffer cmd, const OverlayItems& overlay, std::size_t written,
                                         const DrawStyle& style, std::size_t i, VkExtent2D extent) {
  const auto w = static_cast<float>(extent.width), h = static_cast<float>(extent.height);
  shader::OverlayItemPush push{};
  push.overlay = slots_[next_slot_]->overlay.address();
  push.scale = shown_scale(style);
  for (std::uint32_t k = overlay.first[i]; k < overlay.first[i] + overlay.count[i] && k < written; ++k) {
    const float* r = overlay.items[k].rect;
    const float clip[4] = {r[0] / w * 2 - 1, r[1] / h * 2 - 1, r[2] / w * 2 - 1, r[3] / h * 2 - 1};
    std::memcpy(push.rect, clip, sizeof push.rect);
    push.index = k;
    overlay_item_pipeline_.draw_quad(cmd, push);
  }
}

// The histogram panels of the layout (the articles' bit-mask shader, with the CDF where asked,
// and the overlay).
void FrameRenderer::record_histogram_quads(VkCommandBuffer cmd, const FramePlan& plan, const DrawStyle& style,
                                           VkExtent2D extent) {
  const auto w = static_cast<float>(extent.width), h = static_cast<float>(extent.height);
  const auto quads = layout_quads(style, w, h);
  const OverlayItems overlay = panel_overlay(plan, style, quads);
  const std::size_t written = write_overlay(overlay.items);
  for (std::size_t i = 0; i < quads.size(); ++i) {
    const HistogramQuad& q = quads[i];
    shader::HistogramPush hp{};
    hp.rect[0] = q.rect[0] / w * 2 - 1;
    hp.rect[1] = q.rect[1] / h * 2 - 1;
    hp.rect[2] = q.rect[2] / w * 2 - 1;
    hp.rect[3] = q.rect[3] / h * 2 - 1;
    std::memcpy(hp.uv, q.bars.data(), sizeof hp.uv);
    hp.histogram = display_.histogram.address();
    hp.scale = shown_scale(style);
    hp.palette = palettes_[static_cast<std::size_t>(style.palette)].address();
    for (int c = 0; c < 4; ++c) hp.channel_mult[c] = q.channel_mult[static_cast<std::size_t>(c)];
    hp.bins = plan.next.counted_bins;
    hp.mode = scale_mode_id(style.scale);
    hp.pixels = static_cast<float>(counted_format_.pixel_count());
    hp.opacity = style.opacity;
    hp.cdf = cdf_.cdf.address();
    hp.levels = stats_levels(rgb_format_.bits);
    const std::uint32_t cdf_fill = plan.draw_cdf ? cdf_mask(style, CdfMode::instead) : 0;
    const std::uint32_t cdf_line = plan.draw_cdf ? cdf_mask(style, CdfMode::over) : 0;
    hp.masks = cdf_fill | cdf_line << 4 | reference_mask(style) << 8;
    hp.reference = slots_[next_slot_]->reference.address();
    hp.level_counts = levels_source_->histogram.address();
    hp.ends = ends_flags(style);
    histogram_pipeline_.draw_quad(cmd, hp);
    record_overlay_items(cmd, overlay, written, style, i, extent);
  }
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
  const shader::CompositePush push{slot.composite_params.address()};
  const render::ComputePipeline& pipeline = params.hdr != shader::kHdrNone ? composite_hdr_pipeline_ : composite_pipeline_;
  pipeline.dispatch(cmd, push, (extent.width + 15) / 16, (extent.height + 15) / 16);
  if (plan.scopes) scopes_->record_draw(cmd, style, target);
}

}  // namespace vhist::viewer
