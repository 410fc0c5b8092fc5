// The first thing every `vhist analyze` output holds: where its numbers came from. JSON Lines:
// a first object with "type":"header" (the frame records that follow have "type":"frame");
// CSV: lines starting with '#' before the column header. docs/user-guide.md documents the fields.
#pragma once

#include "vhist/compute/region.h"
#include "vhist/compute/source_colour.h"

#include <cstdint>
#include <optional>
#include <string>

namespace vhist::app {

struct SourceHeader {
  std::string input;          // as given on the command line
  std::string container;      // FFmpeg's demuxer name
  std::string codec;          // the stream's codec
  std::string decoder;        // the FFmpeg decoder used
  bool alpha = false;         // the decoded picture has alpha (counted whatever it is)
  int stream = -1;            // the stream's index in the container
  bool attached_picture = false;  // the stream is the file's cover art (one picture)
  std::uint32_t width = 0, height = 0;                  // stored size of the first frame
  std::uint32_t display_width = 0, display_height = 0;  // as shown (sample aspect, rotation)
  std::uint32_t rotation = 0;                           // degrees clockwise that turn it upright
  std::uint32_t sar_num = 1, sar_den = 1;               // sample aspect ratio
  std::uint32_t bits = 8;
  std::string pixel_format;   // the decoder's
  double frame_rate = 0;      // 0: unknown
  bool constant_rate = false; // known constant: frame numbers after --start are exact
  SourceColour colour;        // of the first frame
  std::string domain = "rgb"; // what the records' histograms count: "rgb" or "ycbcr"
  std::optional<PixelRect> region;  // --roi: the rectangle of stored pixels counted
};

void append_jsonl_header(std::string& out, const SourceHeader& header);
void append_csv_comments(std::string& out, const SourceHeader& header);

}  // namespace vhist::app
