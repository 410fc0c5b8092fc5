// The scope count passes' definitions shared verbatim by GLSL (scope_waveform.comp,
// scope_vector.comp) and the CPU engine (compute/src/cpu_scopes.cpp): the display column of a
// stored pixel, the R'G'B' -> Cb/Cr formula, the workgroup geometry and the push constants.
// The CPU reference (compute/src/scope_reference.cpp) does not include this file: it writes
// each definition again, as docs/architecture.md ("Scope counts") states it.
#ifndef VHIST_SCOPE_SHARED_H
#define VHIST_SCOPE_SHARED_H

#include "vhist/interface_shared.h"

#ifdef __cplusplus
namespace vhist::shader {
#endif

VHIST_CONST kScopeWorkgroupSize = 256u;
// Words of one waveform workgroup's shared counts (16 KiB: lavapipe offers 32 KiB in all).
// A workgroup owns as many plot columns as fit (components x columns x levels words).
VHIST_CONST kScopeSharedWords = 4096u;
// Consecutive samples one waveform invocation counts in a row, adding repeats of one entry at once.
VHIST_CONST kScopeWaveformRun = 4u;
// Consecutive samples one vectorscope invocation counts, merging equal cells into one atomic.
VHIST_CONST kScopeVectorRun = 16u;
// Side of the vectorscope's shared window of cells around zero chroma (64 x 64 words: 16 KiB).
VHIST_CONST kScopeVectorWindow = 64u;

// What the waveform counts (spec constant kSpecScopeSource): the luma or the R', G', B' of the
// converted frame, or the stored Y'CbCr planes.
VHIST_CONST kScopeLuma = 0u;
VHIST_CONST kScopeRgb = 1u;
VHIST_CONST kScopePlanes = 2u;
VHIST_CONST kSpecScopeSource = 10u;
// The vectorscope's shared window side (kScopeVectorWindow, or 0 for none: benchmark rows).
VHIST_CONST kSpecScopeWindow = 11u;

// The display column of stored pixel (x, y) of a region (x0, y0, w, h) shown turned `rotation`
// degrees clockwise (0, 90, 180, 270): the stored column for 0, counted from the right for 180;
// the stored row counted from the bottom for 90, from the top for 270.
VHIST_FN uint vhist_scope_column(uint x, uint y, uint x0, uint y0, uint w, uint h, uint rotation) {
  if (rotation == 90u) return h - 1u - (y - y0);
  if (rotation == 180u) return w - 1u - (x - x0);
  if (rotation == 270u) return y - y0;
  return x - x0;
}

// Cb or Cr code from R'G'B' codes: coefficients in units of 2^-14 summing to zero (so grey is
// exactly `zero`), the sum rounded half up by an arithmetic shift, clamped to 0 .. max_code.
// |sum| < 2^13 * 65535 < 2^30: int32 suffices for 16-bit components.
VHIST_FN uint vhist_scope_chroma(int r, int g, int b, int kr, int kg, int kb, int zero, int max_code) {
  int v = zero + ((kr * r + kg * g + kb * b + 8192) >> 14);
  return uint(v < 0 ? 0 : (v > max_code ? max_code : v));
}

#if defined(__cplusplus) || defined(VHIST_SHADER_scope_waveform)
// Plane fields (plane, stride, comp, format) packed as ConvertPush's (compute_push.h).
VHIST_PUSH_BLOCK(WaveformPush) {
  VHIST_ADDRESS(FrameWords, frame);  // kScopeLuma, kScopeRgb: the converted frame
  VHIST_ADDRESSES(uvec2, plane, 3);  // kScopePlanes: the planes as uploaded
  VHIST_ADDRESS(Counts, counts);     // components x plot_columns x levels words, zeroed beforehand
  VHIST_UINTS(stride, 3);
  VHIST_UINTS(comp, 3);
  VHIST_UINT(format);
  VHIST_UINT(frame_width);  // pixels per row of the converted frame
  VHIST_UINT(x0);           // the region, in stored pixels
  VHIST_UINT(y0);
  VHIST_UINT(w);
  VHIST_UINT(h);
  VHIST_UINT(rotation);
  VHIST_UINT(run);            // display columns per plot column
  VHIST_UINT(columns);        // display columns of the region
  VHIST_UINT(plot_columns);   // ceil(columns / run)
  VHIST_UINT(group_columns);  // plot columns per workgroup (x)
  VHIST_UINT(band_rows);      // lines of the region per workgroup (y): rows, or columns at 90 and 270
} VHIST_PC;
#endif

#if defined(__cplusplus) || defined(VHIST_SHADER_scope_vector)
VHIST_PUSH_BLOCK(VectorPush) {
  VHIST_ADDRESS(FrameWords, frame);  // from R'G'B': the converted frame
  VHIST_ADDRESSES(uvec2, plane, 3);  // from planes: the planes as uploaded
  VHIST_ADDRESS(Counts, counts);     // size x size words, zeroed beforehand
  VHIST_UINTS(stride, 3);
  VHIST_UINTS(comp, 3);
  VHIST_UINT(format);
  VHIST_UINT(frame_width);
  VHIST_UINT(x0);  // the samples counted, on the grid read (chroma or pixels)
  VHIST_UINT(y0);
  VHIST_UINT(w);
  VHIST_UINT(h);
  VHIST_INTS(kcb, 3);  // from R'G'B': Cb's coefficients of R', G', B'
  VHIST_INTS(kcr, 3);  // Cr's
  VHIST_INT(zero);     // chroma code of zero
  VHIST_INT(max_code);
} VHIST_PC;
#endif

#ifdef __cplusplus
static_assert(sizeof(WaveformPush) == 112 && sizeof(VectorPush) == 120);
}  // namespace vhist::shader
#endif

#endif  // VHIST_SCOPE_SHARED_H
