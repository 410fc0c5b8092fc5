// Whether a stream's luma codes contradict its range tag, judged from their distribution (where
// the black and white levels sit, what share lies outside 16-235), never from one sample's
// extreme: a few ringing samples at code 0, a PLUGE's sub-black or grain straddling black are
// the legal-range excursions of honest limited-range footage, not a sign of full-range codes.
// One rule for `vhist analyze`'s summary (over a run) and the viewer's panel (one frame);
// docs/colour.md gives it with its thresholds and the corpus it was checked on.
#pragma once

#include "vhist/compute/video_frame.h"

#include <array>
#include <cstdint>

namespace vhist {

struct PlaneCounts;

// Luma samples counted on the 8-bit scale: 256 levels, level v holding codes v * 2^(bits-8) to
// (v + 1) * 2^(bits-8) - 1 of a deeper source, so 16 and 235 are the limited range's ends at
// every depth.
struct LumaLevels {
  std::array<std::uint64_t, 256> counts{};
  std::uint64_t total() const;
  // The Y' histogram of one frame's plane counts (its bins a power of two, at least 256: the
  // counts at stats_levels). Throws std::invalid_argument for fewer bins.
  void add(const PlaneCounts& planes);
};

// The thresholds (8-bit scale). Limited-range codes read as limited keep their blacks at 16:
// what lies below is the lower half of noise or ringing around that black, mirrored by as many
// samples at 16-31, with clipping gathering only the noise's far tail at 0. Full-range codes
// read as limited have their black level below 16 on its own. So a limited-tagged run looks
// full when at least kSubBlackShare of its luma lies below 16 and
//  - the samples below 16 outnumber those at 16-31 kMirrorRatio times (no black at 16 that
//    they could straddle), or
//  - at least kSubBlackShare lies at 0-3 and that pile outnumbers the samples at 4-15
//    kPileRatio times (blacks at 0, not clipped noise, which fills 4-15 too), or
//  - one level at 4-15 holds at least kSubBlackShare, kPeakRatio times the average level at
//    16-31 (a black level below 16: noise around a black at 16 is no denser below it), or
//  - at least kSubBlackShare lies above 235 too and the samples below 16 outnumber those at
//    16-31 kBothEndsMirrorRatio times (both ends beyond the limited range).
// A full-tagged run looks limited when at most kOutsideLimitedShare of its luma lies below 16,
// as much above 235, and its 1st and 99th percentiles sit within kEndReach of 16 and 235 (inside
// the range): black at 16, white at 235, nothing beyond.
inline constexpr double kSubBlackShare = 0.01;
inline constexpr double kMirrorRatio = 6;
inline constexpr double kPileRatio = 8;
inline constexpr double kPeakRatio = 6;
inline constexpr double kBothEndsMirrorRatio = 3;
inline constexpr double kOutsideLimitedShare = 0.005;
inline constexpr std::uint32_t kEndReach = 4;

enum class RangeLook {
  as_tagged,        // nothing contradicts the tag (or too little to say)
  full_as_limited,  // tagged (or assumed) limited, the codes look full range
  limited_as_full,  // tagged full, the codes look limited range
};

// What the rule saw: the shares of the luma samples (8-bit scale levels) and its percentiles.
struct RangeVerdict {
  RangeLook look = RangeLook::as_tagged;
  std::uint64_t samples = 0;
  double below = 0;       // below 16
  double above = 0;       // above 235
  double near_black = 0;  // 16-31
  double bottom = 0;      // 0-3
  double peak = 0;        // the fullest level at 4-15 (the lowest of equals): peak_level
  std::uint32_t peak_level = 4;
  std::uint32_t p1 = 0, p99 = 0;  // 1st and 99th percentiles: the lowest level holding them
};

// The verdict for luma read with range `nominal`; as_tagged when there are no samples.
RangeVerdict judge_range(const LumaLevels& luma, ColourRange nominal);

}  // namespace vhist
