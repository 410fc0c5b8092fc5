// The Y'CbCr -> R'G'B' conversion in integer fixed point, shared verbatim by the GPU convert
// pass (shaders/convert.comp) and the CPU reference and CPU engine (compute/src/colour.cpp), so
// that all three agree bit for bit. docs/colour.md derives every constant.
//
// Valid GLSL 4.60 and C++20: int arithmetic only. `>>` of a negative int is an arithmetic
// shift in both languages (C++20 defines it; GLSL always did).
//
// Steps for one pixel of a `bits`-bit source:
//  1. Chroma upsampling to the luma grid, with 3 extra fraction bits (values x8):
//     horizontally (4:2:x) chroma sits on even luma columns, odd columns average their two
//     neighbours; vertically (4:2:0) chroma sits midway between two luma rows, each row takes
//     3/4 of the nearer chroma row and 1/4 of the farther one. Edges repeat the last sample.
//  2. The matrix, with coefficients scaled by 2^S (S = 26 - bits, see vhist_convert_shift):
//       out = clamp((cy*(Y' - yoff)*8 + cu*(Cb8 - coff8) + cv*(Cr8 - coff8) + 2^(S+2)) >> (S+3),
//                   0, 2^bits - 1)
//     with (cu, cv) = (0, crv) for R', (-cgu, -cgv) for G', (cbu, 0) for B'.
//     For bits <= 12 every intermediate stays below 2^31 (docs/colour.md has the bound).
#ifndef VHIST_COLOUR_SHARED_H
#define VHIST_COLOUR_SHARED_H

#include "vhist/shader_shared.h"

#ifdef __cplusplus
namespace vhist::shader {
#endif

// Colour models, matching vhist::ColourModel.
VHIST_CONST kModelYuv = 0u;
VHIST_CONST kModelRgb = 1u;
VHIST_CONST kModelGray = 2u;

// Deepest Y'CbCr source the fixed-point matrix handles without overflow.
VHIST_CONST kMaxYuvBits = 12u;

// Fraction bits S of the matrix coefficients for a `bits`-bit source: 26 - bits keeps the
// Y'CbCr sum below 2^31 up to 12 bits; deeper sources are gray only (no chroma terms), where
// 27 - bits suffices.
VHIST_FN int vhist_convert_shift(uint bits) { return bits <= kMaxYuvBits ? 26 - int(bits) : 27 - int(bits); }

// Step 1, horizontally: chroma of luma column x from chroma samples a = C[x >> 1] and
// b = C[min((x >> 1) + 1, last)] when subsampled (sx = 1); weight 2 in total.
VHIST_FN int vhist_chroma_h(int a, int b, uint sx, uint x) {
  return (sx == 0u || (x & 1u) == 0u) ? 2 * a : a + b;
}

// The chroma row farther from luma row y (4:2:0): the one above for even rows, below for odd
// rows, clamped to the grid of `chroma_rows` rows. The nearer row is y >> 1.
VHIST_FN uint vhist_chroma_far_row(uint y, uint chroma_rows) {
  uint near = y >> 1u;
  if ((y & 1u) == 0u) return near == 0u ? 0u : near - 1u;
  return near + 1u < chroma_rows ? near + 1u : near;
}

// Step 1, vertically: chroma x8 from the horizontal results of the nearer and farther rows
// (weight 8 in total). Without vertical subsampling (sy = 0) only the nearer row counts.
VHIST_FN int vhist_chroma8(int h_near, int h_far, uint sy) {
  return sy == 0u ? 4 * h_near : 3 * h_near + h_far;
}

// Step 2 for one output component before the clamp: the matrix's value on the full-range
// scale 0..max_code, which may lie outside it (the gamut check counts such values). y: Y' code;
// cb8, cr8: upsampled chroma x8.
VHIST_FN int vhist_yuv_component_unclamped(int y, int cb8, int cr8, int cy, int cu, int cv, int yoff, int coff8,
                                           int shift) {
  int acc = cy * ((y - yoff) * 8) + cu * (cb8 - coff8) + cv * (cr8 - coff8) + (1 << (shift + 2));
  return acc >> (shift + 3);
}

// An unclamped component clamped to the code range 0..max_code.
VHIST_FN uint vhist_clamp_code(int v, int max_code) { return uint(v < 0 ? 0 : (v > max_code ? max_code : v)); }

// Step 2 for one output component: the value above clamped to the code range.
VHIST_FN uint vhist_yuv_component(int y, int cb8, int cr8, int cy, int cu, int cv, int yoff, int coff8, int shift,
                                  int max_code) {
  return vhist_clamp_code(vhist_yuv_component_unclamped(y, cb8, cr8, cy, cu, cv, yoff, coff8, shift), max_code);
}

// EBU R 103's gamut limits (source_measures.h, GamutCounts): an unclamped component v is below
// -5 % of the nominal range 0..max_code when 20 v < -max_code, above 105 % when
// 20 v > 21 max_code. |v| < 2^17 for every depth the matrix takes, so 20 v fits an int.
VHIST_FN bool vhist_gamut_low(int v, int max_code) { return 20 * v < -max_code; }
VHIST_FN bool vhist_gamut_high(int v, int max_code) { return 20 * v > 21 * max_code; }
// The same limits as the lowest and highest values inside them (v is low when below the first,
// high when above the second): -floor(M / 20) and floor(21 M / 20), for a loop to compare with.
VHIST_FN int vhist_gamut_lowest(int max_code) { return -(max_code / 20); }
VHIST_FN int vhist_gamut_highest(int max_code) { return 21 * max_code / 20; }

#ifdef __cplusplus
}  // namespace vhist::shader
#endif
#endif  // VHIST_COLOUR_SHARED_H
