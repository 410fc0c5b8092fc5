#version 460
// Baseline strategy, pass 1 (the articles' part-1 design): one workgroup per chunk of 256
// pixels of one row. The workgroup counts its chunk with shared-memory atomics and writes the
// chunk's four histograms to its own slot of the chunk buffer. hist_chunk_reduce.comp then
// sums the chunks pairwise.
#extension GL_GOOGLE_include_directive : require
#include "frame_access.glsl"

layout(local_size_x = kChunkWidth) in;
layout(constant_id = kSpecBins) const uint kBins = 256u;
layout(constant_id = kSpecPacking) const uint kPacking = kPackingRgba8;
layout(constant_id = kSpecBits) const uint kBits = 8u;

#define VHIST_SHADER_hist_chunk
#include "vhist/compute_push.h"  // the push constants

shared uint chunk[kChannelCount * kBins];

void main() {
  const uint lid = gl_LocalInvocationIndex;
  for (uint e = lid; e < kChannelCount * kBins; e += kChunkWidth) {
    chunk[e] = 0u;
  }
  barrier();

  const uint x = gl_WorkGroupID.x * kChunkWidth + lid;
  if (x < pc.width) {
    const uint index = (pc.first_row + gl_WorkGroupID.y) * pc.width + x;
    const uvec4 b = pixel_bins(load_pixel(pc.frame, kPacking, index), kBins, kBits);
    atomicAdd(chunk[b.r * kChannelCount + kChannelR], 1u);
    atomicAdd(chunk[b.g * kChannelCount + kChannelG], 1u);
    atomicAdd(chunk[b.b * kChannelCount + kChannelB], 1u);
    atomicAdd(chunk[b.a * kChannelCount + kChannelL], 1u);
  }
  barrier();

  const uint slot = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  for (uint e = lid; e < kChannelCount * kBins; e += kChunkWidth) {
    pc.chunks.count[slot * kChannelCount * kBins + e] = chunk[e];
  }
}
