// The frame renderer's plan for one tick: what to upload, convert, count, scan (prefix sum),
// equalize and draw, decided from plain state by a pure function (no Vulkan), so the rules can
// be read and tested in one place. FrameRenderer records one pass per entry the plan turns on
// (frame_renderer.h); a new pass is a new entry here and a new record_* there.
#pragma once

#include "vhist/picture/draw_style.h"

#include "vhist/compute/engine.h"

#include <cstdint>

namespace vhist::viewer {

// What the renderer keeps between ticks that the plan reads (and the plan says what it becomes).
struct PictureState {
  bool has_frame = false;             // a frame has been shown (it is in the R'G'B' buffer)
  std::uint32_t counted_bins = 0;     // bins of the display histogram as last counted (0: never)
  bool cdf_fresh = false;             // the prefix sum is the current frame's
  bool equalized_fresh = false;       // the equalized frame is the current frame's, in equalized_mode
  EqualizeMode equalized_mode = EqualizeMode::off;
  bool equalized_match = false;       // ... through the match table (DrawStyle::match)
  bool operator==(const PictureState&) const = default;
};

// What this tick asks for.
struct TickRequest {
  bool new_frame = false;    // a decoded frame arrived
  bool rehistogram = false;  // recount the current frame (e.g. the bins changed)
  std::uint32_t bins = 256;  // display bins, already limited to what the frame's depth allows
  // Who converts and counts: the GPU, or the CPU engine with its results uploaded for drawing.
  Engine engine = Engine::gpu;
  DrawStyle style;
};

// The passes of one tick, in recording order.
struct FramePlan {
  // Frame: the new frame's planes uploaded and converted on the GPU, or converted and counted
  // on the CPU into staging memory.
  bool convert_on_gpu = false;
  bool convert_on_cpu = false;
  // CPU engine: the converted frame copied from staging into the R'G'B' buffer, which the
  // composite, equalization and the scopes read.
  bool upload_rgb = false;
  // Count: the display histogram (and the statistics histogram) of the current frame, on the
  // GPU, or uploaded from the CPU engine's counts.
  bool count_on_gpu = false;
  bool upload_counts = false;
  // Scan: the prefix sum of the statistics histogram (CDF and equalization table). The CPU
  // engine uploads the statistics histogram with every count (the clip markers read its end
  // codes) and for the scan.
  bool scan = false;
  bool upload_levels = false;
  // The scale of the bins between the end bins (DrawStyle::end_scale), every tick it is drawn.
  bool inner_scale = false;
  // Equalize: the current frame through the table, into the equalized buffer.
  bool equalize = false;
  // Draw (the composite, the one drawing path).
  bool draw_video = false;       // the video (else black under the histograms)
  bool draw_histograms = false;  // the histogram quads (a frame has been shown)
  bool draw_cdf = false;         // the cumulative curves/areas (the prefix sum is the frame's)
  bool draw_equalized = false;   // the equalized frame (right of the split, or all of it)
  // The scopes (scope_layout.h) counted where what they count changed, and drawn over the
  // picture (frame_renderer_scopes.h).
  bool scopes = false;

  PictureState next;  // the state once the tick's passes have run
};

// The plan for one tick from the state before it. Pure: no Vulkan, no side effects.
FramePlan plan_tick(const PictureState& state, const TickRequest& request);

}  // namespace vhist::viewer
