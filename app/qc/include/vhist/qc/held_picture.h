// The frozen check's measure of a held picture that survived lossy re-encoding: x264 or x265
// make each repeat of a held frame slightly different, so equal checksums miss it. Each frame's
// cell means (frame_checksum.h's CellSums: 32 x 18 cells of Y', or G' of R'G'B' frames) are
// compared with those of the frame that began the current picture (the anchor), as FFmpeg's
// freezedetect compares with its reference frame: the change is the mean over the cells of the
// absolute difference of their means, in percent of the nominal range (219 codes at 8 bits for
// limited range, 255 for full). A frame within the threshold holds the anchor's picture; any
// other frame becomes the anchor. Comparing with the anchor rather than the previous frame
// keeps a slow pan or fade from passing as held: its change from the anchor grows frame by frame.
// docs/user-guide.md ("Frozen pictures after re-encoding") says how it compares with freezedetect.
#pragma once

#include "vhist/compute/frame_checksum.h"
#include "vhist/compute/video_frame.h"

#include <array>

namespace vhist::qc {

class HeldPicture {
 public:
  // `threshold`: the largest change (percent of the nominal range) of a held frame.
  explicit HeldPicture(double threshold) : threshold_(threshold) {}

  struct Verdict {
    bool held = false;  // the frame holds the anchor's picture
    float change = 0;   // its change from the anchor, percent (0 for an anchor)
  };
  // The next frame's verdict; a frame of another size, depth or range begins a picture.
  Verdict next(const CellSums& cells, const VideoFormat& format);

 private:
  double threshold_;
  std::array<double, shader::kCellCount> anchor_{};  // the anchor's cell means, in codes
  std::uint32_t width_ = 0, height_ = 0, bits_ = 0;
  ColourRange range_ = ColourRange::limited;
};

}  // namespace vhist::qc
