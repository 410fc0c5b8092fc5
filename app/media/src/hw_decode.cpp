#include "hw_decode.h"

// FFmpeg's CUDA hwcontext header wants cuda.h's types: the NVDEC headers' declarations
// (libffmpeg-nvenc-dev) are the same ones FFmpeg builds with; nothing is linked. NVDEC's
// capabilities are asked through the process's one loader of the driver (vhist/nvidia).
#include "vhist/nvidia/driver.h"

#include <ffnvcodec/dynlink_loader.h>

extern "C" {
#include <libavutil/hwcontext.h>
#include <libavutil/hwcontext_cuda.h>
#include <libavutil/pixdesc.h>
}

#include <algorithm>

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

// Another decoder of `cpu`'s codec that decodes through the CUDA hwaccel; not one that wraps
// NVDEC by itself (av1_cuvid: AV_CODEC_CAP_HARDWARE), whose frames do not come through the hwaccel.
const AVCodec* other_cuda_decoder(const AVCodec& cpu) {
  void* it = nullptr;
  while (const AVCodec* c = av_codec_iterate(&it)) {
    if (c != &cpu && c->id == cpu.id && av_codec_is_decoder(c) && !(c->capabilities & AV_CODEC_CAP_HARDWARE) &&
        has_cuda_config(*c)) {
      return c;
    }
  }
  return nullptr;
}

bool cuvid_codec(AVCodecID id, cudaVideoCodec& type) {
  switch (id) {
    case AV_CODEC_ID_AV1: type = cudaVideoCodec_AV1; return true;
    case AV_CODEC_ID_H264: type = cudaVideoCodec_H264; return true;
    case AV_CODEC_ID_HEVC: type = cudaVideoCodec_HEVC; return true;
    case AV_CODEC_ID_VP9: type = cudaVideoCodec_VP9; return true;
    case AV_CODEC_ID_VP8: type = cudaVideoCodec_VP8; return true;
    default: return false;
  }
}

// Why NVDEC on the GPU of `cuda_context` cannot decode `par` (the checks of FFmpeg's
// nvdec_test_capabilities), or "". A stream it cannot ask about (layout or size not known before
// decoding) is refused too: the decoder this is for has no CPU path to go on with.
std::string nvdec_refuses(const AVCodecParameters& par, void* cuda_context) {
  cudaVideoCodec type{};
  const AVPixFmtDescriptor* desc = av_pix_fmt_desc_get(static_cast<AVPixelFormat>(par.format));
  if (!cuvid_codec(par.codec_id, type) || !desc || par.width <= 0 || par.height <= 0) {
    return std::string("NVDEC could not be asked about this ") + avcodec_get_name(par.codec_id) +
           " stream (its pixel format or size is not known before decoding)";
  }
  CUVIDDECODECAPS caps{};
  caps.eCodecType = type;
  const char* chroma = nullptr;
  if (desc->nb_components < 3) {
    caps.eChromaFormat = cudaVideoChromaFormat_Monochrome;
    chroma = "monochrome";
  } else if (desc->log2_chroma_w == 1 && desc->log2_chroma_h == 1) {
    caps.eChromaFormat = cudaVideoChromaFormat_420;
    chroma = "4:2:0";
  } else if (desc->log2_chroma_w == 1 && desc->log2_chroma_h == 0) {
    caps.eChromaFormat = cudaVideoChromaFormat_422;
    chroma = "4:2:2";
  } else if (desc->log2_chroma_w == 0 && desc->log2_chroma_h == 0) {
    caps.eChromaFormat = cudaVideoChromaFormat_444;
    chroma = "4:4:4";
  } else {
    return std::string("NVDEC does not decode ") + desc->name;
  }
  caps.nBitDepthMinus8 = static_cast<unsigned>(std::max(0, desc->comp[0].depth - 8));
  const std::string what = std::string(avcodec_get_name(par.codec_id)) + " " + chroma + " " +
                           std::to_string(desc->comp[0].depth) + "-bit";
  const nvidia::Driver& api = nvidia::driver();
  if (!api.cuda) return api.cuda_why;
  if (!api.cuvid) return api.cuvid_why;
  if (api.cuda->cuCtxPushCurrent(static_cast<CUcontext>(cuda_context)) != CUDA_SUCCESS) {
    return "the CUDA context could not be made current to ask NVDEC about " + what;
  }
  const CUresult asked = api.cuvid->cuvidGetDecoderCaps(&caps);
  CUcontext popped = nullptr;
  api.cuda->cuCtxPopCurrent(&popped);
  if (asked != CUDA_SUCCESS) return "cuvidGetDecoderCaps failed for " + what + " (CUresult " + std::to_string(asked) + ")";
  if (!caps.bIsSupported) return "NVDEC on this GPU does not decode " + what + " (cuvidGetDecoderCaps)";
  const auto w = static_cast<unsigned>(par.width), h = static_cast<unsigned>(par.height);
  const unsigned macroblocks = ((w + 15) / 16) * ((h + 15) / 16);
  if (w < caps.nMinWidth || h < caps.nMinHeight || w > caps.nMaxWidth || h > caps.nMaxHeight ||
      macroblocks > caps.nMaxMBCount) {
    return "NVDEC on this GPU decodes " + what + " from " + std::to_string(caps.nMinWidth) + "x" +
           std::to_string(caps.nMinHeight) + " to " + std::to_string(caps.nMaxWidth) + "x" + std::to_string(caps.nMaxHeight) +
           " (" + std::to_string(caps.nMaxMBCount) + " macroblocks), not " + std::to_string(w) + "x" + std::to_string(h);
  }
  return {};
}

}  // namespace

const AVCodec& decoder_for_nvdec(const AVCodec& cpu, const AVCodecParameters& par, void* cuda_context,
                                 std::string& why) {
  if (has_cuda_config(cpu)) return cpu;
  const AVCodec* hw = other_cuda_decoder(cpu);
  if (!hw) return cpu;  // attach_cuda says that this FFmpeg has no hwaccel for it
  why = nvdec_refuses(par, cuda_context);
  return why.empty() ? *hw : cpu;
}

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
