#version 460
// The checksum pass: two sums modulo 2^32 of every sample of a decoded frame (each component on
// its own grid, as uploaded) times its position's odd multipliers (measures_shared.h), for
// finding frozen frames. It reads the planes where the convert pass reads them, so frames that
// a hardware decoder left in GPU memory are summed without reaching host memory. Persistent
// workgroups walk the samples; each adds its sums in shared memory, then once into the
// measures buffer. reference_sample_checksum (frame_checksum.h) is its CPU reference.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
#include "vhist/colour_shared.h"
#include "vhist/measures_shared.h"

layout(local_size_x = 256) in;

layout(buffer_reference, buffer_reference_align = 4, std430) readonly buffer Words {
  uint word[];
};
layout(buffer_reference, buffer_reference_align = 4, std430) buffer MeasureWords {
  uint word[];
};

#define VHIST_SHADER_checksum
#include "vhist/compute_push.h"  // the push constants

#include "plane_access.glsl"  // bits(), model(), read_sample()...

shared uint sums[2];

void main() {
  uint lane = gl_LocalInvocationID.x;
  if (lane < 2u) sums[lane] = 0u;
  barrier();

  uint components = model() == kModelGray ? 1u : 3u;
  uint step = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  uint sum0 = 0u;
  uint sum1 = 0u;
  uint first = 0u;  // position of the component's first sample
  for (uint c = 0u; c < components; ++c) {
    bool chroma = c != 0u && model() == kModelYuv;
    uint w = chroma ? (pc.width + (1u << chroma_sx()) - 1u) >> chroma_sx() : pc.width;
    uint h = chroma ? (pc.height + (1u << chroma_sy()) - 1u) >> chroma_sy() : pc.height;
    uint total = w * h;
    for (uint i = gl_GlobalInvocationID.x; i < total; i += step) {
      uint y = i / w;
      uint v = read_sample(c, i - y * w, y);
      sum0 += v * vhist_checksum_multiplier(first + i, 0u);
      sum1 += v * vhist_checksum_multiplier(first + i, 1u);
    }
    first += total;
  }
  atomicAdd(sums[0], sum0);
  atomicAdd(sums[1], sum1);
  barrier();
  MeasureWords measures = MeasureWords(pc.result);
  if (lane < 2u) atomicAdd(measures.word[kMeasureChecksum + lane], sums[lane]);
}
