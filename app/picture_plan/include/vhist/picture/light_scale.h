// The light an HDR code value stands for, for labelling the histograms' axis in cd/m2 (nits):
// PQ by SMPTE ST 2084's inverse EOTF, HLG by BT.2100's OETF with the reference display's OOTF
// (nominal peak 1000 cd/m2, system gamma 1.2), for an achromatic pixel (R' = G' = B'). Codes are
// the full-range R'G'B' codes vhist counts, at `bits` bits (0 .. 2^bits - 1). docs/colour.md
// gives the formulas.
#pragma once

#include "vhist/compute/transfer.h"
#include "vhist/picture/picture_modes.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace vhist::viewer {

// The light scale of a transfer named as FFmpeg names it ("smpte2084", "arib-std-b67").
LightScale light_scale_of(std::string_view transfer);
struct LightTick {
  std::uint32_t code;  // the code value whose signal is nearest the tick's light
  std::string label;   // "0.1", "100", "10000 nits"
};
// HDR reference white (BT.2408): stop 0 of the stops axis.
inline constexpr double kReferenceWhite = 203.0;

// The axis ticks of `scale` at `bits` bits. Nits: PQ 0.1 to 10000 cd/m2, HLG 1 to 1000, a
// decade apart, and 0 at code 0. Stops: every 2 stops from reference white, PQ -12 to +4
// (0.05 to 3248 cd/m2), HLG -6 to +2 (3.2 to 812 cd/m2). The last label carries the unit;
// codes gives none (the caller labels code values).
std::vector<LightTick> light_ticks(LightScale scale, std::uint32_t bits, LightAxis axis = LightAxis::nits);

}  // namespace vhist::viewer
