// Hardware decoding through FFmpeg's CUDA hwaccel (NVDEC), internal to app/media: the decoder
// gets a CUDA device context built on the CUcontext and CUstream app/hwdec made for the Vulkan
// device's GPU, and a get_format that picks CUDA surfaces when FFmpeg offers them. When the
// hwaccel refuses the stream (codec, profile, size), FFmpeg asks again without CUDA and the CPU
// decoder goes on; the reason lands in the LogSink (hw_fallback). A decoder that has no CPU path
// (av1) is taken only after NVDEC's capabilities were asked (decoder_for_nvdec).
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

// The decoder to open on NVDEC for a stream whose CPU decoder is `cpu` (avcodec_find_decoder's):
// `cpu` itself when it has the CUDA hwaccel, or when FFmpeg has no other decoder of the codec that
// has it. Else that other decoder (FFmpeg 5.1's own av1, which decodes only through a hwaccel,
// beside libdav1d, which FFmpeg lists first), but only when NVDEC on the GPU of `cuda_context`
// takes the stream (cuvidGetDecoderCaps, the check FFmpeg's hwaccel makes): that decoder cannot
// fall back to the CPU by itself. When NVDEC does not, `cpu` with `why` set ("NVDEC on this GPU
// does not decode av1 4:2:0 8-bit ..."), so the CPU decodes and says why. Any thread.
const AVCodec& decoder_for_nvdec(const AVCodec& cpu, const AVCodecParameters& par, void* cuda_context,
                                 std::string& why);

// The planes of a frame in CUDA memory: its software format (NV12, P010, ...) for the layout,
// AV_PIX_FMT_NONE when `frame` is not a CUDA frame.
AVPixelFormat cuda_sw_format(const AVFrame& frame);

}  // namespace vhist::media
