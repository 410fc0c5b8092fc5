#include "media/png.h"

#include "media/av_handles.h"
#include "media/pixel_formats.h"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/dict.h>
#include <libavutil/imgutils.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>
}

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string_view>
#include <utility>

namespace vhist::media {
namespace {

struct SwsFree {
  void operator()(SwsContext* c) const { sws_freeContext(c); }
};
using SwsPtr = std::unique_ptr<SwsContext, SwsFree>;

AvFramePtr new_frame() {
  AvFramePtr f(av_frame_alloc());
  if (!f) throw std::bad_alloc();
  return f;
}

PacketPtr new_packet() {
  PacketPtr p(av_packet_alloc());
  if (!p) throw std::bad_alloc();
  return p;
}

// ---------------------------------------------------------------------------------------------
// Writing

// An open file descriptor, closed (errors ignored) unless close() was called.
class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  // Closes now; the error (errno) of close(2), 0 when none.
  int close() {
    const int fd = fd_;
    fd_ = -1;
    return ::close(fd) == 0 ? 0 : errno;
  }

 private:
  int fd_;
};

// Removes the temporary file unless dismissed.
class RemoveOnFailure {
 public:
  explicit RemoveOnFailure(std::string path) : path_(std::move(path)) {}
  ~RemoveOnFailure() {
    if (!path_.empty()) ::unlink(path_.c_str());
  }
  RemoveOnFailure(const RemoveOnFailure&) = delete;
  RemoveOnFailure& operator=(const RemoveOnFailure&) = delete;
  void dismiss() { path_.clear(); }

 private:
  std::string path_;
};

// What is wrong with `image` for encoding; empty when nothing.
std::string check_image(const RgbaImage& image) {
  if (image.width == 0 || image.height == 0) {
    return "the image is empty (" + std::to_string(image.width) + "x" + std::to_string(image.height) + ")";
  }
  if (av_image_check_size(image.width, image.height, 0, nullptr) < 0) {
    return "the image is too large for FFmpeg (" + std::to_string(image.width) + "x" +
           std::to_string(image.height) + ")";
  }
  const std::uint64_t expected = std::uint64_t{image.width} * image.height * 4;
  if (image.pixels.size() != expected) {
    return "the pixel buffer holds " + std::to_string(image.pixels.size()) + " bytes, " +
           std::to_string(image.width) + "x" + std::to_string(image.height) + " RGBA needs " +
           std::to_string(expected);
  }
  return {};
}

// The PNG file's bytes, or (second) what went wrong.
std::pair<std::vector<std::uint8_t>, std::string> encode_png(const RgbaImage& image) {
  const AVCodec* encoder = avcodec_find_encoder(AV_CODEC_ID_PNG);
  if (!encoder) return {{}, "this FFmpeg build has no PNG encoder"};

  bool opaque = true;
  for (std::size_t i = 3; i < image.pixels.size() && opaque; i += 4) opaque = image.pixels[i] == 255;
  const AVPixelFormat format = opaque ? AV_PIX_FMT_RGB24 : AV_PIX_FMT_RGBA;
  const int w = static_cast<int>(image.width);
  const int h = static_cast<int>(image.height);

  CodecPtr codec(avcodec_alloc_context3(encoder));
  if (!codec) throw std::bad_alloc();
  codec->width = w;
  codec->height = h;
  codec->pix_fmt = format;
  codec->time_base = AVRational{1, 1};
  codec->thread_count = 1;  // one frame: threads would only add start-up cost
  int ret = avcodec_open2(codec.get(), encoder, nullptr);
  if (ret < 0) return {{}, "cannot open the PNG encoder (" + av_error(ret) + ")"};

  AvFramePtr frame = new_frame();
  frame->format = format;
  frame->width = w;
  frame->height = h;
  ret = av_frame_get_buffer(frame.get(), 0);
  if (ret == AVERROR(ENOMEM)) throw std::bad_alloc();
  if (ret < 0) return {{}, "cannot allocate a frame (" + av_error(ret) + ")"};
  const std::size_t row_bytes = std::size_t{image.width} * 4;
  for (std::uint32_t y = 0; y < image.height; ++y) {
    const std::uint8_t* src = image.pixels.data() + y * row_bytes;
    std::uint8_t* dst = frame->data[0] + static_cast<std::ptrdiff_t>(y) * frame->linesize[0];
    if (!opaque) {
      std::memcpy(dst, src, row_bytes);
      continue;
    }
    for (std::uint32_t x = 0; x < image.width; ++x, src += 4, dst += 3) {
      dst[0] = src[0];
      dst[1] = src[1];
      dst[2] = src[2];
    }
  }
  frame->pts = 0;

  ret = avcodec_send_frame(codec.get(), frame.get());
  if (ret < 0) return {{}, "the PNG encoder rejected the image (" + av_error(ret) + ")"};
  ret = avcodec_send_frame(codec.get(), nullptr);
  if (ret < 0 && ret != AVERROR_EOF) return {{}, "cannot flush the PNG encoder (" + av_error(ret) + ")"};
  std::vector<std::uint8_t> bytes;
  PacketPtr packet = new_packet();
  while ((ret = avcodec_receive_packet(codec.get(), packet.get())) >= 0) {
    bytes.insert(bytes.end(), packet->data, packet->data + packet->size);
    av_packet_unref(packet.get());
  }
  if (ret != AVERROR_EOF) return {{}, "the PNG encoder failed (" + av_error(ret) + ")"};
  if (bytes.empty()) return {{}, "the PNG encoder produced no data"};
  return {std::move(bytes), {}};
}

// Writes `bytes` to `tmp`, flushes it to disk and renames it to `path`; what failed, else empty.
std::string write_atomically(const std::string& path, const std::vector<std::uint8_t>& bytes) {
  const std::string tmp = path + ".tmp";
  Fd fd(::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666));
  if (fd.get() < 0) return "cannot create " + quoted(tmp) + ": " + std::strerror(errno);
  RemoveOnFailure cleanup(tmp);
  const std::uint8_t* data = bytes.data();
  std::size_t left = bytes.size();
  while (left > 0) {
    const ssize_t n = ::write(fd.get(), data, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      return "cannot write " + quoted(tmp) + ": " + std::strerror(errno);
    }
    data += n;
    left -= static_cast<std::size_t>(n);
  }
  // On disk before the rename, so that a crash leaves the old file or the whole new one.
  if (::fsync(fd.get()) != 0 && errno != EINVAL && errno != EROFS) {
    return "cannot flush " + quoted(tmp) + " to disk: " + std::strerror(errno);
  }
  if (const int err = fd.close(); err != 0) return "cannot close " + quoted(tmp) + ": " + std::strerror(err);
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    return "cannot rename " + quoted(tmp) + " to " + quoted(path) + ": " + std::strerror(errno);
  }
  cleanup.dismiss();
  return {};
}

// ---------------------------------------------------------------------------------------------
// Reading

// The checks libavformat would answer vaguely: what the path is, before opening it.
void check_local_file(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    const int err = errno;
    if (err == ENOENT || err == ENOTDIR) throw MediaError("cannot open " + quoted(path) + ": no such file");
    if (err == EACCES || err == EPERM) throw MediaError("cannot open " + quoted(path) + ": permission denied");
    throw MediaError("cannot open " + quoted(path) + ": " + std::strerror(err));
  }
  if (S_ISDIR(st.st_mode)) throw MediaError(quoted(path) + " is a directory, not an image file");
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    const int err = errno;
    if (err == EACCES || err == EPERM) throw MediaError("cannot open " + quoted(path) + ": permission denied");
    throw MediaError("cannot open " + quoted(path) + ": " + std::strerror(err));
  }
  ::close(fd);
  if (S_ISREG(st.st_mode) && st.st_size == 0) throw MediaError(quoted(path) + " is empty (0 bytes)");
}

// Still-image demuxers: image2 (by file name), the image pipes (png_pipe, jpeg_pipe, ..., by
// content), and gif and apng (first frame). Probing also finds demuxers that "read" anything:
// tty takes any .txt file as ANSI art.
bool is_image_demuxer(const char* name) {
  if (!name) return false;
  const std::string_view n(name);
  return n == "image2" || n == "image2pipe" || n == "gif" || n == "apng" ||
         (n.size() > 5 && n.substr(n.size() - 5) == "_pipe");
}

// A `depth`-bit value -> 8 bits, scaled by 255 / (2^depth - 1) and rounded to nearest (the PNG
// specification's most accurate way): 16-bit v * 257 gives back v, 1-bit 1 gives 255.
std::uint8_t to_8bit(std::uint32_t v, int depth) {
  if (depth == 8) return static_cast<std::uint8_t>(v);
  const std::uint32_t max = (1u << depth) - 1;
  return static_cast<std::uint8_t>((std::min(v, max) * 255u + max / 2) / max);
}

// Exact conversion of RGB and gray formats (any packing, endianness, depth up to 16, with or
// without alpha) through the descriptor; false when `fmt` is not one of them.
bool convert_direct(const AVFrame& frame, RgbaImage& out) {
  const auto fmt = static_cast<AVPixelFormat>(frame.format);
  const AVPixFmtDescriptor* d = av_pix_fmt_desc_get(fmt);
  if (!d || (d->flags & (AV_PIX_FMT_FLAG_HWACCEL | AV_PIX_FMT_FLAG_BAYER | AV_PIX_FMT_FLAG_FLOAT)) ||
      fmt == AV_PIX_FMT_XYZ12LE || fmt == AV_PIX_FMT_XYZ12BE || d->log2_chroma_w != 0 || d->log2_chroma_h != 0) {
    return false;
  }
  const std::uint32_t w = out.width;
  const std::uint32_t h = out.height;
  if (d->flags & AV_PIX_FMT_FLAG_PAL) {
    if (fmt != AV_PIX_FMT_PAL8 || !frame.data[1]) return false;
    // Palette entries are native-endian 0xAARRGGBB.
    const auto* palette = reinterpret_cast<const std::uint32_t*>(frame.data[1]);
    for (std::uint32_t y = 0; y < h; ++y) {
      const std::uint8_t* src = frame.data[0] + static_cast<std::ptrdiff_t>(y) * frame.linesize[0];
      std::uint8_t* dst = out.pixels.data() + std::size_t{y} * w * 4;
      for (std::uint32_t x = 0; x < w; ++x, dst += 4) {
        const std::uint32_t entry = palette[src[x]];
        dst[0] = static_cast<std::uint8_t>(entry >> 16);
        dst[1] = static_cast<std::uint8_t>(entry >> 8);
        dst[2] = static_cast<std::uint8_t>(entry);
        dst[3] = static_cast<std::uint8_t>(entry >> 24);
      }
    }
    return true;
  }
  const ColourModel model = source_model(fmt);
  if (model == ColourModel::yuv) return false;
  const int colours = model == ColourModel::gray ? 1 : 3;
  const bool alpha = (d->flags & AV_PIX_FMT_FLAG_ALPHA) != 0 && d->nb_components == colours + 1;
  const int components = colours + (alpha ? 1 : 0);
  if (d->nb_components < components) return false;
  for (int c = 0; c < components; ++c) {
    if (d->comp[c].depth < 1 || d->comp[c].depth > 16) return false;
  }
  std::vector<std::uint16_t> line(w);
  const std::uint8_t* data[4] = {frame.data[0], frame.data[1], frame.data[2], frame.data[3]};
  const int linesize[4] = {frame.linesize[0], frame.linesize[1], frame.linesize[2], frame.linesize[3]};
  for (std::uint32_t y = 0; y < h; ++y) {
    std::uint8_t* row = out.pixels.data() + std::size_t{y} * w * 4;
    for (int c = 0; c < components; ++c) {
      av_read_image_line2(line.data(), data, linesize, d, 0, static_cast<int>(y), c, static_cast<int>(w), 0, 2);
      const int depth = d->comp[c].depth;
      if (c < colours) {
        for (std::uint32_t x = 0; x < w; ++x) {
          const std::uint8_t v = to_8bit(line[x], depth);
          if (colours == 1) {
            row[x * 4] = row[x * 4 + 1] = row[x * 4 + 2] = v;
          } else {
            row[x * 4 + static_cast<std::uint32_t>(c)] = v;
          }
        }
      } else {
        for (std::uint32_t x = 0; x < w; ++x) row[x * 4 + 3] = to_8bit(line[x], depth);
      }
    }
    if (!alpha) {
      for (std::uint32_t x = 0; x < w; ++x) row[x * 4 + 3] = 255;
    }
  }
  return true;
}

// The yuvj formats (JPEG's full range, deprecated in libswscale) as their plain twins; the range
// goes to the converter separately.
AVPixelFormat without_j(AVPixelFormat fmt) {
  switch (fmt) {
    case AV_PIX_FMT_YUVJ420P: return AV_PIX_FMT_YUV420P;
    case AV_PIX_FMT_YUVJ422P: return AV_PIX_FMT_YUV422P;
    case AV_PIX_FMT_YUVJ444P: return AV_PIX_FMT_YUV444P;
    case AV_PIX_FMT_YUVJ440P: return AV_PIX_FMT_YUV440P;
    case AV_PIX_FMT_YUVJ411P: return AV_PIX_FMT_YUV411P;
    default: return fmt;
  }
}

// Anything else (YUV from JPEG, WebP, ...; float; Bayer; XYZ) through libswscale.
void convert_swscale(const AVFrame& frame, RgbaImage& out, const std::string& path) {
  const auto decoded = static_cast<AVPixelFormat>(frame.format);
  const AVPixelFormat fmt = without_j(decoded);
  const bool full_range = frame.color_range == AVCOL_RANGE_JPEG || fmt != decoded;
  const char* name = av_get_pix_fmt_name(decoded);
  const std::string fmt_name = name ? name : "pixel format " + std::to_string(frame.format);
  if (!sws_isSupportedInput(fmt)) {
    throw MediaError(quoted(path) + ": cannot convert " + fmt_name + " to RGBA (libswscale does not read it)");
  }
  const int w = static_cast<int>(out.width);
  const int h = static_cast<int>(out.height);
  SwsPtr sws(sws_getContext(w, h, fmt, w, h, AV_PIX_FMT_RGBA,
                            SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT | SWS_FULL_CHR_H_INP, nullptr,
                            nullptr, nullptr));
  if (!sws) throw MediaError(quoted(path) + ": cannot set up the conversion from " + fmt_name + " to RGBA");
  if (source_model(fmt) == ColourModel::yuv) {
    // The matrix and range the file says; BT.601 when it says nothing (JPEG's own).
    int* inv_table = nullptr;
    int* table = nullptr;
    int src_range = 0;
    int dst_range = 0;
    int brightness = 0;
    int contrast = 0;
    int saturation = 0;
    if (sws_getColorspaceDetails(sws.get(), &inv_table, &src_range, &table, &dst_range, &brightness, &contrast,
                                 &saturation) >= 0) {
      const int space = frame.colorspace == AVCOL_SPC_UNSPECIFIED ? SWS_CS_ITU601 : frame.colorspace;
      src_range = full_range ? 1 : 0;
      sws_setColorspaceDetails(sws.get(), sws_getCoefficients(space), src_range, table, 1, brightness, contrast,
                               saturation);
    }
  }
  std::uint8_t* dst[4] = {out.pixels.data(), nullptr, nullptr, nullptr};
  const int dst_stride[4] = {w * 4, 0, 0, 0};
  const int rows = sws_scale(sws.get(), frame.data, frame.linesize, 0, h, dst, dst_stride);
  if (rows != h) throw MediaError(quoted(path) + ": converting " + fmt_name + " to RGBA failed");
}

}  // namespace

std::array<std::uint8_t, 4> RgbaImage::at(std::uint32_t x, std::uint32_t y) const {
  if (x >= width || y >= height) {
    throw std::out_of_range("pixel (" + std::to_string(x) + ", " + std::to_string(y) + ") is outside the " +
                            std::to_string(width) + "x" + std::to_string(height) + " image");
  }
  const std::size_t i = (std::size_t{y} * width + x) * 4;
  if (i + 4 > pixels.size()) throw std::out_of_range("the image's pixel buffer is smaller than its size");
  return {pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3]};
}

std::string write_png(const std::string& path, const RgbaImage& image) {
  const std::string what = "cannot write " + quoted(path) + ": ";
  if (path.empty()) return "cannot write a PNG file: no file name given";
  if (std::string problem = check_image(image); !problem.empty()) return what + problem;
  auto [bytes, problem] = encode_png(image);
  if (!problem.empty()) return what + problem;
  if (std::string failed = write_atomically(path, bytes); !failed.empty()) return what + failed;
  return {};
}

RgbaImage read_png(const std::string& path) {
  const std::string q = quoted(path);
  check_local_file(path);

  const std::string url = "file:" + path;
  AVDictionary* raw_options = nullptr;
  av_dict_set(&raw_options, "protocol_whitelist", "file", 0);
  // image2 reads the name as it is, not as a pattern ("shot%d.png").
  av_dict_set(&raw_options, "pattern_type", "none", 0);
  AVFormatContext* raw = nullptr;
  int ret = avformat_open_input(&raw, url.c_str(), nullptr, &raw_options);
  const DictPtr unused_options(raw_options);
  if (ret < 0) throw MediaError(q + " is not an image file FFmpeg recognises (" + av_error(ret) + ")");
  FormatPtr format(raw);
  const char* demuxer = format->iformat ? format->iformat->name : nullptr;
  if (!is_image_demuxer(demuxer)) {
    throw MediaError(q + " is not an image file (FFmpeg reads it as " + std::string(demuxer ? demuxer : "?") +
                     ", not as a still image)");
  }

  const int stream = av_find_best_stream(format.get(), AVMEDIA_TYPE_VIDEO, -1, -1, nullptr, 0);
  if (stream < 0) throw MediaError(q + ": no image in the file");
  const AVCodecParameters* par = format->streams[stream]->codecpar;
  const AVCodec* decoder = par->codec_id == AV_CODEC_ID_NONE ? nullptr : avcodec_find_decoder(par->codec_id);
  if (!decoder) {
    throw MediaError(q + ": image codec " + std::string(avcodec_get_name(par->codec_id)) +
                     " is not supported by this FFmpeg build");
  }
  CodecPtr codec(avcodec_alloc_context3(decoder));
  if (!codec) throw std::bad_alloc();
  ret = avcodec_parameters_to_context(codec.get(), par);
  if (ret < 0) throw MediaError(q + ": cannot set up the " + std::string(decoder->name) + " decoder (" + av_error(ret) + ")");
  codec->thread_count = 1;
  ret = avcodec_open2(codec.get(), decoder, nullptr);
  if (ret < 0) throw MediaError(q + ": cannot open the " + std::string(decoder->name) + " decoder (" + av_error(ret) + ")");

  // The first frame: packets in until one comes out, then drain.
  const std::string as = q + ": cannot decode it as " + std::string(decoder->name) + " (";
  AvFramePtr frame = new_frame();
  PacketPtr packet = new_packet();
  bool draining = false;
  int last_error = 0;
  for (;;) {
    ret = avcodec_receive_frame(codec.get(), frame.get());
    if (ret >= 0) break;
    if (ret == AVERROR_EOF) {
      throw MediaError(as + (last_error < 0 ? av_error(last_error) : std::string("no picture in the file")) + ")");
    }
    if (ret != AVERROR(EAGAIN)) throw MediaError(as + av_error(ret) + ")");
    if (draining) throw MediaError(as + "the decoder gave nothing)");
    ret = av_read_frame(format.get(), packet.get());
    if (ret < 0) {
      if (ret != AVERROR_EOF) last_error = ret;
      draining = true;
      avcodec_send_packet(codec.get(), nullptr);
      continue;
    }
    if (packet->stream_index == stream) {
      ret = avcodec_send_packet(codec.get(), packet.get());
      // A broken packet: remembered, and the next one tried (the decoder may still give a frame).
      // EAGAIN cannot come: the decoder was emptied just before.
      if (ret < 0) last_error = ret;
    }
    av_packet_unref(packet.get());
  }

  if (frame->width <= 0 || frame->height <= 0) throw MediaError(q + ": the decoded image has no pixels");
  RgbaImage image;
  image.width = static_cast<std::uint32_t>(frame->width);
  image.height = static_cast<std::uint32_t>(frame->height);
  image.pixels.resize(std::size_t{image.width} * image.height * 4);
  if (!convert_direct(*frame, image)) convert_swscale(*frame, image, path);
  return image;
}

}  // namespace vhist::media
