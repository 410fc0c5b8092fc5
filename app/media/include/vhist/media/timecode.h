// A stream's SMPTE timecode (ST 12-1): the first frame's timecode as the container states it
// (a QuickTime/MP4 tmcd track, MXF's or Matroska's "timecode" tag), and any frame's from it.
// libavutil's timecode arithmetic does the counting, drop-frame included.
#pragma once

#include <cstdint>
#include <string>

namespace vhist::media {

struct StreamTimecode {
  std::string start;          // "01:00:00:00" (";" before the frames: drop-frame); empty: none
  std::uint32_t rate_num = 0, rate_den = 1;  // the timecode's frame rate
};

// The timecode of frame number `frame` (0: the stream's first), or empty when the stream has
// none or its start does not parse at its rate.
std::string timecode_of_frame(const StreamTimecode& tc, std::int64_t frame);

}  // namespace vhist::media
