#version 460
// Histogram matching: the table that maps each level of the frame to the level of a reference
// histogram with the same share of pixels below it (histogram_match.h has the rule and its CPU
// reference), from the frame's prefix sum (hist_cdf.comp) and the reference's. One workgroup:
// for each level and channel, a binary search of the reference's cumulative counts (in shared
// memory); the comparison
// R(u) * N >= C(v) * M is made exactly on 64-bit products (two 32-bit halves). The table is
// applied by the equalize pass, per channel.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
#extension GL_GOOGLE_include_directive : require
#include "vhist/shader_shared.h"

layout(local_size_x = 256) in;
layout(constant_id = kSpecBins) const uint kLevels = 256u;  // stats_levels(kBits)
layout(constant_id = kSpecBits) const uint kBits = 8u;

layout(buffer_reference, buffer_reference_align = 16, std430) buffer Levels {
  uvec4 level[];
};

#define VHIST_SHADER_hist_match
#include "vhist/compute_push.h"  // the push constants

// a * b >= c * d, on 64-bit products.
bool product_at_least(uint a, uint b, uint c, uint d) {
  uint ab_hi, ab_lo, cd_hi, cd_lo;
  umulExtended(a, b, ab_hi, ab_lo);
  umulExtended(c, d, cd_hi, cd_lo);
  return ab_hi > cd_hi || (ab_hi == cd_hi && ab_lo >= cd_lo);
}

// The reference's cumulative counts, read once: the binary searches' dependent reads stay in
// shared memory (the reference may live in host memory, a bus round trip per read).
shared uvec4 reference[kMaxBins];

void main() {
  const uint t = gl_LocalInvocationIndex;
  const uint m_levels = pc.reference_levels;
  for (uint l = t; l < m_levels; l += 256u) reference[l] = pc.reference.level[l];
  barrier();
  // One workgroup: each invocation makes the entries t, t + 256, ... of the kLevels x 4 table.
  for (uint i = t; i < kLevels * 4u; i += 256u) {
    const uint v = i >> 2u, c = i & 3u;
    const uint n = pc.live.level[kLevels - 1u][c], m = reference[m_levels - 1u][c];
    uint code = v * ((1u << kBits) / kLevels);
    if (n != 0u && m != 0u) {
      const uint cv = pc.live.level[v][c];
      // The smallest u in [0, m_levels) with R(u) * n >= C(v) * m; R(m_levels - 1) = m qualifies.
      uint lo = 0u, hi = m_levels - 1u;
      while (lo < hi) {
        const uint mid = (lo + hi) >> 1u;
        if (product_at_least(reference[mid][c], n, cv, m)) {
          hi = mid;
        } else {
          lo = mid + 1u;
        }
      }
      code = lo * ((1u << kBits) / m_levels);
    }
    pc.table.level[v][c] = code;
  }
}
