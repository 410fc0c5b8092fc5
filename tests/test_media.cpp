// app/media: FFmpeg file input. The clips are made here with the ffmpeg command-line tool, in a
// temporary folder of each test process.
#include "vhist/media/media_source.h"
#include "vhist/media/display_geometry.h"
#include "vhist/media/pixel_formats.h"
#include "vhist/media/colour_codes.h"
#include "vhist/compute/colour.h"
#include "vhist/compute/colour_names.h"
#include "test_clips.h"

#include <gtest/gtest.h>

extern "C" {
#include <libavutil/display.h>
#include <libavutil/pixdesc.h>
}

#include <arpa/inet.h>
#include <dlfcn.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using vhist::ColourMatrix;
using vhist::ColourModel;
using vhist::ColourRange;
using vhist::VideoFormat;
using vhist::VideoPlanes;
using namespace vhist::media;

namespace {

const fs::path& temp_dir() { return vhist::test::clip_dir(); }
using vhist::test::make_clip;
using vhist::test::ycbcr_tags;
using vhist::test::ycbcr_vf;

// `frames` frames of a moving test pattern of w x h at 30 fps.
// testsrc2 of w x h, `filters` (if any) in its graph, encoded with `codec_args`.
std::string pattern(int w, int h, int frames, const std::string& codec_args, const std::string& name,
                    const std::string& filters = "") {
  return make_clip(name, "-f lavfi -i testsrc2=s=" + std::to_string(w) + "x" + std::to_string(h) + ":r=30" +
                             (filters.empty() ? "" : "," + filters) + " -frames:v " + std::to_string(frames) + " " + codec_args);
}

std::vector<std::uint8_t> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const std::string& path, const std::vector<std::uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

struct Decoded {
  MediaInfo info;
  std::vector<DecodedFrame> frames;
  DecodeReport report;
};

Decoded decode_all(const std::string& path, SourceOptions options = {}) {
  Decoded d;
  auto source = MediaSource::open(path, options);
  d.info = source->info();
  for (;;) {
    DecodedFrame f;
    const MediaSource::Status status = source->next(f, 20s);
    if (status == MediaSource::Status::frame) {
      d.frames.push_back(std::move(f));
      continue;
    }
    EXPECT_EQ(status, MediaSource::Status::end) << "timed out";
    break;
  }
  d.report = source->report();
  return d;
}

// The message of the MediaError that opening (and decoding) `path` throws; empty if none.
std::string open_error(const std::string& path) {
  try {
    decode_all(path);
  } catch (const MediaError& e) {
    return e.what();
  }
  return {};
}

std::uint32_t sample(const DecodedFrame& f, std::uint32_t c, std::uint32_t x, std::uint32_t y) {
  const vhist::ComponentLayout& l = f.format.components[c];
  const std::byte* p = f.planes.data[l.plane] + std::size_t{y} * f.planes.stride[l.plane] + std::size_t{x} * l.step + l.offset;
  std::uint32_t raw = std::to_integer<std::uint32_t>(p[0]);
  if (f.format.sample_bytes == 2) raw |= std::to_integer<std::uint32_t>(p[1]) << 8;
  return (raw >> l.shift) & ((1u << f.format.bits) - 1u);
}

// FFmpeg's planar format with the same model, depth and subsampling as `f`: the reference the
// samples read through f's layout are compared with.
std::string canonical_format(const VideoFormat& f) {
  const std::string depth = f.bits == 8 ? "" : std::to_string(f.bits) + "le";
  switch (f.model) {
    case ColourModel::rgb:
      return f.bits == 8 ? "rgb24" : "gbrp" + depth;  // ffmpeg's pal8 -> gbrp is not exact
    case ColourModel::gray:
      return "gray" + depth;
    case ColourModel::yuv: {
      std::string sub = f.chroma_shift_x ? (f.chroma_shift_y ? "420" : "422") : (f.chroma_shift_y ? "440" : "444");
      return (f.pixel_format.rfind("yuvj", 0) == 0 ? "yuvj" : "yuv") + sub + "p" + depth;
    }
  }
  return {};
}

// Compares every sample of frame `n` of `frames` with ffmpeg's own conversion of `path` to the
// canonical planar format.
void expect_samples_match(const std::string& path, const std::vector<DecodedFrame>& frames, std::size_t n) {
  ASSERT_LT(n, frames.size());
  const DecodedFrame& f = frames[n];
  const VideoFormat& fmt = f.format;
  const std::string canon = canonical_format(fmt);
  const std::string raw = make_clip(fs::path(path).filename().string() + "." + canon + ".raw",
                                    "-i '" + path + "' -f rawvideo -pix_fmt " + canon);
  const std::vector<std::uint8_t> bytes = read_bytes(raw);
  const std::uint32_t w = fmt.width, h = fmt.height, cw = fmt.chroma_width(), ch = fmt.chroma_height();
  const std::size_t sb = fmt.sample_bytes;
  std::size_t frame_bytes = 0;
  std::array<std::size_t, 3> plane_start{};
  std::array<std::uint32_t, 3> plane_w{}, plane_h{};
  const std::uint32_t planes = fmt.model == ColourModel::gray ? 1 : 3;
  const bool packed_rgb = canon == "rgb24";
  for (std::uint32_t p = 0; p < (packed_rgb ? 1 : planes); ++p) {
    plane_w[p] = fmt.model == ColourModel::yuv && p > 0 ? cw : w;
    plane_h[p] = fmt.model == ColourModel::yuv && p > 0 ? ch : h;
    plane_start[p] = frame_bytes;
    frame_bytes += plane_w[p] * plane_h[p] * sb * (packed_rgb ? 3 : 1);
  }
  ASSERT_EQ(bytes.size(), frame_bytes * frames.size()) << canon;
  const std::size_t base = frame_bytes * n;
  int mismatches = 0;
  for (std::uint32_t c = 0; c < planes; ++c) {
    // gbrp keeps G, B, R in planes 0, 1, 2; our components are R, G, B.
    // rgb24 keeps R, G, B in one plane.
    const std::uint32_t p = packed_rgb ? 0 : fmt.model == ColourModel::rgb ? (c + 2) % 3 : c;
    for (std::uint32_t y = 0; y < plane_h[p]; ++y) {
      for (std::uint32_t x = 0; x < plane_w[p]; ++x) {
        const std::size_t at = base + plane_start[p] + (std::size_t{y} * plane_w[p] + x) * sb +
                               (packed_rgb ? std::size_t{y} * plane_w[p] * 2 + x * 2 + c : 0);
        std::uint32_t want = bytes[at];
        if (sb == 2) want |= std::uint32_t{bytes[at + 1]} << 8;
        const std::uint32_t got = sample(f, c, x, y);
        if (got != want && ++mismatches <= 3) {
          ADD_FAILURE() << fmt.pixel_format << " component " << c << " at " << x << "," << y << ": " << got
                        << " != " << want;
        }
      }
    }
  }
  EXPECT_EQ(mismatches, 0);
}

// ---------------------------------------------------------------------------------------------
// Pixel formats handled without conversion.

struct FormatCase {
  const char* pix_fmt;  // what the decoder outputs
  const char* codec;    // "rawvideo" (in .nut), "ffv1" (.mkv), "mjpeg" (.avi)
  ColourModel model;
  std::uint32_t bits;
  std::uint32_t shift_x, shift_y;
  std::uint32_t planes;
};

void PrintTo(const FormatCase& c, std::ostream* os) { *os << c.pix_fmt << "/" << c.codec; }

class DirectFormat : public ::testing::TestWithParam<FormatCase> {};

TEST_P(DirectFormat, DecodesWithItsOwnLayout) {
  const FormatCase& c = GetParam();
  const std::string codec = c.codec;
  const std::string ext = codec == "rawvideo" ? "nut" : codec == "ffv1" ? "mkv" : "avi";
  const std::string path = pattern(66, 46, 5, "-pix_fmt " + std::string(c.pix_fmt) + " -c:v " + codec,
                                   std::string(c.pix_fmt) + "_" + codec + "." + ext);
  const Decoded d = decode_all(path);
  ASSERT_EQ(d.frames.size(), 5u);
  EXPECT_FALSE(d.report.truncated) << d.report.truncation_reason;
  EXPECT_EQ(d.report.lost, 0);
  EXPECT_EQ(d.report.damaged, 0);
  for (const DecodedFrame& f : d.frames) {
    const VideoFormat& fmt = f.format;
    EXPECT_EQ(fmt.pixel_format, c.pix_fmt);
    EXPECT_FALSE(f.converted);
    EXPECT_EQ(fmt.width, 66u);
    EXPECT_EQ(fmt.height, 46u);
    EXPECT_EQ(fmt.model, c.model);
    EXPECT_EQ(fmt.bits, c.bits);
    EXPECT_EQ(fmt.sample_bytes, c.bits == 8 ? 1u : 2u);
    EXPECT_EQ(fmt.chroma_shift_x, c.shift_x);
    EXPECT_EQ(fmt.chroma_shift_y, c.shift_y);
    EXPECT_EQ(fmt.plane_count, c.planes);
    EXPECT_EQ(vhist::check_video_format(fmt), "");
    for (std::uint32_t p = 0; p < fmt.plane_count; ++p) {
      EXPECT_NE(f.planes.data[p], nullptr);
      EXPECT_GE(f.planes.stride[p], fmt.plane_row_bytes(p));
    }
    EXPECT_TRUE(f.owner);
  }
  expect_samples_match(path, d.frames, 0);
  expect_samples_match(path, d.frames, 4);
}

constexpr auto yuv = ColourModel::yuv;
constexpr auto rgb = ColourModel::rgb;
constexpr auto gray = ColourModel::gray;

INSTANTIATE_TEST_SUITE_P(
    Media, DirectFormat,
    ::testing::Values(
        FormatCase{"yuv420p", "rawvideo", yuv, 8, 1, 1, 3}, FormatCase{"yuv420p", "ffv1", yuv, 8, 1, 1, 3},
        FormatCase{"nv12", "rawvideo", yuv, 8, 1, 1, 2}, FormatCase{"nv21", "rawvideo", yuv, 8, 1, 1, 2},
        FormatCase{"yuv422p", "rawvideo", yuv, 8, 1, 0, 3}, FormatCase{"yuv444p", "ffv1", yuv, 8, 0, 0, 3},
        FormatCase{"yuv440p", "rawvideo", yuv, 8, 0, 1, 3}, FormatCase{"yuyv422", "rawvideo", yuv, 8, 1, 0, 1},
        FormatCase{"uyvy422", "rawvideo", yuv, 8, 1, 0, 1}, FormatCase{"yuvj420p", "mjpeg", yuv, 8, 1, 1, 3},
        FormatCase{"yuvj422p", "mjpeg", yuv, 8, 1, 0, 3}, FormatCase{"yuvj444p", "mjpeg", yuv, 8, 0, 0, 3},
        FormatCase{"yuv420p10le", "rawvideo", yuv, 10, 1, 1, 3}, FormatCase{"yuv420p10le", "ffv1", yuv, 10, 1, 1, 3},
        FormatCase{"yuv422p10le", "rawvideo", yuv, 10, 1, 0, 3}, FormatCase{"yuv444p10le", "rawvideo", yuv, 10, 0, 0, 3},
        FormatCase{"yuv420p12le", "rawvideo", yuv, 12, 1, 1, 3}, FormatCase{"yuv422p12le", "ffv1", yuv, 12, 1, 0, 3},
        FormatCase{"yuv444p12le", "rawvideo", yuv, 12, 0, 0, 3}, FormatCase{"yuva420p", "rawvideo", yuv, 8, 1, 1, 3},
        FormatCase{"gray", "rawvideo", gray, 8, 0, 0, 1}, FormatCase{"gray10le", "rawvideo", gray, 10, 0, 0, 1},
        FormatCase{"gray12le", "ffv1", gray, 12, 0, 0, 1}, FormatCase{"gray16le", "rawvideo", gray, 16, 0, 0, 1},
        FormatCase{"ya8", "rawvideo", gray, 8, 0, 0, 1}, FormatCase{"rgb24", "rawvideo", rgb, 8, 0, 0, 1},
        FormatCase{"bgr24", "rawvideo", rgb, 8, 0, 0, 1}, FormatCase{"rgba", "rawvideo", rgb, 8, 0, 0, 1},
        FormatCase{"bgra", "rawvideo", rgb, 8, 0, 0, 1}, FormatCase{"argb", "rawvideo", rgb, 8, 0, 0, 1},
        FormatCase{"abgr", "rawvideo", rgb, 8, 0, 0, 1}, FormatCase{"rgb0", "rawvideo", rgb, 8, 0, 0, 1},
        FormatCase{"bgr0", "rawvideo", rgb, 8, 0, 0, 1}, FormatCase{"0rgb", "rawvideo", rgb, 8, 0, 0, 1},
        FormatCase{"0bgr", "rawvideo", rgb, 8, 0, 0, 1}, FormatCase{"rgb48le", "rawvideo", rgb, 16, 0, 0, 1},
        FormatCase{"bgr48le", "rawvideo", rgb, 16, 0, 0, 1}, FormatCase{"rgba64le", "rawvideo", rgb, 16, 0, 0, 1},
        FormatCase{"gbrp", "rawvideo", rgb, 8, 0, 0, 3}, FormatCase{"bgr0", "ffv1", rgb, 8, 0, 0, 1},
        FormatCase{"gbrp10le", "rawvideo", rgb, 10, 0, 0, 3}, FormatCase{"gbrp12le", "ffv1", rgb, 12, 0, 0, 3},
        FormatCase{"gbrp16le", "rawvideo", rgb, 16, 0, 0, 3}, FormatCase{"gbrap", "rawvideo", rgb, 8, 0, 0, 3}),
    [](const ::testing::TestParamInfo<FormatCase>& param_info) {
      std::string name = std::string(param_info.param.pix_fmt) + "_" + param_info.param.codec;
      for (char& ch : name) {
        if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
      }
      return name;
    });

// NVDEC's 16-bit layouts (issue 27): P016 and YUV444P16 carry the stream's 10- or 12-bit samples
// in the high bits of each word. The same picture laid out as the CPU decoder gives it
// (yuv420p12, yuv444p10) and as NVDEC does must read back the same samples and convert to the
// same R'G'B' (the CPU reference).
namespace {

struct PlaneBytes {
  std::vector<std::vector<std::uint16_t>> planes;
  VideoPlanes view() const {
    VideoPlanes v;
    for (std::size_t p = 0; p < planes.size(); ++p) v.data[p] = reinterpret_cast<const std::byte*>(planes[p].data());
    return v;
  }
};

void expect_same_picture(VideoFormat cpu, VideoFormat hw, const PlaneBytes& cpu_bytes, const PlaneBytes& hw_bytes,
                         const std::array<std::uint32_t, 3>& cpu_stride, const std::array<std::uint32_t, 3>& hw_stride) {
  VideoPlanes a = cpu_bytes.view(), b = hw_bytes.view();
  a.stride = cpu_stride;
  b.stride = hw_stride;
  for (VideoFormat* f : {&cpu, &hw}) f->width = 8, f->height = 4;
  EXPECT_EQ(vhist::check_video_format(hw), "");
  for (std::uint32_t c = 0; c < 3; ++c) {
    const std::uint32_t w = c == 0 ? cpu.width : cpu.chroma_width(), h = c == 0 ? cpu.height : cpu.chroma_height();
    for (std::uint32_t y = 0; y < h; ++y) {
      for (std::uint32_t x = 0; x < w; ++x) {
        ASSERT_EQ(vhist::read_sample(cpu, a, c, x, y), vhist::read_sample(hw, b, c, x, y)) << c << " " << x << "," << y;
      }
    }
  }
  EXPECT_EQ(vhist::reference_convert(cpu, a), vhist::reference_convert(hw, b));
}

}  // namespace

TEST(Media, NvdecLayoutsHoldTheStreamsDepthInTheHighBits) {
  // 12-bit 4:2:0, 8x4: yuv420p12 (three planes) against P016 (Y, then Cb Cr interleaved, << 4).
  PlaneBytes cpu{{std::vector<std::uint16_t>(32), std::vector<std::uint16_t>(8), std::vector<std::uint16_t>(8)}};
  PlaneBytes hw{{std::vector<std::uint16_t>(32), std::vector<std::uint16_t>(16)}};
  for (std::uint16_t i = 0; i < 32; ++i) hw.planes[0][i] = static_cast<std::uint16_t>((cpu.planes[0][i] = (i * 127u + 256u) % 4096u) << 4);
  for (std::uint16_t i = 0; i < 8; ++i) {
    hw.planes[1][2 * i] = static_cast<std::uint16_t>((cpu.planes[1][i] = (i * 511u + 300u) % 4096u) << 4);
    hw.planes[1][2 * i + 1] = static_cast<std::uint16_t>((cpu.planes[2][i] = (i * 733u + 900u) % 4096u) << 4);
  }
  const auto p016 = nvdec_layout(AV_PIX_FMT_P016LE, 12);
  const auto yuv12 = direct_layout(AV_PIX_FMT_YUV420P12LE);
  ASSERT_TRUE(p016 && yuv12);
  EXPECT_EQ(p016->bits, 12u);
  EXPECT_EQ(p016->components[0].shift, 4u);
  expect_same_picture(*yuv12, *p016, cpu, hw, {16, 8, 8}, {16, 16, 0});

  // 10-bit 4:4:4: yuv444p10 against YUV444P16 (<< 6).
  PlaneBytes cpu444{{std::vector<std::uint16_t>(32), std::vector<std::uint16_t>(32), std::vector<std::uint16_t>(32)}};
  PlaneBytes hw444 = cpu444;
  for (std::size_t p = 0; p < 3; ++p) {
    for (std::uint16_t i = 0; i < 32; ++i) {
      cpu444.planes[p][i] = static_cast<std::uint16_t>((i * 37u + p * 300u + 64u) % 1024u);
      hw444.planes[p][i] = static_cast<std::uint16_t>(cpu444.planes[p][i] << 6);
    }
  }
  const auto p16 = nvdec_layout(AV_PIX_FMT_YUV444P16LE, 10);
  const auto yuv444 = direct_layout(AV_PIX_FMT_YUV444P10LE);
  ASSERT_TRUE(p16 && yuv444);
  EXPECT_EQ(p16->bits, 10u);
  expect_same_picture(*yuv444, *p16, cpu444, hw444, {16, 16, 16}, {16, 16, 16});

  // The 8-bit and P010 layouts are FFmpeg's own; a 16-bit stream (none from NVDEC) stays unread.
  for (const auto& [format, depth] : {std::pair{AV_PIX_FMT_NV12, 8}, std::pair{AV_PIX_FMT_P010LE, 10}}) {
    const auto hw_layout = nvdec_layout(format, depth), own = direct_layout(format);
    ASSERT_TRUE(hw_layout && own);
    EXPECT_EQ(hw_layout->bits, own->bits);
    EXPECT_EQ(hw_layout->plane_count, own->plane_count);
    for (std::size_t c = 0; c < 3; ++c) EXPECT_EQ(hw_layout->components[c].shift, own->components[c].shift);
  }
  EXPECT_FALSE(nvdec_layout(AV_PIX_FMT_P016LE, 16));
}

// AV1 with a CUDA context but no NVIDIA driver to ask: the decoder that would take NVDEC (FFmpeg
// 5.1's own av1, which has no CPU path) is not opened; the CPU decoder (libdav1d) decodes every
// frame and the reason is said. Where the driver is, the context would be used: skipped (there
// tests/hwdec_test.sh exact checks AV1 on the GPU).
TEST(Media, Av1WithoutNvdecDecodesOnTheCpuSayingWhy) {
  if (void* cuda = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL)) {
    dlclose(cuda);
    GTEST_SKIP() << "an NVIDIA driver is installed here";
  }
  const std::string path = pattern(320, 240, 3, "-c:v libsvtav1 -pix_fmt yuv420p", "av1_no_nvdec.mkv");
  SourceOptions options;
  int not_a_context = 0;  // never handed to CUDA: libcuda.so.1 cannot be loaded
  options.cuda_context = &not_a_context;
  auto source = MediaSource::open(path, options);
  EXPECT_EQ(source->info().codec, "av1");
  EXPECT_EQ(source->info().decoder, "libdav1d");
  EXPECT_EQ(source->info().hwaccel, "");
  DecodedFrame f;
  int frames = 0;
  while (source->next(f, 10s) == MediaSource::Status::frame) ++frames;
  EXPECT_EQ(frames, 3) << source->report().first_error;
  EXPECT_NE(source->report().hw_fallback.find("libcuda.so.1"), std::string::npos) << source->report().hw_fallback;
}

// Formats that no file decodes to (hardware decoders' output): the layout alone.
TEST(Media, LayoutOfSemiPlanarHighDepthFormats) {
  const auto p010 = direct_layout(AV_PIX_FMT_P010LE);
  ASSERT_TRUE(p010);
  EXPECT_EQ(p010->bits, 10u);
  EXPECT_EQ(p010->sample_bytes, 2u);
  EXPECT_EQ(p010->plane_count, 2u);
  EXPECT_EQ(p010->components[0].shift, 6u);
  EXPECT_EQ(p010->components[1].plane, 1u);
  EXPECT_EQ(p010->components[1].step, 4u);
  EXPECT_EQ(p010->components[2].offset, 2u);
  EXPECT_EQ(p010->chroma_shift_x, 1u);
  EXPECT_EQ(p010->chroma_shift_y, 1u);
  const auto p210 = direct_layout(AV_PIX_FMT_P210LE);
  ASSERT_TRUE(p210);
  EXPECT_EQ(p210->chroma_shift_y, 0u);
  const auto nv24 = direct_layout(AV_PIX_FMT_NV24);
  ASSERT_TRUE(nv24);
  EXPECT_EQ(nv24->chroma_shift_x, 0u);
  EXPECT_EQ(nv24->plane_count, 2u);
  const auto y210 = direct_layout(AV_PIX_FMT_Y210LE);
  ASSERT_TRUE(y210);
  EXPECT_EQ(y210->components[2].offset, 6u);
  // Not handled: through libswscale.
  for (AVPixelFormat f : {AV_PIX_FMT_P016LE, AV_PIX_FMT_YUV420P16LE, AV_PIX_FMT_YUV420P10BE, AV_PIX_FMT_PAL8,
                          AV_PIX_FMT_BAYER_RGGB8, AV_PIX_FMT_YUV411P, AV_PIX_FMT_YUV410P, AV_PIX_FMT_XYZ12LE,
                          AV_PIX_FMT_GBRPF32LE, AV_PIX_FMT_MONOWHITE, AV_PIX_FMT_RGB565LE, AV_PIX_FMT_X2RGB10LE,
                          AV_PIX_FMT_YUV444P14LE, AV_PIX_FMT_VAAPI, AV_PIX_FMT_RGB48BE}) {
    EXPECT_FALSE(direct_layout(f)) << av_get_pix_fmt_name(f);
    const AVPixelFormat target = conversion_target(f);
    EXPECT_TRUE(target != AV_PIX_FMT_NONE && direct_layout(target)) << av_get_pix_fmt_name(f);
  }
  EXPECT_EQ(conversion_target(AV_PIX_FMT_YUV420P10BE), AV_PIX_FMT_YUV420P10LE);
  EXPECT_EQ(conversion_target(AV_PIX_FMT_RGB48BE), AV_PIX_FMT_RGB48LE);
  EXPECT_EQ(conversion_target(AV_PIX_FMT_YUV411P), AV_PIX_FMT_YUV444P);
  EXPECT_EQ(conversion_target(AV_PIX_FMT_YUV420P16LE), AV_PIX_FMT_GBRP16LE);
  EXPECT_EQ(conversion_target(AV_PIX_FMT_PAL8), AV_PIX_FMT_RGB24);
  EXPECT_EQ(conversion_target(AV_PIX_FMT_BAYER_RGGB16LE), AV_PIX_FMT_GBRP16LE);
  EXPECT_EQ(conversion_target(AV_PIX_FMT_GRAYF32LE), AV_PIX_FMT_GRAY16LE);
  EXPECT_EQ(conversion_target(AV_PIX_FMT_YUV444P14LE), AV_PIX_FMT_GBRP16LE);
}

TEST(Media, ColourRules) {
  EXPECT_EQ(resolve_matrix(AVCOL_SPC_BT709, 48), ColourMatrix::bt709);
  EXPECT_EQ(resolve_matrix(AVCOL_SPC_BT470BG, 1080), ColourMatrix::bt601);
  EXPECT_EQ(resolve_matrix(AVCOL_SPC_SMPTE170M, 1080), ColourMatrix::bt601);
  EXPECT_EQ(resolve_matrix(AVCOL_SPC_FCC, 1080), ColourMatrix::bt601);
  EXPECT_EQ(resolve_matrix(AVCOL_SPC_SMPTE240M, 480), ColourMatrix::bt709);
  EXPECT_EQ(resolve_matrix(AVCOL_SPC_BT2020_NCL, 480), ColourMatrix::bt2020);
  EXPECT_EQ(resolve_matrix(AVCOL_SPC_BT2020_CL, 480), ColourMatrix::bt2020);
  EXPECT_EQ(resolve_matrix(AVCOL_SPC_UNSPECIFIED, 719), ColourMatrix::bt601);
  EXPECT_EQ(resolve_matrix(AVCOL_SPC_UNSPECIFIED, 720), ColourMatrix::bt709);
  EXPECT_EQ(resolve_matrix(AVCOL_SPC_RESERVED, 1080), ColourMatrix::bt709);
  EXPECT_EQ(resolve_range(AVCOL_RANGE_UNSPECIFIED, AV_PIX_FMT_YUV420P, yuv), ColourRange::limited);
  EXPECT_EQ(resolve_range(AVCOL_RANGE_UNSPECIFIED, AV_PIX_FMT_YUVJ420P, yuv), ColourRange::full);
  EXPECT_EQ(resolve_range(AVCOL_RANGE_MPEG, AV_PIX_FMT_YUVJ420P, yuv), ColourRange::limited);
  EXPECT_EQ(resolve_range(AVCOL_RANGE_JPEG, AV_PIX_FMT_YUV420P, yuv), ColourRange::full);
  EXPECT_EQ(resolve_range(AVCOL_RANGE_MPEG, AV_PIX_FMT_RGB24, rgb), ColourRange::full);
  EXPECT_EQ(resolve_range(AVCOL_RANGE_UNSPECIFIED, AV_PIX_FMT_GRAY8, gray), ColourRange::full);
  EXPECT_EQ(resolve_range(AVCOL_RANGE_MPEG, AV_PIX_FMT_GRAY8, gray), ColourRange::limited);
}

// ---------------------------------------------------------------------------------------------
// Formats that go through libswscale.

// Three frames of the pattern in `pix_fmt`, raw in NUT.
std::string raw_pattern(const std::string& pix_fmt) {
  return pattern(64, 48, 3, "-pix_fmt " + pix_fmt + " -c:v rawvideo", pix_fmt + ".nut");
}

TEST(Media, ConvertsUnhandledFormats) {
  struct Case {
    const char* pix_fmt;
    ColourModel model;
    std::uint32_t bits;
    std::uint32_t shift_x;
  };
  for (const Case& c : {Case{"pal8", rgb, 8, 0}, Case{"yuv411p", yuv, 8, 0}, Case{"yuv410p", yuv, 8, 0},
                        Case{"yuv420p10be", yuv, 10, 1}, Case{"yuv420p16le", rgb, 16, 0}, Case{"gray16be", gray, 16, 0},
                        Case{"rgb48be", rgb, 16, 0}, Case{"monow", gray, 8, 0}, Case{"rgb565le", rgb, 8, 0},
                        Case{"yuv444p14le", rgb, 16, 0}}) {
    SCOPED_TRACE(c.pix_fmt);
    const std::string path = raw_pattern(c.pix_fmt);
    const Decoded d = decode_all(path);
    ASSERT_EQ(d.frames.size(), 3u);
    for (const DecodedFrame& f : d.frames) {
      EXPECT_TRUE(f.converted);
      EXPECT_EQ(f.format.pixel_format, c.pix_fmt);
      EXPECT_EQ(f.format.model, c.model);
      EXPECT_EQ(f.format.bits, c.bits);
      EXPECT_EQ(f.format.chroma_shift_x, c.shift_x);
      EXPECT_EQ(vhist::check_video_format(f.format), "");
      for (std::uint32_t p = 0; p < f.format.plane_count; ++p) {
        EXPECT_GE(f.planes.stride[p], f.format.plane_row_bytes(p));
      }
    }
  }
  // Lossless conversions: the samples are those ffmpeg's own conversion gives.
  for (const char* pix_fmt : {"pal8", "yuv420p10be", "gray16be", "rgb48be"}) {
    SCOPED_TRACE(pix_fmt);
    const std::string path = raw_pattern(pix_fmt);
    const Decoded d = decode_all(path);
    ASSERT_EQ(d.frames.size(), 3u);
    expect_samples_match(path, d.frames, 2);
  }
  // yuv411p -> yuv444p: luma untouched, chroma repeated (point sampling), no range change.
  const std::string path = raw_pattern("yuv411p");
  const Decoded d = decode_all(path);
  ASSERT_EQ(d.frames.size(), 3u);
  const std::string raw = make_clip("yuv411p.raw", "-i '" + path + "' -f rawvideo -pix_fmt yuv411p");
  const std::vector<std::uint8_t> bytes = read_bytes(raw);
  ASSERT_EQ(bytes.size(), 3u * (64 * 48 + 2 * 16 * 48));
  const DecodedFrame& f = d.frames[1];
  const std::size_t base = 64 * 48 + 2 * 16 * 48;
  int bad = 0;
  for (std::uint32_t y = 0; y < 48; ++y) {
    for (std::uint32_t x = 0; x < 64; ++x) {
      bad += sample(f, 0, x, y) != bytes[base + y * 64 + x];
      bad += sample(f, 1, x, y) != bytes[base + 64 * 48 + y * 16 + x / 4];
      bad += sample(f, 2, x, y) != bytes[base + 64 * 48 + 16 * 48 + y * 16 + x / 4];
    }
  }
  EXPECT_EQ(bad, 0);
}

// AVI keeps uncompressed RGB bottom-up: the decoder gives negative strides, copied top-down.
TEST(Media, BottomUpFramesGetPositiveStrides) {
  const std::string path = pattern(64, 48, 4, "-pix_fmt bgr24 -c:v rawvideo", "bgr24_bottom_up.avi");
  const Decoded d = decode_all(path);
  ASSERT_EQ(d.frames.size(), 4u);
  EXPECT_EQ(d.frames[0].format.pixel_format, "bgr24");
  EXPECT_FALSE(d.frames[0].converted);
  expect_samples_match(path, d.frames, 0);
  expect_samples_match(path, d.frames, 3);
}

// The frames stay valid after the source is gone.
TEST(Media, FramesOutliveTheSource) {
  const std::string path = pattern(64, 48, 3, "-pix_fmt yuv420p -c:v ffv1", "outlive.mkv");
  const std::string pal = pattern(64, 48, 3, "-pix_fmt pal8 -c:v rawvideo", "pal8.nut");
  for (const std::string& p : {path, pal}) {
    std::vector<DecodedFrame> frames;
    {
      auto source = MediaSource::open(p);
      DecodedFrame f;
      while (source->next(f, 10s) == MediaSource::Status::frame) frames.push_back(f);
    }
    ASSERT_EQ(frames.size(), 3u);
    expect_samples_match(p, frames, 2);
  }
}

// ---------------------------------------------------------------------------------------------
// Colour metadata.

struct ColourCase {
  const char* name;
  std::string vf;  // the recipe for a tagged matrix (ycbcr_vf), or none
  std::string args;
  int w, h;
  ColourMatrix matrix;
  ColourRange range;
};

TEST(Media, MatrixAndRangeFromMetadata) {
  const std::vector<ColourCase> cases = {
      {"bt709_pc", ycbcr_vf("bt709", "yuv420p", "pc"), "-pix_fmt yuv420p -c:v ffv1 -colorspace bt709 -color_range pc", 64,
       48, ColourMatrix::bt709, ColourRange::full},
      {"bt2020_tv", ycbcr_vf("bt2020nc", "yuv420p10le"), "-pix_fmt yuv420p10le -c:v ffv1 -colorspace bt2020nc -color_range tv",
       64, 48, ColourMatrix::bt2020, ColourRange::limited},
      {"smpte170m", ycbcr_vf("smpte170m", "yuv422p"), "-pix_fmt yuv422p -c:v ffv1 -colorspace smpte170m", 1280, 720,
       ColourMatrix::bt601, ColourRange::limited},
      {"bt470bg_pc", ycbcr_vf("bt470bg", "yuv444p", "pc"), "-pix_fmt yuv444p -c:v libx264 -colorspace bt470bg -color_range pc",
       1280, 720, ColourMatrix::bt601, ColourRange::full},
      // SMPTE 240M's matrix, which vhist decodes with BT.709's (docs/colour.md).
      {"smpte240m", ycbcr_vf("smpte240m"), "-pix_fmt yuv420p -c:v ffv1 -colorspace smpte240m", 64, 48, ColourMatrix::bt709,
       ColourRange::limited},
      {"default_small", "", "-pix_fmt yuv420p -c:v ffv1", 64, 48, ColourMatrix::bt601, ColourRange::limited},
      {"default_hd", "", "-pix_fmt yuv420p -c:v ffv1", 1280, 720, ColourMatrix::bt709, ColourRange::limited},
      {"default_small_x264", "", "-pix_fmt yuv420p -c:v libx264", 320, 240, ColourMatrix::bt601, ColourRange::limited},
      {"gray_default", "", "-pix_fmt gray -c:v ffv1", 64, 48, ColourMatrix::bt601, ColourRange::full},
      {"gray_tv", "", "-pix_fmt gray -c:v ffv1 -color_range tv", 64, 48, ColourMatrix::bt601, ColourRange::limited},
      {"rgb_tv", "", "-pix_fmt gbrp -c:v ffv1 -color_range tv", 64, 48, ColourMatrix::bt601, ColourRange::full},
  };
  for (const ColourCase& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string ext = c.args.find("libx264") != std::string::npos ? ".mp4" : ".mkv";
    const Decoded d = decode_all(pattern(c.w, c.h, 2, c.args, std::string("colour_") + c.name + ext, c.vf));
    ASSERT_EQ(d.frames.size(), 2u);
    EXPECT_EQ(d.frames[0].format.matrix, c.matrix);
    EXPECT_EQ(d.frames[0].format.range, c.range);
  }
}

// ---------------------------------------------------------------------------------------------
// Changes mid-stream.

TEST(Media, FollowsSizeChanges) {
  const std::string a = pattern(64, 48, 10, "-pix_fmt yuv420p -c:v libx264 -f h264", "size_a.h264");
  const std::string b = pattern(96, 64, 12, "-pix_fmt yuv420p -c:v libx264 -f h264", "size_b.h264");
  const std::string both = (temp_dir() / "size_ab.h264").string();
  std::vector<std::uint8_t> bytes = read_bytes(a);
  const std::vector<std::uint8_t> tail = read_bytes(b);
  bytes.insert(bytes.end(), tail.begin(), tail.end());
  write_bytes(both, bytes);
  const Decoded d = decode_all(both);
  ASSERT_EQ(d.frames.size(), 22u);
  for (std::size_t i = 0; i < d.frames.size(); ++i) {
    const VideoFormat& f = d.frames[i].format;
    EXPECT_EQ(f.width, i < 10 ? 64u : 96u) << i;
    EXPECT_EQ(f.height, i < 10 ? 48u : 64u) << i;
    EXPECT_EQ(d.frames[i].index, static_cast<std::int64_t>(i));
  }
  EXPECT_EQ(d.report.lost, 0);
  EXPECT_FALSE(d.report.truncated) << d.report.truncation_reason;
}

TEST(Media, FollowsPixelFormatChanges) {
  const std::string a = pattern(64, 48, 8, "-pix_fmt yuv420p -c:v libx264 -f h264", "fmt_a.h264");
  const std::string b = pattern(64, 48, 8, "-pix_fmt yuv444p -c:v libx264 -f h264", "fmt_b.h264");
  const std::string both = (temp_dir() / "fmt_ab.h264").string();
  std::vector<std::uint8_t> bytes = read_bytes(a);
  const std::vector<std::uint8_t> tail = read_bytes(b);
  bytes.insert(bytes.end(), tail.begin(), tail.end());
  write_bytes(both, bytes);
  const Decoded d = decode_all(both);
  ASSERT_EQ(d.frames.size(), 16u);
  for (std::size_t i = 0; i < d.frames.size(); ++i) {
    const VideoFormat& f = d.frames[i].format;
    EXPECT_EQ(f.pixel_format, i < 8 ? "yuv420p" : "yuv444p") << i;
    EXPECT_EQ(f.chroma_shift_x, i < 8 ? 1u : 0u) << i;
    EXPECT_EQ(f.chroma_shift_y, i < 8 ? 1u : 0u) << i;
  }
}

// ---------------------------------------------------------------------------------------------
// Timestamps, seeking and looping.

TEST(Media, InfoAndTimestamps) {
  const std::string path = pattern(160, 120, 30, "-pix_fmt yuv420p -c:v libx264 -g 10 -bf 2", "ts.mp4");
  const Decoded d = decode_all(path);
  EXPECT_EQ(d.info.codec, "h264");
  EXPECT_EQ(d.info.container.find("mp4") != std::string::npos, true) << d.info.container;
  EXPECT_EQ(d.info.width, 160u);
  EXPECT_EQ(d.info.height, 120u);
  EXPECT_EQ(d.info.pixel_format, "yuv420p");
  EXPECT_DOUBLE_EQ(d.info.frame_rate, 30.0);
  EXPECT_NEAR(d.info.duration, 1.0, 1e-6);
  EXPECT_EQ(d.info.frame_count, 30);
  EXPECT_EQ(d.info.video_stream, 0);
  ASSERT_EQ(d.frames.size(), 30u);
  for (std::size_t i = 0; i < d.frames.size(); ++i) {
    EXPECT_NEAR(d.frames[i].pts, static_cast<double>(i) / 30.0, 1e-6);
    EXPECT_EQ(d.frames[i].index, static_cast<std::int64_t>(i));
  }
  EXPECT_EQ(d.report.packets, 30);
  EXPECT_EQ(d.report.frames, 30);
}

void expect_next(MediaSource& source, double pts, std::int64_t index) {
  DecodedFrame f;
  ASSERT_EQ(source.next(f, 10s), MediaSource::Status::frame);
  EXPECT_NEAR(f.pts, pts, 0.6e-3);  // Matroska keeps milliseconds
  EXPECT_EQ(f.index, index);
}

TEST(Media, Seeks) {
  for (const char* name : {"seek.mp4", "seek.mkv", "seek.nut", "seek.avi"}) {
    SCOPED_TRACE(name);
    const std::string codec = std::string(name) == "seek.avi" ? "-c:v mpeg4 -g 10" : "-c:v libx264 -g 10 -bf 2";
    const std::string path = pattern(160, 120, 60, "-pix_fmt yuv420p " + codec, name);
    SourceOptions options;
    options.queue_frames = 3;
    auto source = MediaSource::open(path, options);
    expect_next(*source, 0.0, 0);
    expect_next(*source, 1 / 30.0, 1);
    std::this_thread::sleep_for(50ms);  // the queue fills up with frames the seek must drop
    source->seek(0.5);
    expect_next(*source, 0.5, 15);
    expect_next(*source, 16 / 30.0, 16);
    source->seek_frame(37);  // not a keyframe
    expect_next(*source, 37 / 30.0, 37);
    source->seek(1.31);  // between frames: the next one
    expect_next(*source, 40 / 30.0, 40);
    source->seek_frame(11);  // just after a keyframe, backwards
    expect_next(*source, 11 / 30.0, 11);
    expect_next(*source, 12 / 30.0, 12);
    source->seek(0);
    expect_next(*source, 0.0, 0);
    source->seek(100);  // past the end
    DecodedFrame f;
    EXPECT_EQ(source->next(f, 10s), MediaSource::Status::end);
    source->seek_frame(59);
    expect_next(*source, 59 / 30.0, 59);
    EXPECT_EQ(source->next(f, 10s), MediaSource::Status::end);
    EXPECT_EQ(source->next(f, 10s), MediaSource::Status::end);
    const DecodeReport r = source->report();
    EXPECT_EQ(r.lost, 0);
    EXPECT_FALSE(r.truncated) << r.truncation_reason;
  }
}

// A seek lands on the very frame decoding from the start gives, byte for byte, though the frames
// before the target that no frame refers to (x264's non-reference B frames) are not decoded.
TEST(Media, SeekedFramesEqualTheFramesDecodedFromTheStart) {
  const std::string path = pattern(160, 120, 60, "-pix_fmt yuv420p -c:v libx264 -g 60 -bf 3 -x264-params b-pyramid=normal", "bframes.mp4");
  const Decoded all = decode_all(path);
  ASSERT_EQ(all.frames.size(), 60u);
  for (const std::int64_t target : {7, 22, 45, 59}) {
    SCOPED_TRACE(target);
    SourceOptions options;
    options.start = static_cast<double>(target) / 30.0;
    auto source = MediaSource::open(path, options);
    DecodedFrame f;
    ASSERT_EQ(source->next(f, 20s), MediaSource::Status::frame);
    const DecodedFrame& expected = all.frames[static_cast<std::size_t>(target)];
    EXPECT_EQ(f.index, target);
    EXPECT_NEAR(f.pts, expected.pts, 1e-6);
    ASSERT_EQ(f.format.plane_count, 3u);
    for (std::uint32_t p = 0; p < f.format.plane_count; ++p) {
      for (std::uint32_t y = 0; y < f.format.plane_rows(p); ++y) {
        ASSERT_EQ(std::memcmp(f.planes.data[p] + std::size_t{y} * f.planes.stride[p],
                              expected.planes.data[p] + std::size_t{y} * expected.planes.stride[p],
                              f.format.plane_row_bytes(p)),
                  0)
            << "plane " << p << " row " << y;
      }
    }
    while (source->next(f, 20s) == MediaSource::Status::frame) {
    }
    const DecodeReport r = source->report();
    EXPECT_EQ(r.lost, 0);
    EXPECT_FALSE(r.truncated) << r.truncation_reason;
    // The pre-roll's non-reference frames were skipped: fewer frames decoded than the whole GOP.
    EXPECT_LT(r.frames, 60) << "every frame of the GOP was decoded";
  }
}

TEST(Media, StartOption) {
  const std::string path = pattern(160, 120, 60, "-pix_fmt yuv420p -c:v libx264 -g 10 -bf 2", "seek.mp4");
  SourceOptions options;
  options.start = 0.4;
  const Decoded d = decode_all(path, options);
  ASSERT_EQ(d.frames.size(), 48u);
  EXPECT_NEAR(d.frames[0].pts, 0.4, 1e-6);
  EXPECT_EQ(d.frames[0].index, 12);
  EXPECT_EQ(d.frames.back().index, 59);
  EXPECT_FALSE(d.report.truncated) << d.report.truncation_reason;
}

TEST(Media, SeekInRawStream) {
  const std::string path = pattern(96, 64, 40, "-pix_fmt yuv420p -c:v libx264 -g 8 -f h264", "seek_raw.h264");
  auto source = MediaSource::open(path);
  const double rate = source->info().frame_rate;
  ASSERT_GT(rate, 0);
  source->seek_frame(21);
  DecodedFrame f;
  ASSERT_EQ(source->next(f, 10s), MediaSource::Status::frame);
  EXPECT_EQ(f.index, 21);
  EXPECT_NEAR(f.pts, 21 / rate, 1e-6);
  source->seek_frame(5);
  ASSERT_EQ(source->next(f, 10s), MediaSource::Status::frame);
  EXPECT_EQ(f.index, 5);
  EXPECT_NEAR(f.pts, 5 / rate, 1e-6);
}

TEST(Media, Loops) {
  for (const char* name : {"loop.mp4", "loop.h264"}) {
    SCOPED_TRACE(name);
    const std::string fmt = std::string(name) == "loop.h264" ? " -f h264" : "";
    const std::string path = pattern(64, 48, 10, "-pix_fmt yuv420p -c:v libx264 -g 5" + fmt, name);
    SourceOptions options;
    options.loop = true;
    auto source = MediaSource::open(path, options);
    const double rate = source->info().frame_rate;
    for (std::int64_t i = 0; i < 25; ++i) expect_next(*source, static_cast<double>(i % 10) / rate, i);
    source->set_loop(false);
    // It stops at the end of the current pass (frames already queued may belong to the next).
    DecodedFrame f;
    int more = 0;
    MediaSource::Status s;
    while ((s = source->next(f, 10s)) == MediaSource::Status::frame) ++more;
    EXPECT_EQ(s, MediaSource::Status::end);
    EXPECT_GE(more, 5);
    EXPECT_LE(more, 15);
    const DecodeReport r = source->report();
    EXPECT_EQ(r.lost, 0);
    EXPECT_FALSE(r.truncated) << r.truncation_reason;
  }
}

// ---------------------------------------------------------------------------------------------
// Normal clips: complete, nothing lost or damaged.

TEST(Media, NormalClipsAreNotReportedBroken) {
  const std::vector<std::pair<std::string, std::string>> clips = {
      {"ok.mp4", "-pix_fmt yuv420p -c:v libx264 -g 12"},
      {"ok_faststart.mp4", "-pix_fmt yuv420p -c:v libx264 -movflags +faststart"},
      {"ok.mkv", "-pix_fmt yuv420p -c:v libx264 -bf 3"},
      {"ok.nut", "-pix_fmt yuv420p -c:v libx264"},
      {"ok.h264", "-pix_fmt yuv420p -c:v libx264 -f h264"},
      {"ok.hevc", "-pix_fmt yuv420p -c:v libx265 -x265-params log-level=none -f hevc"},
      {"ok_hevc.mp4", "-pix_fmt yuv420p10le -c:v libx265 -x265-params log-level=none"},
      {"ok.avi", "-pix_fmt yuv420p -c:v mpeg4"},
      {"ok.mov", "-pix_fmt yuv422p10le -c:v prores"},
      {"ok.webm", "-pix_fmt yuv420p -c:v libvpx-vp9 -deadline realtime"},
      {"ok_mpeg2.ts", "-pix_fmt yuv420p -c:v mpeg2video"},
      {"ok_ffv1.mkv", "-pix_fmt yuv420p -c:v ffv1"},
  };
  for (const auto& [name, args] : clips) {
    SCOPED_TRACE(name);
    const Decoded d = decode_all(pattern(128, 96, 30, args, name));
    EXPECT_EQ(d.frames.size(), 30u);
    EXPECT_EQ(d.report.frames, 30);
    EXPECT_EQ(d.report.lost, 0);
    EXPECT_EQ(d.report.damaged, 0);
    EXPECT_EQ(d.report.errors, 0) << d.report.first_error;
    EXPECT_FALSE(d.report.truncated) << d.report.truncation_reason;
    EXPECT_GE(d.report.packets, 30);
    for (std::size_t i = 0; i < d.frames.size(); ++i) EXPECT_EQ(d.frames[i].index, static_cast<std::int64_t>(i));
  }
}

// ---------------------------------------------------------------------------------------------
// Bad input.

TEST(Media, MissingDirectoryEmpty) {
  const std::string missing = (temp_dir() / "no_such_clip.mp4").string();
  EXPECT_EQ(open_error(missing), "cannot open '" + missing + "': no such file");
  const std::string dir = (temp_dir() / "a_directory.mp4").string();
  fs::create_directories(dir);
  EXPECT_EQ(open_error(dir), "'" + dir + "' is a directory, not a video file");
  const std::string empty = (temp_dir() / "empty.mp4").string();
  write_bytes(empty, {});
  EXPECT_EQ(open_error(empty), "'" + empty + "' is empty (0 bytes)");
}

TEST(Media, PermissionDenied) {
  if (::geteuid() == 0) GTEST_SKIP() << "running as root: permissions are not enforced";
  const std::string path = (temp_dir() / "private.mkv").string();  // a copy: the clips are shared
  fs::copy_file(pattern(64, 48, 2, "-c:v ffv1", "private.mkv"), path);
  fs::permissions(path, fs::perms::none);
  EXPECT_EQ(open_error(path), "cannot open '" + path + "': permission denied");
}

TEST(Media, NotAVideoFile) {
  const std::string text = (temp_dir() / "notes.mp4").string();
  const std::string words = "These are not the frames you are looking for.\n";
  write_bytes(text, std::vector<std::uint8_t>(words.begin(), words.end()));
  const std::string msg = open_error(text);
  EXPECT_EQ(msg.rfind("'" + text + "' is not a video file FFmpeg recognises (", 0), 0u) << msg;
}

TEST(Media, AudioOnly) {
  const std::string path = make_clip("sine.mka", "-f lavfi -i sine=d=0.5 -c:a pcm_s16le");
  EXPECT_EQ(open_error(path), "'" + path + "' has no video stream (streams: 1 audio)");
}

TEST(Media, UnsupportedCodec) {
  const std::string path = pattern(64, 48, 3, "-c:v ffv1", "zzzz_source.avi");
  std::vector<std::uint8_t> bytes = read_bytes(path);
  int patched = 0;
  for (std::size_t i = 0; i + 4 <= bytes.size(); ++i) {
    if (bytes[i] == 'F' && bytes[i + 1] == 'F' && bytes[i + 2] == 'V' && bytes[i + 3] == '1') {
      bytes[i] = bytes[i + 1] = bytes[i + 2] = bytes[i + 3] = 'Z';
      ++patched;
    }
  }
  ASSERT_GE(patched, 1);
  const std::string zzzz = (temp_dir() / "zzzz.avi").string();
  write_bytes(zzzz, bytes);
  EXPECT_EQ(open_error(zzzz), "'" + zzzz + "': video codec 'ZZZZ' is not supported by this FFmpeg build");
}

// An HLS playlist pointing at the network: refused, and nothing connects.
TEST(Media, NetworkPlaylistIsRefused) {
  const int server = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  ASSERT_GE(server, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(server, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  ASSERT_EQ(::listen(server, 8), 0);
  socklen_t len = sizeof addr;
  ASSERT_EQ(::getsockname(server, reinterpret_cast<sockaddr*>(&addr), &len), 0);
  const std::string base = "http://127.0.0.1:" + std::to_string(ntohs(addr.sin_port));
  const std::string playlist = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n"
                               "#EXTINF:2.0,\n" + base + "/seg0.ts\n#EXTINF:2.0,\n" + base +
                               "/seg1.ts\n#EXT-X-ENDLIST\n";
  const std::string path = (temp_dir() / "remote.m3u8").string();
  write_bytes(path, std::vector<std::uint8_t>(playlist.begin(), playlist.end()));
  const std::string msg = open_error(path);
  EXPECT_NE(msg.find("'" + path + "'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("not allowed"), std::string::npos) << msg;
  pollfd p{server, POLLIN, 0};
  EXPECT_EQ(::poll(&p, 1, 200), 0) << "something connected to the test's server";
  ::close(server);
}

TEST(Media, TruncatedMp4) {
  const std::string path = pattern(160, 120, 30, "-pix_fmt yuv420p -c:v libx264 -g 10 -movflags +faststart",
                                   "whole.mp4");
  std::vector<std::uint8_t> bytes = read_bytes(path);
  bytes.resize(bytes.size() * 6 / 10);
  const std::string cut = (temp_dir() / "cut.mp4").string();
  write_bytes(cut, bytes);
  const Decoded d = decode_all(cut);
  EXPECT_GT(d.frames.size(), 0u);
  EXPECT_LT(d.frames.size(), 30u);
  EXPECT_TRUE(d.report.truncated);
  EXPECT_NE(d.report.truncation_reason.find("of 30 frames"), std::string::npos) << d.report.truncation_reason;
}

TEST(Media, TruncatedMkv) {
  const std::string path = pattern(160, 120, 30, "-pix_fmt yuv420p -c:v libx264 -g 10", "whole.mkv");
  std::vector<std::uint8_t> bytes = read_bytes(path);
  bytes.resize(bytes.size() / 2);
  const std::string cut = (temp_dir() / "cut.mkv").string();
  write_bytes(cut, bytes);
  const Decoded d = decode_all(cut);
  EXPECT_GT(d.frames.size(), 0u);
  EXPECT_LT(d.frames.size(), 30u);
  EXPECT_TRUE(d.report.truncated) << d.frames.size() << " frames";
}

// Garbage in the middle of the stream: decoding goes on, the report says what was hit.
TEST(Media, CorruptPackets) {
  for (const char* name : {"corrupt.h264", "corrupt.mkv"}) {
    SCOPED_TRACE(name);
    const std::string fmt = std::string(name) == "corrupt.h264" ? " -f h264" : "";
    const std::string path = pattern(320, 240, 30, "-pix_fmt yuv420p -c:v libx264 -g 5 -bf 0" + fmt,
                                     std::string("clean_") + name);
    std::vector<std::uint8_t> bytes = read_bytes(path);
    std::uint32_t state = 12345;
    for (std::size_t at : {bytes.size() * 3 / 10, bytes.size() / 2, bytes.size() * 7 / 10}) {
      for (std::size_t i = at; i < at + 400 && i < bytes.size(); ++i) {
        state = state * 1103515245u + 12345u;
        bytes[i] = static_cast<std::uint8_t>(state >> 24);
      }
    }
    const std::string bad = (temp_dir() / name).string();
    write_bytes(bad, bytes);
    const Decoded d = decode_all(bad);
    EXPECT_GT(d.frames.size(), 10u);
    EXPECT_GT(d.report.frames, 10);
    EXPECT_GT(d.report.lost + d.report.damaged, 0) << "packets " << d.report.packets << " frames " << d.report.frames;
    EXPECT_FALSE(d.report.first_error.empty());
  }
}

TEST(Media, AllPacketsCorrupt) {
  // A raw H.264 stream whose every byte after the start codes is garbage: no frame at all.
  const std::string path = pattern(64, 48, 5, "-c:v libx264 -f h264", "garbage_src.h264");
  std::vector<std::uint8_t> bytes = read_bytes(path);
  std::uint32_t state = 777;
  for (std::size_t i = 0; i + 4 < bytes.size(); ++i) {
    const bool start_code = bytes[i] == 0 && bytes[i + 1] == 0 && bytes[i + 2] == 1;
    if (start_code) {
      i += 3;  // keep the start code and the NAL header
      continue;
    }
    state = state * 1103515245u + 12345u;
    bytes[i] = static_cast<std::uint8_t>((state >> 24) | 1);  // never 0: no new start codes
  }
  const std::string bad = (temp_dir() / "garbage.h264").string();
  write_bytes(bad, bytes);
  const std::string msg = open_error(bad);
  EXPECT_FALSE(msg.empty());
  EXPECT_NE(msg.find("'" + bad + "'"), std::string::npos) << msg;
}

// ---------------------------------------------------------------------------------------------
// Threads.

TEST(Media, DestroyWithFullQueueIsPrompt) {
  const std::string path = pattern(320, 240, 30, "-pix_fmt yuv420p -c:v libx264", "full_queue.mp4");
  for (int threads : {0, 1, 2}) {
    SourceOptions options;
    options.queue_frames = 2;
    options.decoder_threads = threads;
    auto source = MediaSource::open(path, options);
    DecodedFrame f;
    ASSERT_EQ(source->next(f, 10s), MediaSource::Status::frame);
    std::this_thread::sleep_for(100ms);  // the decoder fills the queue and waits
    const auto t0 = std::chrono::steady_clock::now();
    source.reset();
    EXPECT_LT(std::chrono::steady_clock::now() - t0, 500ms);
  }
  // Destroyed at once, before anything was read.
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 5; ++i) MediaSource::open(path).reset();
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 2s);
}

TEST(Media, NextTimesOut) {
  const std::string path = pattern(64, 48, 2, "-c:v ffv1", "timeout.mkv");
  auto source = MediaSource::open(path);
  DecodedFrame f;
  int frames = 0;
  MediaSource::Status s;
  while ((s = source->next(f, 10s)) == MediaSource::Status::frame) ++frames;
  EXPECT_EQ(frames, 2);
  EXPECT_EQ(s, MediaSource::Status::end);
  source->seek(100);  // nothing will come for a while... or `end` quickly
  s = source->next(f, 0ms);
  EXPECT_TRUE(s == MediaSource::Status::timeout || s == MediaSource::Status::end);
}

TEST(Media, Version) {
  const std::string v = ffmpeg_version();
  EXPECT_EQ(v.rfind("libavcodec ", 0), 0u) << v;
  EXPECT_NE(v.find("libavformat "), std::string::npos) << v;
  EXPECT_NE(v.find("libswscale "), std::string::npos) << v;
}

// ---------------------------------------------------------------------------------------------
// VideoFormat helpers.

TEST(Media, VideoFormatGeometry) {
  VideoFormat yuyv = *direct_layout(AV_PIX_FMT_YUYV422);
  yuyv.width = 65;
  yuyv.height = 3;
  EXPECT_EQ(yuyv.chroma_width(), 33u);
  EXPECT_EQ(yuyv.chroma_height(), 3u);
  EXPECT_EQ(yuyv.plane_rows(0), 3u);
  EXPECT_EQ(yuyv.plane_row_bytes(0), 132u);  // the last V sample at 32 * 4 + 3
  VideoFormat nv12 = *direct_layout(AV_PIX_FMT_NV12);
  nv12.width = 5;
  nv12.height = 5;
  EXPECT_EQ(nv12.plane_rows(1), 3u);
  EXPECT_EQ(nv12.plane_row_bytes(1), 6u);
  EXPECT_EQ(nv12.plane_row_bytes(0), 5u);
  EXPECT_EQ(vhist::check_video_format(nv12), "");
  VideoFormat rgb48 = *direct_layout(AV_PIX_FMT_RGB48LE);
  rgb48.width = 10;
  rgb48.height = 1;
  EXPECT_EQ(rgb48.plane_row_bytes(0), 60u);
  EXPECT_EQ(rgb48.chroma_width(), 10u);
  EXPECT_EQ(vhist::matrix_name(ColourMatrix::bt2020), "bt2020");
  EXPECT_EQ(vhist::range_name(ColourRange::full), "full");
  EXPECT_EQ(vhist::model_name(ColourModel::gray), "gray");

  VideoFormat bad = nv12;
  bad.bits = 14;
  bad.sample_bytes = 2;
  EXPECT_NE(vhist::check_video_format(bad), "");
  bad = nv12;
  bad.chroma_shift_x = 2;
  EXPECT_NE(vhist::check_video_format(bad), "");
  bad = nv12;
  bad.components[2].plane = 2;
  EXPECT_NE(vhist::check_video_format(bad), "");
  bad = nv12;
  bad.width = 0;
  EXPECT_NE(vhist::check_video_format(bad), "");
  bad = *direct_layout(AV_PIX_FMT_P010LE);
  bad.width = bad.height = 2;
  EXPECT_EQ(vhist::check_video_format(bad), "");
  bad.components[0].shift = 7;
  EXPECT_NE(vhist::check_video_format(bad), "");
}

// ---------------------------------------------------------------------------------------------
// Right shape (issue 15): the display matrix's rotation and the sample aspect ratio.

// A 64x32 clip, black with a white 16x8 box at the top left (lossless), its track tagged with
// `rotate=TAG` by a stream copy: Debian 12's ffmpeg 5.1 writes that tag into the MP4's display
// matrix only when copying (and has no -display_rotation). It writes the matrix of a turn of TAG
// degrees counterclockwise, so what turns the picture upright is (360 - TAG) % 360 clockwise;
// RotationAgreesWithFfmpegsAutorotation checks that against ffmpeg's own autorotation.
std::string rotated_clip(int tag) {
  const std::string plain = make_clip("box.mp4", "-f lavfi -i color=black:s=64x32:r=10:d=0.3,"
                                                 "drawbox=x=0:y=0:w=16:h=8:color=white:t=fill -c:v libx264 -qp 0 -pix_fmt yuv420p");
  return make_clip("box_rotate" + std::to_string(tag) + ".mp4", "-i '" + plain + "' -c copy -metadata:s:v rotate=" + std::to_string(tag));
}

// Which quarter of a w x h gray picture is brightest: 0 top left, 1 top right, 2 bottom right,
// 3 bottom left (clockwise).
int brightest_corner(const std::vector<std::uint8_t>& pixels, int w, int h) {
  long sums[4] = {};
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      const int q = y < h / 2 ? (x < w / 2 ? 0 : 1) : (x < w / 2 ? 3 : 2);
      sums[q] += pixels[static_cast<std::size_t>(y) * w + x];
    }
  }
  return static_cast<int>(std::max_element(sums, sums + 4) - sums);
}

TEST(Media, RotationFromTheDisplayMatrix) {
  struct Case {
    int tag;
    std::uint32_t rotation, display_width, display_height;
  };
  // 270: a phone held upright (stored landscape, shown portrait).
  for (const Case& c : {Case{0, 0, 64, 32}, Case{270, 90, 32, 64}, Case{180, 180, 64, 32}, Case{90, 270, 32, 64}}) {
    const Decoded d = decode_all(c.tag == 0 ? rotated_clip(0) : rotated_clip(c.tag));
    ASSERT_FALSE(d.frames.empty()) << c.tag;
    EXPECT_EQ(d.info.rotation, c.rotation) << c.tag;
    for (const DecodedFrame& f : d.frames) {
      EXPECT_EQ(f.format.width, 64u);  // the stored picture, as the histograms count it
      EXPECT_EQ(f.format.height, 32u);
      EXPECT_EQ(f.format.rotation, c.rotation) << c.tag;
      EXPECT_EQ(f.format.display_width(), c.display_width) << c.tag;
      EXPECT_EQ(f.format.display_height(), c.display_height) << c.tag;
    }
  }
}

TEST(Media, RotationAgreesWithFfmpegsAutorotation) {
  // Independent of the tag's sign: ffmpeg's own player rule (autorotation, on by default when
  // decoding to raw video) says where the stored top-left box ends up; turning the stored picture
  // clockwise by our rotation must put it there, at the same size.
  for (int tag : {90, 180, 270}) {
    const std::string clip = rotated_clip(tag);
    const Decoded d = decode_all(clip);
    ASSERT_FALSE(d.frames.empty());
    const VideoFormat& f = d.frames[0].format;
    const std::string raw = make_clip("box_rotate" + std::to_string(tag) + ".gray",
                                      "-i '" + clip + "' -frames:v 1 -f rawvideo -pix_fmt gray");
    const std::vector<std::uint8_t> pixels = read_bytes(raw);
    ASSERT_EQ(pixels.size(), std::size_t{f.display_width()} * f.display_height()) << tag;
    const int corner = brightest_corner(pixels, static_cast<int>(f.display_width()), static_cast<int>(f.display_height()));
    EXPECT_EQ(corner, static_cast<int>(f.rotation / 90)) << "tag " << tag << ", rotation " << f.rotation;
  }
}

TEST(Media, OddRotationsGoToTheNearestQuarterTurn) {
  // rotate=100: 100 degrees counterclockwise = 260 clockwise -> 270; rotate=30: 330 -> 0 (360).
  const Decoded d100 = decode_all(rotated_clip(100));
  ASSERT_FALSE(d100.frames.empty());
  EXPECT_EQ(d100.frames[0].format.rotation, 270u);
  const Decoded d30 = decode_all(rotated_clip(30));
  ASSERT_FALSE(d30.frames.empty());
  EXPECT_EQ(d30.frames[0].format.rotation, 0u);
}

TEST(Media, DisplayMatrices) {
  // Matrices as files carry them (16.16 fixed point, the last entry 2.30). An iPhone held
  // upright writes this one; FFmpeg's player turns such a clip 90 degrees clockwise.
  const std::int32_t iphone_portrait[9] = {0, 65536, 0, -65536, 0, 0, 0, 0, 1 << 30};
  Rotation r = read_display_matrix(iphone_portrait);
  EXPECT_EQ(r.degrees, 90u);
  EXPECT_EQ(r.note, "");
  const std::int32_t identity[9] = {65536, 0, 0, 0, 65536, 0, 0, 0, 1 << 30};
  EXPECT_EQ(read_display_matrix(identity).degrees, 0u);
  const std::int32_t upside_down[9] = {-65536, 0, 0, 0, -65536, 0, 0, 0, 1 << 30};
  EXPECT_EQ(read_display_matrix(upside_down).degrees, 180u);
  const std::int32_t iphone_upright_other_way[9] = {0, -65536, 0, 65536, 0, 0, 0, 0, 1 << 30};
  EXPECT_EQ(read_display_matrix(iphone_upright_other_way).degrees, 270u);

  // A mirror (negative determinant): read as the turn left after undoing it, and said so.
  const std::int32_t mirror[9] = {-65536, 0, 0, 0, 65536, 0, 0, 0, 1 << 30};
  r = read_display_matrix(mirror);
  EXPECT_EQ(r.degrees, 0u);
  EXPECT_NE(r.note.find("mirror"), std::string::npos) << r.note;
  // Odd angles: the nearest quarter turn, and said so. av_display_rotation_set(m, a) writes the
  // matrix that av_display_rotation_get reads as -a (counterclockwise), i.e. a degrees clockwise.
  std::int32_t m[9];
  av_display_rotation_set(m, 30);
  r = read_display_matrix(m);
  EXPECT_EQ(r.degrees, 0u);
  EXPECT_NE(r.note, "");
  av_display_rotation_set(m, 50);
  EXPECT_EQ(read_display_matrix(m).degrees, 90u);
  av_display_rotation_set(m, -89.9);  // 270.1 clockwise: near enough to say nothing
  r = read_display_matrix(m);
  EXPECT_EQ(r.degrees, 270u);
  EXPECT_EQ(r.note, "");
  const std::int32_t zero[9] = {};
  r = read_display_matrix(zero);
  EXPECT_EQ(r.degrees, 0u);
  EXPECT_NE(r.note, "");

  std::uint32_t num = 0, den = 0;
  read_sample_aspect(AVRational{128, 90}, num, den);
  EXPECT_EQ(num, 64u);
  EXPECT_EQ(den, 45u);
  read_sample_aspect(AVRational{0, 1}, num, den);
  EXPECT_EQ(num, 1u);
  EXPECT_EQ(den, 1u);
  read_sample_aspect(AVRational{-4, 3}, num, den);
  EXPECT_EQ(num, 1u);
  EXPECT_EQ(den, 1u);
}

TEST(Media, SampleAspectRatio) {
  struct Case {
    const char* name;
    int width, height;
    const char* sar;
    std::uint32_t num, den, display_width;
  };
  // Display widths by hand: 720 * 64/45 = 1024; 720 * 40/33 = 872.73; 720 * 16/11 = 1047.27.
  for (const Case& c : {Case{"pal_wide", 720, 576, "64/45", 64, 45, 1024}, Case{"ntsc_4x3", 720, 480, "40/33", 40, 33, 873},
                        Case{"ntsc_wide", 720, 480, "16/11", 16, 11, 1047}, Case{"square", 320, 240, "1/1", 1, 1, 320}}) {
    const std::string clip = make_clip(std::string(c.name) + ".mp4",
                                       "-f lavfi -i testsrc2=s=" + std::to_string(c.width) + "x" + std::to_string(c.height) +
                                           ":r=25 -frames:v 2 -vf setsar=" + c.sar + " -c:v libx264 -preset ultrafast -pix_fmt yuv420p");
    const Decoded d = decode_all(clip);
    ASSERT_FALSE(d.frames.empty()) << c.name;
    EXPECT_EQ(d.info.sar_num, c.num) << c.name;
    EXPECT_EQ(d.info.sar_den, c.den) << c.name;
    for (const DecodedFrame& f : d.frames) {
      EXPECT_EQ(f.format.width, static_cast<std::uint32_t>(c.width)) << c.name;
      EXPECT_EQ(f.format.sar_num, c.num) << c.name;
      EXPECT_EQ(f.format.sar_den, c.den) << c.name;
      EXPECT_EQ(f.format.rotation, 0u) << c.name;
      EXPECT_EQ(f.format.display_width(), c.display_width) << c.name;
      EXPECT_EQ(f.format.display_height(), static_cast<std::uint32_t>(c.height)) << c.name;
    }
  }
}

TEST(Media, UnsetSampleAspectRatioIsSquare) {
  // A clip whose stream and frames say 0:1 (unknown): shown at its stored shape.
  const std::string clip = make_clip("sar_unknown.mkv", "-f lavfi -i testsrc2=s=96x64:r=25 -frames:v 2 -vf setsar=0 "
                                                        "-c:v ffv1");
  const Decoded d = decode_all(clip);
  ASSERT_FALSE(d.frames.empty());
  EXPECT_EQ(d.frames[0].format.sar_num, 1u);
  EXPECT_EQ(d.frames[0].format.sar_den, 1u);
  EXPECT_EQ(d.frames[0].format.display_width(), 96u);
}

TEST(Media, RotatedAnamorphicClip) {
  // PAL 16:9 shot on its side: the aspect ratio widens the stored width, then the turn swaps.
  const std::string pal = make_clip("pal_rot_src.mp4", "-f lavfi -i testsrc2=s=720x576:r=25 -frames:v 2 -vf setsar=64/45 "
                                                       "-c:v libx264 -preset ultrafast -pix_fmt yuv420p");
  const std::string clip = make_clip("pal_rot.mp4", "-i '" + pal + "' -c copy -metadata:s:v rotate=270");
  const Decoded d = decode_all(clip);
  ASSERT_FALSE(d.frames.empty());
  EXPECT_EQ(d.frames[0].format.rotation, 90u);
  EXPECT_EQ(d.frames[0].format.display_width(), 576u);
  EXPECT_EQ(d.frames[0].format.display_height(), 1024u);
}

// FFmpeg's colour codes as vhist's enums: each code FFmpeg names maps to the value whose
// identifier is FFmpeg's name (what the records printed when they held FFmpeg's strings), and a
// code vhist does not know maps to other, never to PQ or HLG.
TEST(Media, ColourCodesAreFfmpegsNames) {
  using vhist::ColourPrimaries;
  using vhist::ColourTransfer;
  using vhist::colour_id;
  const auto unspecified = [](const char* name) {
    return name == nullptr || std::string(name) == "unknown" || std::string(name) == "reserved" ||
           std::string(name) == "unspecified";
  };
  int named = 0;
  for (int code = 0; code < AVCOL_TRC_NB; ++code) {
    const auto trc = static_cast<AVColorTransferCharacteristic>(code);
    const char* name = av_color_transfer_name(trc);
    if (unspecified(name)) continue;
    ++named;
    EXPECT_EQ(colour_id(transfer_of(trc)), name) << code;
    EXPECT_EQ(transfer_of(trc) == ColourTransfer::smpte2084, code == AVCOL_TRC_SMPTE2084) << name;
    EXPECT_EQ(transfer_of(trc) == ColourTransfer::arib_std_b67, code == AVCOL_TRC_ARIB_STD_B67) << name;
  }
  EXPECT_EQ(named, 16);  // FFmpeg 5.1's: every transfer but unspecified and the two reserved
  for (int code = 0; code < AVCOL_PRI_NB; ++code) {
    const auto pri = static_cast<AVColorPrimaries>(code);
    const char* name = av_color_primaries_name(pri);
    if (!unspecified(name)) {
      EXPECT_EQ(colour_id(primaries_of(pri)), name) << code;
    }
  }
  for (int code = 0; code < AVCHROMA_LOC_NB; ++code) {
    const auto loc = static_cast<AVChromaLocation>(code);
    const char* name = av_chroma_location_name(loc);
    if (unspecified(name)) {
      EXPECT_EQ(siting_of(loc), std::nullopt) << code;
    } else {
      ASSERT_TRUE(siting_of(loc)) << name;
      EXPECT_EQ(colour_id(*siting_of(loc)), name);
    }
  }
  // Codes without a name (a newer FFmpeg's, a gap in the list, unspecified): other, not HDR.
  EXPECT_EQ(transfer_of(AVCOL_TRC_UNSPECIFIED), ColourTransfer::other);
  EXPECT_EQ(transfer_of(static_cast<AVColorTransferCharacteristic>(AVCOL_TRC_NB + 7)), ColourTransfer::other);
  EXPECT_EQ(primaries_of(static_cast<AVColorPrimaries>(13)), ColourPrimaries::other);
  EXPECT_EQ(colour_id(ColourTransfer::other), "unknown");
}

}  // namespace
