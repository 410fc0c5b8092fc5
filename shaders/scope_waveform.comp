#version 460
// The waveform's counts (scope_counts.h): per component, plot column and level, the samples of
// the region whose display column falls in the plot column. Each workgroup owns
// pc.group_columns plot columns: it counts the samples standing in them into shared memory and
// writes its whole block of counts (zeros too), so no clear and no global atomics are needed.
// Samples of a subsampled chroma grid stand in the display column of their first luma pixel
// inside the region; a workgroup reads the samples that may stand in its columns and skips
// those that stand in a neighbour's.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require

layout(buffer_reference, buffer_reference_align = 4, std430) readonly buffer Words {
  uint word[];
};
layout(buffer_reference, buffer_reference_align = 4, std430) readonly buffer FrameWords {
  uint word[];
};
layout(buffer_reference, buffer_reference_align = 4, std430) writeonly buffer Counts {
  uint count[];
};

#define VHIST_SHADER_scope_waveform
#include "vhist/scope_shared.h"  // the push constants

#include "plane_access.glsl"  // bits(), read_sample()...

layout(local_size_x = kScopeWorkgroupSize) in;
layout(constant_id = kSpecBins) const uint kLevels = 256u;
layout(constant_id = kSpecPacking) const uint kPacking = kPackingRgba8;
layout(constant_id = kSpecScopeSource) const uint kSource = kScopeLuma;

shared uint hist[kScopeSharedWords];  // [(component * group_columns + column) * kLevels + level]

// Counts component c's samples (its grid subsampled by 2^sx x 2^sy) standing in display
// columns [d0, d1) (plot columns from p0).
void count_grid(uint c, uint sx, uint sy, uint d0, uint d1, uint p0, uint shift) {
  uint x0 = pc.x0, x1 = pc.x0 + pc.w, y0 = pc.y0, y1 = pc.y0 + pc.h;
  if (pc.rotation == 90u) {
    y0 = pc.y0 + pc.h - d1;
    y1 = pc.y0 + pc.h - d0;
  } else if (pc.rotation == 180u) {
    x0 = pc.x0 + pc.w - d1;
    x1 = pc.x0 + pc.w - d0;
  } else if (pc.rotation == 270u) {
    y0 = pc.y0 + d0;
    y1 = pc.y0 + d1;
  } else {
    x0 = pc.x0 + d0;
    x1 = pc.x0 + d1;
  }
  uint bx = x0 >> sx, bw = ((x1 - 1u) >> sx) + 1u - bx;
  uint by = y0 >> sy, total = (((y1 - 1u) >> sy) + 1u - by) * bw;
  uint plane_words = pc.group_columns * kLevels;
  for (uint i = gl_LocalInvocationID.x; i < total; i += gl_WorkGroupSize.x) {
    uint row = i / bw;
    uint x = bx + (i - row * bw), y = by + row;
    uint lx = clamp(x << sx, pc.x0, pc.x0 + pc.w - 1u), ly = clamp(y << sy, pc.y0, pc.y0 + pc.h - 1u);
    uint d = vhist_scope_column(lx, ly, pc.x0, pc.y0, pc.w, pc.h, pc.rotation);
    if (d < d0 || d >= d1) continue;  // a chroma sample standing in a neighbour's column
    uint base = (d / pc.run - p0) * kLevels;
    if (kSource == kScopePlanes) {
      atomicAdd(hist[c * plane_words + base + (read_sample(c, x, y) >> shift)], 1u);
      continue;
    }
    uint index = y * pc.frame_width + x;
    uvec3 rgb;
    if (kPacking == kPackingRgba8) {
      uint w0 = FrameWords(pc.frame).word[index];
      rgb = uvec3(w0 & 0xffu, (w0 >> 8u) & 0xffu, (w0 >> 16u) & 0xffu);
    } else {
      uint w0 = FrameWords(pc.frame).word[2u * index];
      uint w1 = FrameWords(pc.frame).word[2u * index + 1u];
      rgb = uvec3(w0 & 0xffffu, w0 >> 16u, w1 & 0xffffu);
    }
    if (kSource == kScopeLuma) {
      atomicAdd(hist[base + (vhist_luma(rgb.r, rgb.g, rgb.b) >> shift)], 1u);
    } else {
      atomicAdd(hist[base + (rgb.r >> shift)], 1u);
      atomicAdd(hist[plane_words + base + (rgb.g >> shift)], 1u);
      atomicAdd(hist[2u * plane_words + base + (rgb.b >> shift)], 1u);
    }
  }
}

void main() {
  uint lane = gl_LocalInvocationID.x;
  uint components = kSource == kScopeLuma ? 1u : 3u;
  uint group_words = components * pc.group_columns * kLevels;
  for (uint i = lane; i < group_words; i += gl_WorkGroupSize.x) hist[i] = 0u;
  barrier();

  uint p0 = gl_WorkGroupID.x * pc.group_columns;
  uint columns = min(pc.group_columns, pc.plot_columns - p0);
  uint d0 = p0 * pc.run, d1 = min((p0 + columns) * pc.run, pc.columns);
  uint shift = bits() - uint(findLSB(kLevels));
  if (kSource == kScopePlanes) {
    count_grid(0u, 0u, 0u, d0, d1, p0, shift);
    count_grid(1u, chroma_sx(), chroma_sy(), d0, d1, p0, shift);
    count_grid(2u, chroma_sx(), chroma_sy(), d0, d1, p0, shift);
  } else {
    count_grid(0u, 0u, 0u, d0, d1, p0, shift);
  }
  barrier();

  Counts totals = Counts(pc.counts);
  uint block = columns * kLevels;
  for (uint i = lane; i < components * block; i += gl_WorkGroupSize.x) {
    uint c = i / block;
    uint rest = i - c * block;  // column * kLevels + level
    totals.count[(c * pc.plot_columns + p0) * kLevels + rest] = hist[c * pc.group_columns * kLevels + rest];
  }
}
