#version 460
// The cumulative histogram (CDF) of the four channels and, from it, the equalization table:
// one workgroup, a work-efficient (Blelloch) scan in shared memory, as in the prefix-sum
// article: an up-sweep builds partial sums in a balanced tree, the root is cleared, a down-sweep
// turns the tree into exclusive prefix sums. Entries are uvec4 (R, G, B, L), so the four
// channels are scanned together.
//
// The article's three passes (scan blocks, scan the block sums, add them back) are not needed:
// a histogram has at most kMaxBins = 1024 levels, and the 256 invocations scan 512 entries, so
// each entry first sums a run of kLevels / 512 levels (at most 2) in registers; the tree is
// built over those sums, and each run is written out with its exclusive prefix added.
//
// Then the equalization table (equalize_shared.h has the formula): the smallest non-zero
// cumulative count of each channel is found with a shared atomicMin, and every level's code is
// round((cdf - cdf_min) * top / (N - cdf_min)), computed exactly (muldiv_round), so that it
// equals the CPU's 64-bit arithmetic.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
#extension GL_GOOGLE_include_directive : require
#include "vhist/shader_shared.h"

layout(local_size_x = kScanWorkgroupSize) in;
layout(constant_id = kSpecBins) const uint kLevels = 256u;  // a power of two, 16..kMaxBins
layout(constant_id = kSpecBits) const uint kBits = 8u;

layout(buffer_reference, buffer_reference_align = 16, std430) readonly buffer Counts {
  uvec4 level[];
};
layout(buffer_reference, buffer_reference_align = 16, std430) writeonly buffer Levels {
  uvec4 level[];
};

#define VHIST_SHADER_hist_cdf
#include "vhist/compute_push.h"  // the push constants

const uint kTreeEntries = 2u * kScanWorkgroupSize;
const uint kMaxRun = kMaxBins / kTreeEntries;

// A uvec4 spans four 4-byte banks, so eight entries cover all 32: one entry of padding after
// every eight keeps the tree's power-of-two strides from landing on the same banks.
uint padded(uint i) { return i + (i >> 3u); }

shared uvec4 tree[kTreeEntries + kTreeEntries / 8u];
shared uvec4 totals;
shared uint first_count[kChannelCount];

// round(a * m / d), halves up, for a <= d, m < 2^16, d > 0, exactly: a float estimate of the
// quotient (relative error a few 2^-24, so within one of floor(a * m / d), which is at most m),
// corrected by the exact remainder a * m - q * d computed in 64 bits (two 32-bit halves).
uint muldiv_round(uint a, uint m, uint d) {
  uint q = uint(float(a) * (float(m) / float(d)));
  uint product_hi, product_lo, qd_hi, qd_lo;
  umulExtended(a, m, product_hi, product_lo);
  umulExtended(q, d, qd_hi, qd_lo);
  uint rem = product_lo - qd_lo;  // the remainder's low half; it lies in [-d, 2d)
  const uint rem_hi = product_hi - qd_hi - (product_lo < qd_lo ? 1u : 0u);
  if (int(rem_hi) < 0) {
    q -= 1u;  // the estimate was one too high
    rem += d;
  } else if (rem_hi != 0u || rem >= d) {
    q += 1u;  // one too low
    rem -= d;
  }
  return rem >= d - rem ? q + 1u : q;  // 2 * rem >= d: round the half up
}

void main() {
  const uint t = gl_LocalInvocationIndex;
  const uint entries = min(kLevels, kTreeEntries);
  const uint run = kLevels / entries;

  // Each invocation loads the runs of entries 2t and 2t+1 and keeps their counts.
  uvec4 counts[2][kMaxRun];
  for (uint k = 0u; k < 2u; ++k) {
    const uint e = 2u * t + k;
    uvec4 sum = uvec4(0u);
    for (uint r = 0u; r < kMaxRun; ++r) {
      counts[k][r] = (e < entries && r < run) ? pc.histogram.level[e * run + r] : uvec4(0u);
      sum += counts[k][r];
    }
    if (e < entries) tree[padded(e)] = sum;
  }
  if (t < kChannelCount) first_count[t] = 0xffffffffu;
  barrier();

  // Up-sweep: after the level with stride `offset`, entry offset*(2i+2)-1 holds the sum of the
  // 2*offset entries ending there.
  uint offset = 1u;
  for (uint d = entries >> 1u; d > 0u; d >>= 1u) {
    if (t < d) {
      const uint ai = offset * (2u * t + 1u) - 1u;
      const uint bi = offset * (2u * t + 2u) - 1u;
      tree[padded(bi)] += tree[padded(ai)];
    }
    offset <<= 1u;
    barrier();
  }
  if (t == 0u) {
    totals = tree[padded(entries - 1u)];
    tree[padded(entries - 1u)] = uvec4(0u);
  }
  barrier();
  // Down-sweep: each node passes its prefix to its left child and prefix + left sum to its
  // right child; at the leaves every entry holds the sum of the entries before it.
  for (uint d = 1u; d < entries; d <<= 1u) {
    offset >>= 1u;
    if (t < d) {
      const uint ai = offset * (2u * t + 1u) - 1u;
      const uint bi = offset * (2u * t + 2u) - 1u;
      const uvec4 left = tree[padded(ai)];
      tree[padded(ai)] = tree[padded(bi)];
      tree[padded(bi)] += left;
    }
    barrier();
  }

  // Inclusive cumulative counts of the runs, and the smallest non-zero one of each channel
  // (the counts never decrease, so that is the first level present).
  uvec4 cumulative[2][kMaxRun];
  for (uint k = 0u; k < 2u; ++k) {
    const uint e = 2u * t + k;
    if (e >= entries) continue;
    uvec4 running = tree[padded(e)];
    for (uint r = 0u; r < run; ++r) {
      running += counts[k][r];
      cumulative[k][r] = running;
      pc.cdf.level[e * run + r] = running;
      for (uint c = 0u; c < kChannelCount; ++c) {
        if (running[c] != 0u) atomicMin(first_count[c], running[c]);
      }
    }
  }
  barrier();

  const uint top = (1u << kBits) - 1u;
  const uint codes_per_level = (1u << kBits) / kLevels;
  for (uint k = 0u; k < 2u; ++k) {
    const uint e = 2u * t + k;
    if (e >= entries) continue;
    for (uint r = 0u; r < run; ++r) {
      const uint level = e * run + r;
      uvec4 code;
      for (uint c = 0u; c < kChannelCount; ++c) {
        const uint total = totals[c], first = first_count[c], cdf = cumulative[k][r][c];
        if (total == 0u || total == first) {
          code[c] = level * codes_per_level;  // nothing to spread: identity
        } else if (cdf < first) {
          code[c] = 0u;
        } else {
          code[c] = muldiv_round(cdf - first, top, total - first);
        }
      }
      pc.table.level[level] = code;
    }
  }
}
