// vhist-bench --scopes: the scope count passes (scope_pass.h) alone, each timed by timestamps.
#pragma once

#include "vhist/render/context.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace vhist::bench {

// For each size, 8- and 10-bit natural 4:2:0 frames (a ring of three, uploaded and converted
// once; each tick counts the next one): the waveform (luma, R'G'B', Y'CbCr planes; 1024 plot
// columns wide, a level per code) and the vectorscope (a cell per code pair; with its shared
// window and without), each between two timestamps. Prints the medians, and the CPU engine's time for the same counts. `iterations` 0 picks a count for the device. Returns
// false when the first tick's counts disagree with the CPU engine's.
bool run_scope_bench(render::Context& context, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& sizes,
                     std::uint32_t iterations);

}  // namespace vhist::bench
