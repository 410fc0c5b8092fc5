#include "media/camera.h"

#include "media/av_handles.h"
#include "media/pixel_formats.h"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavdevice/avdevice.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libavutil/dict.h>
#include <libavutil/log.h>
#include <libavutil/pixdesc.h>
}

#include <dirent.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <mutex>
#include <thread>

// How a camera is read (see also docs in camera.h):
//
// Timestamps: FFmpeg's v4l2 demuxer with `timestamps=default` (set explicitly) hands out the
// kernel's buffer timestamp unchanged, in microseconds; UVC, vivid and nearly every modern driver
// stamp buffers on CLOCK_MONOTONIC (V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC). `abs` and `mono2abs` would
// convert to wall-clock time through a time filter, which is neither comparable with
// clock_gettime(CLOCK_MONOTONIC) nor free of jitter. If the first timestamp after opening is not
// within [now - 10 s, now + 1 s] on CLOCK_MONOTONIC (a driver with other timestamps), pts becomes
// the arrival time on CLOCK_MONOTONIC instead, for that connection. A timestamp later than the
// frame's arrival is clamped to the arrival (vivid stamps the nominal end of exposure, which can
// lie ahead of the dequeue by most of a frame period).
//
// Reads never block: the device is opened with AVFMT_FLAG_NONBLOCK (FFmpeg opens the node with
// O_NONBLOCK), so VIDIOC_DQBUF answers EAGAIN when no buffer is ready and the capture thread
// sleeps 2 ms between tries, checking its stop flag and the watchdog. (FFmpeg 5.1's v4l2 demuxer
// neither polls nor looks at the interrupt callback; a blocking DQBUF can wait forever after an
// unplug.) As a last line of defence the destructor waits at most ~0.8 s for the thread and then
// leaves it running detached; everything it touches is owned through a shared_ptr.
//
// Buffers: packets from the demuxer point into the driver's mmap'ed buffers, which FFmpeg unmaps
// when the device is closed, however many are still referenced. Every packet is therefore copied
// into memory of our own and the driver's buffer returned at once, so frames the consumer holds
// survive a lost camera, and the driver never runs short of buffers.

namespace vhist::media {
namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kPollInterval = std::chrono::milliseconds(2);
constexpr auto kReopenInterval = std::chrono::milliseconds(500);
constexpr auto kDestroyWait = std::chrono::milliseconds(800);


// A file descriptor, closed with the object.
class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  explicit operator bool() const { return fd_ >= 0; }

 private:
  int fd_;
};

int xioctl(int fd, unsigned long request, void* arg) {
  int r = 0;
  do {
    r = ::ioctl(fd, request, arg);
  } while (r < 0 && errno == EINTR);
  return r;
}

// strerror with a lower-case first letter, to sit inside a sentence.
std::string errno_text(int err) {
  std::string s = std::strerror(err);
  if (!s.empty() && s[0] >= 'A' && s[0] <= 'Z' && (s.size() < 2 || !(s[1] >= 'A' && s[1] <= 'Z'))) {
    s[0] = static_cast<char>(s[0] - 'A' + 'a');
  }
  return s;
}

std::string av_error_text(int err) {
  if (err < 0 && err > -4096) return errno_text(-err);  // AVERROR(errno)
  char buf[AV_ERROR_MAX_STRING_SIZE] = {};
  if (av_strerror(err, buf, sizeof buf) < 0) return "error " + std::to_string(err);
  return buf;
}

const std::string kGroupHint = "add your user to the 'video' group (sudo usermod -aG video $USER) and log in again";
const std::string kBusy = "device busy (another program is using it)";

std::string fourcc_text(std::uint32_t f) {
  std::string s;
  for (int i = 0; i < 4; ++i) {
    const char c = static_cast<char>((f >> (8 * i)) & 0x7f);
    s += (c >= 32 && c < 127) ? c : '?';
  }
  while (!s.empty() && s.back() == ' ') s.pop_back();
  if (f & (1u << 31)) s += "-BE";
  return s;
}

// fourcc_text() backwards: "Y16" -> 'Y16 ', "Y16-BE" -> 'Y16 ' | big-endian flag.
std::uint32_t fourcc_code(std::string text) {
  std::uint32_t code = 0;
  if (text.size() > 3 && text.compare(text.size() - 3, 3, "-BE") == 0) {
    code = 1u << 31;
    text.resize(text.size() - 3);
  }
  text.resize(4, ' ');
  for (std::size_t i = 0; i < 4; ++i) code |= static_cast<std::uint32_t>(static_cast<unsigned char>(text[i])) << (8 * i);
  return code;
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// The V4L2 formats FFmpeg's v4l2 demuxer captures, with the name its `input_format` option takes
// for them. Only fourccs FFmpeg picks for that name come in (its table maps yuv420p to YU12 before
// YV12, so YV12 cannot be asked for); JPEG is reached through "mjpeg" when MJPG is not offered.
struct FourccName {
  const char* fourcc;
  const char* ffmpeg;
};
constexpr FourccName kCapturable[] = {
    {"YUYV", "yuyv422"},     {"UYVY", "uyvy422"},     {"NV12", "nv12"},        {"YU12", "yuv420p"},
    {"422P", "yuv422p"},     {"411P", "yuv411p"},     {"YUV9", "yuv410p"},     {"GREY", "gray"},
    {"Y16", "gray16le"},     {"RGB3", "rgb24"},       {"BGR3", "bgr24"},       {"RGBP", "rgb565le"},
    {"RGBR", "rgb565be"},    {"RGBO", "rgb555le"},    {"RGBQ", "rgb555be"},    {"XR24", "bgr0"},
    {"BX24", "0rgb"},        {"AR24", "bgra"},        {"BA24", "argb"},        {"MJPG", "mjpeg"},
    {"JPEG", "mjpeg"},       {"BA81", "bayer_bggr8"}, {"GBRG", "bayer_gbrg8"}, {"GRBG", "bayer_grbg8"},
    {"RGGB", "bayer_rggb8"},
};

const char* ffmpeg_name(const std::string& fourcc) {
  for (const FourccName& f : kCapturable) {
    if (fourcc == f.fourcc) return f.ffmpeg;
  }
  return nullptr;
}

// Whether V4L2_QUANTIZATION_DEFAULT means full range for `fourcc`: R'G'B' (and Bayer), and
// luma-only formats, which drivers fill with full-range values (vivid's GREY: black 0, white
// 255), as the file input's gray rule assumes too. Y'CbCr is limited.
bool full_range_default(const std::string& fourcc) {
  const char* name = ffmpeg_name(fourcc);
  if (!name || std::strcmp(name, "mjpeg") == 0) return false;
  return source_model(av_get_pix_fmt(name)) != ColourModel::yuv;
}

std::string rate_text(double fps) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", fps);
  std::string s = buf;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s;
}

std::string size_text(std::uint32_t w, std::uint32_t h) { return std::to_string(w) + "x" + std::to_string(h); }

// ---------------------------------------------------------------------------------------------
// Enumeration.

void add_rate(std::vector<double>& rates, const v4l2_fract& interval) {
  if (interval.numerator == 0 || interval.denominator == 0) return;
  rates.push_back(static_cast<double>(interval.denominator) / interval.numerator);
}

std::vector<double> frame_rates(int fd, std::uint32_t fourcc, std::uint32_t w, std::uint32_t h) {
  std::vector<double> rates;
  for (std::uint32_t i = 0; i < 64; ++i) {
    v4l2_frmivalenum e{};
    e.index = i;
    e.pixel_format = fourcc;
    e.width = w;
    e.height = h;
    if (xioctl(fd, VIDIOC_ENUM_FRAMEINTERVALS, &e) < 0) break;
    if (e.type == V4L2_FRMIVAL_TYPE_DISCRETE) {
      add_rate(rates, e.discrete);
      continue;
    }
    // Stepwise or continuous: the slowest and the fastest rate (the longest and the shortest
    // interval).
    add_rate(rates, e.stepwise.max);
    add_rate(rates, e.stepwise.min);
    break;
  }
  std::sort(rates.begin(), rates.end());
  rates.erase(std::unique(rates.begin(), rates.end(), [](double a, double b) { return std::abs(a - b) < 1e-6 * b; }),
              rates.end());
  return rates;
}

// Sizes for one format: the discrete ones, or for a range its two ends and the common sizes
// that lie on its grid.
std::vector<std::pair<std::uint32_t, std::uint32_t>> frame_sizes(int fd, std::uint32_t fourcc) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> sizes;
  for (std::uint32_t i = 0; i < 256; ++i) {
    v4l2_frmsizeenum e{};
    e.index = i;
    e.pixel_format = fourcc;
    if (xioctl(fd, VIDIOC_ENUM_FRAMESIZES, &e) < 0) break;
    if (e.type == V4L2_FRMSIZE_TYPE_DISCRETE) {
      sizes.emplace_back(e.discrete.width, e.discrete.height);
      continue;
    }
    const v4l2_frmsize_stepwise& s = e.stepwise;
    const std::uint32_t sw = std::max<std::uint32_t>(1, s.step_width), sh = std::max<std::uint32_t>(1, s.step_height);
    auto fits = [&](std::uint32_t w, std::uint32_t h) {
      return w >= s.min_width && w <= s.max_width && h >= s.min_height && h <= s.max_height &&
             (w - s.min_width) % sw == 0 && (h - s.min_height) % sh == 0;
    };
    sizes.emplace_back(s.min_width, s.min_height);
    static constexpr std::pair<std::uint32_t, std::uint32_t> kCommon[] = {
        {160, 120},  {320, 180},  {320, 240},  {640, 360},   {640, 480},   {800, 600},
        {1024, 768}, {1280, 720}, {1920, 1080}, {2560, 1440}, {3840, 2160},
    };
    for (const auto& [w, h] : kCommon) {
      if (fits(w, h)) sizes.emplace_back(w, h);
    }
    sizes.emplace_back(s.max_width, s.max_height);
    break;
  }
  std::vector<std::pair<std::uint32_t, std::uint32_t>> unique;
  for (const auto& s : sizes) {
    if (s.first && s.second && std::find(unique.begin(), unique.end(), s) == unique.end()) unique.push_back(s);
  }
  return unique;
}

std::uint32_t device_caps(const v4l2_capability& cap) {
  return (cap.capabilities & V4L2_CAP_DEVICE_CAPS) ? cap.device_caps : cap.capabilities;
}

std::string cstr(const std::uint8_t* text, std::size_t size) {
  const auto* begin = reinterpret_cast<const char*>(text);
  return std::string(begin, strnlen(begin, size));
}

// The modes of an open capture node.
void enumerate_modes(int fd, CameraInfo& info) {
  for (std::uint32_t i = 0; i < 256; ++i) {
    v4l2_fmtdesc d{};
    d.index = i;
    d.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    if (xioctl(fd, VIDIOC_ENUM_FMT, &d) < 0) break;
    const std::string fourcc = fourcc_text(d.pixelformat);
    const std::string description = cstr(d.description, sizeof d.description);
    auto sizes = frame_sizes(fd, d.pixelformat);
    if (sizes.empty()) {
      // No size enumeration: the current size, when it is this format's.
      v4l2_format f{};
      f.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
      if (xioctl(fd, VIDIOC_G_FMT, &f) == 0 && f.fmt.pix.pixelformat == d.pixelformat) {
        sizes.emplace_back(f.fmt.pix.width, f.fmt.pix.height);
      }
    }
    for (const auto& [w, h] : sizes) {
      CameraMode m;
      m.pixel_format = fourcc;
      m.description = description;
      m.width = w;
      m.height = h;
      m.frame_rates = frame_rates(fd, d.pixelformat, w, h);
      info.modes.push_back(std::move(m));
    }
  }
}

// The /dev/videoN nodes, in numeric order.
std::vector<std::string> video_nodes() {
  std::vector<std::pair<long, std::string>> found;
  if (DIR* dir = ::opendir("/dev")) {
    while (const dirent* e = ::readdir(dir)) {
      const std::string name = e->d_name;
      if (name.size() <= 5 || name.compare(0, 5, "video") != 0) continue;
      const std::string digits = name.substr(5);
      if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) continue;
      found.emplace_back(std::strtol(digits.c_str(), nullptr, 10), "/dev/" + name);
    }
    ::closedir(dir);
  }
  std::sort(found.begin(), found.end());
  std::vector<std::string> paths;
  for (auto& f : found) paths.push_back(std::move(f.second));
  return paths;
}

// Why a node cannot be opened, for list_cameras() (the path comes before it).
std::string open_problem(int err) {
  if (err == EACCES || err == EPERM) return "permission denied: " + kGroupHint;
  if (err == EBUSY) return kBusy;
  return errno_text(err);
}

// "; cameras here: /dev/video0 \"vivid\", ..." or "; no camera was found": for messages about a
// wrong path.
std::string cameras_hint(const std::string& except) {
  const CameraListing listing = list_cameras();
  std::string s;
  for (const CameraInfo& c : listing.cameras) {
    if (c.path == except) continue;
    s += (s.empty() ? "" : ", ") + c.path + " \"" + c.name + "\"";
  }
  if (s.empty()) return listing.errors.empty() ? "; no camera was found" : "; " + listing.errors.front();
  return "; cameras here: " + s;
}

// ---------------------------------------------------------------------------------------------
// What to ask FFmpeg for, checked against what the device offers.

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

// The checks and messages libavdevice would not give: what the node is, whether this user may
// open it, and whether the format, size and rate asked for are offered. Returns the request.
Request prepare_request(const std::string& path, const CameraOptions& options, CameraInfo& info) {
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
  const Fd fd(::open(path.c_str(), O_RDWR | O_NONBLOCK | O_CLOEXEC));
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
  const std::uint32_t caps = device_caps(cap);
  if (!(caps & V4L2_CAP_VIDEO_CAPTURE)) {
    std::string what = "a V4L2 node without video capture";
    if (caps & V4L2_CAP_META_CAPTURE) what = "a metadata node";
    if (caps & V4L2_CAP_VIDEO_CAPTURE_MPLANE) what = "a multi-planar capture node, which FFmpeg cannot capture from";
    if (caps & (V4L2_CAP_VIDEO_OUTPUT | V4L2_CAP_VIDEO_OUTPUT_MPLANE)) what = "a video output node";
    throw MediaError(quoted(path) + " is not a video capture device (" + what + ")" + cameras_hint(path));
  }
  if (!(caps & V4L2_CAP_STREAMING)) {
    throw MediaError(cam + " cannot stream (no V4L2 streaming I/O), which FFmpeg needs");
  }
  info.path = path;
  info.name = cstr(cap.card, sizeof cap.card);
  info.bus = cstr(cap.bus_info, sizeof cap.bus_info);
  info.driver = cstr(cap.driver, sizeof cap.driver);
  enumerate_modes(fd.get(), info);

  v4l2_format current{};
  current.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  if (xioctl(fd.get(), VIDIOC_G_FMT, &current) < 0) {
    const int err = errno;
    if (err == EBUSY) throw MediaError("cannot open " + cam + ": " + kBusy);
    throw MediaError("cannot open " + cam + ": reading its format failed (" + errno_text(err) + ")");
  }

  std::vector<std::string> offered;
  for (const CameraMode& m : info.modes) {
    if (std::find(offered.begin(), offered.end(), m.pixel_format) == offered.end()) offered.push_back(m.pixel_format);
  }
  Request r;
  r.path = path;
  // The format: a fourcc the device lists, or an FFmpeg name for one; by default the current
  // one (or the first FFmpeg captures).
  if (options.pixel_format.empty()) {
    const std::string now = fourcc_text(current.fmt.pix.pixelformat);
    if (ffmpeg_name(now)) {
      r.fourcc = now;
    } else {
      for (const std::string& f : offered) {
        if (ffmpeg_name(f)) {
          r.fourcc = f;
          break;
        }
      }
    }
    if (r.fourcc.empty()) {
      std::string all;
      for (const std::string& f : offered) all += (all.empty() ? "" : ", ") + f;
      throw MediaError(cam + " offers no pixel format FFmpeg can capture (it offers: " +
                       (all.empty() ? std::string("none") : all) + ")");
    }
  } else {
    const std::string want = upper(options.pixel_format);
    for (const std::string& f : offered) {
      if (upper(f) == want) r.fourcc = f;
    }
    if (r.fourcc.empty()) {
      for (const std::string& f : offered) {
        const char* name = ffmpeg_name(f);
        if (name && options.pixel_format == name) {
          r.fourcc = f;
          break;
        }
      }
    }
    if (r.fourcc.empty()) {
      throw MediaError(cam + " does not offer pixel format " + quoted(options.pixel_format) +
                       " (it offers: " + formats_offered(info) + "); choose one of those");
    }
    if (!ffmpeg_name(r.fourcc)) {
      throw MediaError("FFmpeg cannot capture pixel format " + r.fourcc + " from " + cam +
                       " (formats it can capture here: " + formats_offered(info) + ")");
    }
  }
  r.input_format = ffmpeg_name(r.fourcc);
  const std::uint32_t fourcc = fourcc_code(r.fourcc);

  // The size: checked with VIDIOC_TRY_FMT, which says what the driver would really set.
  if ((options.width == 0) != (options.height == 0)) {
    throw MediaError(cam + ": give both the width and the height of the picture (or neither for the driver's)");
  }
  const bool size_asked = options.width != 0;
  v4l2_format tryf{};
  tryf.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  tryf.fmt.pix.width = size_asked ? options.width : current.fmt.pix.width;
  tryf.fmt.pix.height = size_asked ? options.height : current.fmt.pix.height;
  tryf.fmt.pix.pixelformat = fourcc;
  tryf.fmt.pix.field = V4L2_FIELD_ANY;
  if (xioctl(fd.get(), VIDIOC_TRY_FMT, &tryf) == 0) {
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
  } else {
    // No TRY_FMT: the size is checked once FFmpeg has set it.
    r.width = size_asked ? options.width : current.fmt.pix.width;
    r.height = size_asked ? options.height : current.fmt.pix.height;
    v4l2_colour(current.fmt.pix, full_range_default(r.fourcc), r);
  }

  // The rate: one the driver lists for this format and size (exactly, as a fraction), or within
  // its range.
  if (options.frame_rate > 0) {
    r.rate = options.frame_rate;
    std::vector<double> listed;
    bool listed_any = false;
    for (std::uint32_t i = 0; i < 64 && r.framerate.empty(); ++i) {
      v4l2_frmivalenum e{};
      e.index = i;
      e.pixel_format = fourcc;
      e.width = r.width;
      e.height = r.height;
      if (xioctl(fd.get(), VIDIOC_ENUM_FRAMEINTERVALS, &e) < 0) break;
      listed_any = true;
      if (e.type == V4L2_FRMIVAL_TYPE_DISCRETE) {
        if (e.discrete.numerator == 0 || e.discrete.denominator == 0) continue;
        const double fps = static_cast<double>(e.discrete.denominator) / e.discrete.numerator;
        listed.push_back(fps);
        if (std::abs(fps - options.frame_rate) <= 0.002 * fps) {
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
        if (options.frame_rate >= slow * 0.998 && options.frame_rate <= fast * 1.002) {
          const AVRational q = av_d2q(options.frame_rate, 1001000);
          r.framerate = std::to_string(q.num) + "/" + std::to_string(q.den);
        }
      }
      break;
    }
    if (r.framerate.empty()) {
      if (listed_any) {
        std::sort(listed.begin(), listed.end());
        throw MediaError(cam + " does not offer " + rate_text(options.frame_rate) + " fps at " +
                         size_text(r.width, r.height) + " " + r.fourcc + " (rates: " + rates_text(listed) + ")");
      }
      const AVRational q = av_d2q(options.frame_rate, 1001000);
      r.framerate = std::to_string(q.num) + "/" + std::to_string(q.den);
    }
  }
  return r;
}

void install_camera_logging() {
  static std::once_flag once;
  std::call_once(once, [] {
    avdevice_register_all();
    // FFmpeg's own stderr logging stays off unless VHIST_FFMPEG_LOG asks for it (as for files):
    // the v4l2 demuxer logs every failed ioctl after an unplug. A log callback installed by the
    // file input ignores this level.
    const char* keep = std::getenv("VHIST_FFMPEG_LOG");
    if (keep && *keep && std::strcmp(keep, "0") != 0) return;
    av_log_set_level(AV_LOG_QUIET);
  });
}

double monotonic_now() {
  timespec ts{};
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// ---------------------------------------------------------------------------------------------
// The open device: FFmpeg's demuxer and the decoder.

struct Device {
  FormatPtr format;
  CodecPtr codec;
  AVRational time_base{1, 1000000};
  bool first_frame = true;
  bool arrival_time = false;  // the driver's timestamps are not CLOCK_MONOTONIC: use arrival time
  bool intra_only = false;    // every packet decodes on its own (raw video, MJPEG): stale ones may be skipped
};

int interrupt_cb(void* opaque) { return static_cast<const std::atomic<bool>*>(opaque)->load() ? 1 : 0; }

// Opens the device through libavdevice as `r` says. Throws MediaError (one line, what and why).
std::unique_ptr<Device> open_device(const Request& r, const CameraInfo& info, std::atomic<bool>* abort) {
  const std::string cam = "camera " + quoted(r.path);
  const AVInputFormat* v4l2 = av_find_input_format("video4linux2");
  if (!v4l2) throw MediaError("cannot open " + cam + ": this FFmpeg build has no video4linux2 input device");

  AVFormatContext* raw = avformat_alloc_context();
  if (!raw) throw std::bad_alloc();
  raw->flags |= AVFMT_FLAG_NONBLOCK;  // VIDIOC_DQBUF answers EAGAIN instead of waiting
  raw->interrupt_callback.callback = &interrupt_cb;
  raw->interrupt_callback.opaque = abort;
  AVDictionary* dict = nullptr;
  av_dict_set(&dict, "input_format", r.input_format.c_str(), 0);
  if (r.width && r.height) av_dict_set(&dict, "video_size", size_text(r.width, r.height).c_str(), 0);
  if (!r.framerate.empty()) av_dict_set(&dict, "framerate", r.framerate.c_str(), 0);
  av_dict_set(&dict, "timestamps", "default", 0);  // the kernel's (CLOCK_MONOTONIC) timestamps
  int ret = avformat_open_input(&raw, r.path.c_str(), v4l2, &dict);
  const DictPtr leftover(dict);
  if (ret < 0) {  // avformat_open_input has freed the context
    if (ret == AVERROR(ENOENT) || ret == AVERROR(ENXIO)) throw MediaError("cannot open " + cam + ": no such camera");
    if (ret == AVERROR(ENODEV)) throw MediaError("cannot open " + cam + ": the device is gone (no such device)");
    if (ret == AVERROR(EACCES) || ret == AVERROR(EPERM)) {
      throw MediaError("cannot open " + cam + ": permission denied: " + kGroupHint);
    }
    if (ret == AVERROR(EBUSY)) throw MediaError("cannot open " + cam + ": " + kBusy);
    if (ret == AVERROR(EINVAL)) {
      throw MediaError(cam + " refused " + r.fourcc + " " + size_text(r.width, r.height) +
                       (r.framerate.empty() ? std::string() : " at " + rate_text(r.rate) + " fps") +
                       " (formats: " + formats_offered(info) + "; sizes for " + r.fourcc + ": " +
                       sizes_offered(info, r.fourcc) + ")");
    }
    throw MediaError("cannot open " + cam + ": " + av_error_text(ret));
  }
  auto dev = std::make_unique<Device>();
  dev->format.reset(raw);
  if (dev->format->nb_streams < 1) throw MediaError("cannot open " + cam + ": FFmpeg made no video stream for it");
  const AVStream* st = dev->format->streams[0];
  const AVCodecParameters* par = st->codecpar;
  dev->time_base = st->time_base;
  if (static_cast<std::uint32_t>(par->width) != r.width || static_cast<std::uint32_t>(par->height) != r.height) {
    throw MediaError(cam + " does not offer " + size_text(r.width, r.height) + " in " + r.fourcc + " (it set " +
                     size_text(static_cast<std::uint32_t>(par->width), static_cast<std::uint32_t>(par->height)) +
                     "; sizes: " + sizes_offered(info, r.fourcc) + ")");
  }
  if (r.rate > 0 && st->avg_frame_rate.num > 0 && st->avg_frame_rate.den > 0) {
    const double got = av_q2d(st->avg_frame_rate);
    if (std::abs(got - r.rate) > 0.01 * r.rate) {
      throw MediaError(cam + " does not offer " + rate_text(r.rate) + " fps at " + size_text(r.width, r.height) + " " +
                       r.fourcc + " (it set " + rate_text(got) + " fps)");
    }
  }

  dev->intra_only = par->codec_id == AV_CODEC_ID_RAWVIDEO || par->codec_id == AV_CODEC_ID_MJPEG;
  const AVCodec* decoder = avcodec_find_decoder(par->codec_id);
  if (!decoder) {
    throw MediaError(cam + ": no decoder for " + std::string(avcodec_get_name(par->codec_id)) + " in this FFmpeg build");
  }
  dev->codec.reset(avcodec_alloc_context3(decoder));
  if (!dev->codec) throw std::bad_alloc();
  ret = avcodec_parameters_to_context(dev->codec.get(), par);
  if (ret < 0) throw MediaError(cam + ": cannot set up the " + std::string(decoder->name) + " decoder (" + av_error_text(ret) + ")");
  dev->codec->pkt_timebase = st->time_base;
  // One frame in, one frame out: no frame threading (it would hold frames back).
  dev->codec->thread_count = 0;
  dev->codec->thread_type = FF_THREAD_SLICE;
  dev->codec->flags |= AV_CODEC_FLAG_OUTPUT_CORRUPT;
  if (par->codec_id == AV_CODEC_ID_RAWVIDEO) {
    dev->codec->colorspace = r.colorspace;
    dev->codec->color_range = r.range;
  }
  ret = avcodec_open2(dev->codec.get(), decoder, nullptr);
  if (ret < 0) throw MediaError(cam + ": cannot open the " + std::string(decoder->name) + " decoder (" + av_error_text(ret) + ")");
  return dev;
}

// ---------------------------------------------------------------------------------------------

// Everything the capture thread uses: shared with the source and kept alive by the thread, so
// that a thread left behind (see the top of the file) never touches freed memory.
class Capture {
 public:
  Capture(Request request, CameraInfo info, const CameraOptions& options)
      : request_(std::move(request)),
        camera_(std::move(info)),
        watchdog_(options.watchdog.count() > 0 ? options.watchdog : std::chrono::milliseconds(2000)) {}

  void open_first() {
    device_ = open_device(request_, camera_, &abort_io_);
    const std::lock_guard lock(mutex_);
    status_.connected = false;  // until the first frame
    status_.message = "waiting for the first frame";
    last_activity_ = Clock::now();
  }

  void fill_info(MediaInfo& info) const {
    const AVFormatContext* fmt = device_->format.get();
    const AVCodecParameters* par = fmt->streams[0]->codecpar;
    info.path = request_.path;
    info.container = fmt->iformat && fmt->iformat->name ? fmt->iformat->name : "video4linux2";
    info.codec = avcodec_get_name(par->codec_id);
    info.width = static_cast<std::uint32_t>(std::max(0, par->width));
    info.height = static_cast<std::uint32_t>(std::max(0, par->height));
    const char* pix = av_get_pix_fmt_name(static_cast<AVPixelFormat>(par->format));
    info.pixel_format = pix ? pix : "";
    const AVRational rate = fmt->streams[0]->avg_frame_rate;
    info.frame_rate = rate.num > 0 && rate.den > 0 ? av_q2d(rate) : 0;
    info.duration = -1;
    info.frame_count = -1;
    info.video_stream = 0;
  }

  void run() noexcept {
    try {
      loop();
    } catch (const std::exception& e) {
      fail(e.what());
    } catch (...) {
      fail("capture failed");
    }
    device_.reset();
    {
      const std::lock_guard lock(mutex_);
      finished_ = true;
    }
    finished_cv_.notify_all();
    frame_cv_.notify_all();
  }

  void stop() {
    abort_io_ = true;
    {
      const std::lock_guard lock(mutex_);
      stop_ = true;
    }
    wake_cv_.notify_all();
  }

  // Waits up to `timeout` for the thread to end; false when it did not.
  bool wait_finished(std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    return finished_cv_.wait_for(lock, timeout, [&] { return finished_; });
  }

  MediaSource::Status next(DecodedFrame& frame, std::chrono::milliseconds timeout) {
    timeout = std::min(timeout, std::chrono::milliseconds(std::chrono::hours(24 * 365)));
    std::unique_lock lock(mutex_);
    frame_cv_.wait_for(lock, timeout, [&] { return latest_.has_value() || !failure_.empty() || finished_; });
    if (latest_) {
      frame = std::move(*latest_);
      latest_.reset();
      return MediaSource::Status::frame;
    }
    if (!failure_.empty()) throw MediaError(failure_);
    return MediaSource::Status::timeout;
  }

  CameraStatus status() const {
    const std::lock_guard lock(mutex_);
    CameraStatus s = status_;
    // The capture thread says so too, but it might be the one that is stuck.
    if (s.connected && Clock::now() - last_activity_ > watchdog_ + std::chrono::milliseconds(500)) {
      s.connected = false;
      s.message = lost_message(no_frame_reason());
    }
    return s;
  }

  DecodeReport report() const {
    const std::lock_guard lock(mutex_);
    return report_;
  }

 private:
  static std::string lost_message(const std::string& why) {
    return "camera lost (" + why + "); waiting for it to come back";
  }
  std::string no_frame_reason() const {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", std::chrono::duration<double>(watchdog_).count());
    return std::string("no frame for ") + buf + " s";
  }

  // Sleeps up to `d`; true when asked to stop.
  bool sleep_for(Clock::duration d) {
    std::unique_lock lock(mutex_);
    return wake_cv_.wait_for(lock, d, [&] { return stop_; });
  }
  bool stopping() {
    const std::lock_guard lock(mutex_);
    return stop_;
  }

  void fail(const std::string& message) {
    const std::lock_guard lock(mutex_);
    failure_ = "camera " + quoted(request_.path) + ": " + message;
    if (report_.first_error.empty()) report_.first_error = failure_;
    status_.connected = false;
    status_.message = failure_;
  }

  void lose(const std::string& why) {
    device_.reset();
    reopened_ = false;  // STREAMOFF, unmap, close: the node can go (and come back under its name)
    const std::lock_guard lock(mutex_);
    status_.connected = false;
    status_.message = lost_message(why);
    lost_reason_ = why;
    ++report_.errors;
    if (report_.first_error.empty()) report_.first_error = status_.message;
  }

  void try_reopen() {
    struct stat st {};
    if (::stat(request_.path.c_str(), &st) != 0) return;  // not back yet
    try {
      device_ = open_device(request_, camera_, &abort_io_);
    } catch (const MediaError& e) {
      const std::lock_guard lock(mutex_);
      status_.message = lost_message(lost_reason_) + " (last try: " + e.what() + ")";
      return;
    }
    reopened_ = true;  // a reconnect once frames come
    const std::lock_guard lock(mutex_);
    status_.message = lost_message(lost_reason_) + " (reopened, waiting for frames)";
    last_activity_ = Clock::now();
  }

  void loop() {
    PacketPtr packet(av_packet_alloc());
    PacketPtr own(av_packet_alloc());
    AvFramePtr decoded(av_frame_alloc());
    if (!packet || !own || !decoded) throw std::bad_alloc();
    int pending_read = 0;  // a read error met while looking for newer packets
    while (!stopping()) {
      if (!device_) {
        if (sleep_for(kReopenInterval)) return;
        try_reopen();
        continue;
      }
      const int ret = pending_read != 0 ? pending_read : av_read_frame(device_->format.get(), packet.get());
      pending_read = 0;
      if (ret == AVERROR(EAGAIN)) {
        Clock::time_point last;
        {
          const std::lock_guard lock(mutex_);
          last = last_activity_;
        }
        if (Clock::now() - last > watchdog_) {
          lose(no_frame_reason());
          continue;
        }
        if (sleep_for(kPollInterval)) return;
        continue;
      }
      if (ret < 0) {
        if (abort_io_) return;
        lose(ret == AVERROR_EOF ? std::string("end of stream") : av_error_text(ret));
        continue;
      }
      double arrival = monotonic_now();
      bool copied = take_packet(packet.get(), own.get());
      // Newest wins before decoding too: packets already waiting in the driver's queue are newer
      // than this one, so a decoder slower than the camera (a large MJPEG frame on a slow CPU)
      // skips to the newest instead of working through a backlog. A skipped packet counts as
      // captured and dropped (CameraStatus), not as decoded (DecodeReport).
      while (copied && device_->intra_only) {
        const int more = av_read_frame(device_->format.get(), packet.get());
        if (more == AVERROR(EAGAIN)) break;
        if (more < 0) {
          pending_read = more;  // handled as the next read's result
          break;
        }
        const double newer_arrival = monotonic_now();
        if (packet->size <= 0) {  // an empty buffer: counted as lost, the packet in hand stays
          take_packet(packet.get(), nullptr);
          continue;
        }
        av_packet_unref(own.get());
        copied = take_packet(packet.get(), own.get());
        arrival = newer_arrival;
        const std::lock_guard lock(mutex_);
        ++status_.captured;
        ++status_.dropped;
      }
      if (!copied) continue;
      {
        const std::lock_guard lock(mutex_);
        ++report_.packets;
      }
      const int sent = avcodec_send_packet(device_->codec.get(), own.get());
      av_packet_unref(own.get());
      if (sent < 0) {
        note_decode_error("decoding a frame", sent);
        continue;
      }
      while (avcodec_receive_frame(device_->codec.get(), decoded.get()) == 0) {
        AvFramePtr taken(av_frame_alloc());
        if (!taken) throw std::bad_alloc();
        av_frame_move_ref(taken.get(), decoded.get());
        deliver(std::move(taken), arrival);
      }
    }
  }

  // Copies `packet` into memory of our own (`own`; nullptr: drops it) and gives the driver's
  // buffer back. False for an empty packet (the driver flagged an error), counted as read and
  // lost; the others are counted when they go to the decoder.
  bool take_packet(AVPacket* packet, AVPacket* own) {
    const int size = packet->size;
    bool copied = false;
    if (own && size > 0 && av_new_packet(own, size) == 0) {
      std::memcpy(own->data, packet->data, static_cast<std::size_t>(size));
      own->pts = packet->pts;
      own->dts = packet->dts;
      own->flags = packet->flags;
      own->stream_index = packet->stream_index;
      copied = true;
    }
    av_packet_unref(packet);
    const std::lock_guard lock(mutex_);
    last_activity_ = Clock::now();
    if (!copied) {
      ++report_.packets;
      ++report_.lost;
    }
    return copied;
  }

  void note_decode_error(const std::string& what, int err) {
    const std::lock_guard lock(mutex_);
    ++report_.lost;
    ++report_.errors;
    if (report_.first_error.empty()) report_.first_error = what + ": " + av_error_text(err);
  }

  void deliver(AvFramePtr decoded, double arrival) {
    Device& dev = *device_;
    double pts = arrival;
    const std::int64_t ts = decoded->best_effort_timestamp != AV_NOPTS_VALUE ? decoded->best_effort_timestamp : decoded->pts;
    if (dev.first_frame) {
      dev.first_frame = false;
      const double t = ts != AV_NOPTS_VALUE ? static_cast<double>(ts) * av_q2d(dev.time_base) : -1e30;
      dev.arrival_time = !(t >= arrival - 10.0 && t <= arrival + 1.0);
    }
    // A capture cannot end after it arrived: a later buffer timestamp (vivid stamps a frame with
    // its nominal end of exposure, up to 0.9 frame periods ahead of when it can be dequeued)
    // becomes the arrival time, so that latency is never measured short.
    if (!dev.arrival_time && ts != AV_NOPTS_VALUE) pts = std::min(arrival, static_cast<double>(ts) * av_q2d(dev.time_base));
    const bool damaged = decoded->decode_error_flags != 0 || (decoded->flags & AV_FRAME_FLAG_CORRUPT) != 0;

    DecodedFrame frame;
    converter_.convert(std::move(decoded), frame);  // throws MediaError: unsupported format
    frame.pts = pts;
    frame.damaged = damaged;
    const bool reconnected = reopened_;
    reopened_ = false;
    {
      const std::lock_guard lock(mutex_);
      frame.index = status_.captured++;
      ++report_.frames;
      if (damaged) ++report_.damaged;
      if (latest_) ++status_.dropped;
      latest_ = std::move(frame);
      if (reconnected) ++status_.reconnects;
      status_.connected = true;
      status_.message.clear();
    }
    frame_cv_.notify_all();
  }

  // Fixed after construction.
  const Request request_;
  const CameraInfo camera_;
  const std::chrono::milliseconds watchdog_;

  // The capture thread's own.
  std::unique_ptr<Device> device_;
  FrameConverter converter_;
  std::string lost_reason_;
  bool reopened_ = false;  // reopened after a loss, no frame yet
  std::atomic<bool> abort_io_{false};

  // Shared (mutex_).
  mutable std::mutex mutex_;
  std::condition_variable frame_cv_;     // a frame (or the failure) is there
  std::condition_variable wake_cv_;      // stop
  std::condition_variable finished_cv_;  // the thread has ended
  std::optional<DecodedFrame> latest_;
  CameraStatus status_;
  DecodeReport report_;
  Clock::time_point last_activity_ = Clock::now();
  std::string failure_;
  bool stop_ = false;
  bool finished_ = false;
};

class V4l2Camera final : public CameraSource {
 public:
  explicit V4l2Camera(std::shared_ptr<Capture> capture) : capture_(std::move(capture)) { capture_->fill_info(info_); }

  ~V4l2Camera() override {
    capture_->stop();
    if (!worker_.joinable()) return;
    if (capture_->wait_finished(kDestroyWait)) {
      worker_.join();
    } else {
      worker_.detach();  // stuck in the kernel: it keeps its own reference to the Capture
    }
  }
  V4l2Camera(const V4l2Camera&) = delete;
  V4l2Camera& operator=(const V4l2Camera&) = delete;

  void start() {
    std::shared_ptr<Capture> keep = capture_;
    worker_ = std::thread([keep] { keep->run(); });
  }

  const MediaInfo& info() const override { return info_; }
  Status next(DecodedFrame& frame, std::chrono::milliseconds timeout) override { return capture_->next(frame, timeout); }
  void seek(double) override {}
  void seek_frame(std::int64_t) override {}
  void set_loop(bool) override {}
  DecodeReport report() const override { return capture_->report(); }
  CameraStatus status() const override { return capture_->status(); }

 private:
  std::shared_ptr<Capture> capture_;
  MediaInfo info_;
  std::thread worker_;
};

}  // namespace

CameraListing list_cameras() {
  CameraListing listing;
  for (const std::string& path : video_nodes()) {
    const Fd fd(::open(path.c_str(), O_RDWR | O_NONBLOCK | O_CLOEXEC));
    if (!fd) {
      const int err = errno;
      if (err == ENOENT) continue;  // went away meanwhile
      listing.errors.push_back(path + ": " + open_problem(err));
      continue;
    }
    v4l2_capability cap{};
    if (xioctl(fd.get(), VIDIOC_QUERYCAP, &cap) < 0) {
      const int err = errno;
      if (err != ENOTTY && err != EINVAL) listing.errors.push_back(path + ": " + open_problem(err));
      continue;
    }
    // Single-planar capture with streaming I/O (what FFmpeg's v4l2 input reads); metadata,
    // output-only and multi-planar nodes are left out.
    const std::uint32_t caps = device_caps(cap);
    if (!(caps & V4L2_CAP_VIDEO_CAPTURE) || !(caps & V4L2_CAP_STREAMING)) continue;
    CameraInfo info;
    info.path = path;
    info.name = cstr(cap.card, sizeof cap.card);
    info.bus = cstr(cap.bus_info, sizeof cap.bus_info);
    info.driver = cstr(cap.driver, sizeof cap.driver);
    enumerate_modes(fd.get(), info);
    listing.cameras.push_back(std::move(info));
  }
  return listing;
}

bool is_camera_path(const std::string& path) {
  auto under_dev_video = [](const std::string& p) { return p.rfind("/dev/video", 0) == 0; };
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    // A missing /dev/videoN is still meant as a camera: opening it says "no such camera".
    if (!under_dev_video(path)) return false;
    const std::string rest = path.substr(10);
    return !rest.empty() && std::all_of(rest.begin(), rest.end(), [](char c) { return c >= '0' && c <= '9'; });
  }
  if (!S_ISCHR(st.st_mode)) return false;
  char resolved[PATH_MAX];
  if (!::realpath(path.c_str(), resolved)) return false;
  return under_dev_video(resolved);
}

std::unique_ptr<CameraSource> CameraSource::open(const std::string& path, const CameraOptions& options) {
  install_camera_logging();
  CameraInfo info;
  Request request = prepare_request(path, options, info);
  auto capture = std::make_shared<Capture>(std::move(request), std::move(info), options);
  capture->open_first();
  auto source = std::make_unique<V4l2Camera>(std::move(capture));
  source->start();
  return source;
}

}  // namespace vhist::media
