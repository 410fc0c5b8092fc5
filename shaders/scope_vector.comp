#version 460
// The vectorscope's counts (scope_counts.h): counts[Cr level * size + Cb level] over the
// samples of a rectangle, read from the stored Cb and Cr planes or computed from the converted
// R'G'B' by vhist_scope_chroma (scope_shared.h). Persistent workgroups; each keeps the window
// of the grid around zero chroma (kScopeVectorWindow square, the whole grid up to 64 x 64) in
// shared memory and adds its non-zero cells to the buffer (zeroed beforehand) at the end;
// samples outside the window go to the buffer by global atomics. Each invocation walks
// kScopeVectorRun consecutive samples and adds a run of equal cells with one atomic.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require

layout(buffer_reference, buffer_reference_align = 4, std430) readonly buffer Words {
  uint word[];
};
layout(buffer_reference, buffer_reference_align = 4, std430) readonly buffer FrameWords {
  uint word[];
};
layout(buffer_reference, buffer_reference_align = 4, std430) buffer Counts {
  uint count[];
};

#define VHIST_SHADER_scope_vector
#include "vhist/scope_shared.h"  // the push constants

#include "plane_access.glsl"  // bits(), read_sample()...

layout(local_size_x = kScopeWorkgroupSize) in;
layout(constant_id = kSpecBins) const uint kSize = 256u;
layout(constant_id = kSpecPacking) const uint kPacking = kPackingRgba8;
layout(constant_id = kSpecScopeSource) const uint kSource = kScopePlanes;  // or kScopeRgb

// The grid cell of sample (x, y).
uint cell_of(uint x, uint y, uint shift) {
  uint cb, cr;
  if (kSource == kScopePlanes) {
    cb = read_sample(1u, x, y);
    cr = read_sample(2u, x, y);
  } else {
    uint index = y * pc.frame_width + x;
    ivec3 rgb;
    if (kPacking == kPackingRgba8) {
      uint w0 = FrameWords(pc.frame).word[index];
      rgb = ivec3(w0 & 0xffu, (w0 >> 8u) & 0xffu, (w0 >> 16u) & 0xffu);
    } else {
      uint w0 = FrameWords(pc.frame).word[2u * index];
      uint w1 = FrameWords(pc.frame).word[2u * index + 1u];
      rgb = ivec3(w0 & 0xffffu, w0 >> 16u, w1 & 0xffffu);
    }
    cb = vhist_scope_chroma(rgb.r, rgb.g, rgb.b, pc.kcb[0], pc.kcb[1], pc.kcb[2], pc.zero, pc.max_code);
    cr = vhist_scope_chroma(rgb.r, rgb.g, rgb.b, pc.kcr[0], pc.kcr[1], pc.kcr[2], pc.zero, pc.max_code);
  }
  return (cr >> shift) * kSize + (cb >> shift);
}

// The window of the grid kept in shared memory: kWindow x kWindow cells centred on zero chroma
// (the whole grid when it fits), where most samples of most footage fall.
layout(constant_id = kSpecScopeWindow) const uint kWindowSide = kScopeVectorWindow;  // 0: no window
const uint kWindow = kSize < kWindowSide ? kSize : kWindowSide;
const uint kWindowStart = kSize / 2u - kWindow / 2u;
shared uint window[kScopeVectorWindow * kScopeVectorWindow];

// Adds n samples to cell (cr * kSize + cb): in the shared window when it lies there, else in
// the global counts.
void add(uint cell, uint n) {
  uint wr = cell / kSize - kWindowStart, wc = cell % kSize - kWindowStart;  // wrap: outside
  if (wr < kWindow && wc < kWindow) {
    atomicAdd(window[wr * kWindow + wc], n);
  } else {
    atomicAdd(Counts(pc.counts).count[cell], n);
  }
}

void main() {
  uint lane = gl_LocalInvocationID.x;
  for (uint i = lane; i < kWindow * kWindow; i += gl_WorkGroupSize.x) window[i] = 0u;
  barrier();

  uint total = pc.w * pc.h;
  uint shift = bits() - uint(findLSB(kSize));
  uint step = gl_NumWorkGroups.x * gl_WorkGroupSize.x * kScopeVectorRun;
  for (uint start = gl_GlobalInvocationID.x * kScopeVectorRun; start < total; start += step) {
    uint end = min(start + kScopeVectorRun, total);
    uint row = start / pc.w;
    uint col = start - row * pc.w;
    uint cell = 0xffffffffu;
    uint n = 0u;
    for (uint i = start; i < end; ++i) {
      uint k = cell_of(pc.x0 + col, pc.y0 + row, shift);
      if (k != cell) {
        if (n != 0u) add(cell, n);
        cell = k;
        n = 0u;
      }
      ++n;
      if (++col == pc.w) {
        col = 0u;
        ++row;
      }
    }
    if (n != 0u) add(cell, n);
  }
  barrier();

  Counts counts = Counts(pc.counts);
  for (uint i = lane; i < kWindow * kWindow; i += gl_WorkGroupSize.x) {
    uint n = window[i];
    uint wr = i / kWindow;
    if (n != 0u) atomicAdd(counts.count[(kWindowStart + wr) * kSize + kWindowStart + (i - wr * kWindow)], n);
  }
}
