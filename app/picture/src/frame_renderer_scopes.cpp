// FrameScopes (frame_renderer_scopes.h): the scopes' counts each tick and their drawing over the
// compute composite.
#include "frame_renderer_scopes.h"

#include "frame_renderer_slot.h"

#include "vhist/picture/overlay_grid.h"
#include "vhist/picture/picture_geometry.h"
#include "vhist/picture/picture_overlay.h"
#include "vhist/picture/scope_graticule.h"

#include "vhist/compute/source_measures.h"
#include "vhist/render/command_slot.h"
#include "vhist/render/vk_check.h"
#include "vhist/shaders/scope_draw.spv.h"
#include "vhist/font_shared.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace vhist::viewer {

namespace {

using Rect = std::array<float, 4>;

constexpr VkDeviceSize kParamsStride = 256;  // a panel's ScopeDrawParams in the slot's buffer

// The region the scopes count: the region of interest when it lies in the frame (as the
// histograms'), else the whole frame.
std::optional<PixelRect> scope_region_of(const DrawStyle& style, const VideoFormat& format) {
  if (!style.region || !check_rect(*style.region, format.width, format.height).empty()) return std::nullopt;
  return style.region;
}

// The lines of the region as the waveform reads them (display rows), for the brightness scale.
std::uint64_t region_lines(const VideoFormat& format, const std::optional<PixelRect>& region) {
  const PixelRect r = scope_region(format, region);
  return format.rotation == 90 || format.rotation == 270 ? r.width : r.height;
}

// The frame seen as R'G'B' only (the equalized frame): what ScopePass reads from its R'G'B'.
// R'G'B' has no chroma subsampling: a 4:2:0 source's shifts kept made check_video_format refuse
// it, and the viewer stop, in the split view with a scope shown.
VideoFormat rgb_only(VideoFormat format) {
  format.model = ColourModel::rgb;
  format.chroma_shift_x = format.chroma_shift_y = 0;  // a full R'G'B' pixel each (4:2:0 sources too)
  return format;
}

std::array<float, 3> rgb(float r, float g, float b) { return {r, g, b}; }

// The components' trace colours (R', G', B'; Y', Cb, Cr; luma), or white.
void set_colours(shader::ScopeDrawParams& p, const DrawStyle& style, ScopeKind kind, WaveformMode mode) {
  std::array<std::array<float, 3>, 3> c{};
  const bool mono = style.scope_colour == ScopeColour::mono;
  if (mode == WaveformMode::luma) {
    c[0] = mono ? rgb(1.0f, 1.0f, 1.0f) : rgb(0.9f, 0.95f, 0.9f);
  } else if (kind == ScopeKind::waveform) {  // the overlay: added, white where the three agree
    c = mono ? std::array{rgb(0.34f, 0.34f, 0.34f), rgb(0.34f, 0.34f, 0.34f), rgb(0.34f, 0.34f, 0.34f)}
             : std::array{rgb(1.0f, 0.1f, 0.1f), rgb(0.1f, 1.0f, 0.1f), rgb(0.15f, 0.25f, 1.0f)};
  } else if (mode == WaveformMode::ycbcr) {
    c = {rgb(0.9f, 0.9f, 0.9f), rgb(0.4f, 0.55f, 1.0f), rgb(1.0f, 0.35f, 0.35f)};
  } else {
    c = {rgb(1.0f, 0.3f, 0.3f), rgb(0.3f, 1.0f, 0.3f), rgb(0.4f, 0.55f, 1.0f)};
  }
  for (std::size_t k = 0; k < 3; ++k) {
    const auto colour = mono && kind == ScopeKind::parade ? rgb(1.0f, 1.0f, 1.0f) : c[k];
    std::copy(colour.begin(), colour.end(), p.colour[k]);
  }
}

// The components a waveform or parade draws: the channel toggles' (Y' is L, Cb B, Cr R).
std::uint32_t component_mask(const DrawStyle& style, WaveformMode mode) {
  const auto& ch = style.channels;
  if (mode == WaveformMode::luma) return 1;
  if (mode == WaveformMode::ycbcr) return (ch[3] ? 1u : 0u) | (ch[2] ? 2u : 0u) | (ch[0] ? 4u : 0u);
  return (ch[0] ? 1u : 0u) | (ch[1] ? 2u : 0u) | (ch[2] ? 4u : 0u);
}

// scope_draw.comp's kKind for a panel of `kind`.
std::uint32_t draw_kind(ScopeKind kind) {
  return kind == ScopeKind::vectorscope ? shader::kScopeDrawVector
         : kind == ScopeKind::parade    ? shader::kScopeDrawParade
                                        : shader::kScopeDrawWaveform;
}

}  // namespace

ScopeTick scope_tick(const DrawStyle& style, const VideoFormat& format, bool split) {
  ScopeTick t;
  t.split = split;
  const auto region = scope_region_of(style, format);
  const bool planes = format.model == ColourModel::yuv;
  for (const ScopePanel& panel : scope_panels(style)) {
    ScopeRequest r;
    r.panel = panel;
    if (panel.kind == ScopeKind::vectorscope) {
      r.vector.size = vectorscope_grid(panel, zoom_value(style.scope_zoom), format.bits);
      r.vector.region = region;
      if (!check_vectorscope(format, r.vector).empty()) continue;
    } else {
      r.waveform.mode = panel_mode(style, panel.kind, planes);
      r.waveform.levels = scope_levels(panel, format.bits);
      r.waveform.plot_width = scope_plot_width(panel);
      r.waveform.region = region;
      if (!check_waveform(format, r.waveform).empty()) continue;
    }
    t.requests.push_back(r);
  }
  return t;
}

FrameScopes::FrameScopes(render::Context& context, Engine engine, std::uint32_t slots, bool ahead)
    : context_(context), engine_(engine), pass_(context) {
  if (engine == Engine::cpu) cpu_ = std::make_unique<CpuEngine>();
  if (ahead) {
    for (std::uint32_t kind = 0; kind < draw_.size(); ++kind) draw_pipeline(kind);
  }
  for (std::uint32_t i = 0; i < slots; ++i) {
    SlotMemory m;
    m.params = render::Buffer(context, kParamsStride * kMaxPanels, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                              render::MemoryUse::upload, true, "scope params");
    m.overlay = render::Buffer(context, VkDeviceSize{kMaxOverlaySlots} * sizeof(shader::OverlayItem),
                               VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, render::MemoryUse::upload, true, "scope overlay");
    slots_.push_back(std::move(m));
  }
}

const render::ComputePipeline& FrameScopes::draw_pipeline(std::uint32_t kind) {
  render::ComputePipeline& pipeline = draw_.at(kind);
  if (pipeline.get() == VK_NULL_HANDLE) {
    const render::SpecConstant constants[] = {{0, kind}};
    pipeline = render::ComputePipeline(context_, scope_draw_spv, constants, sizeof(shader::ScopeDrawPush),
                                       "scope draw");
  }
  return pipeline;
}

VkDeviceSize FrameScopes::request_bytes(const ScopeRequest& r) const {
  return r.panel.kind == ScopeKind::vectorscope ? ScopePass::vectorscope_bytes(r.vector)
                                                : ScopePass::waveform_bytes(format_, r.waveform);
}

void FrameScopes::prepare(const ScopeTick& tick, const VideoFormat& format, bool new_frame, bool equalized,
                          std::uint32_t slot, const VideoPlanes* planes, std::span<const std::byte> rgb) {
  slot_ = slot;
  format_ = format;
  tick_ = tick;
  const bool changed = new_frame || !(tick == counted_);
  count_now_ = false;
  if (engine_ == Engine::gpu) {
    count_now_ = changed;
  } else if (new_frame && planes) {
    count_now_ = true;
  }
  if (count_now_) {
    grow_counts(format);
    if (engine_ == Engine::cpu) count_on_cpu(format, *planes, rgb);
    counted_ = tick;
    right_valid_ = false;
  }
  right_now_ = tick.split && counted_ == tick && (count_now_ || equalized || !right_valid_);
  shapes_.clear();
  samples_.clear();
  for (const ScopeRequest& r : tick.requests) {
    if (r.panel.kind == ScopeKind::vectorscope) {
      shapes_.push_back(0);
      samples_.push_back(vectorscope_samples(format, scope_region(format, r.vector.region)).pixel_count());
      continue;
    }
    const WaveformShape shape =
        waveform_shape(display_columns(format, scope_region(format, r.waveform.region)), r.waveform.plot_width);
    shapes_.push_back(shape.plot_columns);
    samples_.push_back(std::uint64_t{shape.run} * region_lines(format, r.waveform.region));
  }
}

void FrameScopes::grow_counts(const VideoFormat& format) {
  format_ = format;
  for (std::size_t i = 0; i < tick_.requests.size(); ++i) {
    const VkDeviceSize bytes = request_bytes(tick_.requests[i]);
    for (auto* buffer : {&counts_[i], &right_[i]}) {
      if (buffer == &right_[i] && !tick_.split) continue;
      if (!needs_growth(*buffer, bytes)) continue;
      render::wait_idle_for_teardown(context_.device());  // the frames in flight may read it
      *buffer = pass_.create_counts(bytes + bytes / 2, "scope counts");
    }
  }
}

void FrameScopes::count_on_cpu(const VideoFormat& format, const VideoPlanes& planes, std::span<const std::byte> rgb) {
  VkDeviceSize total = 0;
  for (const ScopeRequest& r : tick_.requests) total += request_bytes(r);
  SlotMemory& m = slots_[slot_];
  grow_buffer(context_, m.upload, std::max<VkDeviceSize>(total, 16), VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
              render::MemoryUse::upload, false, "scope upload");
  auto* bytes = static_cast<std::byte*>(m.upload.mapped());
  CpuEngine& cpu = *cpu_;
  for (const ScopeRequest& r : tick_.requests) {
    const std::vector<std::uint32_t> counts = r.panel.kind == ScopeKind::vectorscope
                                                  ? cpu.vectorscope(format, planes, rgb, r.vector).counts
                                                  : cpu.waveform(format, planes, rgb, r.waveform).counts;
    std::memcpy(bytes, counts.data(), counts.size() * sizeof(std::uint32_t));
    bytes += request_bytes(r);
  }
}

void FrameScopes::record_counts(VkCommandBuffer cmd, const ScopeInputs& frame, VkDeviceAddress equalized) {
  if (!count_now_ && !(right_now_ && equalized != 0)) return;
  VkDeviceSize offset = 0;
  for (std::size_t i = 0; i < tick_.requests.size(); ++i) {
    const ScopeRequest& r = tick_.requests[i];
    const bool vector = r.panel.kind == ScopeKind::vectorscope;
    if (count_now_ && engine_ == Engine::gpu) {
      vector ? pass_.record_vectorscope(cmd, frame, r.vector, counts_[i]) : pass_.record_waveform(cmd, frame, r.waveform, counts_[i]);
    } else if (count_now_) {
      const VkBufferCopy copy{offset, 0, request_bytes(r)};
      vkCmdCopyBuffer(cmd, slots_[slot_].upload.get(), counts_[i].get(), 1, &copy);
    }
    offset += request_bytes(r);
    if (right_now_ && equalized != 0) {
      // The equalized frame is R'G'B' only: the Y'CbCr parade's right half is R'G'B'.
      const ScopeInputs eq{rgb_only(frame.format), {}, equalized};
      WaveformRequest w = r.waveform;
      if (w.mode == WaveformMode::ycbcr) w.mode = WaveformMode::rgb;
      vector ? pass_.record_vectorscope(cmd, eq, r.vector, right_[i]) : pass_.record_waveform(cmd, eq, w, right_[i]);
    }
  }
  if (right_now_ && equalized != 0) right_valid_ = true;
  render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_COPY_BIT,
                         VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT,
                         VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
}


// ---- FrameRenderer's calls ---------------------------------------------------------------------

void FrameRenderer::prepare_scopes(const FramePlan& plan, const VideoFormat* format, const VideoPlanes* planes,
                                   bool rehistogram, const DrawStyle& style) {
  if (!plan.scopes) return;
  const VideoFormat& current = format ? *format : scopes_->format();
  const bool split = style.split_view && plan.draw_equalized;
  std::span<const std::byte> rgb;
  if (format && engine_kind_ == Engine::cpu) {  // the frame prepare_cpu_frame() converted
    rgb = {static_cast<const std::byte*>(slots_[next_slot_]->staging.mapped()) + kStagingRgbOffset,
           converted_format(*format).byte_size()};
  }
  scopes_->prepare(scope_tick(style, current, split), current, format != nullptr || rehistogram, plan.equalize,
                   next_slot_, format ? planes : nullptr, rgb);
  statistics_.scope_titles = scopes_->titles(style);
}

void FrameRenderer::record_scope_counts(VkCommandBuffer cmd, const FramePlan& plan, const DrawStyle& style) {
  const bool split = style.split_view && plan.draw_equalized;
  scopes_->record_counts(cmd, ScopeInputs{scopes_->format(), planes_gpu_, rgb_.address()},
                         split ? equalized_.address() : 0);
}

bool FrameRenderer::scopes_want_frame(const DrawStyle& style) const noexcept {
  if (!any_scope(style) || style.scope_area == std::array<float, 4>{}) return false;
  try {
    const bool split = style.split_view && style.equalize != EqualizeMode::off;
    return scopes_->wants_frame(scope_tick(style, scopes_->format(), split));
  } catch (const std::exception&) {
    return false;
  }
}

bool FrameRenderer::scopes_only_read_rgb(const DrawStyle& style, const VideoFormat& format) const {
  if (style.equalize != EqualizeMode::off) return true;
  for (const ScopeRequest& r : scope_tick(style, format, false).requests) {
    const bool planes = r.panel.kind == ScopeKind::vectorscope ? vectorscope_from_planes(format)
                                                                : r.waveform.mode == WaveformMode::ycbcr;
    if (!planes) return true;
  }
  return false;
}

// ---- Drawing -----------------------------------------------------------------------------------

std::string FrameScopes::title(const DrawStyle& style, std::size_t i) const {
  const ScopeRequest& r = tick_.requests[i];
  const VideoFormat& f = format_;
  const std::uint32_t run = r.panel.kind == ScopeKind::vectorscope
                                ? 1
                                : waveform_shape(display_columns(f, scope_region(f, r.waveform.region)),
                                                 r.waveform.plot_width).run;
  return scope_title(style, r.panel.kind, r.waveform.mode, run, f.matrix, f.model == ColourModel::yuv, tick_.split);
}

std::vector<std::string> FrameScopes::titles(const DrawStyle& style) const {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < tick_.requests.size(); ++i) out.push_back(title(style, i));
  return out;
}

std::vector<shader::OverlayItem> FrameScopes::panel_items(const DrawStyle& style, std::size_t i) const {
  const ScopeRequest& r = tick_.requests[i];
  const ScopePanel& panel = r.panel;
  const float s = text_scale(style);
  std::vector<shader::OverlayItem> items;
  const VideoFormat& f = format_;
  if (panel.kind == ScopeKind::vectorscope) {
    VectorscopeGraticuleInput in;
    in.source = {f.matrix, f.range, f.bits};
    in.zoom = zoom_value(style.scope_zoom);
    in.plot = panel.plot;
    in.ui_scale = style.ui_scale;
    items = vectorscope_graticule(in);
  } else {
    const WaveformMode mode = r.waveform.mode;
    for (std::uint32_t part = 0; part < (panel.kind == ScopeKind::parade ? 3u : 1u); ++part) {
      WaveformGraticuleInput in;
      const bool planes = mode == WaveformMode::ycbcr;
      in.source = {f.bits, planes ? f.range : ColourRange::full, planes ? LightScale::none : style.light, planes && part > 0};
      in.units = style.scope_units;
      in.legal = style.scope_legal;
      const float x0 = panel.plot[0] + static_cast<float>(part) * (panel.part + panel.gap);
      in.plot = panel.kind == ScopeKind::parade ? Rect{x0, panel.plot[1], x0 + panel.part, panel.plot[3]} : panel.plot;
      in.ui_scale = style.ui_scale;
      in.labels = part == 0 || planes;  // the chroma parts' scale differs from Y''s
      const auto part_items = waveform_graticule(in);
      items.insert(items.end(), part_items.begin(), part_items.end());
    }
  }
  const float pad = std::round(2 * s);
  const auto chars = static_cast<std::size_t>(
      std::max(0.0f, (panel.title[2] - panel.title[0] - 2 * pad) / (static_cast<float>(shader::kGlyphAdvance) * s)));
  const float y = std::round((panel.title[1] + panel.title[3]) / 2 - 3.5f * s);
  add_text(items, panel.title[0] + pad, y, s, {0.85f, 0.85f, 0.85f}, fit_title(title(style, i), chars));
  return items;
}

shader::ScopeDrawParams FrameScopes::panel_params(const DrawStyle& style, std::size_t i,
                                                  const CompositeTarget& target) const {
  const ScopeRequest& r = tick_.requests[i];
  const ScopePanel& panel = r.panel;
  shader::ScopeDrawParams p{};
  p.output_ = target.output;
  p.bgra = target.bgra ? 1u : 0u;
  p.counts = counts_[i].address();
  p.counts_right = tick_.split && right_valid_ ? right_[i].address() : 0;
  p.target_w = target.extent.width;
  p.target_h = target.extent.height;
  std::copy(panel.rect.begin(), panel.rect.end(), p.rect);
  const bool vector = panel.kind == ScopeKind::vectorscope;
  const Rect plot = vector ? vectorscope_square(panel.plot) : panel.plot;
  std::copy(plot.begin(), plot.end(), p.plot);
  p.components = vector ? 1 : waveform_components(r.waveform.mode);
  p.levels = vector ? r.vector.size : r.waveform.levels;
  p.columns = shapes_[i];
  p.plot_width = r.waveform.plot_width;
  p.mask = vector ? 1 : component_mask(style, r.waveform.mode);
  p.mapping = style.scope_mapping == ScopeMapping::log ? shader::kScopeMapLog : shader::kScopeMapLinear;
  p.gain = style.scope_gain;
  // Full brightness before the gain: log, a plot column's samples (the vectorscope's: all of
  // them) in one cell; linear, 1/32 of that (1/64 for the vectorscope).
  const auto samples = static_cast<float>(samples_[i]);
  p.samples = style.scope_mapping == ScopeMapping::log ? samples : samples / (vector ? 64.0f : 32.0f);
  p.part = panel.part;
  p.gap = panel.gap;
  p.split_x = std::clamp(style.split_position, 0.0f, 1.0f);
  p.zoom = zoom_value(style.scope_zoom);
  p.opacity = style.scope_place == ScopePlace::over ? style.opacity : 1.0f;
  p.bits = format_.bits;
  p.vector_colours = style.scope_colour == ScopeColour::channels ? 1 : 0;
  if (!vector) set_colours(p, style, panel.kind, r.waveform.mode);
  // R'G'B' per unit of Cb and Cr (each -1 .. 1 over the chroma range) at mid luma.
  const auto [kr, kb] = matrix_kr_kb(format_.matrix);
  const double kg = 1 - kr - kb;
  const float cb[4] = {0, static_cast<float>(-(1 - kb) * kb / kg), static_cast<float>(1 - kb), 0};
  const float cr[4] = {static_cast<float>(1 - kr), static_cast<float>(-(1 - kr) * kr / kg), 0, 0};
  std::copy(cb, cb + 4, p.cb_rgb);
  std::copy(cr, cr + 4, p.cr_rgb);
  return p;
}

const OverlayGrid& FrameScopes::overlay(const DrawStyle& style) {
  OverlayKey key{tick_, style.ui_scale, style.scope_units, style.scope_legal, style.scope_zoom, style.light,
                 format_.bits, format_.range, format_.matrix, format_.model, titles(style)};
  if (grid_generation_ != 0 && key == overlay_key_) return grid_;
  OverlayItems overlay;
  std::vector<HistogramQuad> quads;
  for (std::size_t i = 0; i < tick_.requests.size(); ++i) {
    const auto items = panel_items(style, i);
    overlay.first.push_back(static_cast<std::uint32_t>(overlay.items.size()));
    overlay.count.push_back(static_cast<std::uint32_t>(items.size()));
    overlay.items.insert(overlay.items.end(), items.begin(), items.end());
    HistogramQuad q;
    q.rect = tick_.requests[i].panel.rect;
    q.bars = tick_.requests[i].panel.plot;
    quads.push_back(q);
  }
  grid_ = overlay_grid(overlay, quads);
  overlay_key_ = std::move(key);
  ++grid_generation_;
  return grid_;
}

void FrameScopes::record_draw(VkCommandBuffer cmd, const DrawStyle& style, const CompositeTarget& target) {
  if (tick_.requests.empty() || !(counted_ == tick_)) return;  // not counted yet (CPU engine: the frame comes again)
  const OverlayGrid& grid = overlay(style);
  SlotMemory& m = slots_[slot_];
  const std::size_t written = std::min<std::size_t>(grid.slots.size(), kMaxOverlaySlots);
  if (written != 0 && m.overlay_generation != grid_generation_) {
    std::memcpy(m.overlay.mapped(), grid.slots.data(), written * sizeof(shader::OverlayItem));
    m.overlay_generation = grid_generation_;
  }
  // The composite's writes before the panels read and blend over them.
  render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                         VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                         VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
  for (std::size_t i = 0; i < tick_.requests.size(); ++i) {
    shader::ScopeDrawParams p = panel_params(style, i, target);
    p.overlay = m.overlay.address();
    p.overlay_first = grid.first[i];
    p.overlay_count = grid.first[i] + grid.count[i] <= written ? grid.count[i] : 0;  // a panel's all or none
    std::memcpy(static_cast<std::byte*>(m.params.mapped()) + i * kParamsStride, &p, sizeof p);
    const Rect& r = tick_.requests[i].panel.rect;
    const auto x0 = static_cast<std::uint32_t>(std::max(0.0f, std::floor(r[0])));
    const auto y0 = static_cast<std::uint32_t>(std::max(0.0f, std::floor(r[1])));
    const auto w = static_cast<std::uint32_t>(std::max(0.0f, std::ceil(r[2]) - static_cast<float>(x0)));
    const auto h = static_cast<std::uint32_t>(std::max(0.0f, std::ceil(r[3]) - static_cast<float>(y0)));
    if (w == 0 || h == 0) continue;
    const shader::ScopeDrawPush push{m.params.address() + i * kParamsStride, x0, y0};
    draw_pipeline(draw_kind(tick_.requests[i].panel.kind)).dispatch(cmd, push, (w + 15) / 16, (h + 15) / 16);
  }
}

}  // namespace vhist::viewer
