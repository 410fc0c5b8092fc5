#version 460
// The plane pass: histograms of the Y', Cb and Cr code values as decoded, each plane counted on
// its own grid at its own depth (so the chroma counts of 4:2:0 add up to a quarter of the
// luma's), and the range check's counters: per plane, the samples below and above the limited
// range (source_shared.h). Gray frames have only Y'. Persistent workgroups walk the samples;
// each keeps a shared histogram of the three planes and adds its non-zero bins once.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
#include "vhist/colour_shared.h"
#include "vhist/source_shared.h"

layout(local_size_x = 256) in;
layout(constant_id = kSpecBins) const uint kBins = 256u;

layout(buffer_reference, buffer_reference_align = 4, std430) readonly buffer Words {
  uint word[];
};
layout(buffer_reference, buffer_reference_align = 16, std430) buffer Counts {
  uint count[];
};

#define VHIST_SHADER_planes
#include "vhist/compute_push.h"  // the push constants

#include "plane_access.glsl"  // bits(), model(), read_sample()...

shared uint hist[3u * kBins];  // component-major: Y', Cb, Cr
shared uint below[3];
shared uint above[3];

// Counts component c's samples (a w x h grid) into the shared histogram and range counters.
void count_component(uint c, uint w, uint h) {
  uint low = vhist_limited_low(bits());
  uint high = vhist_limited_high(bits(), c != 0u);
  uint n_below = 0u;
  uint n_above = 0u;
  uint total = w * h;
  uint step = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint i = gl_GlobalInvocationID.x; i < total; i += step) {
    uint y = i / w;
    uint code = read_sample(c, i - y * w, y);
    atomicAdd(hist[c * kBins + vhist_bin(code, kBins, bits())], 1u);
    n_below += code < low ? 1u : 0u;
    n_above += code > high ? 1u : 0u;
  }
  if (n_below != 0u) atomicAdd(below[c], n_below);
  if (n_above != 0u) atomicAdd(above[c], n_above);
}

void main() {
  uint lane = gl_LocalInvocationID.x;
  for (uint i = lane; i < 3u * kBins; i += gl_WorkGroupSize.x) hist[i] = 0u;
  if (lane < 3u) {
    below[lane] = 0u;
    above[lane] = 0u;
  }
  barrier();

  uint components = model() == kModelGray ? 1u : 3u;
  count_component(0u, pc.width, pc.height);
  if (components == 3u) {
    uint cw = (pc.width + (1u << chroma_sx()) - 1u) >> chroma_sx();
    uint ch = (pc.height + (1u << chroma_sy()) - 1u) >> chroma_sy();
    count_component(1u, cw, ch);
    count_component(2u, cw, ch);
  }
  barrier();

  Counts totals = Counts(pc.counts);
  for (uint i = lane; i < components * kBins; i += gl_WorkGroupSize.x) {
    uint n = hist[i];
    uint c = i / kBins;
    if (n != 0u) atomicAdd(totals.count[(i - c * kBins) * kChannelCount + vhist_plane_slot(c)], n);
  }
  if (lane < components) {
    uint slot = vhist_plane_slot(lane);
    if (below[lane] != 0u) atomicAdd(totals.count[kPlaneCounterRecord * kChannelCount + slot], below[lane]);
    if (above[lane] != 0u) atomicAdd(totals.count[(kPlaneCounterRecord + 1u) * kChannelCount + slot], above[lane]);
  }
}
