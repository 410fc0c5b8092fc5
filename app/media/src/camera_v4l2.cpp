#include "camera_v4l2.h"

extern "C" {
#include <libavutil/error.h>
#include <libavutil/pixdesc.h>
}

#include "vhist/media/pixel_formats.h"

#include <sys/ioctl.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace vhist::media {

int xioctl(int fd, unsigned long request, void* arg) {
  int r = 0;
  do {
    r = ::ioctl(fd, request, arg);
  } while (r < 0 && errno == EINTR);
  return r;
}

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
namespace {

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

}  // namespace

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

std::uint32_t device_caps(const v4l2_capability& cap) {
  return (cap.capabilities & V4L2_CAP_DEVICE_CAPS) ? cap.device_caps : cap.capabilities;
}

std::string cstr(const std::uint8_t* text, std::size_t size) {
  const auto* begin = reinterpret_cast<const char*>(text);
  return std::string(begin, strnlen(begin, size));
}

// Why a node cannot be opened, for list_cameras() (the path comes before it).
std::string open_problem(int err) {
  if (err == EACCES || err == EPERM) return "permission denied: " + kGroupHint;
  if (err == EBUSY) return kBusy;
  return errno_text(err);
}

}  // namespace vhist::media
