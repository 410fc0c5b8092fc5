// The CPU engine's bands of 16-bit frames without the gamut counts (cpu_band.h).
#include "cpu_band.h"
#include "cpu_band_clones.h"

namespace vhist::cpu_bands {

VHIST_BAND_CLONES void count_band_16(const BandJob& j) { band_rows<std::uint16_t, false>(j); }

}  // namespace vhist::cpu_bands
