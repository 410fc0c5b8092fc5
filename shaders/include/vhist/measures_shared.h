// The per-frame measures the video pipeline reads back beside the histograms, shared verbatim
// by GLSL and C++ like shader_shared.h: the words of the small measures buffer that the convert
// pass (gamut counts), the checksum pass (frame checksum) and the cells pass (the picture's cell
// sums) write into, the checksum's position-dependent multipliers and the cells' grid.
#ifndef VHIST_MEASURES_SHARED_H
#define VHIST_MEASURES_SHARED_H

#include "vhist/shader_shared.h"

#ifdef __cplusplus
namespace vhist::shader {
#endif

// The picture's cells, for finding a held picture that a lossy encoder made slightly different
// frame to frame (frame_checksum.h, CellSums): a grid of kCellColumns x kCellRows cells over
// the frame, each the sum of one component's samples in it (Y'; G' for R'G'B' frames). Column
// x lies in cell column x * kCellColumns / width (integer division), row y likewise.
VHIST_CONST kCellColumns = 32u;
VHIST_CONST kCellRows = 18u;
VHIST_CONST kCellCount = 576u;  // kCellColumns * kCellRows

// The first column (or row) of cell i of `count` over `n` samples: the least x with
// x * count >= i * n. Cell i spans [vhist_cell_first(i), vhist_cell_first(i + 1)).
VHIST_FN uint vhist_cell_first(uint i, uint n, uint count) { return (i * n + count - 1u) / count; }

// The component the cells sum: Y' (component 0) of Y'CbCr and gray frames, G' of R'G'B' ones.
VHIST_FN uint vhist_cell_component(uint model) { return model == 1u ? 1u : 0u; }  // 1: kModelRgb

// Words of the measures buffer, zeroed before the passes write into them: the gamut counts
// (GamutCounts: pixels with a component below, above, and either), the checksum's two 32-bit
// sums, then the cells' sums (row after row).
VHIST_CONST kMeasureGamutLow = 0u;
VHIST_CONST kMeasureGamutHigh = 1u;
VHIST_CONST kMeasureGamutOut = 2u;
VHIST_CONST kMeasureChecksum = 3u;  // and kMeasureChecksum + 1
VHIST_CONST kMeasureCells = 8u;     // kCellCount words
VHIST_CONST kMeasureWords = 584u;   // kMeasureCells + kCellCount

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
