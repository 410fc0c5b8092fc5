#version 460
// The plane pass: histograms of the Y', Cb and Cr code values as decoded, each plane counted on
// its own grid at its own depth (so the chroma counts of 4:2:0 add up to a quarter of the
// luma's), and the range check's counters: per plane, the samples below and above the limited
// range (source_shared.h). Gray frames have only Y'.
//
// Persistent workgroups (SourcePass::plane_config: on a GPU about one per multiprocessor, as the
// histogram engine's measured table has it) walk each plane in runs of 4 neighbouring samples of
// a row, so the row and column are worked out once per 4 samples and a subgroup's reads cover
// consecutive addresses. Each workgroup keeps `kCopies` shared copies of the three histograms
// (invocation i counts into copy i % kCopies) and adds the non-zero totals once at its end: few
// workgroups means few of those adds, which at 1024 bins per plane dominated the pass when every
// workgroup walked only 32 samples per invocation. kMerge (a CPU device, whose atomics never
// contend) adds equal bins of a run once.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
#include "vhist/colour_shared.h"
#include "vhist/source_shared.h"

layout(local_size_x_id = kSpecWorkgroupSize) in;
layout(constant_id = kSpecBins) const uint kBins = 256u;
layout(constant_id = kSpecCopies) const uint kCopies = 1u;
layout(constant_id = kSpecMerge) const uint kMerge = 0u;

layout(buffer_reference, buffer_reference_align = 4, std430) readonly buffer Words {
  uint word[];
};
layout(buffer_reference, buffer_reference_align = 16, std430) buffer Counts {
  uint count[];
};

#define VHIST_SHADER_planes
#include "vhist/compute_push.h"  // the push constants

#include "plane_access.glsl"  // bits(), model(), read_sample()...

const uint kCopyStride = 3u * kBins + 1u;  // component-major (Y', Cb, Cr), padded by one word
shared uint hist[kCopies * kCopyStride];
shared uint below[3];
shared uint above[3];

void add(uint copy, uint c, uint bin, uint n) {
  atomicAdd(hist[copy * kCopyStride + c * kBins + bin], n);
}

// Adds a full run's 4 bins, equal ones once (kMerge) or each by itself.
void add_run(uint copy, uint c, uvec4 b) {
  if (kMerge == 0u) {
    add(copy, c, b.x, 1u);
    add(copy, c, b.y, 1u);
    add(copy, c, b.z, 1u);
    add(copy, c, b.w, 1u);
    return;
  }
  add(copy, c, b.x, 1u + uint(b.y == b.x) + uint(b.z == b.x) + uint(b.w == b.x));
  if (b.y != b.x) add(copy, c, b.y, 1u + uint(b.z == b.y) + uint(b.w == b.y));
  if (b.z != b.x && b.z != b.y) add(copy, c, b.z, 1u + uint(b.w == b.z));
  if (b.w != b.x && b.w != b.y && b.w != b.z) add(copy, c, b.w, 1u);
}

// Counts component c's samples (a w x h grid) into shared copy `copy` and the range counters.
void count_component(uint copy, uint c, uint w, uint h) {
  uint low = vhist_limited_low(bits());
  uint high = vhist_limited_high(bits(), c != 0u);
  uint n_below = 0u;
  uint n_above = 0u;
  uint runs_per_row = (w + 3u) >> 2u;
  uint runs = runs_per_row * h;
  uint step = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint r = gl_GlobalInvocationID.x; r < runs; r += step) {
    uint y = r / runs_per_row;
    uint x = (r - y * runs_per_row) << 2u;
    uint n = min(4u, w - x);  // the row's last run may be shorter
    uvec4 code = uvec4(0u);
    for (uint k = 0u; k < 4u; ++k) {
      if (k < n) code[k] = read_sample(c, x + k, y);
    }
    uvec4 b = uvec4(vhist_bin(code.x, kBins, bits()), vhist_bin(code.y, kBins, bits()),
                    vhist_bin(code.z, kBins, bits()), vhist_bin(code.w, kBins, bits()));
    if (n == 4u) {
      add_run(copy, c, b);
    } else {
      for (uint k = 0u; k < n; ++k) add(copy, c, b[k], 1u);
    }
    for (uint k = 0u; k < n; ++k) {
      n_below += code[k] < low ? 1u : 0u;
      n_above += code[k] > high ? 1u : 0u;
    }
  }
  if (n_below != 0u) atomicAdd(below[c], n_below);
  if (n_above != 0u) atomicAdd(above[c], n_above);
}

void main() {
  uint lane = gl_LocalInvocationID.x;
  for (uint i = lane; i < kCopies * kCopyStride; i += gl_WorkGroupSize.x) hist[i] = 0u;
  if (lane < 3u) {
    below[lane] = 0u;
    above[lane] = 0u;
  }
  barrier();

  uint copy = lane % kCopies;
  uint components = model() == kModelGray ? 1u : 3u;
  count_component(copy, 0u, pc.width, pc.height);
  if (components == 3u) {
    uint cw = (pc.width + (1u << chroma_sx()) - 1u) >> chroma_sx();
    uint ch = (pc.height + (1u << chroma_sy()) - 1u) >> chroma_sy();
    count_component(copy, 1u, cw, ch);
    count_component(copy, 2u, cw, ch);
  }
  barrier();

  Counts totals = Counts(pc.result);
  for (uint i = lane; i < components * kBins; i += gl_WorkGroupSize.x) {
    uint n = 0u;
    for (uint k = 0u; k < kCopies; ++k) n += hist[k * kCopyStride + i];
    uint c = i / kBins;
    if (n != 0u) atomicAdd(totals.count[(i - c * kBins) * kChannelCount + vhist_plane_slot(c)], n);
  }
  if (lane < components) {
    uint slot = vhist_plane_slot(lane);
    if (below[lane] != 0u) atomicAdd(totals.count[kPlaneCounterRecord * kChannelCount + slot], below[lane]);
    if (above[lane] != 0u) atomicAdd(totals.count[(kPlaneCounterRecord + 1u) * kChannelCount + slot], above[lane]);
  }
}
