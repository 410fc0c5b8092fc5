#version 460
// The fast strategy: persistent workgroups walk the frame in 16-byte blocks (grid-stride),
// count into privatized copies of the four histograms in shared memory, then each workgroup
// adds its non-zero totals to global sums with one atomicAdd per bin.
//
// Fused (kFused = 1, the default): one dispatch does the whole frame. The workgroups add into
// `accum`, which is zero before the dispatch; the last workgroup to finish (a counter after the
// sums) moves the sums into the histogram (atomicExchange with 0, so `accum` is zero again for
// the next frame), computes the scale block as hist_scale.comp does, and resets the counter.
// No clear, no barrier and no scale dispatch are recorded. Unfused (kFused = 0): the
// workgroups add straight into the histogram, which must be zero before the dispatch
// (vkCmdFillBuffer), and hist_scale.comp follows.
//
// Contention control, each a specialization constant chosen from a measured table
// (HistogramEngine::fast_config):
//  - `kCopies` copies of the shared histograms; invocation i counts into copy i % kCopies, so
//    neighbouring invocations (which read neighbouring, often similar, pixels) use different
//    addresses. kLayout says how the copies are laid out (shader_shared.h).
//  - kLayoutPacked16: 16-bit counters, two entries per word, flushed to the sums every
//    kFlushGroups groups per invocation so that none overflows (the proof is at kFlushGroups).
//    Not in the H200's table: its increment is not the constant 1, whose same-word lanes that
//    GPU combines, so it measured slower on every content (docs/benchmarks.md).
//  - kMerge: each invocation merges equal bins among the 4 pixels it holds before touching
//    shared memory: a flat area costs one atomic per channel per 4 pixels, not four.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_memory_scope_semantics : require
#include "frame_access.glsl"
#include "scale_quotient.glsl"

layout(local_size_x_id = kSpecWorkgroupSize) in;
layout(constant_id = kSpecBins) const uint kBins = 256u;
layout(constant_id = kSpecPacking) const uint kPacking = kPackingRgba8;
layout(constant_id = kSpecBits) const uint kBits = 8u;
layout(constant_id = kSpecCopies) const uint kCopies = 1u;
// Groups of 4 pixels loaded per loop iteration by each invocation (1, 2 or 4).
layout(constant_id = kSpecUnroll) const uint kUnroll = 2u;
layout(constant_id = kSpecMerge) const uint kMerge = 0u;
layout(constant_id = kSpecLayout) const uint kLayout = kLayoutBlocked;
layout(constant_id = kSpecFused) const uint kFused = 1u;
// Fused: copies of the running sums in global memory (1 to kMaxGlobalCopies).
layout(constant_id = kSpecGlobalCopies) const uint kGlobalCopies = 1u;

#define VHIST_SHADER_hist_fast
#include "vhist/compute_push.h"  // the push constants

const uint kEntries = kChannelCount * kBins;  // channel * kBins + bin
const uint kCopyStride = kEntries + 1u;       // kLayoutBlocked's padded copy
const bool kPacked = kLayout == kLayoutPacked16;
const uint kCountWords = kPacked ? kCopies * (kEntries / 2u)
                                 : (kLayout == kLayoutBlocked ? kCopies * kCopyStride : kCopies * kEntries);
// Packed counters, no overflow: invocation i counts into copy i % kCopies, so at most
// kLanesPerCopy = ceil(workgroup size / kCopies) invocations share a copy. One 4-pixel group
// adds at most 4 to any one entry (one per pixel; merging adds the same total in fewer
// atomics). Between two flushes each invocation counts at most kFlushGroups groups (count_frame
// walks the frame in segments of kFlushGroups rounds), so a counter holds at most
// 4 * kLanesPerCopy * kFlushGroups <= 65535 when it is flushed and zeroed: a low half never
// carries into the high half and a high half never wraps. The host keeps kLanesPerCopy <= 1024,
// so kFlushGroups >= 15. The last pixel_count % 4 pixels go straight to the sums.
const uint kLanesPerCopy = (gl_WorkGroupSize.x + kCopies - 1u) / kCopies;
const uint kFlushGroups = 65535u / (4u * kLanesPerCopy);
shared uint counts[kCountWords];
shared uint last_ticket;
shared uint channel_max[kChannelCount];
shared float floor_scale;

// Bins are powers of two no larger than 2^kBits, so vhist_bin(v) = (v * kBins) >> kBits is
// v >> bin_shift() exactly (v * kBins < 2^32 never wraps). The driver folds it once the
// specialization constants are known.
uint bin_shift() { return kBits - uint(findMSB(kBins)); }

// Where entry e (channel * kBins + bin) of copy `copy` lives in `counts`.
uint slot(uint copy, uint e) { return kLayout == kLayoutBlocked ? copy * kCopyStride + e : e * kCopies + copy; }

// Adds n to entry e of copy `copy`.
void add(uint copy, uint e, uint n) {
  if (kPacked) {
    atomicAdd(counts[(e >> 1u) * kCopies + copy], n << ((e & 1u) << 4u));
  } else {
    atomicAdd(counts[slot(copy, e)], n);
  }
}

// Adds 4 bins of one channel (one per pixel): `base` is the channel's first entry.
void add4(uint copy, uint base, uvec4 b) {
  if (kMerge == 0u) {
    add(copy, base + b.x, 1u);
    add(copy, base + b.y, 1u);
    add(copy, base + b.z, 1u);
    add(copy, base + b.w, 1u);
    return;
  }
  add(copy, base + b.x, 1u + uint(b.y == b.x) + uint(b.z == b.x) + uint(b.w == b.x));
  if (b.y != b.x) {
    add(copy, base + b.y, 1u + uint(b.z == b.y) + uint(b.w == b.y));
  }
  if (b.z != b.x && b.z != b.y) {
    add(copy, base + b.z, 1u + uint(b.w == b.z));
  }
  if (b.w != b.x && b.w != b.y && b.w != b.z) {
    add(copy, base + b.w, 1u);
  }
}

// Counts four pixels given as their R, G and B components.
void count4(uint copy, uvec4 r, uvec4 g, uvec4 b) {
  // vhist_luma's rounding shift and the bin shift in one.
  const uint shift = bin_shift();
  uvec4 l = (kLumaWeightR * r + kLumaWeightG * g + kLumaWeightB * b + 32768u) >> (16u + shift);
  add4(copy, kChannelR * kBins, r >> shift);
  add4(copy, kChannelG * kBins, g >> shift);
  add4(copy, kChannelB * kBins, b >> shift);
  add4(copy, kChannelL * kBins, l);
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

void count_group(uint copy, Group g) {
  if (kPacking == kPackingRgba8) {
    count4(copy, g.a & 0xffu, (g.a >> 8u) & 0xffu, (g.a >> 16u) & 0xffu);
  } else {
    const uvec4 rg = uvec4(g.a.x, g.a.z, g.b.x, g.b.z);
    count4(copy, rg & 0xffffu, rg >> 16u, uvec4(g.a.y, g.a.w, g.b.y, g.b.w) & 0xffffu);
  }
}

// Where the workgroups' totals go: the running sums (fused; copy gl_WorkGroupID % kGlobalCopies)
// or the histogram itself (unfused). Global layout is [bin][channel].
Histogram sums() { return kFused != 0u ? pc.accum : pc.histogram; }
uint sums_index(uint e) {
  const uint base = kFused != 0u ? (gl_WorkGroupID.x % kGlobalCopies) * kAccumCopyStride : 0u;
  return base + (e % kBins) * kChannelCount + e / kBins;
}

// Adds the shared copies' totals to the sums (one atomicAdd per non-zero entry); `clear` zeroes
// the copies too (each word is read and cleared by one invocation). Between barriers.
void flush_counts(uint lid, bool clear) {
  Histogram s = sums();
  if (kPacked) {
    for (uint k = lid; k < kEntries / 2u; k += gl_WorkGroupSize.x) {
      uint low = 0u, high = 0u;
      for (uint c = 0u; c < kCopies; ++c) {
        const uint w = counts[k * kCopies + c];
        low += w & 0xffffu;
        high += w >> 16u;
        if (clear) counts[k * kCopies + c] = 0u;
      }
      if (low != 0u) atomicAdd(s.count[sums_index(2u * k)], low);
      if (high != 0u) atomicAdd(s.count[sums_index(2u * k + 1u)], high);
    }
    return;
  }
  // Invocation i adds global entry i (bin i / 4, channel i % 4): a subgroup's adds fall on
  // consecutive words, the fewest cache lines.
  for (uint i = lid; i < kEntries; i += gl_WorkGroupSize.x) {
    const uint e = (i % kChannelCount) * kBins + i / kChannelCount;
    uint total = 0u;
    for (uint c = 0u; c < kCopies; ++c) {
      total += counts[slot(c, e)];
    }
    if (total != 0u) atomicAdd(s.count[sums_index(e)], total);
  }
}

// Counts groups g, g + stride, ... below `end` into shared copy `copy`, kUnroll groups per
// batch so that each invocation has that many loads in flight; the last batch may be partial
// (its loads are still issued together: one wait for memory, not one per group).
void count_groups(uint copy, uint g, uint end, uint stride) {
  for (; g + (kUnroll - 1u) * stride < end; g += kUnroll * stride) {
    Group loaded[4];  // kUnroll <= 4; all loads are issued before any counting
    for (uint u = 0u; u < kUnroll; ++u) {
      loaded[u] = load_group(g + u * stride);
    }
    for (uint u = 0u; u < kUnroll; ++u) {
      count_group(copy, loaded[u]);
    }
  }
  if (g < end) {
    Group loaded[4];
    for (uint u = 0u; u < kUnroll; ++u) {
      if (g + u * stride < end) loaded[u] = load_group(g + u * stride);
    }
    for (uint u = 0u; u < kUnroll; ++u) {
      if (g + u * stride < end) count_group(copy, loaded[u]);
    }
  }
}

// Counts this invocation's share of the frame into shared copy `copy`.
void count_frame(uint lid, uint copy) {
  const uint groups = pc.pixel_count / 4u;
  const uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  const uint first = gl_GlobalInvocationID.x;
  if (!kPacked) {
    count_groups(copy, first, groups, stride);
  } else {
    // Segments of kFlushGroups rounds (round r: group first + r * stride), the same for every
    // invocation (uniform control flow), each followed by a flush that zeroes the copies.
    const uint rounds = (groups + stride - 1u) / stride;
    for (uint r = 0u; r < rounds; r += kFlushGroups) {
      const uint end = min(groups, first + (r + min(kFlushGroups, rounds - r)) * stride);
      count_groups(copy, first + r * stride, end, stride);
      if (r + kFlushGroups < rounds) {
        barrier();
        flush_counts(lid, true);
        barrier();
      }
    }
  }
  // The last pixel_count % 4 pixels, read word by word so nothing past the frame is touched.
  const uint tail = groups * 4u + first;
  if (tail < pc.pixel_count) {
    uvec4 b = pixel_bins(load_pixel(pc.frame_words, kPacking, tail), kBins, kBits);
    const uvec4 e = uvec4(kChannelR, kChannelG, kChannelB, kChannelL) * kBins + b;
    for (uint c = 0u; c < kChannelCount; ++c) {
      if (kPacked) {
        atomicAdd(sums().count[sums_index(e[c])], 1u);
      } else {
        atomicAdd(counts[slot(copy, e[c])], 1u);
      }
    }
  }
}

// The last workgroup: moves the sums into the histogram, zeroing them, and writes the scale.
// channel_max is zero and floor_scale written (main()).
void finish_frame(uint lid) {
  for (uint i = lid; i < kEntries; i += gl_WorkGroupSize.x) {
    uint v = 0u;
    for (uint c = 0u; c < kGlobalCopies; ++c) {
      v += atomicExchange(pc.accum.count[c * kAccumCopyStride + i], 0u);
    }
    pc.histogram.count[i] = v;
    atomicMax(channel_max[i % kChannelCount], v);
  }
  barrier();
  if (lid < kChannelCount) {
    const uint m = channel_max[lid];
    // As channel_scale(): an empty channel keeps the floor value.
    pc.scale.scale[lid] = m == 0u ? floor_scale : max(reciprocal_rn(m), floor_scale);
    pc.scale.max_count[lid] = channel_max[lid];
  }
  if (lid == 0u) pc.accum.count[kAccumCounterIndex] = 0u;
}

void main() {
  const uint lid = gl_LocalInvocationIndex;
  for (uint i = lid; i < kCountWords; i += gl_WorkGroupSize.x) {
    counts[i] = 0u;
  }
  if (lid < kChannelCount) channel_max[lid] = 0u;
  barrier();
  count_frame(lid, lid % kCopies);
  barrier();
  flush_counts(lid, false);
  if (kFused == 0u) return;

  // The floor of the scale, kBins / (5 * pixel_count), does not depend on the counts: computed
  // here, while this invocation's adds are still in flight, it costs the last workgroup nothing.
  // kBins is a power of two, so the correctly rounded quotient is kBins times the correctly
  // rounded reciprocal (scaling by a power of two is exact and commutes with rounding).
  if (lid == gl_WorkGroupSize.x - 1u) floor_scale = reciprocal_rn(5u * pc.pixel_count) * float(kBins);

  // Last-workgroup-done. A workgroup barrier that orders buffer memory puts every invocation's
  // adds before invocation 0's release fence, which puts them before the ticket; in the last
  // workgroup, invocation 0's acquire fence after the ticket and the same barrier put the
  // other workgroups' adds before every invocation's reads in finish_frame. Happens-before is
  // transitive, so one invocation fences for the workgroup: measured on an H200, 0.26 us less
  // per frame at every size than a device-scope fence in each of the 1024 invocations.
  controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer | gl_StorageSemanticsShared,
                 gl_SemanticsAcquireRelease);
  if (lid == 0u) {
    memoryBarrierBuffer();
    last_ticket = atomicAdd(pc.accum.count[kAccumCounterIndex], 1u);
    if (last_ticket == gl_NumWorkGroups.x - 1u) memoryBarrierBuffer();
  }
  controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer | gl_StorageSemanticsShared,
                 gl_SemanticsAcquireRelease);
  if (last_ticket != gl_NumWorkGroups.x - 1u) return;
  finish_frame(lid);
}
