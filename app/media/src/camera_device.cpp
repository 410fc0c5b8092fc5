#include "camera_device.h"

#include "camera_v4l2.h"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavdevice/avdevice.h>
#include <libavformat/avformat.h>
#include <libavutil/dict.h>
#include <libavutil/macros.h>
}

#include <dlfcn.h>

#include <cmath>
#include <mutex>
#include <string>

namespace vhist::media {
namespace {

int interrupt_cb(void* opaque) { return static_cast<const std::atomic<bool>*>(opaque)->load() ? 1 : 0; }

// Registers libavdevice's inputs with libavformat. Where vhist uses the system's shared FFmpeg,
// libavdevice is loaded here, at the first camera, rather than linked: it needs some 80 shared
// libraries more than the rest of FFmpeg (SDL, PulseAudio, X11, ...), which cost every vhist
// process about 25 ms to load, cameras or not.
void register_devices() {
#ifdef VHIST_AVDEVICE_DLOPEN
  const char* soname = "libavdevice.so." AV_STRINGIFY(LIBAVDEVICE_VERSION_MAJOR);
  void* lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) {
    throw MediaError(std::string("cannot use cameras: ") + dlerror() + " (cameras need FFmpeg's " + soname +
                     ", of the same FFmpeg as vhist's libavformat: on Debian, apt-get install libavdevice" +
                     AV_STRINGIFY(LIBAVDEVICE_VERSION_MAJOR) + ")");
  }
  // dlsym's void* to a function pointer: the POSIX way to call what dlopen loaded.
  auto* register_all = reinterpret_cast<void (*)()>(dlsym(lib, "avdevice_register_all"));
  if (register_all == nullptr) throw MediaError(std::string("cannot use cameras: ") + soname + " has no avdevice_register_all");
  register_all();
#else
  avdevice_register_all();
#endif
}

const AVInputFormat* v4l2_input(const std::string& cam) {
  static std::once_flag once;
  std::call_once(once, register_devices);
  const AVInputFormat* v4l2 = av_find_input_format("video4linux2");
  if (!v4l2) throw MediaError("cannot open " + cam + ": this FFmpeg build has no video4linux2 input device");
  return v4l2;
}

// Why avformat_open_input refused the device, as a MediaError.
[[noreturn]] void throw_open_failure(int ret, const Request& r, const CameraInfo& info) {
  const std::string cam = "camera " + quoted(r.path);
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

// The demuxer, opened non-blocking with the request's format, size and rate.
FormatPtr open_demuxer(const Request& r, const CameraInfo& info, std::atomic<bool>* abort) {
  const AVInputFormat* v4l2 = v4l2_input("camera " + quoted(r.path));
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
  const int ret = avformat_open_input(&raw, r.path.c_str(), v4l2, &dict);
  const DictPtr leftover(dict);
  if (ret < 0) throw_open_failure(ret, r, info);  // avformat_open_input has freed the context
  return FormatPtr(raw);
}

// What the driver set, against what was asked (a driver without VIDIOC_TRY_FMT can differ).
void check_stream(const AVStream& st, const Request& r, const CameraInfo& info) {
  const std::string cam = "camera " + quoted(r.path);
  const AVCodecParameters* par = st.codecpar;
  if (static_cast<std::uint32_t>(par->width) != r.width || static_cast<std::uint32_t>(par->height) != r.height) {
    throw MediaError(cam + " does not offer " + size_text(r.width, r.height) + " in " + r.fourcc + " (it set " +
                     size_text(static_cast<std::uint32_t>(par->width), static_cast<std::uint32_t>(par->height)) +
                     "; sizes: " + sizes_offered(info, r.fourcc) + ")");
  }
  if (r.rate > 0 && st.avg_frame_rate.num > 0 && st.avg_frame_rate.den > 0) {
    const double got = av_q2d(st.avg_frame_rate);
    if (std::abs(got - r.rate) > 0.01 * r.rate) {
      throw MediaError(cam + " does not offer " + rate_text(r.rate) + " fps at " + size_text(r.width, r.height) + " " +
                       r.fourcc + " (it set " + rate_text(got) + " fps)");
    }
  }
}

// The decoder: one frame in, one frame out (no frame threading: it would hold frames back).
CodecPtr open_decoder(const AVStream& st, const Request& r) {
  const std::string cam = "camera " + quoted(r.path);
  const AVCodecParameters* par = st.codecpar;
  const AVCodec* decoder = avcodec_find_decoder(par->codec_id);
  if (!decoder) {
    throw MediaError(cam + ": no decoder for " + std::string(avcodec_get_name(par->codec_id)) +
                     " in this FFmpeg build");
  }
  CodecPtr codec(avcodec_alloc_context3(decoder));
  if (!codec) throw std::bad_alloc();
  int ret = avcodec_parameters_to_context(codec.get(), par);
  if (ret < 0) {
    throw MediaError(cam + ": cannot set up the " + std::string(decoder->name) + " decoder (" + av_error_text(ret) +
                     ")");
  }
  codec->pkt_timebase = st.time_base;
  codec->thread_count = 0;
  codec->thread_type = FF_THREAD_SLICE;
  codec->flags |= AV_CODEC_FLAG_OUTPUT_CORRUPT;
  if (par->codec_id == AV_CODEC_ID_RAWVIDEO) {
    codec->colorspace = r.colorspace;
    codec->color_range = r.range;
  }
  ret = avcodec_open2(codec.get(), decoder, nullptr);
  if (ret < 0) {
    throw MediaError(cam + ": cannot open the " + std::string(decoder->name) + " decoder (" + av_error_text(ret) + ")");
  }
  return codec;
}

}  // namespace

std::unique_ptr<Device> open_device(const Request& r, const CameraInfo& info, std::atomic<bool>* abort) {
  auto dev = std::make_unique<Device>();
  dev->format = open_demuxer(r, info, abort);
  if (dev->format->nb_streams < 1) {
    throw MediaError("cannot open camera " + quoted(r.path) + ": FFmpeg made no video stream for it");
  }
  const AVStream& st = *dev->format->streams[0];
  dev->time_base = st.time_base;
  check_stream(st, r, info);
  const AVCodecID codec_id = st.codecpar->codec_id;
  dev->intra_only = codec_id == AV_CODEC_ID_RAWVIDEO || codec_id == AV_CODEC_ID_MJPEG;
  dev->codec = open_decoder(st, r);
  return dev;
}

}  // namespace vhist::media
