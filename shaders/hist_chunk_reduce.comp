#version 460
// Baseline strategy, pass 2: pairwise reduction of chunk histograms. Dispatch k of
// log2(chunks) adds chunk i + stride into chunk i for every i that is a multiple of
// 2 * stride, with stride = 2^k; afterwards chunk 0 holds the sum of all chunks.
// With stride == 0 the pass instead adds chunk 0 into the output histogram (the frame is
// processed in bands of rows, each band reduced on its own and accumulated here).
#extension GL_GOOGLE_include_directive : require
#include "frame_access.glsl"

layout(local_size_x = kReduceWorkgroupSize) in;
layout(constant_id = kSpecBins) const uint kBins = 256u;

#define VHIST_SHADER_hist_chunk_reduce
#include "vhist/compute_push.h"  // the push constants

const uint kEntries = kChannelCount * kBins;

void main() {
  const uint lid = gl_LocalInvocationIndex;
  if (pc.stride == 0u) {
    for (uint e = lid; e < kEntries; e += kReduceWorkgroupSize) {
      pc.histogram.count[e] += pc.chunks.count[e];
    }
    return;
  }
  const uint dst = gl_WorkGroupID.x * 2u * pc.stride;
  const uint src = dst + pc.stride;
  if (src >= pc.chunk_count) {
    return;
  }
  for (uint e = lid; e < kEntries; e += kReduceWorkgroupSize) {
    pc.chunks.count[dst * kEntries + e] += pc.chunks.count[src * kEntries + e];
  }
}
