// The exposure marks drawn over the video (zebras, false colour), shared verbatim by GLSL
// (exposure.glsl, in composite.comp) and C++ (the panel's legend and shares, the
// tests): what is marked is decided per stored pixel from its R'G'B' codes, with the luma the
// histograms count (vhist_luma), so a mark covers exactly the pixels a histogram range counts.
#ifndef VHIST_EXPOSURE_SHARED_H
#define VHIST_EXPOSURE_SHARED_H

#include "vhist/shader_shared.h"

#ifdef __cplusplus
namespace vhist::shader {
#endif

// Which marks are drawn (bits).
VHIST_CONST kMarkZebraHigh = 1u;    // luma at or above the high threshold
VHIST_CONST kMarkZebraLow = 2u;     // luma at or below the low threshold
VHIST_CONST kMarkZebraSolid = 4u;   // a solid colour instead of moving diagonal stripes
VHIST_CONST kMarkFalseColour = 8u;  // luma bands in colour, the rest grey
// A histogram range (the bins under the pointer): pixels with a code of one of the channels in
// the range's mask (R 1, G 2, B 4, L 8) inside [low, high] keep their colour, the rest are
// dimmed to kRangeDim.
VHIST_CONST kMarkRange = 16u;
// The zebras test R'G'B' instead of luma: high where the largest of R', G', B' is at or above
// the threshold (a channel clipping), low where the smallest is at or below.
VHIST_CONST kMarkZebraRgb = 32u;

// A threshold given in tenths of a percent of the code range, as a code of `bits` bits:
// round(permille / 1000 * (2^bits - 1)).
VHIST_FN uint vhist_permille_code(uint permille, uint bits) {
  return (permille * ((1u << bits) - 1u) + 500u) / 1000u;
}

// The false-colour bands: band i covers luma codes below kBandTop[i] permille of the code range
// (the last up to the top code), drawn in kBandColour[i] (0xRRGGBB), or as the pixel's luma in
// grey where the colour is kBandGrey. docs/user-guide.md names them.
VHIST_CONST kBandCount = 9u;
VHIST_CONST kBandGrey = 0xffffffffu;
VHIST_FN uint vhist_band_top(uint i) {
  return i == 0u ? 25u : i == 1u ? 100u : i == 2u ? 380u : i == 3u ? 480u : i == 4u ? 580u
       : i == 5u ? 700u : i == 6u ? 900u : i == 7u ? 975u : 1001u;
}
VHIST_FN uint vhist_band_colour(uint i) {
  return i == 0u ? 0x8000c0u : i == 1u ? 0x2060ffu : i == 3u ? 0x20c040u : i == 5u ? 0xff80c0u
       : i == 7u ? 0xffe000u : i == 8u ? 0xff2020u : kBandGrey;
}
// The band of a luma code of `bits` bits: the first band whose top code, vhist_permille_code of
// its top, lies above luma. luma >= floor(X / 1000) is tested as (luma + 1) * 1000 > X, without
// a division per band and pixel.
VHIST_FN uint vhist_band_of(uint luma, uint bits) {
  const uint top = (1u << bits) - 1u, scaled = (luma + 1u) * 1000u;
  uint band = 0u;
  while (band + 1u < kBandCount && scaled > vhist_band_top(band) * top + 500u) ++band;
  return band;
}

#ifdef __cplusplus
}  // namespace vhist::shader
#endif

#endif  // VHIST_EXPOSURE_SHARED_H
