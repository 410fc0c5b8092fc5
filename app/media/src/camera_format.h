// Format negotiation for a camera (internal to app/media): what to ask FFmpeg's v4l2 input for
// (pixel format, size, rate, colour), checked against what the device offers first, so that a
// refusal comes with a message that lists the alternatives.
#pragma once

#include "vhist/media/camera.h"

extern "C" {
#include <libavutil/pixfmt.h>
}

#include <cstdint>
#include <string>

namespace vhist::media {

struct Request {
  std::string path;
  std::string fourcc;        // "YUYV"
  std::string input_format;  // "yuyv422"
  std::uint32_t width = 0, height = 0;
  std::string framerate;     // "30/1", empty: the driver's
  double rate = 0;
  AVColorSpace colorspace = AVCOL_SPC_UNSPECIFIED;
  AVColorRange range = AVCOL_RANGE_UNSPECIFIED;
};

// The checks and messages libavdevice would not give: what the node is, whether this user may
// open it, and whether the format, size and rate asked for are offered. Fills `info` (the
// device's name and modes) and returns the request. Throws MediaError. Any thread.
Request prepare_request(const std::string& path, const CameraOptions& options, CameraInfo& info);

// For messages: "YUYV (yuyv422), MJPG (mjpeg)" and "640x480, 1280x720".
std::string formats_offered(const CameraInfo& info);
std::string sizes_offered(const CameraInfo& info, const std::string& fourcc);

}  // namespace vhist::media
