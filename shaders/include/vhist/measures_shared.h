// The per-frame measures the video pipeline reads back beside the histograms, shared verbatim
// by GLSL and C++ like shader_shared.h: the words of the small measures buffer that the convert
// pass (gamut counts) and the checksum pass (frame checksum) add into, and the checksum's
// position-dependent multipliers.
#ifndef VHIST_MEASURES_SHARED_H
#define VHIST_MEASURES_SHARED_H

#include "vhist/shader_shared.h"

#ifdef __cplusplus
namespace vhist::shader {
#endif

// Words of the measures buffer, zeroed before the passes add into them: the gamut counts
// (GamutCounts: pixels with a component below, above, and either), then the checksum's two
// 32-bit sums.
VHIST_CONST kMeasureGamutLow = 0u;
VHIST_CONST kMeasureGamutHigh = 1u;
VHIST_CONST kMeasureGamutOut = 2u;
VHIST_CONST kMeasureChecksum = 3u;  // and kMeasureChecksum + 1
VHIST_CONST kMeasureWords = 8u;

// The checksum of a frame's samples is two sums modulo 2^32 of sample x multiplier, one per
// `which` (0, 1), over every sample of every component on its own grid. `position` numbers the
// samples: component after component (Y', Cb, Cr; R', G', B'; or Y' alone), row after row.
// The multipliers are a well-mixed integer hash of the position (Wellons' lowbias32), made odd:
// an odd multiplier times any change of one sample (|d| < 2^16) is never 0 modulo 2^32, so a
// frame differing in one sample always gives other sums; the hash makes swapped or
// compensating changes of several samples unlikely to cancel.
VHIST_FN uint vhist_checksum_multiplier(uint position, uint which) {
  uint x = position * 2u + which;
  x ^= x >> 16u;
  x *= 0x7feb352du;
  x ^= x >> 15u;
  x *= 0x846ca68bu;
  x ^= x >> 16u;
  return x | 1u;
}

#ifdef __cplusplus
}  // namespace vhist::shader
#endif

#endif  // VHIST_MEASURES_SHARED_H
