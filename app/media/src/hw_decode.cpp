#include "hw_decode.h"

// FFmpeg's CUDA hwcontext header wants cuda.h's types: the NVDEC headers' declarations
// (libffmpeg-nvenc-dev) are the same ones FFmpeg builds with; nothing is linked.
#include <ffnvcodec/dynlink_cuda.h>

extern "C" {
#include <libavutil/hwcontext.h>
#include <libavutil/hwcontext_cuda.h>
#include <libavutil/pixdesc.h>
}

namespace vhist::media {
namespace {

struct BufferUnrefGuard {
  AVBufferRef* ref = nullptr;
  ~BufferUnrefGuard() { av_buffer_unref(&ref); }
};

LogSink* sink_of(const AVCodecContext* codec) { return static_cast<LogSink*>(codec->opaque); }

// CUDA surfaces when offered (the hwaccel's own init then checks codec, profile and size);
// else the first software format, with the reason noted.
AVPixelFormat choose_format(AVCodecContext* codec, const AVPixelFormat* formats) {
  LogSink* sink = sink_of(codec);
  for (const AVPixelFormat* f = formats; *f != AV_PIX_FMT_NONE; ++f) {
    if (*f != AV_PIX_FMT_CUDA) continue;
    if (sink) {
      const std::lock_guard lock(sink->mutex);
      sink->hw_chosen = true;
      sink->hw_mark = sink->errors;
      sink->hw_fallback.clear();
    }
    return AV_PIX_FMT_CUDA;
  }
  if (sink) {
    const std::lock_guard lock(sink->mutex);
    const char* profile = avcodec_profile_name(codec->codec_id, codec->profile);
    const char* pix = av_get_pix_fmt_name(codec->sw_pix_fmt);
    std::string what = std::string(avcodec_get_name(codec->codec_id)) + (profile ? std::string(" ") + profile : "") +
                       (pix ? std::string(" ") + pix : "") + " " + std::to_string(codec->coded_width) + "x" +
                       std::to_string(codec->coded_height);
    if (sink->hw_chosen && sink->errors > sink->hw_mark) {
      // The hwaccel's own lines say why it refused; they are not decode errors of the input.
      sink->hw_fallback = "NVDEC refused " + what + " (" + sink->last_error + ")";
      if (sink->hw_mark == 0) sink->first_error.clear();
      sink->errors = sink->hw_mark;
    } else {
      sink->hw_fallback = "FFmpeg's NVDEC hwaccel does not take " + what;
    }
    sink->hw_chosen = false;
  }
  return avcodec_default_get_format(codec, formats);
}

bool has_cuda_config(const AVCodec& decoder) {
  for (int i = 0;; ++i) {
    const AVCodecHWConfig* config = avcodec_get_hw_config(&decoder, i);
    if (!config) return false;
    if (config->device_type == AV_HWDEVICE_TYPE_CUDA && (config->methods & AV_CODEC_HW_CONFIG_METHOD_HW_DEVICE_CTX)) {
      return true;
    }
  }
}

}  // namespace

std::string attach_cuda(AVCodecContext& codec, void* cuda_context, void* cuda_stream) {
  if (!codec.codec || !has_cuda_config(*codec.codec)) {
    return std::string("this FFmpeg's ") + (codec.codec ? codec.codec->name : "?") +
           " decoder has no NVDEC (cuda) hwaccel";
  }
  BufferUnrefGuard device{av_hwdevice_ctx_alloc(AV_HWDEVICE_TYPE_CUDA)};
  if (!device.ref) return "this FFmpeg has no CUDA hardware context";
  auto* hw = reinterpret_cast<AVHWDeviceContext*>(device.ref->data);
  auto* cuda = static_cast<AVCUDADeviceContext*>(hw->hwctx);
  cuda->cuda_ctx = static_cast<CUcontext>(cuda_context);
  cuda->stream = static_cast<CUstream>(cuda_stream);
  if (const int ret = av_hwdevice_ctx_init(device.ref); ret < 0) {
    char text[AV_ERROR_MAX_STRING_SIZE] = {};
    av_strerror(ret, text, sizeof text);
    return std::string("FFmpeg cannot use the CUDA device (") + text + ")";
  }
  codec.hw_device_ctx = av_buffer_ref(device.ref);
  if (!codec.hw_device_ctx) return "out of memory";
  codec.get_format = choose_format;
  return {};
}

AVPixelFormat cuda_sw_format(const AVFrame& frame) {
  if (frame.format != AV_PIX_FMT_CUDA || !frame.hw_frames_ctx) return AV_PIX_FMT_NONE;
  return reinterpret_cast<const AVHWFramesContext*>(frame.hw_frames_ctx->data)->sw_format;
}

}  // namespace vhist::media
