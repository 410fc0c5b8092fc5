// The light of HLG frames (transfer arib-std-b67) as shown on BT.2100's reference display
// (nominal peak 1000 cd/m2, black 0, system gamma 1.2), measured exactly in both engines:
// hlg_light_shared.h's integer steps from the tables made here once per depth, in double. Each
// pixel's light (the largest of its displayed F_D = Lw Ys^0.2 E) is counted at the level of
// the PQ code that carries it, so source_measures.h's pq_light_level() reads MaxCLL and FALL
// from the levels as for a PQ frame. docs/colour.md states the definition and its precision.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace vhist {

// The tables of `bits`-bit frames (8..16): hlg_light_shared.h's layout, vhist_hlg_table_words(bits)
// words. Made on first use and kept; safe from any thread. Throws std::invalid_argument for
// another depth.
std::span<const std::uint32_t> hlg_light_tables(std::uint32_t bits);

// How far the integer steps' light may lie from the formula's, in double: at most
// kHlgLightRelativeError of the light plus kHlgLightAbsoluteError cd/m2 (docs/colour.md derives
// it). A pixel lands in the level the formula gives unless its light is this close to an edge.
inline constexpr double kHlgLightRelativeError = 4e-5;
inline constexpr double kHlgLightAbsoluteError = 2e-5;  // cd/m2

// The light in cd/m2 at which level j of a `bits`-bit frame begins (j >= 1): the middle between
// PQ codes j * c - 1 and j * c (c codes per level, one up to 12 bits), where the steps round.
double hlg_level_edge_nits(std::uint32_t level, std::uint32_t bits);

// The level of one pixel of `bits`-bit codes r, g, b by the integer steps (the reference's).
std::uint32_t hlg_light_level(std::uint32_t r, std::uint32_t g, std::uint32_t b, std::uint32_t bits);

}  // namespace vhist
