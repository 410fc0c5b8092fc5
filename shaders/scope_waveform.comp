#version 460
// The waveform's counts (scope_counts.h): per component, plot column and level, the samples of
// the region whose display column falls in the plot column. Workgroup (i, j) owns
// pc.group_columns plot columns (i) and a band of pc.band_rows of the region's lines across
// them (j: stored rows for rotations 0 and 180, stored columns for 90 and 270). It counts the
// samples standing there into shared memory and adds its non-zero counts to the buffer (zeroed
// beforehand). Samples of a subsampled chroma grid stand where their first luma pixel inside the
// region is; a workgroup reads the samples that may stand in its area and skips those that
// stand in a neighbour's, so that each sample is counted once.
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

#define VHIST_SHADER_scope_waveform
#include "vhist/scope_shared.h"  // the push constants

#include "plane_access.glsl"  // bits(), read_sample()...

layout(local_size_x = kScopeWorkgroupSize) in;
layout(constant_id = kSpecBins) const uint kLevels = 256u;
layout(constant_id = kSpecPacking) const uint kPacking = kPackingRgba8;
layout(constant_id = kSpecScopeSource) const uint kSource = kScopeLuma;

shared uint hist[kScopeSharedWords];  // [(component * group_columns + column) * kLevels + level]

const uint kNone = 0xffffffffu;

// Adds one to shared entry `entry` for component k: held back while the same entry repeats
// (neighbouring samples of one plot column often share a level), so that a run costs one atomic.
void hold(uint k, uint entry, inout uvec3 pending, inout uvec3 held) {
  if (entry != pending[k]) {
    if (held[k] != 0u) atomicAdd(hist[pending[k]], held[k]);
    pending[k] = entry;
    held[k] = 0u;
  }
  held[k] += 1u;
}

// Counts component c's samples (its grid subsampled by 2^sx x 2^sy) standing in display
// columns [d0, d1) (plot columns from p0) and lines [e0, e1) of the region.
void count_grid(uint c, uint sx, uint sy, uvec2 d, uvec2 e, uint p0, uint shift) {
  bool quarter = pc.rotation == 90u || pc.rotation == 270u;
  // The stored columns [x0, x1) and rows [y0, y1) that area shows.
  uint x0 = pc.x0 + e.x, x1 = pc.x0 + e.y, y0 = pc.y0 + e.x, y1 = pc.y0 + e.y;
  if (pc.rotation == 90u) {
    y0 = pc.y0 + pc.h - d.y;
    y1 = pc.y0 + pc.h - d.x;
  } else if (pc.rotation == 180u) {
    x0 = pc.x0 + pc.w - d.y;
    x1 = pc.x0 + pc.w - d.x;
  } else if (pc.rotation == 270u) {
    y0 = pc.y0 + d.x;
    y1 = pc.y0 + d.y;
  } else {
    x0 = pc.x0 + d.x;
    x1 = pc.x0 + d.y;
  }
  uint bx = x0 >> sx, bw = ((x1 - 1u) >> sx) + 1u - bx;
  uint by = y0 >> sy, total = (((y1 - 1u) >> sy) + 1u - by) * bw;
  uint plane_words = pc.group_columns * kLevels;
  uvec3 pending = uvec3(kNone);  // per component: the shared entry whose adds are held back
  uvec3 held = uvec3(0u);        // and how many
  uint step = gl_WorkGroupSize.x * kScopeWaveformRun;
  for (uint first = gl_LocalInvocationID.x * kScopeWaveformRun; first < total; first += step) {
    for (uint i = first; i < min(first + kScopeWaveformRun, total); ++i) {
      uint row = i / bw;
      uint x = bx + (i - row * bw), y = by + row;
      uint lx = clamp(x << sx, pc.x0, pc.x0 + pc.w - 1u), ly = clamp(y << sy, pc.y0, pc.y0 + pc.h - 1u);
      uint column = vhist_scope_column(lx, ly, pc.x0, pc.y0, pc.w, pc.h, pc.rotation);
      uint line = quarter ? lx - pc.x0 : ly - pc.y0;
      // A chroma sample standing in a neighbour's columns or lines.
      if (column < d.x || column >= d.y || line < e.x || line >= e.y) continue;
      uint base = (column / pc.run - p0) * kLevels;
      if (kSource == kScopePlanes) {
        hold(0u, c * plane_words + base + (read_sample(c, x, y) >> shift), pending, held);
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
        hold(0u, base + (vhist_luma(rgb.r, rgb.g, rgb.b) >> shift), pending, held);
      } else {
        hold(0u, base + (rgb.r >> shift), pending, held);
        hold(1u, plane_words + base + (rgb.g >> shift), pending, held);
        hold(2u, 2u * plane_words + base + (rgb.b >> shift), pending, held);
      }
    }
  }
  for (uint k = 0u; k < 3u; ++k) {
    if (held[k] != 0u) atomicAdd(hist[pending[k]], held[k]);
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
  uvec2 d = uvec2(p0 * pc.run, min((p0 + columns) * pc.run, pc.columns));
  uint lines = pc.rotation == 90u || pc.rotation == 270u ? pc.w : pc.h;
  uvec2 e = uvec2(gl_WorkGroupID.y * pc.band_rows, min((gl_WorkGroupID.y + 1u) * pc.band_rows, lines));
  uint shift = bits() - uint(findLSB(kLevels));
  count_grid(0u, 0u, 0u, d, e, p0, shift);
  if (kSource == kScopePlanes) {
    count_grid(1u, chroma_sx(), chroma_sy(), d, e, p0, shift);
    count_grid(2u, chroma_sx(), chroma_sy(), d, e, p0, shift);
  }
  barrier();

  Counts totals = Counts(pc.counts);
  uint block = columns * kLevels;
  for (uint i = lane; i < components * block; i += gl_WorkGroupSize.x) {
    uint c = i / block;
    uint rest = i - c * block;  // column * kLevels + level
    uint n = hist[c * pc.group_columns * kLevels + rest];
    if (n != 0u) atomicAdd(totals.count[(c * pc.plot_columns + p0) * kLevels + rest], n);
  }
}
