// How a PQ or HLG picture is shown on an SDR window, for display only (composite.comp; the
// histograms, probes, zebras and statistics keep the source's code values).
// Shared by GLSL and C++ (the tests check these functions against BT.2390's formulas computed
// independently in double precision). docs/colour.md ("HDR on an SDR window") gives the steps:
//   PQ:  E' (per channel, BT.2020) -> BT.2390 EETF in PQ space, source peak Lw (the mastering
//        display's peak, else 1000 cd/m2) to the target peak (203 cd/m2, BT.2408's HDR
//        reference white shown as SDR white), black 0 -> PQ EOTF -> cd/m2
//   HLG: E' -> HLG inverse OETF -> OOTF of a 1000 cd/m2 display (system gamma 1.2, BT.2100) ->
//        cd/m2 -> PQ -> the same EETF (Lw = 1000) -> cd/m2
//   then BT.2020 -> BT.709 primaries in linear light, clipped to [0, target], divided by the
//   target and encoded for an SDR display with BT.1886's gamma 2.4 (black 0).
// Valid GLSL 4.60 and C++20.
#ifndef VHIST_HDR_DISPLAY_SHARED_H
#define VHIST_HDR_DISPLAY_SHARED_H

#ifdef __cplusplus
#include <cmath>
#include <cstdint>
namespace vhist::shader {
#define VHIST_HDR_FN inline
#define VHIST_HDR_UINT std::uint32_t
#define VHIST_POW(x, y) std::pow(x, y)
#define VHIST_EXP(x) std::exp(x)
#else
#define VHIST_HDR_FN
#define VHIST_HDR_UINT uint
#define VHIST_POW(x, y) pow(x, y)
#define VHIST_EXP(x) exp(x)
#endif

// The display mapping (VideoPush::hdr, CompositeParams::hdr).
const VHIST_HDR_UINT kHdrNone = 0u;  // the codes as they are
const VHIST_HDR_UINT kHdrPq = 1u;
const VHIST_HDR_UINT kHdrHlg = 2u;

// SMPTE ST 2084.
const float kPqM1 = 0.1593017578125f;  // 2610 / 16384
const float kPqM2 = 78.84375f;         // 2523 / 4096 * 128
const float kPqC1 = 0.8359375f;        // 3424 / 4096
const float kPqC2 = 18.8515625f;       // 2413 / 4096 * 32
const float kPqC3 = 18.6875f;          // 2392 / 4096 * 32
// BT.2100 HLG.
const float kHlgA = 0.17883277f;
const float kHlgB = 0.28466892f;  // 1 - 4a
const float kHlgC = 0.55991073f;  // 0.5 - a ln(4a)

// PQ signal (0..1) -> light, as a fraction of 10000 cd/m2.
VHIST_HDR_FN float vhist_pq_eotf(float e) {
  const float p = VHIST_POW(e < 0.0f ? 0.0f : e, 1.0f / kPqM2);
  const float num = p - kPqC1 > 0.0f ? p - kPqC1 : 0.0f;
  return VHIST_POW(num / (kPqC2 - kPqC3 * p), 1.0f / kPqM1);
}

// Light (a fraction of 10000 cd/m2) -> PQ signal.
VHIST_HDR_FN float vhist_pq_inverse_eotf(float y) {
  const float p = VHIST_POW(y < 0.0f ? 0.0f : y, kPqM1);
  return VHIST_POW((kPqC1 + kPqC2 * p) / (1.0f + kPqC3 * p), kPqM2);
}

// HLG signal (0..1) -> scene light (0..1).
VHIST_HDR_FN float vhist_hlg_inverse_oetf(float e) {
  if (e <= 0.5f) return e * e / 3.0f;
  return (VHIST_EXP((e - kHlgC) / kHlgA) + kHlgB) / 12.0f;
}

// BT.2390's EETF (section 5.4.1) with both blacks at 0 (so its black-level lift vanishes): PQ
// signal e of a source whose peak is the PQ signal `source_peak` -> the PQ signal of a display
// whose peak is the signal `target_peak`. Identity below the knee; a Hermite spline from the knee
// KS = 1.5 maxLum - 0.5 to the target's peak; a source peak at or below the target's: identity.
VHIST_HDR_FN float vhist_eetf(float e, float source_peak, float target_peak) {
  const float max_lum = target_peak / source_peak;
  const float ks = 1.5f * max_lum - 0.5f;
  float e1 = e / source_peak;
  e1 = e1 < 0.0f ? 0.0f : (e1 > 1.0f ? 1.0f : e1);  // past the source's peak: its peak
  if (ks >= 1.0f || e1 < ks) return e1 * source_peak;
  const float t = (e1 - ks) / (1.0f - ks), t2 = t * t, t3 = t2 * t;
  const float e2 = (2.0f * t3 - 3.0f * t2 + 1.0f) * ks + (t3 - 2.0f * t2 + t) * (1.0f - ks) +
                   (-2.0f * t3 + 3.0f * t2) * max_lum;
  return e2 * source_peak;
}

// BT.2020 -> BT.709 primaries, linear light (rows: R, G, B of BT.709; BT.2087's matrix).
const float kBt2020To709[9] = {1.660491f,  -0.587641f, -0.072850f, -0.124550f, 1.132900f,
                               -0.008349f, -0.018151f, -0.100579f, 1.118730f};
// BT.2020 luminance weights (HLG's OOTF).
const float kBt2020Luma[3] = {0.2627f, 0.6780f, 0.0593f};
// The SDR display's encoding: BT.1886 with black 0, gamma 2.4.
const float kSdrGamma = 2.4f;

#undef VHIST_HDR_FN
#undef VHIST_HDR_UINT
#undef VHIST_POW
#undef VHIST_EXP
#ifdef __cplusplus
}  // namespace vhist::shader
#endif
#endif  // VHIST_HDR_DISPLAY_SHARED_H
