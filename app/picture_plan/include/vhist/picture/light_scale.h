// The light an HDR code value stands for, for labelling the histograms' axis in cd/m2 (nits):
// PQ by SMPTE ST 2084's inverse EOTF, HLG by BT.2100's OETF with the reference display's OOTF
// (nominal peak 1000 cd/m2, system gamma 1.2), for an achromatic pixel (R' = G' = B'). Codes are
// the full-range R'G'B' codes vhist counts, at `bits` bits (0 .. 2^bits - 1). docs/colour.md
// gives the formulas.
#pragma once

#include "vhist/compute/source_colour.h"
#include "vhist/compute/transfer.h"
#include "vhist/picture/draw_style.h"
#include "vhist/picture/picture_modes.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace vhist::viewer {

// The light scale of a transfer: PQ for smpte2084, HLG for arib_std_b67, none for every other
// (SDR, and ColourTransfer::other).
LightScale light_scale_of(ColourTransfer transfer);

// How a source of light scale `source` is shown: tone-mapped when `tone_map` (a PQ source from
// `mastering_peak` cd/m2, its mastering display's, 0 or less when unknown: 1000), else as codes.
HdrDisplay hdr_display_for(LightScale source, bool tone_map, double mastering_peak);
// What the picture of such a source shows, in words: "HDR PQ tone-mapped to SDR: BT.2390 EETF,
// 1000 to 203 cd/m2", "HDR HLG shown as code values, not tone-mapped"; empty for SDR.
std::string hdr_display_text(LightScale source, const HdrDisplay& hdr);
struct LightTick {
  std::uint32_t code;  // the code value whose signal is nearest the tick's light
  std::string label;   // "0.1", "100", "10000 nits"
};
// HDR reference white (BT.2408): stop 0 of the stops axis.
inline constexpr double kReferenceWhite = 203.0;

// False colour for a PQ or HLG source: bands 1 to 8 begin at these lights (cd/m2); the colours
// and readings are the code-range bands' (exposure_shared.h): below 0.1 crushed black, 0.1-1 deep
// shadow, 18-37 middle grey (BT.2408's 18% grey is 26), 50-100 skin, 203 (HDR reference white) to
// 1000 bright highlights, from 1000 clipped (a 1000-nit display's peak; HLG's nominal peak is its
// top code).
inline constexpr std::array<double, 8> kHdrBandNits = {0.1, 1.0, 18.0, 37.0, 50.0, 100.0, 203.0, 1000.0};
// The first luma codes of bands 1 to 8 at `bits` bits: the first code whose light (the code taken
// as an achromatic signal of `scale`) reaches the band's; for LightScale::none, empty (the bands
// are then in percent of the code range).
std::array<std::uint32_t, 8> hdr_band_codes(LightScale scale, std::uint32_t bits);

// The axis ticks of `scale` at `bits` bits. Nits: PQ 0.1 to 10000 cd/m2, HLG 1 to 1000, a
// decade apart, and 0 at code 0. Stops: every 2 stops from reference white, PQ -12 to +4
// (0.05 to 3248 cd/m2), HLG -6 to +2 (3.2 to 812 cd/m2). The last label carries the unit;
// codes gives none (the caller labels code values).
std::vector<LightTick> light_ticks(LightScale scale, std::uint32_t bits, LightAxis axis = LightAxis::nits);

}  // namespace vhist::viewer
