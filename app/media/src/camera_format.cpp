#include "camera_format.h"

#include "av_handles.h"
#include "camera_v4l2.h"
#include "vhist/util/unique_fd.h"

extern "C" {
#include <libavutil/rational.h>
}

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cmath>

namespace vhist::media {
namespace {

std::string rates_text(const std::vector<double>& rates) {
  std::string s;
  for (double r : rates) s += (s.empty() ? "" : ", ") + rate_text(r);
  return s.empty() ? "none listed" : s + " fps";
}

// V4L2 colour description -> FFmpeg's, for raw formats (the frames then carry it; MJPEG frames
// carry the decoder's).
void v4l2_colour(const v4l2_pix_format& pix, bool full_by_default, Request& r) {
  std::uint32_t enc = pix.ycbcr_enc;
  if (enc == V4L2_YCBCR_ENC_DEFAULT) enc = V4L2_MAP_YCBCR_ENC_DEFAULT(pix.colorspace);
  switch (enc) {
    case V4L2_YCBCR_ENC_601:
    case V4L2_YCBCR_ENC_XV601:
      r.colorspace = AVCOL_SPC_SMPTE170M;
      break;
    case V4L2_YCBCR_ENC_709:
    case V4L2_YCBCR_ENC_XV709:
      r.colorspace = AVCOL_SPC_BT709;
      break;
    case V4L2_YCBCR_ENC_BT2020:
      r.colorspace = AVCOL_SPC_BT2020_NCL;
      break;
    case V4L2_YCBCR_ENC_BT2020_CONST_LUM:
      r.colorspace = AVCOL_SPC_BT2020_CL;
      break;
    case V4L2_YCBCR_ENC_SMPTE240M:
      r.colorspace = AVCOL_SPC_SMPTE240M;
      break;
    default:
      r.colorspace = AVCOL_SPC_UNSPECIFIED;
  }
  std::uint32_t q = pix.quantization;
  if (q == V4L2_QUANTIZATION_DEFAULT) q = V4L2_MAP_QUANTIZATION_DEFAULT(full_by_default, pix.colorspace, enc);
  r.range = q == V4L2_QUANTIZATION_FULL_RANGE ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG;
}

// Whether the node's capabilities allow what FFmpeg's v4l2 input does: single-planar video
// capture with streaming I/O.
void check_capture_caps(const std::string& path, std::uint32_t caps) {
  if (!(caps & V4L2_CAP_VIDEO_CAPTURE)) {
    std::string what = "a V4L2 node without video capture";
    if (caps & V4L2_CAP_META_CAPTURE) what = "a metadata node";
    if (caps & V4L2_CAP_VIDEO_CAPTURE_MPLANE) what = "a multi-planar capture node, which FFmpeg cannot capture from";
    if (caps & (V4L2_CAP_VIDEO_OUTPUT | V4L2_CAP_VIDEO_OUTPUT_MPLANE)) what = "a video output node";
    throw MediaError(quoted(path) + " is not a video capture device (" + what + ")" + cameras_hint(path));
  }
  if (!(caps & V4L2_CAP_STREAMING)) {
    throw MediaError("camera " + quoted(path) + " cannot stream (no V4L2 streaming I/O), which FFmpeg needs");
  }
}

// No format asked for: the current one when FFmpeg captures it, else the first offered that it
// does.
std::string default_fourcc(const std::vector<std::string>& offered, const v4l2_format& current,
                           const std::string& cam) {
  const std::string now = fourcc_text(current.fmt.pix.pixelformat);
  if (ffmpeg_name(now)) return now;
  for (const std::string& f : offered) {
    if (ffmpeg_name(f)) return f;
  }
  std::string all;
  for (const std::string& f : offered) all += (all.empty() ? "" : ", ") + f;
  throw MediaError(cam + " offers no pixel format FFmpeg can capture (it offers: " +
                   (all.empty() ? std::string("none") : all) + ")");
}

// The node at `path`, opened, when it is a V4L2 capture node that streams; fills info's name,
// bus, driver and modes.
util::UniqueFd open_capture_node(const std::string& path, CameraInfo& info) {
  const std::string cam = "camera " + quoted(path);
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    const int err = errno;
    if (err == ENOENT || err == ENOTDIR) throw MediaError("cannot open " + cam + ": no such camera" + cameras_hint(path));
    if (err == EACCES || err == EPERM) throw MediaError("cannot open " + cam + ": permission denied: " + kGroupHint);
    throw MediaError("cannot open " + cam + ": " + errno_text(err));
  }
  if (!S_ISCHR(st.st_mode)) {
    throw MediaError(quoted(path) + " is not a camera (not a V4L2 device node)" + cameras_hint(path));
  }
  util::UniqueFd fd(::open(path.c_str(), O_RDWR | O_NONBLOCK | O_CLOEXEC));
  if (!fd) {
    const int err = errno;
    if (err == ENOENT || err == ENODEV || err == ENXIO) {
      throw MediaError("cannot open " + cam + ": no such camera (the node is there but the device is gone)" +
                       cameras_hint(path));
    }
    throw MediaError("cannot open " + cam + ": " + open_problem(err));
  }
  v4l2_capability cap{};
  if (xioctl(fd.get(), VIDIOC_QUERYCAP, &cap) < 0) {
    const int err = errno;
    if (err == ENOTTY || err == EINVAL) {
      throw MediaError(quoted(path) + " is not a camera (not a V4L2 device)" + cameras_hint(path));
    }
    throw MediaError("cannot open " + cam + ": " + errno_text(err));
  }
  check_capture_caps(path, device_caps(cap));
  info.path = path;
  info.name = cstr(cap.card, sizeof cap.card);
  info.bus = cstr(cap.bus_info, sizeof cap.bus_info);
  info.driver = cstr(cap.driver, sizeof cap.driver);
  enumerate_modes(fd.get(), info);
  return fd;
}

v4l2_format current_format(int fd, const std::string& cam) {
  v4l2_format current{};
  current.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  if (xioctl(fd, VIDIOC_G_FMT, &current) < 0) {
    const int err = errno;
    if (err == EBUSY) throw MediaError("cannot open " + cam + ": " + kBusy);
    throw MediaError("cannot open " + cam + ": reading its format failed (" + errno_text(err) + ")");
  }
  return current;
}

// The format: a fourcc the device lists, or an FFmpeg name for one; by default the current one
// (or the first FFmpeg captures).
std::string choose_fourcc(const CameraOptions& options, const v4l2_format& current, const CameraInfo& info,
                          const std::string& cam) {
  std::vector<std::string> offered;
  for (const CameraMode& m : info.modes) {
    if (std::find(offered.begin(), offered.end(), m.pixel_format) == offered.end()) offered.push_back(m.pixel_format);
  }
  if (options.pixel_format.empty()) return default_fourcc(offered, current, cam);
  std::string fourcc;
  const std::string want = upper(options.pixel_format);
  for (const std::string& f : offered) {
    if (upper(f) == want) fourcc = f;
  }
  if (fourcc.empty()) {
    for (const std::string& f : offered) {
      const char* name = ffmpeg_name(f);
      if (name && options.pixel_format == name) {
        fourcc = f;
        break;
      }
    }
  }
  if (fourcc.empty()) {
    throw MediaError(cam + " does not offer pixel format " + quoted(options.pixel_format) +
                     " (it offers: " + formats_offered(info) + "); choose one of those");
  }
  if (!ffmpeg_name(fourcc)) {
    throw MediaError("FFmpeg cannot capture pixel format " + fourcc + " from " + cam +
                     " (formats it can capture here: " + formats_offered(info) + ")");
  }
  return fourcc;
}

// The size: checked with VIDIOC_TRY_FMT, which says what the driver would really set. Sets the
// request's size and colour.
void choose_size(int fd, const CameraOptions& options, const v4l2_format& current, const CameraInfo& info,
                 const std::string& cam, Request& r) {
  if ((options.width == 0) != (options.height == 0)) {
    throw MediaError(cam + ": give both the width and the height of the picture (or neither for the driver's)");
  }
  const std::uint32_t fourcc = fourcc_code(r.fourcc);
  const bool size_asked = options.width != 0;
  v4l2_format tryf{};
  tryf.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  tryf.fmt.pix.width = size_asked ? options.width : current.fmt.pix.width;
  tryf.fmt.pix.height = size_asked ? options.height : current.fmt.pix.height;
  tryf.fmt.pix.pixelformat = fourcc;
  tryf.fmt.pix.field = V4L2_FIELD_ANY;
  if (xioctl(fd, VIDIOC_TRY_FMT, &tryf) != 0) {
    // No TRY_FMT: the size is checked once FFmpeg has set it.
    r.width = size_asked ? options.width : current.fmt.pix.width;
    r.height = size_asked ? options.height : current.fmt.pix.height;
    v4l2_colour(current.fmt.pix, full_range_default(r.fourcc), r);
    return;
  }
  if (tryf.fmt.pix.pixelformat != fourcc) {
    throw MediaError(cam + " refuses pixel format " + r.fourcc + " (it offers: " + formats_offered(info) + ")");
  }
  if (size_asked && (tryf.fmt.pix.width != options.width || tryf.fmt.pix.height != options.height)) {
    throw MediaError(cam + " does not offer " + size_text(options.width, options.height) + " in " + r.fourcc +
                     " (sizes: " + sizes_offered(info, r.fourcc) + ")");
  }
  r.width = tryf.fmt.pix.width;
  r.height = tryf.fmt.pix.height;
  v4l2_colour(tryf.fmt.pix, full_range_default(r.fourcc), r);
}

std::string fraction_text(double fps) {
  const AVRational q = av_d2q(fps, 1001000);
  return std::to_string(q.num) + "/" + std::to_string(q.den);
}

// The rate: one the driver lists for the request's format and size (exactly, as a fraction), or
// within its range; without a list, as asked. Sets r.rate and r.framerate.
void choose_rate(int fd, double asked, const std::string& cam, Request& r) {
  r.rate = asked;
  std::vector<double> listed;
  bool listed_any = false;
  for (std::uint32_t i = 0; i < 64 && r.framerate.empty(); ++i) {
    v4l2_frmivalenum e{};
    e.index = i;
    e.pixel_format = fourcc_code(r.fourcc);
    e.width = r.width;
    e.height = r.height;
    if (xioctl(fd, VIDIOC_ENUM_FRAMEINTERVALS, &e) < 0) break;
    listed_any = true;
    if (e.type == V4L2_FRMIVAL_TYPE_DISCRETE) {
      if (e.discrete.numerator == 0 || e.discrete.denominator == 0) continue;
      const double fps = static_cast<double>(e.discrete.denominator) / e.discrete.numerator;
      listed.push_back(fps);
      if (std::abs(fps - asked) <= 0.002 * fps) {
        r.framerate = std::to_string(e.discrete.denominator) + "/" + std::to_string(e.discrete.numerator);
      }
      continue;
    }
    const v4l2_fract& lo = e.stepwise.max;  // longest interval: slowest rate
    const v4l2_fract& hi = e.stepwise.min;
    if (lo.numerator && lo.denominator && hi.numerator && hi.denominator) {
      const double slow = static_cast<double>(lo.denominator) / lo.numerator;
      const double fast = static_cast<double>(hi.denominator) / hi.numerator;
      listed.push_back(slow);
      listed.push_back(fast);
      if (asked >= slow * 0.998 && asked <= fast * 1.002) r.framerate = fraction_text(asked);
    }
    break;
  }
  if (!r.framerate.empty()) return;
  if (listed_any) {
    std::sort(listed.begin(), listed.end());
    throw MediaError(cam + " does not offer " + rate_text(asked) + " fps at " + size_text(r.width, r.height) + " " +
                     r.fourcc + " (rates: " + rates_text(listed) + ")");
  }
  r.framerate = fraction_text(asked);
}

}  // namespace

std::string formats_offered(const CameraInfo& info) {
  std::string s;
  std::vector<std::string> seen;
  for (const CameraMode& m : info.modes) {
    if (std::find(seen.begin(), seen.end(), m.pixel_format) != seen.end()) continue;
    seen.push_back(m.pixel_format);
    const char* name = ffmpeg_name(m.pixel_format);
    if (!name) continue;
    s += (s.empty() ? "" : ", ") + m.pixel_format + " (" + name + ")";
  }
  return s.empty() ? "none that FFmpeg can capture" : s;
}

std::string sizes_offered(const CameraInfo& info, const std::string& fourcc) {
  std::string s;
  for (const CameraMode& m : info.modes) {
    if (m.pixel_format == fourcc) s += (s.empty() ? "" : ", ") + size_text(m.width, m.height);
  }
  return s.empty() ? "none listed" : s;
}

Request prepare_request(const std::string& path, const CameraOptions& options, CameraInfo& info) {
  const std::string cam = "camera " + quoted(path);
  const util::UniqueFd fd = open_capture_node(path, info);
  const v4l2_format current = current_format(fd.get(), cam);
  Request r;
  r.path = path;
  r.fourcc = choose_fourcc(options, current, info, cam);
  r.input_format = ffmpeg_name(r.fourcc);
  choose_size(fd.get(), options, current, info, cam, r);
  if (options.frame_rate > 0) choose_rate(fd.get(), options.frame_rate, cam, r);
  return r;
}

}  // namespace vhist::media
