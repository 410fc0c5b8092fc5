// An HDR picture shown on an SDR window (hdr_display_shared.h has the steps and the curves):
// used by composite.comp on the source's R'G'B' signal, before the exposure marks.
#ifndef VHIST_HDR_DISPLAY_GLSL
#define VHIST_HDR_DISPLAY_GLSL

#include "vhist/hdr_display_shared.h"

// rgb: the R'G'B' signal (0..1) of a PQ (mode kHdrPq) or HLG (kHdrHlg) source; source_peak and
// target_peak in cd/m2. Returns the SDR display's signal (0..1); kHdrNone: rgb unchanged.
vec3 hdr_to_sdr(vec3 rgb, uint mode, float source_peak, float target_peak) {
  if (mode == kHdrNone) return rgb;
  vec3 pq = rgb;
  float peak = source_peak;
  if (mode == kHdrHlg) {
    // Scene light, then the 1000 cd/m2 display's light (OOTF, system gamma 1.2), as PQ.
    const vec3 scene = vec3(vhist_hlg_inverse_oetf(rgb.r), vhist_hlg_inverse_oetf(rgb.g), vhist_hlg_inverse_oetf(rgb.b));
    const float ys = dot(scene, vec3(kBt2020Luma[0], kBt2020Luma[1], kBt2020Luma[2]));
    const vec3 display = 1000.0 * pow(max(ys, 1e-12), 0.2) * scene / 10000.0;
    pq = vec3(vhist_pq_inverse_eotf(display.r), vhist_pq_inverse_eotf(display.g), vhist_pq_inverse_eotf(display.b));
    peak = 1000.0;
  }
  const float source_pq = vhist_pq_inverse_eotf(peak / 10000.0), target_pq = vhist_pq_inverse_eotf(target_peak / 10000.0);
  vec3 nits;
  for (int c = 0; c < 3; ++c) nits[c] = 10000.0 * vhist_pq_eotf(vhist_eetf(pq[c], source_pq, target_pq));
  const mat3 to709 = transpose(mat3(kBt2020To709[0], kBt2020To709[1], kBt2020To709[2], kBt2020To709[3],
                                    kBt2020To709[4], kBt2020To709[5], kBt2020To709[6], kBt2020To709[7],
                                    kBt2020To709[8]));
  const vec3 linear = clamp(to709 * nits / target_peak, 0.0, 1.0);
  return pow(linear, vec3(1.0 / kSdrGamma));
}

#endif  // VHIST_HDR_DISPLAY_GLSL
