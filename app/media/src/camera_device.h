// Opening a camera through libavdevice's v4l2 input, with the request that format negotiation
// made (internal to app/media): the demuxer and its decoder. Used by the capture thread, for the
// first open and for every reopen after the camera was lost.
#pragma once

#include "av_handles.h"
#include "camera_format.h"

#include <atomic>
#include <memory>

namespace vhist::media {

// The open device: FFmpeg's demuxer and the decoder.
struct Device {
  FormatPtr format;
  CodecPtr codec;
  AVRational time_base{1, 1000000};
  bool first_frame = true;
  bool arrival_time = false;  // the driver's timestamps are not CLOCK_MONOTONIC: use arrival time
  bool intra_only = false;    // every packet decodes on its own (raw video, MJPEG): stale ones may be skipped
};

// Opens the device as `r` says, in non-blocking mode (reads answer EAGAIN when no frame is
// ready), with the kernel's timestamps, interrupted while `*abort` is true. `info` is for
// messages. Throws MediaError (one line, what and why). Any thread, one device at a time.
std::unique_ptr<Device> open_device(const Request& r, const CameraInfo& info, std::atomic<bool>* abort);

}  // namespace vhist::media
