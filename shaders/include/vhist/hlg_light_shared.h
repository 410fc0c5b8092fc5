// The light of an HLG pixel on BT.2100's reference display, in integers only, shared verbatim by
// the light pass (max_rgb.comp) and its CPU reference (hlg_light.h), so the two count every
// pixel into the same level: no float transcendental decides a level (drivers' pow and exp
// differ), only table reads, multiplications and comparisons.
//
// What is computed (ITU-R BT.2100-2, Table 5, HLG reference OOTF with Lw = 1000 cd/m2, Lb = 0,
// gamma 1.2): E = the inverse OETF of each of R', G', B'; Ys = 0.2627 R + 0.6780 G + 0.0593 B;
// F_D = Lw Ys^0.2 E per component; the pixel's light is max(F_D), counted at the level of the PQ
// code (at the frame's depth, rounded to nearest) that carries that light, so the levels read
// as a PQ frame's do (source_measures.h's pq_light_level).
//
// The steps, each exact in uint32 arithmetic (the tables are hlg_light.cpp's, made in double):
//   1. E of each code: table word kHlgSceneOffset + code, E * 2^31 rounded (E <= 1).
//   2. Ys * 2^31 = the sum of the high words of the 32 x 32-bit products of the weights (scaled by
//      2^32) and the three E words (each product's low word dropped).
//   3. Ys^0.2 * 2^31: the table word at vhist_hlg_pow_index(Ys), a float-like index of Ys (its
//      leading bit and the next kHlgPowMantissaBits bits); the table holds the value at the
//      middle of the Ys each index covers.
//   4. F_D / Lw * 2^30 = the high word of Ys^0.2 word x the largest E word.
//   5. The level: the last j with edge[j] <= that value (edge[0] = 0), by a binary search of the
//      table's `levels` edges (vhist_light_levels(bits), a power of two).
// This file is valid GLSL 4.60 and valid C++20 (shader_shared.h's rules).
#ifndef VHIST_HLG_LIGHT_SHARED_H
#define VHIST_HLG_LIGHT_SHARED_H

#include "vhist/source_shared.h"

#ifdef __cplusplus
#include <bit>
namespace vhist::shader {
#endif

// The light pass's specialization constant: 1 (true) counts HLG's levels, 0 max(R', G', B').
VHIST_CONST kSpecHlg = 12u;

// BT.2020's luminance weights of R, G, B, scaled by 2^32 and rounded, G's lowered by one so
// that they sum to exactly 2^32.
VHIST_CONST kHlgWeightR = 1128287909u;
VHIST_CONST kHlgWeightG = 2911987826u;
VHIST_CONST kHlgWeightB = 254691561u;

// The tables' layout in words: the Ys^0.2 table (32 exponents x 2^kHlgPowMantissaBits), then
// E of each of the 2^bits codes, then the `levels` edges.
VHIST_CONST kHlgPowMantissaBits = 12u;
VHIST_CONST kHlgPowWords = 32u << kHlgPowMantissaBits;
VHIST_CONST kHlgSceneOffset = kHlgPowWords;
VHIST_FN uint vhist_hlg_edge_offset(uint bits) { return kHlgSceneOffset + (1u << bits); }
VHIST_FN uint vhist_hlg_table_words(uint bits) { return vhist_hlg_edge_offset(bits) + vhist_light_levels(bits); }

// The tables, read word by word: a buffer reference in GLSL, a pointer in C++.
#ifdef __cplusplus
struct HlgTables {
  const uint* word;
};
#else
layout(buffer_reference, buffer_reference_align = 4, std430) readonly buffer HlgTables {
  uint word[];
};
#endif

// The high word of the 64-bit product a * b, and the index of the highest bit set (v > 0).
#ifdef __cplusplus
VHIST_FN uint vhist_mul_high(uint a, uint b) { return static_cast<uint>((std::uint64_t{a} * b) >> 32u); }
VHIST_FN uint vhist_highest_bit(uint v) { return static_cast<uint>(std::bit_width(v)) - 1u; }
#else
uint vhist_mul_high(uint a, uint b) {
  uint high, low;
  umulExtended(a, b, high, low);
  return high;
}
uint vhist_highest_bit(uint v) { return uint(findMSB(v)); }
#endif

// Ys * 2^31 of the three E words (step 2).
VHIST_FN uint vhist_hlg_ys(uint er, uint eg, uint eb) {
  return vhist_mul_high(kHlgWeightR, er) + vhist_mul_high(kHlgWeightG, eg) + vhist_mul_high(kHlgWeightB, eb);
}

// The Ys^0.2 table's index of Ys * 2^31 (> 0): its highest set bit e, then the kHlgPowMantissaBits
// bits below it (zeros shifted in below bit 0).
VHIST_FN uint vhist_hlg_pow_index(uint ys) {
  const uint e = vhist_highest_bit(ys);
  const uint m = e >= kHlgPowMantissaBits ? ys >> (e - kHlgPowMantissaBits) : ys << (kHlgPowMantissaBits - e);
  return (e << kHlgPowMantissaBits) | (m & ((1u << kHlgPowMantissaBits) - 1u));
}

// F_D / Lw of the largest component * 2^30, of the pixel of codes r, g, b (steps 1 to 4).
VHIST_FN uint vhist_hlg_light(HlgTables t, uint r, uint g, uint b) {
  const uint er = t.word[kHlgSceneOffset + r], eg = t.word[kHlgSceneOffset + g], eb = t.word[kHlgSceneOffset + b];
  const uint ys = vhist_hlg_ys(er, eg, eb);
  if (ys == 0u) return 0u;
  const uint emax = er > eg ? (er > eb ? er : eb) : (eg > eb ? eg : eb);
  return vhist_mul_high(t.word[vhist_hlg_pow_index(ys)], emax);
}

// The level of that light (step 5): in [0, vhist_light_levels(bits)).
VHIST_FN uint vhist_hlg_level(HlgTables t, uint r, uint g, uint b, uint bits) {
  const uint light = vhist_hlg_light(t, r, g, b);
  const uint edges = vhist_hlg_edge_offset(bits);
  uint level = 0u;
  for (uint step = vhist_light_levels(bits) >> 1u; step > 0u; step >>= 1u) {
    if (t.word[edges + level + step] <= light) level += step;
  }
  return level;
}

#ifdef __cplusplus
}  // namespace vhist::shader
#endif

#endif  // VHIST_HLG_LIGHT_SHARED_H
