// The HDR transfer functions vhist relates codes to light with: SMPTE ST 2084 (PQ) and BT.2100
// HLG with its reference display. Signals are E' in [0, 1] (a full-range code / (2^bits - 1));
// light is in cd/m2 (nits). docs/colour.md gives the formulas.
#pragma once

namespace vhist {

inline constexpr double kPqPeak = 10000.0;  // cd/m2: PQ's absolute top
inline constexpr double kHlgPeak = 1000.0;  // cd/m2: BT.2100's reference display for HLG
inline constexpr double kHlgGamma = 1.2;    // its system gamma at that peak

// PQ: the EOTF (signal to cd/m2) and its inverse.
double pq_nits(double signal);
double pq_signal(double nits);
// HLG: the signal of an achromatic pixel (R' = G' = B') shown at `nits` on the reference
// display (the OOTF with Ys = E), and the inverse.
double hlg_signal(double nits);
double hlg_nits(double signal);
// HLG's inverse OETF: the scene light E in [0, 1] of a signal (BT.2100 Table 5), E capped at 1.
double hlg_scene(double signal);

}  // namespace vhist
