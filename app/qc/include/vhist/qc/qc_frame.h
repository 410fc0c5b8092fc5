// One frame's QC measures: the few numbers per frame that the timeline's curves, the QC checks
// (checks.h) and the report are made of, taken from what the engines count (the R'G'B'L
// histograms, the Y'CbCr plane counts, the R 103 gamut counts, the PQ light level) and the
// frame's checksum. Plain C++ over the engine's types: no Vulkan, no FFmpeg.
//
// Levels are in percent of the frame's nominal range (docs/user-guide.md, "QC"): 0 % is black
// (code 16 at 8 bits for limited range, 0 for full range), 100 % is white (235 or 255); limited
// range's sub-blacks and super-whites read below 0 and above 100.
#pragma once

#include "vhist/compute/histogram_types.h"
#include "vhist/compute/source_measures.h"
#include "vhist/compute/video_frame.h"

#include <array>
#include <cstdint>
#include <optional>

namespace vhist::qc {

// The timeline's histogram of a frame: 256 levels on the 8-bit scale, R', G', B' and luma
// (counts[level * 4 + channel], as Histogram). Luma is the Y' plane as decoded for Y'CbCr and
// gray frames, the engine's L for R'G'B' frames.
inline constexpr std::uint32_t kTimelineLevels = 256;

struct QcFrame {
  std::int64_t frame = 0;  // number from the start of the input (0 first)
  double pts = 0;          // seconds
  std::uint32_t bits = 8;
  bool limited = true;     // the range the frame was read with
  // Y' (luma for R'G'B' frames) in percent of the nominal range.
  float y_min = 0, y_p10 = 0, y_mean = 0, y_p90 = 0, y_max = 0;
  // Share of Y' samples (0..1) at or below black (0 %) and at or above white (100 %): for
  // limited range, codes 16 and 235 and beyond; for full range, the end codes.
  float clip_low = 0, clip_high = 0;
  // R 103 (limited-range Y'CbCr and gray frames; 0 otherwise): the share of Y' samples outside
  // codes 5..246 (scaled to the depth: 20..984 at 10 bits), and of pixels out of gamut.
  float r103_luma = 0, r103_rgb = 0;
  float black = 0;  // share of Y' samples at or below the black check's level (checks.h)
  // PQ and HLG frames: the brightest pixel's and the frame average's light, cd/m2 (0 otherwise);
  // HLG's as shown on BT.2100's reference display (hlg_light.h). The PQ light check reads PQ
  // frames' only (`pq`): HLG streams carry no static light metadata to check against.
  float max_cll = 0, fall = 0;
  bool pq = false, hlg = false;
  // The decoded planes' checksum (0: not taken), and a hash of the frame's histograms: a frame
  // repeats the one before bit for bit when both are equal.
  std::uint64_t checksum = 0, histogram_hash = 0;
  // The frame holds the picture of an earlier one within the frozen check's change
  // (held_picture.h, set by the caller that follows the frames in order), and that change in
  // percent of the nominal range.
  bool held = false;
  float held_change = 0;
};

// What a frame's engines gave, for measure().
struct FrameCounts {
  std::int64_t frame = 0;
  double pts = 0;
  const VideoFormat* format = nullptr;       // the decoded frame's
  const Histogram* levels = nullptr;         // R'G'B'L at stats_levels(bits)
  const PlaneCounts* planes = nullptr;       // at stats_levels(bits); null for R'G'B' frames
  const GamutCounts* gamut = nullptr;        // null: not counted (R'G'B' frames)
  const LightLevel* light = nullptr;         // PQ and HLG frames
  bool hlg = false;                          // the light is HLG's
  std::uint64_t checksum = 0;
};

// The frame's measures; `black_level`: the black check's level in percent (checks.h).
// `timeline`, when given, receives the frame's 256-level histogram.
QcFrame measure(const FrameCounts& counts, double black_level,
                std::array<std::uint32_t, kTimelineLevels * 4>* timeline = nullptr);

}  // namespace vhist::qc
