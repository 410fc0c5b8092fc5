// Blocking helpers around the engine for tools and tests: upload a host frame, read results
// back, or do both in one call. Each waits for the GPU (vkWaitForFences); never use them on a
// per-frame path of the viewer.
#pragma once

#include "vhist/compute/cdf.h"
#include "vhist/compute/histogram_engine.h"
#include "vhist/compute/match_pass.h"

#include <cstddef>
#include <span>

namespace vhist {

struct HistogramReadback {
  Histogram histogram;
  Scale scale;
};

// Copies `pixels` into the device buffer `dst` through a temporary staging buffer.
void upload_blocking(render::Context& context, const render::Buffer& dst, std::span<const std::byte> pixels);

// Reads the first `bins` records of target.histogram and the scale block.
HistogramReadback read_back_blocking(render::Context& context, const HistogramTarget& target, std::uint32_t bins);

// The histogram and scale of a host frame computed on the GPU with `strategy`.
HistogramReadback histogram_on_gpu(HistogramEngine& engine, std::span<const std::byte> pixels,
                                   const FrameFormat& format, std::uint32_t bins, Strategy strategy);

// The prefix sum and equalization table of a host histogram (levels = histogram.bins) of a
// `bits`-bit frame, computed on the GPU (HistogramEngine::record_cdf).
struct CdfReadback {
  Cdf cdf;
  EqualizeTable table;
};
// Reads the first `levels` records of target.cdf and target.table.
CdfReadback read_back_blocking(render::Context& context, const CdfTarget& target, std::uint32_t levels,
                               std::uint32_t bits);
CdfReadback cdf_on_gpu(HistogramEngine& engine, const Histogram& histogram, std::uint32_t bits);
// The histogram matching table of a `bits`-bit frame whose statistics histogram is `live`
// (stats_levels(bits) levels) to `reference` (a power of two of levels, at most live's),
// computed on the GPU: the prefix sum of `live` (record_cdf) and the match pass.
EqualizeTable match_on_gpu(HistogramEngine& engine, MatchPass& pass, const Histogram& live, const Histogram& reference,
                           std::uint32_t bits);

// The barrier after record(): compute-shader writes of the results -> transfer reads.
void results_to_transfer(VkCommandBuffer cmd);

}  // namespace vhist
