// What a whole `vhist analyze` run found beyond each frame: the range check over every frame and
// the verdict on the stream's range tag, and a PQ stream's MaxCLL and MaxFALL measured from its
// pixels beside the stream's own metadata. Written as the output's last object (JSON Lines:
// "type":"summary") or as '#' lines after the CSV rows; docs/user-guide.md documents the fields
// and docs/colour.md the verdict's rule.
#pragma once

#include "vhist/compute/range_verdict.h"
#include "vhist/compute/source_colour.h"
#include "vhist/compute/source_measures.h"
#include "vhist/qc/light_limits.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace vhist::app {

// Frames lost between two frames of the input (corrupt data in the middle): the frame before the
// gap and the frame after it, by number and pts, and how many are missing.
struct LostGap {
  std::int64_t after_frame = 0;
  double after_pts = 0;
  std::int64_t before_frame = 0;
  double before_pts = 0;
  std::int64_t frames = 0;
};

struct RunSummary {
  std::int64_t frames = 0;  // records written
  // Frames lost in the middle of the input (0: none seen), and where when the timestamps told
  // (the first few gaps).
  std::int64_t lost_frames = 0;
  std::vector<LostGap> lost_gaps;
  // Over the frames with Y'CbCr or gray planes: samples, and those outside the limited range.
  std::int64_t plane_frames = 0;
  std::uint64_t luma = 0, luma_below = 0, luma_above = 0;
  std::uint64_t chroma = 0, chroma_below = 0, chroma_above = 0;
  std::uint32_t bits = 8;
  std::uint32_t luma_min = std::numeric_limits<std::uint32_t>::max(), luma_max = 0;  // codes
  LumaLevels luma_levels;  // every frame's Y' on the 8-bit scale: the range verdict's input
  // Over the PQ and HLG frames: the brightest pixel and the brightest frame average, and where;
  // how many of those frames are HLG (their light as shown on BT.2100's reference display).
  std::int64_t light_frames = 0, hlg_light_frames = 0;
  double max_cll = 0, max_fall = 0;
  std::int64_t max_cll_frame = -1, max_fall_frame = -1;

  // A frame's plane counts at stats_levels(bits) levels.
  void add_planes(const PlaneCounts& levels, std::uint32_t frame_bits);
  void add_light(const LightLevel& light, std::int64_t frame, bool hlg = false);
};

// The verdict on the range tag needs kVerdictFrames frames, or the whole input; its rule and
// thresholds are range_verdict.h's (docs/colour.md), judged on the run's luma distribution.
inline constexpr std::int64_t kVerdictFrames = 10;

// Empty when the codes fit the range the frames were read with (`range`: tagged or assumed),
// else a one-line warning: what was seen (the shares below 16 and above 235, the 1st and 99th
// percentiles) and what it suggests. `whole_input`: the run read every frame of the input.
std::string range_warning(const RunSummary& s, const ColourTag<ColourRange>& range, bool whole_input);
// The legal-range QC line of a limited-range run whose luma leaves 16-235 (sub-blacks,
// super-whites) without the tag being in doubt: the shares, and that this is no tagging verdict.
// Empty for a full-range run, a run within the range, or one the range warning is about.
std::string legal_range_note(const RunSummary& s, const ColourTag<ColourRange>& range, bool warned);

// The PQ frames' light against the stream's own HDR metadata: empty when the pixels stay within
// what it says, else a one-line warning naming each figure the pixels exceed, by more than
// kLightSlack cd/m2 (the metadata's values are whole cd/m2): the content light level's MaxCLL or
// MaxFALL (the metadata understates the content: a display would tone-map for the wrong peak),
// or the mastering display's peak luminance (pixels graded brighter than that display shows).
// Which figures are limits is qc's rule (light_limits.h), the light check's: a MaxCLL or MaxFALL
// of 0 is CTA-861.3's unknown, no limit. Any run can exceed the metadata, so this needs no
// minimum number of frames.
inline constexpr double kLightSlack = 0.5;
using LightExcess = qc::LightExcess;
// Which of the metadata's limits a brightest pixel `max_cll` and a frame average `fall` (cd/m2)
// exceed: of one frame (the viewer) or of a whole run.
LightExcess light_excess(double max_cll, double fall, const SourceColour& colour);
std::string light_warning(const RunSummary& s, const SourceColour& colour);
// What a PQ run's light is not checked against (qc::light_limits_note(): the words of vhist qc's
// note): no limit declared, or a MaxCLL or MaxFALL of 0. Empty for an HLG or SDR run, or when
// every figure the stream carries is a limit.
std::string light_note(const RunSummary& s, const SourceColour& colour);

// What the summary warns of: the range tag's verdict and the light's.
struct SummaryWarnings {
  std::string range, light;
};

void append_jsonl_summary(std::string& out, const RunSummary& s, const SourceColour& colour,
                          const SummaryWarnings& warnings);
void append_csv_summary(std::string& out, const RunSummary& s, const SourceColour& colour,
                        const SummaryWarnings& warnings);

}  // namespace vhist::app
