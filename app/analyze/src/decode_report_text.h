// The input's troubles after a run (media::DecodeReport) as the words of analyze's last line.
#pragma once

#include "vhist/media/media_source.h"
#include "vhist/qc/checks.h"
#include "vhist/records/run_summary.h"

#include <string>

namespace vhist::app {

// What was wrong in the middle of the input, empty when nothing:
//   "corrupt data in the middle: 3 frames lost (between frame 100 at 4.000 s and frame 104 at
//    4.160 s), 1 damaged, 12 decoder errors (first: Invalid NAL unit size)"
// Frames lost are those the timestamps show missing (DecodeReport::missing, with where), else
// the packets the decoder rejected; more gaps than listed end in "and N more gaps".
std::string corruption_text(const media::DecodeReport& report);

// The frames lost in the middle as the summary gives them (RunSummary::lost_frames and
// lost_gaps): the same count and gaps as corruption_text.
void set_lost_frames(RunSummary& summary, const media::DecodeReport& report);

// Whether the input was read other than whole and intact: truncated, or corrupt in the middle
// (corruption_text not empty).
bool input_damaged(const media::DecodeReport& report);

// The report's part of the decode_error check's facts (qc::DecodeDamage): gaps, frames lost
// that no gap places, the first error, truncation; the caller adds the damaged frames, the last
// frame and the duration.
qc::DecodeDamage decode_damage(const media::DecodeReport& report);

}  // namespace vhist::app
