#include "vhist/picture/frame_plan.h"

#include "vhist/exposure_shared.h"
#include "vhist/picture/light_scale.h"
#include "vhist/picture/scope_layout.h"

#include <algorithm>
#include <cmath>

namespace vhist::viewer {

std::uint32_t cdf_mask(const DrawStyle& style, CdfMode mode) {
  std::uint32_t mask = 0;
  for (std::uint32_t c = 0; c < 4; ++c) {
    if (style.channels[c] && style.cdf[c] == mode) mask |= 1u << c;
  }
  return mask;
}

std::uint32_t exposure_marks(const DrawStyle& style) {
  std::uint32_t marks = style.false_colour ? shader::kMarkFalseColour : 0u;
  if (style.zebra == ZebraMode::high || style.zebra == ZebraMode::both) marks |= shader::kMarkZebraHigh;
  if (style.zebra == ZebraMode::low || style.zebra == ZebraMode::both) marks |= shader::kMarkZebraLow;
  if (style.zebra != ZebraMode::off && style.zebra_style == ZebraStyle::solid) marks |= shader::kMarkZebraSolid;
  if (style.zebra != ZebraMode::off && style.zebra_rgb) marks |= shader::kMarkZebraRgb;
  if (style.range_mask != 0) marks |= shader::kMarkRange;
  return marks;
}

std::uint32_t zebra_code(float percent, std::uint32_t bits) {
  const float clamped = std::clamp(percent, 0.0f, 100.0f);
  return shader::vhist_permille_code(static_cast<std::uint32_t>(std::lround(clamped * 10.0f)), bits);
}

std::array<std::uint32_t, 8> band_codes(std::uint32_t bits, LightScale light) {
  if (light != LightScale::none) return hdr_band_codes(light, bits);
  std::array<std::uint32_t, 8> codes{};
  for (std::uint32_t i = 0; i < 8; ++i) codes[i] = shader::vhist_permille_code(shader::vhist_band_top(i), bits);
  return codes;
}

bool needs_cdf(const DrawStyle& style) {
  return style.equalize != EqualizeMode::off || cdf_mask(style, CdfMode::over) != 0 ||
         cdf_mask(style, CdfMode::instead) != 0;
}

namespace {

// Frame and count: the rules for a new frame and for recounting the current one.
void plan_frame_and_count(const PictureState& state, const TickRequest& request, FramePlan& plan) {
  const bool frame = request.new_frame, cpu = request.engine == Engine::cpu;
  // The CPU engine's frame goes to the R'G'B' buffer when a pass reads it there: the composite's
  // video pass (none with DrawStyle::scopes_only, whose scopes the CPU engine counts on the host)
  // or the equalize pass.
  const bool cpu_frame_to_buffer = !request.style.scopes_only || request.style.equalize != EqualizeMode::off;
  plan.convert_on_gpu = frame && !cpu;
  plan.convert_on_cpu = frame && cpu;
  plan.upload_rgb = frame && cpu && cpu_frame_to_buffer;
  const bool any_frame = state.has_frame || frame;
  const bool recount = any_frame && (frame || request.rehistogram || request.bins != state.counted_bins);
  plan.count_on_gpu = recount && !cpu;
  plan.upload_counts = recount && cpu;

  PictureState& next = plan.next;
  next.has_frame = any_frame;
  next.counted_bins = recount ? request.bins : state.counted_bins;
  next.cdf_fresh = state.cdf_fresh && !recount;  // a recount outdates the prefix sum
}

// Scan and equalize: once per frame (and per equalization mode), only when the style asks.
void plan_scan_and_equalize(const PictureState& state, const TickRequest& request, FramePlan& plan) {
  PictureState& next = plan.next;
  const EqualizeMode mode = request.style.equalize;
  plan.scan = next.has_frame && needs_cdf(request.style) && !next.cdf_fresh;
  plan.upload_levels = (plan.scan || plan.upload_counts) && request.engine == Engine::cpu;
  if (plan.scan) next.cdf_fresh = true;
  // A new frame or a new prefix sum outdates the equalized frame.
  next.equalized_fresh = state.equalized_fresh && !request.new_frame && !plan.scan;
  next.equalized_mode = state.equalized_mode;
  next.equalized_match = state.equalized_match;
  const bool match = request.style.match;
  plan.equalize = next.has_frame && mode != EqualizeMode::off &&
                  (!next.equalized_fresh || next.equalized_mode != mode || next.equalized_match != match);
  if (plan.equalize) {
    next.equalized_fresh = true;
    next.equalized_mode = mode;
    next.equalized_match = match;
  }
}

}  // namespace

FramePlan plan_tick(const PictureState& state, const TickRequest& request) {
  FramePlan plan;
  plan_frame_and_count(state, request, plan);
  plan_scan_and_equalize(state, request, plan);
  const PictureState& next = plan.next;
  plan.draw_histograms = next.has_frame;
  plan.draw_video = next.has_frame && request.style.video;
  plan.inner_scale = plan.draw_histograms && request.style.end_scale;
  // Draw with the prefix sum only when it is that of the frame shown.
  plan.draw_cdf = next.cdf_fresh && needs_cdf(request.style);
  plan.draw_equalized = request.style.equalize != EqualizeMode::off && next.equalized_fresh &&
                        next.equalized_mode == request.style.equalize && next.equalized_match == request.style.match;
  plan.scopes = next.has_frame && any_scope(request.style);
  return plan;
}

}  // namespace vhist::viewer
