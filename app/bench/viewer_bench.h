// vhist-bench --viewer: the viewer's whole per-frame GPU work, headless, into an offscreen image.
#pragma once

#include "vhist/hwdec/hwdec.h"
#include "vhist/render/context.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace vhist::bench {

// For each size, draws decoded 8-bit 4:2:0 frames (a new frame every tick, as in playback) into
// an offscreen image of the same size with the viewer's FrameRenderer: staging copy, upload, convert,
// histograms, video quad, histogram quads. Prints the median GPU time per frame (timestamp
// queries around the whole command buffer) and the wall-clock rate. `iterations` 0 picks a count
// for the device. With `hw` usable (--hwdec) and the GPU engine, each size also has an nvdec row:
// the plain variant with the same frames as NV12 in CUDA memory, imported each tick, its
// histograms checked against the CPU reference. Returns false when one disagreed.
bool run_viewer_bench(render::Context& context, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& sizes,
                      std::uint32_t iterations, const hwdec::Hwdec& hw);

}  // namespace vhist::bench
