// Hardware decoding through FFmpeg's CUDA hwaccel (NVDEC), internal to app/media: the decoder
// gets a CUDA device context built on the CUcontext and CUstream app/hwdec made for the Vulkan
// device's GPU, and a get_format that picks CUDA surfaces when FFmpeg offers them. When the
// hwaccel refuses the stream (codec, profile, size), FFmpeg asks again without CUDA and the CPU
// decoder goes on; the reason lands in the LogSink (hw_fallback).
#pragma once

#include "ffmpeg_log.h"

extern "C" {
#include <libavcodec/avcodec.h>
}

#include <string>

namespace vhist::media {

// Sets `codec` (before avcodec_open2; its opaque is the LogSink) to decode on CUDA. Returns ""
// or why it cannot (this FFmpeg has no CUDA hwcontext, or no CUDA hwaccel for the decoder).
std::string attach_cuda(AVCodecContext& codec, void* cuda_context, void* cuda_stream);

// The planes of a frame in CUDA memory: its software format (NV12, P010, ...) for the layout,
// AV_PIX_FMT_NONE when `frame` is not a CUDA frame.
AVPixelFormat cuda_sw_format(const AVFrame& frame);

}  // namespace vhist::media
