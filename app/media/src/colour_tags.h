// The colour tags of a decoded frame (FFmpeg's), read before the frame is mapped, and the
// provenance (SourceColour) they give once the format vhist uses is known.
#pragma once

#include "vhist/compute/source_colour.h"
#include "vhist/compute/video_frame.h"

extern "C" {
#include <libavutil/frame.h>
#include <libavutil/pixfmt.h>
}

struct AVStream;

namespace vhist::media {

struct ColourTags {
  AVColorSpace space = AVCOL_SPC_UNSPECIFIED;
  AVColorRange range = AVCOL_RANGE_UNSPECIFIED;
  AVColorPrimaries primaries = AVCOL_PRI_UNSPECIFIED;
  AVColorTransferCharacteristic transfer = AVCOL_TRC_UNSPECIFIED;
  AVChromaLocation chroma_location = AVCHROMA_LOC_UNSPECIFIED;
  std::optional<MasteringDisplay> mastering;
  std::optional<ContentLight> content_light;
};

// The frame's tags and HDR side data; where the frame has no HDR side data, the stream's
// (`stream` may be null: a camera).
ColourTags read_colour_tags(const AVFrame& frame, const AVStream* stream);
// What was used for a frame of format `used` with tags `tags`, each part marked tagged or
// assumed (docs/colour.md gives the assumptions).
SourceColour source_colour(const ColourTags& tags, const VideoFormat& used);

}  // namespace vhist::media
