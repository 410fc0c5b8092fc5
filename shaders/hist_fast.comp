#version 460
// The fast strategy: persistent workgroups walk the frame in 16-byte blocks (grid-stride),
// count into several privatized copies of the four histograms in shared memory, then each
// workgroup adds its non-zero totals to the global histogram with one atomicAdd per bin.
// The global histogram must be zero before the dispatch (vkCmdFillBuffer).
//
// Contention control:
//  - `kCopies` copies of the shared histograms; invocation i counts into copy i % kCopies, so
//    neighbouring invocations (which read neighbouring, often similar, pixels) use different
//    addresses. Each copy is padded by one word so that the same bin of two copies sits in
//    different shared-memory banks.
//  - Optionally (kMerge), each invocation merges equal bins among the 4 pixels it holds before
//    touching shared memory: a flat area costs one atomic per channel per 4 pixels, not four.
#extension GL_GOOGLE_include_directive : require
#include "frame_access.glsl"

layout(local_size_x_id = kSpecWorkgroupSize) in;
layout(constant_id = kSpecBins) const uint kBins = 256u;
layout(constant_id = kSpecPacking) const uint kPacking = kPackingRgba8;
layout(constant_id = kSpecBits) const uint kBits = 8u;
layout(constant_id = kSpecCopies) const uint kCopies = 4u;
// Groups of 4 pixels loaded per loop iteration by each invocation (1, 2 or 4).
layout(constant_id = kSpecUnroll) const uint kUnroll = 2u;
// 1: merge equal bins among an invocation's 4 pixels before the atomics (fewer atomics on flat
// content, more instructions on busy content); 0: one atomic per pixel and channel.
layout(constant_id = kSpecMerge) const uint kMerge = 1u;

#define VHIST_SHADER_hist_fast
#include "vhist/compute_push.h"  // the push constants

const uint kCopyStride = kChannelCount * kBins + 1u;
shared uint counts[kCopies * kCopyStride];

// Adds 4 bins of one channel (one per pixel) to the shared copy at `base`.
void add4(uint base, uvec4 b) {
  if (kMerge == 0u) {
    atomicAdd(counts[base + b.x], 1u);
    atomicAdd(counts[base + b.y], 1u);
    atomicAdd(counts[base + b.z], 1u);
    atomicAdd(counts[base + b.w], 1u);
    return;
  }
  atomicAdd(counts[base + b.x], 1u + uint(b.y == b.x) + uint(b.z == b.x) + uint(b.w == b.x));
  if (b.y != b.x) {
    atomicAdd(counts[base + b.y], 1u + uint(b.z == b.y) + uint(b.w == b.y));
  }
  if (b.z != b.x && b.z != b.y) {
    atomicAdd(counts[base + b.z], 1u + uint(b.w == b.z));
  }
  if (b.w != b.x && b.w != b.y && b.w != b.z) {
    atomicAdd(counts[base + b.w], 1u);
  }
}

// Counts four pixels given as their R, G and B components.
void count4(uint copy_base, uvec4 r, uvec4 g, uvec4 b) {
  uvec4 l = (kLumaWeightR * r + kLumaWeightG * g + kLumaWeightB * b + 32768u) >> 16u;
  add4(copy_base + kChannelR * kBins, (r * kBins) >> kBits);
  add4(copy_base + kChannelG * kBins, (g * kBins) >> kBits);
  add4(copy_base + kChannelB * kBins, (b * kBins) >> kBits);
  add4(copy_base + kChannelL * kBins, (l * kBins) >> kBits);
}

// A group is 4 pixels: one 16-byte block (RGBA8) or two (RGBA16).
struct Group {
  uvec4 a;
  uvec4 b;  // RGBA16 only
};

Group load_group(uint group) {
  Group g;
  if (kPacking == kPackingRgba8) {
    g.a = pc.frame_blocks.block[group];
    g.b = uvec4(0u);
  } else {
    g.a = pc.frame_blocks.block[2u * group];
    g.b = pc.frame_blocks.block[2u * group + 1u];
  }
  return g;
}

void count_group(uint copy_base, Group g) {
  if (kPacking == kPackingRgba8) {
    count4(copy_base, g.a & 0xffu, (g.a >> 8u) & 0xffu, (g.a >> 16u) & 0xffu);
  } else {
    const uvec4 rg = uvec4(g.a.x, g.a.z, g.b.x, g.b.z);
    count4(copy_base, rg & 0xffffu, rg >> 16u, uvec4(g.a.y, g.a.w, g.b.y, g.b.w) & 0xffffu);
  }
}

void main() {
  const uint lid = gl_LocalInvocationIndex;
  const uint wg_size = gl_WorkGroupSize.x;
  for (uint i = lid; i < kCopies * kCopyStride; i += wg_size) {
    counts[i] = 0u;
  }
  barrier();

  const uint copy_base = (lid % kCopies) * kCopyStride;
  const uint groups = pc.pixel_count / 4u;
  const uint stride = gl_NumWorkGroups.x * wg_size;
  uint g = gl_GlobalInvocationID.x;
  // kUnroll groups per iteration so that each invocation has that many loads in flight.
  for (; g + (kUnroll - 1u) * stride < groups; g += kUnroll * stride) {
    Group loaded[4];  // kUnroll <= 4; all loads are issued before any counting
    for (uint u = 0u; u < kUnroll; ++u) {
      loaded[u] = load_group(g + u * stride);
    }
    for (uint u = 0u; u < kUnroll; ++u) {
      count_group(copy_base, loaded[u]);
    }
  }
  for (; g < groups; g += stride) {
    count_group(copy_base, load_group(g));
  }
  // The last pixel_count % 4 pixels, read word by word so nothing past the frame is touched.
  const uint tail = groups * 4u + gl_GlobalInvocationID.x;
  if (tail < pc.pixel_count) {
    uvec4 b = pixel_bins(load_pixel(pc.frame_words, kPacking, tail), kBins, kBits);
    atomicAdd(counts[copy_base + kChannelR * kBins + b.r], 1u);
    atomicAdd(counts[copy_base + kChannelG * kBins + b.g], 1u);
    atomicAdd(counts[copy_base + kChannelB * kBins + b.b], 1u);
    atomicAdd(counts[copy_base + kChannelL * kBins + b.a], 1u);
  }
  barrier();

  // Flush: entry e = channel * kBins + bin of the shared layout; global layout is [bin][channel].
  for (uint e = lid; e < kChannelCount * kBins; e += wg_size) {
    uint total = 0u;
    for (uint c = 0u; c < kCopies; ++c) {
      total += counts[c * kCopyStride + e];
    }
    if (total != 0u) {
      const uint channel = e / kBins;
      const uint bin = e % kBins;
      atomicAdd(pc.histogram.count[bin * kChannelCount + channel], total);
    }
  }
}
