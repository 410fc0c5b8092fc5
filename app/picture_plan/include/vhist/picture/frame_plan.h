// The frame renderer's plan for one tick: what to upload, convert, count, scan (prefix sum),
// equalize and draw, decided from plain state by a pure function (no Vulkan), so the rules can
// be read and tested in one place. FrameRenderer records one pass per entry the plan turns on
// (frame_renderer.h); a new pass is a new entry here and a new record_* there.
#pragma once

#include "vhist/picture/draw_style.h"

#include "vhist/compute/engine.h"

#include <cstdint>

namespace vhist::viewer {

// Where the picture is drawn: a render pass (rasterized quads) or a compute pass writing an
// RGBA8 buffer (the composite).
enum class TargetKind { raster, composite };

// What the renderer keeps between ticks that the plan reads (and the plan says what it becomes).
struct PictureState {
  bool has_frame = false;             // a frame has been shown
  bool rgb_current = false;           // the R'G'B' buffer holds the current frame
  std::uint32_t counted_bins = 0;     // bins of the display histogram as last counted (0: never)
  bool cdf_fresh = false;             // the prefix sum is the current frame's
  bool equalized_fresh = false;       // the equalized frame is the current frame's, in equalized_mode
  EqualizeMode equalized_mode = EqualizeMode::off;
  bool equalized_match = false;          // ... through the match table (DrawStyle::match)
  bool equalized_image_written = false;  // the equalized video image has been written (raster)
  bool operator==(const PictureState&) const = default;
};

// What this tick asks for.
struct TickRequest {
  bool new_frame = false;    // a decoded frame arrived
  bool rehistogram = false;  // recount the current frame (e.g. the bins changed)
  std::uint32_t bins = 256;  // display bins, already limited to what the frame's depth allows
  // Who converts and counts: the GPU, or the CPU engine with its results uploaded for drawing.
  Engine engine = Engine::gpu;
  TargetKind target = TargetKind::raster;
  DrawStyle style;
};

// The passes of one tick, in recording order.
struct FramePlan {
  // Frame: the new frame's planes uploaded and converted on the GPU, or converted and counted
  // on the CPU into staging memory.
  bool convert_on_gpu = false;
  bool convert_on_cpu = false;
  // CPU engine: the converted frame copied from staging into the R'G'B' buffer, for the passes
  // that read it there (the composite and equalization).
  bool upload_rgb = false;
  // Raster: the new frame copied into the sampled video image.
  bool upload_video_image = false;
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
  // Equalize: the current frame through the table; raster: into its own video image as well.
  bool equalize = false;
  bool upload_equalized_image = false;
  // Draw.
  bool draw_raster = false;
  bool draw_composite = false;
  bool draw_video = false;       // the video (else black under the histograms)
  bool draw_histograms = false;  // the histogram quads (a frame has been shown)
  bool draw_cdf = false;         // the cumulative curves/areas (the prefix sum is the frame's)
  bool draw_equalized = false;   // the equalized frame (right of the split, or all of it)
  // Composite: the scopes (scope_layout.h) counted where what they count changed, and drawn over
  // the picture (frame_renderer_scopes.h).
  bool scopes = false;

  PictureState next;  // the state once the tick's passes have run
};

// The plan for one tick from the state before it. Pure: no Vulkan, no side effects.
FramePlan plan_tick(const PictureState& state, const TickRequest& request);

}  // namespace vhist::viewer
