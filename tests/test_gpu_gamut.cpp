// The gamut counts of the GPU convert pass and the checksum pass (checksum.comp) through the
// video pipeline: equal to reference_gamut() and the CPU engine's counts, and to
// reference_sample_checksum(), on every layout, both ranges, odd sizes, frames with known
// out-of-gamut pixels at the limits, and every single-sample change of small frames.
#include "gamut_frames.h"
#include "gpu_test_env.h"

#include "vhist/compute/colour.h"
#include "vhist/compute/cpu_engine.h"
#include "vhist/compute/frame_checksum.h"
#include "vhist/compute/source_measures.h"
#include "vhist/compute/synthetic_frames.h"
#include "vhist/compute/video_pipeline.h"

#include <set>

namespace vhist {
namespace {

using test::planar_frame;
using test::write_sample;

SourceRequest gamut_and_checksum() {
  SourceRequest r;
  r.gamut = true;
  r.checksum = true;
  return r;
}

class GpuGamut : public test::GpuTest, public ::testing::WithParamInterface<std::string> {};

struct Expected {
  std::uint64_t tag;
  std::optional<GamutCounts> gamut;
  std::uint64_t checksum;
};

// Random samples (much of them out of gamut), several frames in flight: the GPU's counts equal
// the reference's and the CPU engine's, its checksum the reference's; R'G'B' frames have a
// checksum and no gamut counts.
TEST_P(GpuGamut, EqualsTheReferenceAndTheCpuEngine) {
  HistogramEngine engine(context());
  VideoPipeline pipeline(engine, 3);
  CpuEngine cpu(2);
  std::vector<Expected> expected;
  std::vector<FrameResult> results;
  std::uint64_t tag = 0;
  for (auto [w, h] : {std::pair{1u, 1u}, {5u, 3u}, {67u, 35u}, {130u, 66u}}) {
    for (ColourRange range : {ColourRange::limited, ColourRange::full}) {
      const SyntheticVideoFrame t = make_synthetic_frame(GetParam(), w, h, w * 5 + h, ColourMatrix::bt2020, range);
      Expected e{tag, std::nullopt, reference_sample_checksum(t.format, t.view())};
      if (has_planes(t.format)) {
        e.gamut = reference_gamut(t.format, t.view());
        CpuEngine::Request want;
        want.gamut = true;
        EXPECT_EQ(cpu.count(t.format, t.view(), 256, want).gamut, e.gamut);
      }
      expected.push_back(e);
      SourceRequest source = gamut_and_checksum();
      if (w > 2) source.region = PixelRect{1, 1, w - 2, h - 2};  // the gamut and checksum stay whole
      if (auto done = pipeline.submit(t.format, t.view(), 256, tag++, false, source)) results.push_back(std::move(*done));
    }
  }
  while (auto done = pipeline.finish_one()) results.push_back(std::move(*done));
  ASSERT_EQ(results.size(), expected.size());
  for (std::size_t i = 0; i < results.size(); ++i) {
    EXPECT_EQ(results[i].tag, expected[i].tag);
    EXPECT_EQ(results[i].gamut, expected[i].gamut) << "frame " << i;
    EXPECT_EQ(results[i].checksum, expected[i].checksum) << "frame " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(All, GpuGamut, ::testing::ValuesIn(synthetic_layouts()));

class GpuGamutFrames : public test::GpuTest {};

// Frames built to have known gamut counts (tests/test_gamut.cpp checks the reference on them
// against the standard's equations): gray at the limits, and saturated chroma over all luma
// codes in 4:4:4, 4:2:2 and 4:2:0 at 8 and 10 bits.
TEST_F(GpuGamutFrames, KnownFramesEqualTheReference) {
  HistogramEngine engine(context());
  VideoPipeline pipeline(engine, 2);
  const auto check = [&](const SyntheticVideoFrame& f, const std::string& at) {
    pipeline.submit(f.format, f.view(), 256, 0, false, gamut_and_checksum());
    const FrameResult got = *pipeline.finish_one();
    EXPECT_EQ(got.gamut, reference_gamut(f.format, f.view())) << at;
    EXPECT_EQ(got.checksum, reference_sample_checksum(f.format, f.view())) << at;
  };
  for (auto [bits, codes] : {std::pair{8u, std::array<std::uint32_t, 6>{5, 6, 245, 246, 0, 255}},
                             std::pair{10u, std::array<std::uint32_t, 6>{19, 20, 984, 985, 0, 1023}}}) {
    SyntheticVideoFrame f = planar_frame(bits, 0, 0, 3, 2, ColourRange::limited, ColourMatrix::bt709, true);
    for (std::uint32_t i = 0; i < 6; ++i) write_sample(f, 0, i % 3, i / 3, codes[i]);
    const GamutCounts want{2, 2, 4};  // test_gamut.cpp's Gamut.GrayLimits works these out
    ASSERT_EQ(reference_gamut(f.format, f.view()), want);
    check(f, "gray " + std::to_string(bits));
  }
  for (std::uint32_t bits : {8u, 10u}) {
    const std::uint32_t m = (1u << bits) - 1, unit = 1u << (bits - 8);
    for (auto [sx, sy] : {std::pair{0u, 0u}, {1u, 0u}, {1u, 1u}}) {
      for (ColourRange range : {ColourRange::limited, ColourRange::full}) {
        for (auto [cb, cr] : {std::pair{16 * unit, 240 * unit}, {240 * unit, 16 * unit}, {0u, m}}) {
          const std::uint32_t w = 37, h = (m + 1 + w - 1) / w;
          SyntheticVideoFrame f = planar_frame(bits, sx, sy, w, h, range, ColourMatrix::bt2020);
          for (std::uint32_t i = 0; i < w * h; ++i) write_sample(f, 0, i % w, i / w, i % (m + 1));
          for (std::uint32_t y = 0; y < f.format.chroma_height(); ++y) {
            for (std::uint32_t x = 0; x < f.format.chroma_width(); ++x) {
              write_sample(f, 1, x, y, cb);
              write_sample(f, 2, x, y, cr);
            }
          }
          ASSERT_GT(reference_gamut(f.format, f.view()).out, 0u);
          check(f, std::to_string(bits) + " bits " + std::to_string(sx) + std::to_string(sy) + " " +
                       std::string(range_name(range)) + " cb " + std::to_string(cb));
        }
      }
    }
  }
}

// Every single-sample change of small frames (each component, each position, chroma and the
// last row and column included) gives a GPU checksum equal to the reference's, unlike the
// original's and every other change's; other strides and padding give the original's.
TEST_F(GpuGamutFrames, ChecksumSeesEverySingleSampleChange) {
  HistogramEngine engine(context());
  VideoPipeline pipeline(engine, 3);
  for (const char* layout : {"yuv420p", "nv21", "p010", "yuyv422", "yuv422p10", "gray10", "rgb24", "gbrp10"}) {
    SyntheticVideoFrame f = make_synthetic_frame(layout, 7, 5, 11);
    std::vector<std::uint64_t> want;
    std::vector<std::uint64_t> got;
    const auto submit = [&] {
      want.push_back(reference_sample_checksum(f.format, f.view()));
      SourceRequest r;
      r.checksum = true;
      if (auto done = pipeline.submit(f.format, f.view(), 16, 0, false, r)) got.push_back(*done->checksum);
    };
    submit();
    const std::uint32_t components = f.format.model == ColourModel::gray ? 1 : 3;
    for (std::uint32_t c = 0; c < components; ++c) {
      const bool chroma = c != 0 && f.format.model == ColourModel::yuv;
      const std::uint32_t cw = chroma ? f.format.chroma_width() : 7, ch = chroma ? f.format.chroma_height() : 5;
      for (std::uint32_t y = 0; y < ch; ++y) {
        for (std::uint32_t x = 0; x < cw; ++x) {
          const std::uint32_t before = read_sample(f.format, f.view(), c, x, y);
          write_sample(f, c, x, y, before ^ 1u);
          submit();
          write_sample(f, c, x, y, before);
        }
      }
    }
    const SyntheticVideoFrame g = test::restrided(f, 10, std::byte{0x77});
    if (auto done = pipeline.submit(g.format, g.view(), 16, 0, false, SourceRequest{false, false, std::nullopt, false, true})) {
      got.push_back(*done->checksum);
    }
    while (auto done = pipeline.finish_one()) got.push_back(*done->checksum);
    ASSERT_EQ(got.size(), want.size() + 1) << layout;
    EXPECT_EQ(got.back(), want.front()) << layout << ": other strides and padding";
    got.pop_back();
    EXPECT_EQ(got, want) << layout;
    EXPECT_EQ(std::set<std::uint64_t>(got.begin(), got.end()).size(), got.size()) << layout;
  }
}

// Without a request neither comes back; an R'G'B' frame has a checksum and no gamut counts.
TEST_F(GpuGamutFrames, OnlyWhatWasAskedFor) {
  HistogramEngine engine(context());
  VideoPipeline pipeline(engine, 1);
  const SyntheticVideoFrame yuv = make_synthetic_frame("yuv420p", 16, 8, 1);
  pipeline.submit(yuv.format, yuv.view(), 256, 0, false, SourceRequest{true, true});
  const FrameResult plain = *pipeline.finish_one();
  EXPECT_FALSE(plain.gamut.has_value());
  EXPECT_FALSE(plain.checksum.has_value());
  const SyntheticVideoFrame rgb = make_synthetic_frame("bgra", 16, 8, 2);
  pipeline.submit(rgb.format, rgb.view(), 256, 1, false, gamut_and_checksum());
  const FrameResult from_rgb = *pipeline.finish_one();
  EXPECT_FALSE(from_rgb.gamut.has_value());
  EXPECT_EQ(from_rgb.checksum, reference_sample_checksum(rgb.format, rgb.view()));
}

}  // namespace
}  // namespace vhist
