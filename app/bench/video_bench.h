// The video-pipeline part of vhist-bench (see video_bench.cpp).
#pragma once

#include "vhist/compute/synthetic_frames.h"
#include "vhist/hwdec/hwdec.h"
#include "vhist/render/context.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace vhist::bench {

// `planar` (make_natural_yuv420's yuv420p or yuv420p10le, tight strides) as NVDEC lays the same
// samples out: NV12, or P010 (the 10 bits at the top of each 16-bit word); the chroma interleaved.
SyntheticVideoFrame nvdec_frame(const SyntheticVideoFrame& planar);

// Times 8- and 10-bit 4:2:0 frames of each size through the video pipeline and prints a table.
// `iterations` 0 picks a count for the device. With `hw` usable (--hwdec), each size and depth
// also has a row of the hardware path: the same frames laid out as NVDEC leaves them (NV12,
// P010), put once into CUDA device memory and imported each frame. Returns false when a result
// disagreed with the CPU reference.
bool run_video_bench(render::Context& context, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& sizes,
                     std::uint32_t iterations, const hwdec::Hwdec& hw);

}  // namespace vhist::bench
