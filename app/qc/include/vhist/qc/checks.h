// The QC checks over a file's frames (docs/user-guide.md, "QC checks", gives each default with
// the standard it comes from): each finds the runs of consecutive frames that break it and
// reports them as events with their frame numbers and times. Plain C++: no Vulkan, no FFmpeg.
#pragma once

#include "vhist/compute/source_colour.h"
#include "vhist/qc/qc_frame.h"

#include <array>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace vhist::qc {

enum class Check : std::uint8_t {
  r103_luma,  // Y' outside 5..246 (8-bit) on more than the allowed area
  r103_rgb,   // R'G'B' out of gamut (-5 %..105 %, before clamping) on more than the allowed area
  clipped,    // the share at the highest (or lowest) code above a threshold
  black,      // black and near-black frames
  frozen,     // one picture held (bit for bit, or within frozen_change) for at least a minimum duration
  light,      // PQ light above the stream's MaxCLL, MaxFALL or mastering display peak
  range,      // the range tag contradicted by the codes (the whole file)
  decode_error,  // frames lost or damaged in decoding, or the input ending early (decode_events)
};
inline constexpr std::array<Check, 8> kAllChecks{Check::r103_luma, Check::r103_rgb, Check::clipped,
                                                 Check::black,     Check::frozen,   Check::light,
                                                 Check::range,     Check::decode_error};
// The check's identifier in the outputs and the profile ("r103_luma", ...).
std::string_view check_name(Check check);
// The check's name for a person ("EBU R 103 luma", ...).
std::string_view check_title(Check check);

// The checks that fail a run unless asked otherwise (--fail).
inline constexpr std::array<Check, 5> kDefaultFailing{Check::r103_luma, Check::r103_rgb, Check::light, Check::range,
                                                      Check::decode_error};

// Every threshold, with its default (the user guide says where each comes from). Set on the
// command line and in a profile file; declared once, in the option table (qc_options.h).
struct Thresholds {
  double r103_area = 1.0;         // percent of the picture that may be outside, per frame (R 103)
  double clip_high = 1.0;         // percent of Y' samples at or above white (100 %)
  double clip_low = 100.0;        // the same at or below black; 100: off (letterbox bars, fades)
  double black_level = 10.0;      // a sample is black at or below this percent of the range
  double black_area = 98.0;       // percent of the picture black for the frame to be black
  double black_min = 0.0;         // seconds a black segment lasts at least (0: any frame)
  double frozen_min = 2.0;        // seconds a frozen segment lasts at least
  double frozen_change = 0.1;     // percent of the nominal range a held frame changes at most (held_picture.h)
  double light_slack = 0.5;       // cd/m2 above the metadata before light fails
  std::vector<Check> failing{kDefaultFailing.begin(), kDefaultFailing.end()};  // fail the run
  bool fails(Check check) const;
};

struct Event {
  Check check = Check::r103_luma;
  std::int64_t first_frame = 0, last_frame = 0;  // inclusive
  double start = 0, end = 0;  // seconds: the first frame's pts, the last frame's pts plus one frame
  std::string start_timecode, end_timecode;
  double worst = 0;           // the worst frame's value, in the check's unit (`unit`)
  std::int64_t worst_frame = 0;
  std::string unit;           // "%", "cd/m2", "s"
  double frame_share = 0;     // the event's frames as a share of all frames (0..1)
  std::string detail;         // one line for a person: what was seen against what limit
  bool fails = false;         // the check fails the run (Thresholds::failing)
};

// The run's facts the checks need beyond the frames.
struct RunFacts {
  double frame_rate = 0;        // nominal, for durations and timecodes
  SourceColour colour;          // the stream's tags and HDR metadata
  std::string range_warning;    // the range tag's verdict (run_summary.h), empty when none
  // The timecode of a frame: the stream's SMPTE timecode when it has one, else from its time.
  std::function<std::string(std::int64_t frame, double pts)> timecode;
};

// Every event in the frames (in frame order per check, checks in kAllChecks' order).
std::vector<Event> find_events(std::span<const QcFrame> frames, const Thresholds& thresholds, const RunFacts& facts);

// What went wrong while the input was decoded (media's DecodeReport, and the frames the decoder
// marked), for decode_events().
struct DecodeDamage {
  struct Gap {  // frames missing between two decoded ones (numbers and times of those two)
    std::int64_t after_frame = 0;
    double after_pts = 0;
    std::int64_t before_frame = 0;
    double before_pts = 0;
    std::int64_t frames = 0;
  };
  std::vector<Gap> gaps;
  std::int64_t unplaced_lost = 0;  // frames lost that no gap places (packets the decoder rejected)
  struct Frame {
    std::int64_t frame = 0;
    double pts = 0;
  };
  std::vector<Frame> damaged;  // frames decoded with errors the decoder concealed, in order
  std::string first_error;     // the decoder's first error message
  std::int64_t errors = 0;     // error messages from the demuxer and decoder
  bool truncated = false;      // the input ended early
  std::string truncation_reason;
  Frame last;                  // the last frame decoded
  double duration = -1;        // the container's duration (seconds; < 0 unknown)
  std::int64_t frames = 0;     // frames decoded
};

// The decode_error events of a run (in time order): one per gap, per run of damaged frames, one
// for frames lost where no timestamp places them (over the whole input), one for an input that
// ends early (from the end of its last frame to the duration it promised), and, when none of
// those but the decoder reported errors, one for those errors (over the whole input).
std::vector<Event> decode_events(const DecodeDamage& damage, const Thresholds& thresholds, const RunFacts& facts);

// HH:MM:SS:FF from a time and a nominal frame rate (non-drop-frame), for streams without a
// timecode of their own.
std::string timecode_from_time(double seconds, double frame_rate);

}  // namespace vhist::qc
