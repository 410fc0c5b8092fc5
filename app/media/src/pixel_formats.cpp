#include "vhist/media/pixel_formats.h"

#include "hw_decode.h"

extern "C" {
#include <libavutil/buffer.h>
#include <libavutil/imgutils.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>
}

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

namespace vhist::media {

void AvFrameFree::operator()(AVFrame* f) const { av_frame_free(&f); }
void FrameMapper::SwsFree::operator()(SwsContext* c) const { sws_freeContext(c); }
// The pool is freed once its last buffer comes back (frames handed out may still hold some).
void FrameMapper::PoolFree::operator()(AVBufferPool* p) const { av_buffer_pool_uninit(&p); }

namespace {

constexpr std::uint64_t kUnhandledFlags = AV_PIX_FMT_FLAG_BE | AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_BITSTREAM |
                                          AV_PIX_FMT_FLAG_HWACCEL | AV_PIX_FMT_FLAG_BAYER | AV_PIX_FMT_FLAG_FLOAT;

bool is_xyz(AVPixelFormat fmt) { return fmt == AV_PIX_FMT_XYZ12LE || fmt == AV_PIX_FMT_XYZ12BE; }

bool is_yuvj(AVPixelFormat fmt) {
  switch (fmt) {
    case AV_PIX_FMT_YUVJ420P:
    case AV_PIX_FMT_YUVJ422P:
    case AV_PIX_FMT_YUVJ444P:
    case AV_PIX_FMT_YUVJ440P:
    case AV_PIX_FMT_YUVJ411P:
      return true;
    default:
      return false;
  }
}

std::string pix_fmt_name(int fmt) {
  const char* name = av_get_pix_fmt_name(static_cast<AVPixelFormat>(fmt));
  return name ? name : "pixel format " + std::to_string(fmt);
}

// The deepest of the colour components (not alpha) of `fmt`.
int colour_depth(const AVPixFmtDescriptor& d, ColourModel model) {
  if (d.flags & AV_PIX_FMT_FLAG_BAYER) return av_get_bits_per_pixel(&d) <= 8 ? 8 : 16;
  if (d.flags & AV_PIX_FMT_FLAG_PAL) return 8;
  const int used = model == ColourModel::gray ? 1 : std::min<int>(3, d.nb_components);
  int depth = 0;
  for (int c = 0; c < used; ++c) depth = std::max(depth, d.comp[c].depth);
  return depth;
}

// The frame's alpha samples (its format's last component when it has alpha), or none.
AlphaPlane alpha_plane(const AVFrame& frame) {
  const AVPixFmtDescriptor* d = av_pix_fmt_desc_get(static_cast<AVPixelFormat>(frame.format));
  if (!d || !(d->flags & AV_PIX_FMT_FLAG_ALPHA) || d->nb_components < 2) return {};
  const AVComponentDescriptor& c = d->comp[d->nb_components - 1];
  const int bytes = c.depth > 8 ? 2 : 1;
  if (c.depth < 1 || c.depth > 16 || c.plane < 0 || c.plane > 3 || frame.linesize[c.plane] <= 0 ||
      c.shift + c.depth > 8 * bytes) {
    return {};
  }
  AlphaPlane a;
  a.data = reinterpret_cast<const std::byte*>(frame.data[c.plane]);
  a.stride = static_cast<std::uint32_t>(frame.linesize[c.plane]);
  a.layout = ComponentLayout{0, static_cast<std::uint32_t>(c.offset), static_cast<std::uint32_t>(c.step),
                             static_cast<std::uint32_t>(c.shift)};
  a.bits = static_cast<std::uint32_t>(c.depth);
  a.sample_bytes = static_cast<std::uint32_t>(bytes);
  return a;
}

}  // namespace

ColourModel source_model(AVPixelFormat fmt) {
  const AVPixFmtDescriptor* d = av_pix_fmt_desc_get(fmt);
  if (!d) return ColourModel::yuv;
  if ((d->flags & (AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_BAYER)) || is_xyz(fmt)) {
    return ColourModel::rgb;
  }
  return d->nb_components <= 2 ? ColourModel::gray : ColourModel::yuv;
}

std::optional<VideoFormat> direct_layout(AVPixelFormat fmt) {
  const AVPixFmtDescriptor* d = av_pix_fmt_desc_get(fmt);
  if (!d || (d->flags & kUnhandledFlags) || is_xyz(fmt)) return std::nullopt;
  VideoFormat f;
  f.model = source_model(fmt);
  if (f.model != ColourModel::gray && d->nb_components < 3) return std::nullopt;
  const int used = f.model == ColourModel::gray ? 1 : 3;
  // FFmpeg lists colour components as Y, U, V or R, G, B whatever the planes' order (gbrp has
  // comp[0] = R in plane 2); alpha, when present, is comp[3] (comp[1] for ya8) and is ignored.
  const int depth = d->comp[0].depth;
  const int max_depth = f.model == ColourModel::yuv ? 12 : 16;
  if (depth < 8 || depth > max_depth) return std::nullopt;
  f.bits = static_cast<std::uint32_t>(depth);
  f.sample_bytes = depth == 8 ? 1 : 2;
  if (f.model == ColourModel::yuv) {
    if (d->log2_chroma_w > 1 || d->log2_chroma_h > 1) return std::nullopt;
    f.chroma_shift_x = d->log2_chroma_w;
    f.chroma_shift_y = d->log2_chroma_h;
  } else if (d->log2_chroma_w != 0 || d->log2_chroma_h != 0) {
    return std::nullopt;
  }
  std::uint32_t planes = 0;
  for (int c = 0; c < used; ++c) {
    const AVComponentDescriptor& comp = d->comp[c];
    if (comp.depth != depth || comp.plane < 0 || comp.plane > 2 || comp.offset < 0 || comp.shift < 0 ||
        comp.step < static_cast<int>(f.sample_bytes)) {
      return std::nullopt;
    }
    if (comp.shift + depth > 8 * static_cast<int>(f.sample_bytes)) return std::nullopt;
    f.components[static_cast<std::size_t>(c)] = ComponentLayout{static_cast<std::uint32_t>(comp.plane),
                                                                static_cast<std::uint32_t>(comp.offset),
                                                                static_cast<std::uint32_t>(comp.step),
                                                                static_cast<std::uint32_t>(comp.shift)};
    planes = std::max(planes, static_cast<std::uint32_t>(comp.plane) + 1);
  }
  f.plane_count = planes;
  f.width = 1;
  f.height = 1;
  f.pixel_format = d->name;
  if (!check_video_format(f).empty()) return std::nullopt;  // e.g. a plane only alpha uses
  f.width = 0;
  f.height = 0;
  f.pixel_format.clear();
  return f;
}

AVPixelFormat conversion_target(AVPixelFormat fmt) {
  const AVPixFmtDescriptor* d = av_pix_fmt_desc_get(fmt);
  if (!d) return AV_PIX_FMT_NONE;
  if (d->flags & AV_PIX_FMT_FLAG_BE) {
    std::string twin = d->name;
    if (twin.size() > 2 && twin.compare(twin.size() - 2, 2, "be") == 0) {
      twin.replace(twin.size() - 2, 2, "le");
      const AVPixelFormat le = av_get_pix_fmt(twin.c_str());
      if (le != AV_PIX_FMT_NONE && direct_layout(le)) return le;
    }
  }
  const ColourModel model = source_model(fmt);
  const int depth = colour_depth(*d, model);
  switch (model) {
    case ColourModel::yuv:
      if (depth <= 8) return AV_PIX_FMT_YUV444P;
      if (depth <= 10) return AV_PIX_FMT_YUV444P10LE;
      if (depth <= 12) return AV_PIX_FMT_YUV444P12LE;
      return AV_PIX_FMT_GBRP16LE;
    case ColourModel::rgb:
      if (depth <= 8) return AV_PIX_FMT_RGB24;
      if (depth <= 10) return AV_PIX_FMT_GBRP10LE;
      if (depth <= 12) return AV_PIX_FMT_GBRP12LE;
      return AV_PIX_FMT_GBRP16LE;
    case ColourModel::gray:
      if (depth <= 8) return AV_PIX_FMT_GRAY8;
      if (depth <= 10) return AV_PIX_FMT_GRAY10LE;
      if (depth <= 12) return AV_PIX_FMT_GRAY12LE;
      return AV_PIX_FMT_GRAY16LE;
  }
  return AV_PIX_FMT_NONE;
}

// Matrix from the frame's colorspace:
//   BT709 -> bt709; BT470BG, SMPTE170M, FCC -> bt601;
//   SMPTE240M -> bt709: its coefficients (Kr 0.212, Kb 0.087) are far closer to BT.709's
//     (0.2126, 0.0722) than to BT.601's (0.299, 0.114);
//   BT2020_NCL -> bt2020; BT2020_CL -> bt2020 too: constant-luminance decoding is not
//     implemented, the non-constant matrix is the nearest approximation;
//   anything else (unspecified, reserved, YCgCo, ICtCp, ...) -> the usual guess for untagged
//     video: bt709 for HD (height >= 720), bt601 below.
ColourMatrix resolve_matrix(AVColorSpace space, int height) {
  switch (space) {
    case AVCOL_SPC_BT709:
    case AVCOL_SPC_SMPTE240M:
      return ColourMatrix::bt709;
    case AVCOL_SPC_BT470BG:
    case AVCOL_SPC_SMPTE170M:
    case AVCOL_SPC_FCC:
      return ColourMatrix::bt601;
    case AVCOL_SPC_BT2020_NCL:
    case AVCOL_SPC_BT2020_CL:
      return ColourMatrix::bt2020;
    default:
      return height >= 720 ? ColourMatrix::bt709 : ColourMatrix::bt601;
  }
}

// Range: rgb is always full; gray is full unless the frame says MPEG; yuv follows the frame,
// and when unspecified is full for the yuvj* formats and limited otherwise.
ColourRange resolve_range(AVColorRange range, AVPixelFormat fmt, ColourModel model) {
  switch (model) {
    case ColourModel::rgb:
      return ColourRange::full;
    case ColourModel::gray:
      return range == AVCOL_RANGE_MPEG ? ColourRange::limited : ColourRange::full;
    case ColourModel::yuv:
      if (range == AVCOL_RANGE_MPEG) return ColourRange::limited;
      if (range == AVCOL_RANGE_JPEG) return ColourRange::full;
      return is_yuvj(fmt) ? ColourRange::full : ColourRange::limited;
  }
  return ColourRange::limited;
}

namespace {

int sws_colorspace(ColourMatrix m) {
  switch (m) {
    case ColourMatrix::bt601: return SWS_CS_ITU601;
    case ColourMatrix::bt709: return SWS_CS_ITU709;
    case ColourMatrix::bt2020: return SWS_CS_BT2020;
  }
  return SWS_CS_DEFAULT;
}

struct BufferUnref {
  void operator()(AVBufferRef* b) const { av_buffer_unref(&b); }
};

}  // namespace

FrameMapper::FrameMapper() : dst_format_(AV_PIX_FMT_NONE) {}
FrameMapper::~FrameMapper() = default;

void FrameMapper::prepare(const Key& key, AVPixelFormat dst) {
  if (key == key_ && sws_) return;
  const auto src = static_cast<AVPixelFormat>(key.src_format);
  if (!sws_isSupportedInput(src) || !sws_isSupportedOutput(dst)) {
    throw MediaError("pixel format " + pix_fmt_name(key.src_format) + " is not supported (libswscale cannot convert it)");
  }
  const std::optional<VideoFormat> layout = direct_layout(dst);
  if (!layout) throw MediaError("internal error: conversion target " + pix_fmt_name(dst) + " is not handled");
  // Point sampling: chroma upsampling repeats samples rather than inventing new values, which
  // keeps a histogram of the converted frame that of the decoded one.
  const int flags = SWS_POINT | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT | SWS_FULL_CHR_H_INP;
  sws_.reset(sws_getContext(key.width, key.height, src, key.width, key.height, dst, flags, nullptr, nullptr, nullptr));
  if (!sws_) {
    throw MediaError("cannot convert " + pix_fmt_name(key.src_format) + " frames of " + std::to_string(key.width) +
                     "x" + std::to_string(key.height) + " (libswscale refused)");
  }
  // Colour: yuv -> yuv and gray -> gray keep the source's range (no range conversion: the
  // result carries the same matrix and range); yuv -> rgb uses the frame's matrix and range
  // and produces full-range R'G'B'.
  const ColourModel src_model = source_model(src);
  const int* table = sws_getCoefficients(sws_colorspace(key.matrix));
  const int src_full = key.range == ColourRange::full ? 1 : 0;
  int dst_full = src_full;
  if (layout->model == ColourModel::rgb) dst_full = 1;
  if (src_model != ColourModel::rgb) {
    sws_setColorspaceDetails(sws_.get(), table, src_full, table, dst_full, 0, 1 << 16, 1 << 16);
  }
  const int size = av_image_get_buffer_size(dst, key.width, key.height, 64);
  if (size < 0) throw MediaError("cannot convert " + pix_fmt_name(key.src_format) + ": frame too large");
  const std::size_t pool_size = static_cast<std::size_t>(size) + 64;
  if (!pool_ || pool_size != pool_size_) {
    pool_.reset(av_buffer_pool_init(pool_size, nullptr));
    if (!pool_) throw std::bad_alloc();
    pool_size_ = pool_size;
  }
  dst_layout_ = *layout;
  dst_format_ = dst;
  key_ = key;
}

std::optional<VideoFormat> nvdec_layout(AVPixelFormat sw_format, int depth) {
  const bool wide = sw_format == AV_PIX_FMT_P016LE || sw_format == AV_PIX_FMT_YUV444P16LE;
  if (!wide || depth <= 8 || depth >= 16) return direct_layout(sw_format);
  // The same planes as P010 / YUV444P10 hold, with `depth` bits at the top of each word.
  std::optional<VideoFormat> f =
      direct_layout(sw_format == AV_PIX_FMT_P016LE ? AV_PIX_FMT_P010LE : AV_PIX_FMT_YUV444P10LE);
  if (!f) return f;
  f->bits = static_cast<std::uint32_t>(depth);
  for (ComponentLayout& c : f->components) c.shift = static_cast<std::uint32_t>(16 - depth);
  return f;
}

void FrameMapper::map(AvFramePtr decoded, DecodedFrame& out, AVPixelFormat coded) {
  // A hardware decoder's frame is laid out as its software format says, in GPU memory.
  const AVPixelFormat on_gpu = cuda_sw_format(*decoded);
  const auto fmt = on_gpu != AV_PIX_FMT_NONE ? on_gpu : static_cast<AVPixelFormat>(decoded->format);
  const ColourModel model = source_model(fmt);
  // Decoders copy these codes from the bitstream unchecked (mpeg2video: matrix 255), outside the
  // enums' values: read them as integers and treat unknown codes as unspecified.
  int colorspace = 0, color_range = 0;
  std::memcpy(&colorspace, &decoded->colorspace, sizeof colorspace);
  std::memcpy(&color_range, &decoded->color_range, sizeof color_range);
  if (colorspace < 0 || colorspace >= AVCOL_SPC_NB) colorspace = AVCOL_SPC_UNSPECIFIED;
  if (color_range < 0 || color_range >= AVCOL_RANGE_NB) color_range = AVCOL_RANGE_UNSPECIFIED;
  const ColourMatrix matrix = resolve_matrix(static_cast<AVColorSpace>(colorspace), decoded->height);
  const ColourRange range = resolve_range(static_cast<AVColorRange>(color_range), fmt, model);
  if (decoded->width <= 0 || decoded->height <= 0) throw MediaError("decoder produced an empty frame");

  out.planes = {};
  out.device = {};
  const AVPixFmtDescriptor* coded_desc = av_pix_fmt_desc_get(coded);
  const int depth = coded_desc ? coded_desc->comp[0].depth : 0;
  if (std::optional<VideoFormat> layout = on_gpu != AV_PIX_FMT_NONE ? nvdec_layout(fmt, depth) : direct_layout(fmt)) {
    layout->matrix = matrix;
    layout->range = range;
    if (on_gpu != AV_PIX_FMT_NONE) {
      map_cuda(std::move(decoded), std::move(*layout), out);
    } else {
      map_direct(std::move(decoded), std::move(*layout), out);
    }
    return;
  }
  if (on_gpu != AV_PIX_FMT_NONE) throw MediaError("NVDEC output " + pix_fmt_name(fmt) + " frames, which vhist cannot read");
  const AVPixelFormat dst = conversion_target(fmt);
  if (dst == AV_PIX_FMT_NONE) throw MediaError("pixel format " + pix_fmt_name(fmt) + " is not supported");
  const Key key{decoded->format, decoded->width, decoded->height, matrix, range};
  map_converted(std::move(decoded), key, dst, out);
}

// The decoder's planes as they are (the frame becomes the owner); bottom-up pictures (negative
// strides) are copied top-down into memory of our own.
void FrameMapper::map_direct(AvFramePtr decoded, VideoFormat f, DecodedFrame& out) {
  f.width = static_cast<std::uint32_t>(decoded->width);
  f.height = static_cast<std::uint32_t>(decoded->height);
  f.pixel_format = pix_fmt_name(decoded->format);
  bool negative = false;
  for (std::uint32_t p = 0; p < f.plane_count; ++p) negative = negative || decoded->linesize[p] < 0;
  out.converted = false;
  if (!negative) {
    for (std::uint32_t p = 0; p < f.plane_count; ++p) {
      out.planes.data[p] = reinterpret_cast<const std::byte*>(decoded->data[p]);
      out.planes.stride[p] = static_cast<std::uint32_t>(decoded->linesize[p]);
    }
    out.alpha = alpha_plane(*decoded);
    out.owner = std::shared_ptr<const AVFrame>(decoded.release(), AvFrameFree{});
    out.format = std::move(f);
    return;
  }
  std::array<std::size_t, 3> offsets{};
  std::size_t total = 0;
  for (std::uint32_t p = 0; p < f.plane_count; ++p) {
    const std::uint32_t stride = (f.plane_row_bytes(p) + 63u) & ~63u;
    out.planes.stride[p] = stride;
    offsets[p] = total;
    total += std::size_t{stride} * f.plane_rows(p);
  }
  auto buffer = std::make_shared<std::vector<std::byte>>(total);
  for (std::uint32_t p = 0; p < f.plane_count; ++p) {
    std::byte* dst = buffer->data() + offsets[p];
    const std::uint8_t* src = decoded->data[p];
    for (std::uint32_t y = 0; y < f.plane_rows(p); ++y) {
      std::memcpy(dst + std::size_t{y} * out.planes.stride[p], src + std::ptrdiff_t{decoded->linesize[p]} * y,
                  f.plane_row_bytes(p));
    }
    out.planes.data[p] = dst;
  }
  out.owner = std::move(buffer);
  out.format = std::move(f);
}

// A CUDA frame: the planes' device addresses and strides (the frame stays the owner, so that
// FFmpeg reuses its surface only after the caller is done with it).
void FrameMapper::map_cuda(AvFramePtr decoded, VideoFormat f, DecodedFrame& out) {
  f.width = static_cast<std::uint32_t>(decoded->width);
  f.height = static_cast<std::uint32_t>(decoded->height);
  f.pixel_format = pix_fmt_name(cuda_sw_format(*decoded));
  out.converted = false;
  out.device.memory = FrameMemory::cuda;
  for (std::uint32_t p = 0; p < f.plane_count; ++p) {
    if (decoded->linesize[p] <= 0) throw MediaError("NVDEC gave a frame without plane " + std::to_string(p));
    out.device.address[p] = reinterpret_cast<std::uintptr_t>(decoded->data[p]);
    out.planes.stride[p] = static_cast<std::uint32_t>(decoded->linesize[p]);
  }
  out.owner = std::shared_ptr<const AVFrame>(decoded.release(), AvFrameFree{});
  out.format = std::move(f);
}

// Through libswscale into `dst`, a handled format, in a buffer from the pool.
void FrameMapper::map_converted(AvFramePtr decoded, const Key& key, AVPixelFormat dst, DecodedFrame& out) {
  const auto fmt = static_cast<AVPixelFormat>(decoded->format);
  prepare(key, dst);
  std::unique_ptr<AVBufferRef, BufferUnref> buffer(av_buffer_pool_get(pool_.get()));
  if (!buffer) throw std::bad_alloc();
  std::uint8_t* data[4] = {};
  int linesize[4] = {};
  if (av_image_fill_arrays(data, linesize, buffer->data, dst_format_, decoded->width, decoded->height, 64) < 0) {
    throw MediaError("cannot convert " + pix_fmt_name(fmt) + " frames");
  }
  const int rows = sws_scale(sws_.get(), decoded->data, decoded->linesize, 0, decoded->height, data, linesize);
  if (rows != decoded->height) throw MediaError("libswscale failed to convert a " + pix_fmt_name(fmt) + " frame");

  VideoFormat f = dst_layout_;
  f.width = static_cast<std::uint32_t>(decoded->width);
  f.height = static_cast<std::uint32_t>(decoded->height);
  f.matrix = key.matrix;
  f.range = f.model == ColourModel::rgb ? ColourRange::full : key.range;
  f.pixel_format = pix_fmt_name(fmt);
  for (std::uint32_t p = 0; p < f.plane_count; ++p) {
    out.planes.data[p] = reinterpret_cast<const std::byte*>(data[p]);
    out.planes.stride[p] = static_cast<std::uint32_t>(linesize[p]);
  }
  out.format = std::move(f);
  out.converted = true;
  out.owner = std::shared_ptr<const AVBufferRef>(buffer.release(), BufferUnref{});
}

}  // namespace vhist::media
