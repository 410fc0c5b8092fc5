#version 460
// The light pass: each pixel's light level of the converted frame, one level per code up to 12
// bits (source_shared.h's vhist_light_levels), from which the CPU reads a PQ or HLG frame's
// brightest pixel (MaxCLL) and its average light (FALL) exactly: max(R', G', B') for PQ; with
// kHlg, HLG's displayed light as the PQ code that carries it (hlg_light_shared.h's integer steps,
// from the tables at pc.tables). Persistent workgroups, a shared histogram each.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
#include "vhist/hlg_light_shared.h"
#include "vhist/source_shared.h"

layout(local_size_x = 256) in;
layout(constant_id = kSpecBins) const uint kLevels = 1024u;
layout(constant_id = kSpecPacking) const uint kPacking = kPackingRgba16;
layout(constant_id = kSpecBits) const uint kBits = 10u;
layout(constant_id = kSpecHlg) const bool kHlg = false;

layout(buffer_reference, buffer_reference_align = 4, std430) readonly buffer FrameWords {
  uint word[];
};
layout(buffer_reference, buffer_reference_align = 4, std430) buffer Counts {
  uint count[];
};

#define VHIST_SHADER_max_rgb
#include "vhist/compute_push.h"  // the push constants

shared uint hist[kLevels];

uvec3 components(uint pixel) {
  FrameWords frame = FrameWords(pc.frame);
  if (kPacking == kPackingRgba8) {
    uint w = frame.word[pixel];
    return uvec3(w & 0xffu, (w >> 8u) & 0xffu, (w >> 16u) & 0xffu);
  }
  uint rg = frame.word[2u * pixel];
  return uvec3(rg & 0xffffu, rg >> 16u, frame.word[2u * pixel + 1u] & 0xffffu);
}

uint level_of(uint pixel) {
  uvec3 c = components(pixel);
  if (kHlg) return vhist_hlg_level(HlgTables(pc.tables), c.r, c.g, c.b, kBits);
  return vhist_bin(max(max(c.r, c.g), c.b), kLevels, kBits);
}

void main() {
  uint lane = gl_LocalInvocationID.x;
  for (uint i = lane; i < kLevels; i += gl_WorkGroupSize.x) hist[i] = 0u;
  barrier();
  uint step = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint p = gl_GlobalInvocationID.x; p < pc.pixel_count; p += step) {
    atomicAdd(hist[level_of(p)], 1u);
  }
  barrier();
  Counts totals = Counts(pc.counts);
  for (uint i = lane; i < kLevels; i += gl_WorkGroupSize.x) {
    if (hist[i] != 0u) atomicAdd(totals.count[i], hist[i]);
  }
}
