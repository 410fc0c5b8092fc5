// V4L2 helpers shared by the camera files (internal to app/media): ioctl, fourcc and text
// conversions, and the messages about device nodes.
//
// The camera code, by job:
//   camera_enum.cpp     enumeration: the /dev/video* capture nodes and their modes (list_cameras);
//   camera_format.cpp   negotiation: the format, size and rate to ask for, checked against what
//                       the device offers (prepare_request);
//   camera_device.cpp   opening the device through libavdevice with that request (open_device);
//   camera_capture.cpp  the capture source: streaming on a thread, newest frame wins, watchdog
//                       and reconnect (CameraSource::open).
#pragma once

#include "vhist/media/camera.h"

#include <linux/videodev2.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace vhist::media {

inline const std::string kGroupHint =
    "add your user to the 'video' group (sudo usermod -aG video $USER) and log in again";
inline const std::string kBusy = "device busy (another program is using it)";

// ioctl(2), retried on EINTR.
int xioctl(int fd, unsigned long request, void* arg);

// strerror with a lower-case first letter, to sit inside a sentence.
std::string errno_text(int err);
// FFmpeg's error text; AVERROR(errno) codes as errno_text().
std::string av_error_text(int err);
// Why a node cannot be opened (the path comes before it): permission (with kGroupHint), busy, ...
std::string open_problem(int err);

// A fourcc as text ("YUYV", "Y16", big-endian formats with "-BE") and back.
std::string fourcc_text(std::uint32_t f);
std::uint32_t fourcc_code(std::string text);
std::string upper(std::string s);

// The name FFmpeg's v4l2 demuxer takes in `input_format` for a fourcc it captures ("YUYV" ->
// "yuyv422"); nullptr when it does not capture that fourcc.
const char* ffmpeg_name(const std::string& fourcc);
// Whether V4L2_QUANTIZATION_DEFAULT means full range for `fourcc` (R'G'B', Bayer and luma-only).
bool full_range_default(const std::string& fourcc);

std::string rate_text(double fps);                         // "30", "29.97"
std::string size_text(std::uint32_t w, std::uint32_t h);  // "640x480"

// The capabilities of the node opened (device_caps when the driver gives them).
std::uint32_t device_caps(const v4l2_capability& cap);
// A fixed-size, NUL-padded V4L2 text field as a string.
std::string cstr(const std::uint8_t* text, std::size_t size);

// Enumeration (camera_enum.cpp). The modes of an open capture node, appended to info.modes.
void enumerate_modes(int fd, CameraInfo& info);
// The rates the driver lists for one format and size (discrete, or a range's two ends), sorted.
std::vector<double> frame_rates(int fd, std::uint32_t fourcc, std::uint32_t w, std::uint32_t h);
// "; cameras here: /dev/video0 \"vivid\", ..." or "; no camera was found": for messages about a
// wrong path (`except` is left out of the list).
std::string cameras_hint(const std::string& except);

}  // namespace vhist::media
