// The scopes of the frame renderer (issue 26): their counts each tick and their drawing over the
// compute composite. Private to app/picture; FrameRenderer owns one and calls it from its tick
// (frame_renderer.h): prepare() on the host (the requests from the layout, scope_layout.h; the
// CPU engine's counts), record_counts() after the convert and equalize passes, record_draw()
// after composite.comp.
//  - counts: per panel a counts buffer of the frame (ScopePass on the GPU, or the CPU engine's
//    counts copied from the slot's upload memory), and with the split view a second one of the
//    equalized (or matched) frame, counted by ScopePass from the equalized R'G'B' (the
//    Y'CbCr parade's right half then shows R'G'B'; the vectorscope computes Cb, Cr from it).
//    They are counted again only when what they count changes (a new frame, the region, the
//    requests, the equalized frame): a paused frame is not recounted.
//  - draw: scope_draw.comp, one dispatch per panel over its rectangle, reading the counts and
//    the panels' overlay grids (graticule and title; overlay_grid.h) from the slot's memory.
#pragma once

#include "vhist/picture/frame_renderer.h"
#include "vhist/picture/overlay_grid.h"
#include "vhist/picture/scope_layout.h"

#include "vhist/compute/cpu_engine.h"
#include "vhist/compute/scope_pass.h"
#include "vhist/scope_draw_shared.h"

#include <array>
#include <memory>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace vhist::viewer {

// What one panel counts this tick.
struct ScopeRequest {
  ScopePanel panel;
  WaveformRequest waveform;      // waveform and parade
  VectorscopeRequest vector;     // vectorscope
  bool operator==(const ScopeRequest& o) const {
    return panel == o.panel && waveform.mode == o.waveform.mode && waveform.levels == o.waveform.levels &&
           waveform.plot_width == o.waveform.plot_width && waveform.region == o.waveform.region &&
           vector.size == o.vector.size && vector.region == o.vector.region;
  }
};

// The scopes of a tick: the requests, whether the equalized frame is counted too (split view).
struct ScopeTick {
  std::vector<ScopeRequest> requests;
  bool split = false;
  bool operator==(const ScopeTick&) const = default;
};
// The tick's scopes for `style` (laid out: with_scope_layout()) and frames of `format`.
ScopeTick scope_tick(const DrawStyle& style, const VideoFormat& format, bool split);

class FrameScopes {
 public:
  // `ahead`: the drawing's pipelines (one per kind) made now, else each when first used.
  FrameScopes(render::Context& context, Engine engine, std::uint32_t slots, bool ahead);

  // Host side of a tick in slot `slot`: `tick` for the current frame of `format`. `new_frame`:
  // the frame changed (or a recount was asked); `equalized`: the equalized frame was made again
  // this tick. CPU engine with a new frame: `planes` and `rgb` (its converted frame) counted on
  // the host into the slot's upload memory.
  void prepare(const ScopeTick& tick, const VideoFormat& format, bool new_frame, bool equalized, std::uint32_t slot,
               const VideoPlanes* planes, std::span<const std::byte> rgb);
  // CPU engine: whether the counts are not those of `tick` and the frame must come again to
  // count them (they are not drawn until then).
  bool wants_frame(const ScopeTick& tick) const { return engine_ == Engine::cpu && !(tick == counted_); }

  // The current frame's format (as last given to prepare()).
  const VideoFormat& format() const noexcept { return format_; }

  // The counts this tick needs: the GPU passes on the frame (`frame`: its planes and R'G'B'), or
  // the copies from the slot's upload memory; the equalized frame's at `equalized` (0: none).
  // Before: the frame converted (and equalized) and visible to compute reads.
  void record_counts(VkCommandBuffer cmd, const ScopeInputs& frame, VkDeviceAddress equalized);
  // The panels drawn over `target` (the composite's output, written and visible).
  void record_draw(VkCommandBuffer cmd, const DrawStyle& style, const CompositeTarget& target);

  // The panels' label lines for `style` (scope_title(), and the split view's halves).
  std::vector<std::string> titles(const DrawStyle& style) const;

  static constexpr std::uint32_t kMaxPanels = 3;
  static constexpr std::uint32_t kMaxOverlaySlots = 32768;

 private:
  struct SlotMemory {
    render::Buffer params;   // kMaxPanels x ScopeDrawParams
    render::Buffer overlay;  // the panels' overlay grids
    render::Buffer upload;   // CPU engine: the counts
    std::uint64_t overlay_generation = 0;  // of the grid `overlay` holds
  };
  // What the panels' overlay items depend on: when it is unchanged, the last grid is drawn again
  // (laying out a 4K frame's graticules costs milliseconds of the tick on the CPU).
  struct OverlayKey {
    ScopeTick tick;
    float ui_scale = 0;
    LevelUnits units = LevelUnits::percent;
    bool legal = false;
    ScopeZoom zoom = ScopeZoom::x1;
    LightScale light = LightScale::none;
    std::uint32_t bits = 0;
    ColourRange range = ColourRange::limited;
    ColourMatrix matrix = ColourMatrix::bt709;
    ColourModel model = ColourModel::yuv;
    std::vector<std::string> titles;
    bool operator==(const OverlayKey&) const = default;
  };
  // The panels' overlay grid (overlay_grid.h) for `style`: made again when its key changes.
  const OverlayGrid& overlay(const DrawStyle& style);
  void count_on_cpu(const VideoFormat& format, const VideoPlanes& planes, std::span<const std::byte> rgb);
  void grow_counts(const VideoFormat& format);
  VkDeviceSize request_bytes(const ScopeRequest& r) const;
  shader::ScopeDrawParams panel_params(const DrawStyle& style, std::size_t i, const CompositeTarget& target) const;
  std::string title(const DrawStyle& style, std::size_t i) const;
  std::vector<shader::OverlayItem> panel_items(const DrawStyle& style, std::size_t i) const;

  render::Context& context_;
  Engine engine_;
  ScopePass pass_;
  std::unique_ptr<CpuEngine> cpu_;  // CPU engine: the scopes' counts on the host
  // scope_draw.comp specialized for a kind (kScopeDraw*, its index), made when first used.
  const render::ComputePipeline& draw_pipeline(std::uint32_t kind);
  std::array<render::ComputePipeline, 3> draw_;
  std::vector<SlotMemory> slots_;
  std::uint32_t slot_ = 0;
  std::array<render::Buffer, kMaxPanels> counts_, right_;  // the frame's and the equalized frame's
  VideoFormat format_;       // the current frame's
  ScopeTick tick_;           // this tick's
  ScopeTick counted_;        // what counts_ (and right_) hold
  bool count_now_ = false;   // record_counts counts (GPU) or copies (CPU) this tick
  bool right_now_ = false;   // ... the equalized frame's too
  bool right_valid_ = false;
  std::vector<std::uint32_t> shapes_;  // plot columns per panel of counted_ (waveforms)
  std::vector<std::uint64_t> samples_;
  OverlayKey overlay_key_;
  OverlayGrid grid_;
  std::uint64_t grid_generation_ = 0;  // 0: none made  // samples counted per plot column (waveforms) or in all
};

}  // namespace vhist::viewer
