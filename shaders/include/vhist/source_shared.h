// Definitions of the source measures (the Y'CbCr plane pass and the max(R',G',B') pass), shared
// verbatim by GLSL and C++ like shader_shared.h: where each plane's counts go, the nominal
// limited range the range check counts against, and the light pass's level count.
#ifndef VHIST_SOURCE_SHARED_H
#define VHIST_SOURCE_SHARED_H

#include "vhist/shader_shared.h"

#ifdef __cplusplus
namespace vhist::shader {
#endif

// The plane histograms use the histogram layout (one uvec4 per bin) with each plane in the slot
// of the colour it is drawn in: Y' in L (white), Cb in B (blue), Cr in R (red); G stays zero.
VHIST_CONST kPlaneSlotY = kChannelL;
VHIST_CONST kPlaneSlotCb = kChannelB;
VHIST_CONST kPlaneSlotCr = kChannelR;
VHIST_FN uint vhist_plane_slot(uint component) {
  return component == 0u ? kPlaneSlotY : component == 1u ? kPlaneSlotCb : kPlaneSlotCr;
}

// After kMaxBins records, the plane pass's counts buffer holds two uvec4 of range counters, by
// the same slots: samples below the limited range's lowest code, then samples above its highest.
VHIST_CONST kPlaneCounterRecord = kMaxBins;
VHIST_CONST kPlaneCountsWords = (kMaxBins + 2u) * 4u;

// The limited ("TV") range of `bits`-bit codes: 16 .. 235 for Y', 16 .. 240 for Cb and Cr at
// 8 bits, scaled by 2^(bits - 8) (BT.601, BT.709, BT.2100).
VHIST_FN uint vhist_limited_low(uint bits) { return 16u << (bits - 8u); }
VHIST_FN uint vhist_limited_high(uint bits, bool chroma) { return (chroma ? 240u : 235u) << (bits - 8u); }

// The max(R',G',B') histogram has one level per code up to 12 bits, 4096 deeper.
VHIST_CONST kMaxLightLevels = 4096u;
VHIST_FN uint vhist_light_levels(uint bits) { return bits <= 12u ? (1u << bits) : kMaxLightLevels; }

#ifdef __cplusplus
}  // namespace vhist::shader
#endif

#endif  // VHIST_SOURCE_SHARED_H
