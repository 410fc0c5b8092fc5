// Live cameras through V4L2: finding them (the /dev/video* nodes that capture video, with their
// formats, sizes and rates) and opening one as a MediaSource with live behaviour: the newest
// frame wins, stale frames are dropped and counted, there is no seeking, and a camera that goes
// away is reported and reopened when it comes back.
#pragma once

#include "vhist/media/media_source.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace vhist::media {

struct CameraMode {
  std::string pixel_format;       // the V4L2 fourcc as text: "YUYV", "NV12", "MJPG", ...
  std::string description;        // the driver's description of the format
  std::uint32_t width = 0, height = 0;
  std::vector<double> frame_rates;  // frames per second offered at this size (discrete or stepwise samples)
};

struct CameraInfo {
  std::string path;     // "/dev/video0"
  std::string name;     // VIDIOC_QUERYCAP card
  std::string bus;      // VIDIOC_QUERYCAP bus_info
  std::string driver;   // VIDIOC_QUERYCAP driver
  std::vector<CameraMode> modes;
};

// The video capture devices among /dev/video* (metadata and output-only nodes are skipped),
// in numeric order. Nodes that cannot be opened are reported in `errors` instead.
struct CameraListing {
  std::vector<CameraInfo> cameras;
  std::vector<std::string> errors;  // "/dev/video3: Permission denied (add yourself to the video group)"
};
CameraListing list_cameras();

// Whether `path` names a V4L2 device node (a character device under /dev/video*), so that
// `vhist PATH` opens it as a camera rather than as a file.
bool is_camera_path(const std::string& path);

struct CameraOptions {
  std::string pixel_format;    // fourcc ("YUYV") or FFmpeg name; empty: the driver's default
  std::uint32_t width = 0, height = 0;  // 0: the driver's default
  double frame_rate = 0;       // 0: the driver's default
  std::chrono::milliseconds watchdog{2000};  // no frame for this long: the camera is lost
};

// Live state of a camera source, for the UI.
struct CameraStatus {
  bool connected = false;         // frames are coming
  std::string message;            // why not: "camera lost: No such device; waiting for it to come back"
  std::int64_t captured = 0;      // frames read from the device
  std::int64_t dropped = 0;       // frames replaced by a newer one before the consumer took them
  std::int64_t reconnects = 0;
};

// Opens a camera as a MediaSource: `next()` returns the newest captured frame (older ones are
// dropped), `seek*()` do nothing, `info().frame_count` is -1. DecodedFrame::pts is the V4L2
// buffer timestamp in seconds (CLOCK_MONOTONIC; never later than the frame's arrival), so
// capture-to-present latency can be measured.
// Throws MediaError for: no such device, not a capture device, permission denied, device busy,
// a format/size/rate the device refuses (the message lists what it offers).
// While running, a lost camera does not throw: next() times out, status() says "camera lost",
// and the source reopens the device (same options) when it reappears.
class CameraSource : public MediaSource {
 public:
  static std::unique_ptr<CameraSource> open(const std::string& path, const CameraOptions& options = {});
  virtual CameraStatus status() const = 0;
};

}  // namespace vhist::media
