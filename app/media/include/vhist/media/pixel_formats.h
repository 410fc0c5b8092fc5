// FFmpeg pixel formats and colour metadata -> vhist::VideoFormat (internal to app/media).
//
// A decoder's format is handed to the converters as it is when its layout fits VideoFormat
// (derived generically from FFmpeg's pixel-format descriptor, see direct_layout()); anything else
// goes through libswscale into a handled format of the same or more precision.
#pragma once

#include "vhist/media/media_source.h"

extern "C" {
#include <libavutil/frame.h>
#include <libavutil/pixfmt.h>
}

#include <memory>
#include <optional>

struct SwsContext;
struct AVBufferPool;

namespace vhist::media {

struct AvFrameFree {
  void operator()(AVFrame* f) const;
};
using AvFramePtr = std::unique_ptr<AVFrame, AvFrameFree>;

// The layout of `fmt` when the converters can read it directly: bits, sample bytes, model,
// chroma shifts, components and plane count. Width, height, colour and name are left unset.
// Nothing for big-endian, palette, bitstream, hardware, float, Bayer and XYZ formats, unequal or
// out-of-range depths (yuv 8..12, rgb and gray 8..16) and chroma subsampled beyond 2x.
std::optional<VideoFormat> direct_layout(AVPixelFormat fmt);
// The layout of a frame NVDEC left in GPU memory as `sw_format` for a stream of `depth` bits
// (the decoder's own format's): NVDEC hands deeper-than-8-bit samples in 16-bit words, high bits
// first, so P016 and YUV444P16 hold 10- or 12-bit samples there (shift 16 - depth), not 16-bit
// ones. Else direct_layout(sw_format).
std::optional<VideoFormat> nvdec_layout(AVPixelFormat sw_format, int depth);

// What kind of picture `fmt` holds: rgb (also palette, Bayer and XYZ formats), gray (one
// component, plus alpha) or yuv.
ColourModel source_model(AVPixelFormat fmt);

// The handled format libswscale converts an unhandled `fmt` into: the little-endian twin of a
// big-endian format when that is handled, else by model and depth: yuv -> yuv444p, yuv444p10le,
// yuv444p12le (no matrix involved), deeper yuv -> gbrp16le; rgb -> rgb24, gbrp10le, gbrp12le,
// gbrp16le; gray -> gray, gray10le, gray12le, gray16le.
AVPixelFormat conversion_target(AVPixelFormat fmt);

// Colour metadata -> matrix and range, never unknown (see the .cpp for the rules).
ColourMatrix resolve_matrix(AVColorSpace space, int height);
ColourRange resolve_range(AVColorRange range, AVPixelFormat fmt, ColourModel model);

// Maps decoded AVFrames onto DecodedFrames (format, planes, owner, converted): the frame's own
// planes when their layout fits VideoFormat, else a libswscale copy in a handled format. (Not to
// be confused with compute's FrameConverter, the GPU pass that turns planes into R'G'B'.)
// Keeps one SwsContext and a pool of destination buffers, rebuilt only when the source format,
// size or colour changes. Not thread-safe: one per decoding thread.
class FrameMapper {
 public:
  FrameMapper();
  ~FrameMapper();
  FrameMapper(const FrameMapper&) = delete;
  FrameMapper& operator=(const FrameMapper&) = delete;

  // Fills frame.format, planes, owner and converted from `decoded` (which it takes over).
  // Throws MediaError when the frame's pixel format cannot be converted. `coded`: the decoder's
  // software format (AVCodecContext::sw_pix_fmt), whose depth a hardware frame's layout needs
  // (nvdec_layout).
  void map(AvFramePtr decoded, DecodedFrame& frame, AVPixelFormat coded = AV_PIX_FMT_NONE);

 private:
  struct SwsFree {
    void operator()(SwsContext* c) const;
  };
  struct PoolFree {
    void operator()(AVBufferPool* p) const;
  };
  struct Key {
    int src_format = -1;
    int width = 0;
    int height = 0;
    ColourMatrix matrix = ColourMatrix::bt709;
    ColourRange range = ColourRange::limited;
    bool operator==(const Key&) const = default;
  };
  void prepare(const Key& key, AVPixelFormat dst);
  static void map_direct(AvFramePtr decoded, VideoFormat layout, DecodedFrame& out);
  static void map_cuda(AvFramePtr decoded, VideoFormat layout, DecodedFrame& out);
  void map_converted(AvFramePtr decoded, const Key& key, AVPixelFormat dst, DecodedFrame& out);

  Key key_;
  AVPixelFormat dst_format_;
  VideoFormat dst_layout_;
  std::unique_ptr<SwsContext, SwsFree> sws_;
  std::unique_ptr<AVBufferPool, PoolFree> pool_;
  std::size_t pool_size_ = 0;
};

}  // namespace vhist::media
