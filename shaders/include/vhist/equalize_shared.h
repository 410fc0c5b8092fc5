// Histogram equalization, shared verbatim by the GPU (hist_cdf.comp builds the table;
// equalize.comp applies it through equalize.glsl) and the CPU reference (compute/src/cdf.cpp),
// so that both give the same codes. Valid GLSL 4.60 and C++20; uint arithmetic only.
//
// The table has one entry per level of the statistics histogram (stats_levels(bits): one level
// per code up to 10 bits, 1024 levels deeper) and channel (R, G, B, L). For a channel with
// cumulative counts cdf[], N pixels and cdf_min the smallest non-zero cdf value:
//     table[level] = round((cdf[level] - cdf_min) * (2^bits - 1) / (N - cdf_min))
// (0 for the levels below the first one present; halves round up), so the darkest code present
// maps to 0, the brightest to 2^bits - 1, and each output code's share of the frame follows the
// input's cumulative distribution: the histogram of the result is as flat as the input's
// discrete levels allow. A channel with a single level present (N == cdf_min) or no pixels has
// nothing to spread: its table is the identity (each level's lowest code).
//
// Two ways to apply it to a pixel (r, g, b):
//   per channel: each component through its own channel's table (colours shift: the three
//                channels are stretched independently);
//   luma:        the luma y through the L table gives a target yeq; the three components are
//                multiplied by the same gain yeq / y, so hue and saturation are kept. When that
//                would push the largest component mx past the top code, the gain is lowered to
//                (2^bits - 1) / mx. The gain is one division per pixel, in 16.16 fixed point.
//                A pixel of luma 0 becomes the grey yeq.
#ifndef VHIST_EQUALIZE_SHARED_H
#define VHIST_EQUALIZE_SHARED_H

#include "vhist/shader_shared.h"

#ifdef __cplusplus
namespace vhist::shader {
#endif

// The luma mode's gain in 16.16 fixed point, rounded to nearest, for a pixel of luma y > 0
// whose largest component is mx: yeq / y, or top / mx where that is smaller.
VHIST_FN uint vhist_luma_gain(uint y, uint yeq, uint mx, uint top) {
  return mx * yeq > top * y ? ((top << 16u) + mx / 2u) / mx : ((yeq << 16u) + y / 2u) / y;
}

// The equalization modes, matching vhist::EqualizeMode (off is 0).
VHIST_CONST kEqualizeLuma = 1u;
VHIST_CONST kEqualizeChannels = 2u;

// A component v <= mx times vhist_luma_gain's gain, rounded to nearest (halves up). For codes of up to 16
// bits v * gain + 2^15 <= top * 2^16 + mx / 2 + 2^15 < 2^32, and the result is at most top.
VHIST_FN uint vhist_apply_gain(uint v, uint gain) { return (v * gain + 32768u) >> 16u; }

#ifdef __cplusplus
}  // namespace vhist::shader
#endif
#endif  // VHIST_EQUALIZE_SHARED_H
