// The source passes on the GPU (planes.comp, max_rgb.comp) through the video pipeline, against
// the CPU reference of source_measures.h: every layout with planes, odd sizes, both ranges; the
// light pass's HLG levels (hlg_light.h) too.
#include "gpu_test_env.h"
#include "vhist/compute/synthetic_frames.h"

#include "vhist/compute/colour.h"
#include "vhist/compute/cpu_reference.h"
#include "vhist/compute/region.h"
#include "vhist/compute/frame_stats.h"
#include "vhist/compute/source_measures.h"
#include "vhist/compute/video_pipeline.h"

namespace vhist {
namespace {

class GpuSource : public test::GpuTest, public ::testing::WithParamInterface<std::string> {};

struct Expected {
  std::uint64_t tag;
  std::optional<PlaneCounts> planes;
  std::vector<std::uint32_t> light;
};

// Plane counts and light levels of frames of one layout, several in flight, at the depth's
// levels and at a coarser bin count, equal the reference's exactly.
TEST_P(GpuSource, PlanesAndLightEqualTheReference) {
  HistogramEngine engine(context());
  VideoPipeline pipeline(engine, 3);
  std::vector<Expected> expected;
  std::vector<FrameResult> results;
  std::uint64_t tag = 0;
  for (auto [w, h] : {std::pair{1u, 1u}, {5u, 3u}, {67u, 35u}, {130u, 66u}}) {
    for (ColourRange range : {ColourRange::limited, ColourRange::full}) {
      const SyntheticVideoFrame t = make_synthetic_frame(GetParam(), w, h, w * 3 + h, ColourMatrix::bt2020, range);
      for (std::uint32_t bins : {stats_levels(t.format.bits), 64u}) {
        Expected e{tag, std::nullopt, reference_max_rgb(reference_convert(t.format, t.view()), converted_format(t.format))};
        if (has_planes(t.format)) e.planes = reference_planes(t.format, t.view(), bins);
        expected.push_back(std::move(e));
        if (auto done = pipeline.submit(t.format, t.view(), bins, tag++, false, SourceRequest{true, true})) {
          results.push_back(std::move(*done));
        }
      }
    }
  }
  while (auto done = pipeline.finish_one()) results.push_back(std::move(*done));
  ASSERT_EQ(results.size(), expected.size());
  for (std::size_t i = 0; i < results.size(); ++i) {
    EXPECT_EQ(results[i].tag, expected[i].tag);
    EXPECT_EQ(results[i].planes, expected[i].planes) << "frame " << i;
    EXPECT_EQ(results[i].light, expected[i].light) << "frame " << i;
  }
}

// HLG's light levels (integer steps from tables, hlg_light_shared.h) equal the reference's
// exactly: every layout and depth, random codes, several frames in flight, PQ frames between.
TEST_P(GpuSource, HlgLightEqualsTheReference) {
  HistogramEngine engine(context());
  VideoPipeline pipeline(engine, 3);
  std::vector<std::vector<std::uint32_t>> expected;
  std::vector<FrameResult> results;
  std::uint64_t tag = 0;
  for (auto [w, h] : {std::pair{1u, 1u}, {67u, 35u}, {130u, 66u}}) {
    for (bool hlg : {true, false}) {
      const SyntheticVideoFrame t = make_synthetic_frame(GetParam(), w, h, w * 5 + h, ColourMatrix::bt2020);
      expected.push_back(reference_max_rgb(reference_convert(t.format, t.view()), converted_format(t.format),
                                           hlg ? LightSignal::hlg : LightSignal::pq));
      SourceRequest want{false, true};
      want.hlg = hlg;
      if (auto done = pipeline.submit(t.format, t.view(), 64, tag++, false, want)) results.push_back(std::move(*done));
    }
  }
  while (auto done = pipeline.finish_one()) results.push_back(std::move(*done));
  ASSERT_EQ(results.size(), expected.size());
  for (std::size_t i = 0; i < results.size(); ++i) EXPECT_EQ(results[i].light, expected[i]) << "frame " << i;
}

INSTANTIATE_TEST_SUITE_P(All, GpuSource, ::testing::ValuesIn(synthetic_layouts()));

class GpuSourceOff : public test::GpuTest {};

// Without a request nothing extra comes back; an R'G'B' frame has no plane counts.
TEST_F(GpuSourceOff, OnlyWhatWasAskedFor) {
  HistogramEngine engine(context());
  VideoPipeline pipeline(engine, 1);
  const SyntheticVideoFrame yuv = make_synthetic_frame("yuv420p", 16, 8, 1);
  pipeline.submit(yuv.format, yuv.view(), 256, 0);
  const FrameResult plain = *pipeline.finish_one();
  EXPECT_FALSE(plain.planes.has_value());
  EXPECT_TRUE(plain.light.empty());
  const SyntheticVideoFrame rgb = make_synthetic_frame("rgb24", 16, 8, 2);
  pipeline.submit(rgb.format, rgb.view(), 256, 1, false, SourceRequest{true, false});
  const FrameResult from_rgb = *pipeline.finish_one();
  EXPECT_FALSE(from_rgb.planes.has_value());
  EXPECT_TRUE(from_rgb.light.empty());
}

// A region of the converted frame: its histogram and light equal the reference's of the same
// pixels cut from the whole converted frame (chroma upsampled from the whole picture), for
// subsampled layouts at odd offsets, and regions touching the frame's edges.
TEST_F(GpuSourceOff, RegionEqualsTheReferenceOfItsPixels) {
  HistogramEngine engine(context());
  VideoPipeline pipeline(engine, 2);
  for (const char* layout : {"yuv420p", "nv12", "p010", "yuv422p10", "rgb24"}) {
    const SyntheticVideoFrame t = make_synthetic_frame(layout, 67, 35, 9);
    const FrameFormat rgb = converted_format(t.format);
    const auto converted = reference_convert(t.format, t.view());
    for (const PixelRect r : {PixelRect{3, 5, 17, 9}, PixelRect{0, 0, 67, 35}, PixelRect{66, 34, 1, 1},
                              PixelRect{1, 0, 66, 1}}) {
      const std::uint32_t bins = stats_levels(t.format.bits);
      pipeline.submit(t.format, t.view(), bins, 0, true, SourceRequest{false, true, r});
      const FrameResult got = *pipeline.finish_one();
      const auto region = crop_frame(converted, rgb, r);
      const FrameFormat f = region_format(rgb, r);
      EXPECT_EQ(got.histogram, reference_histogram(region, f, bins)) << layout << " " << r.x << "," << r.y;
      EXPECT_EQ(got.light, reference_max_rgb(region, f)) << layout;
      SourceRequest hlg{false, true, r};
      hlg.hlg = true;
      pipeline.submit(t.format, t.view(), bins, 0, false, hlg);
      EXPECT_EQ(pipeline.finish_one()->light, reference_max_rgb(region, f, LightSignal::hlg)) << layout;
      EXPECT_EQ(got.histogram.total(Channel::l), r.pixel_count());
      EXPECT_EQ(got.cdf.total(Channel::r), r.pixel_count());
    }
  }
  const SyntheticVideoFrame t = make_synthetic_frame("yuv420p", 16, 8, 1);
  EXPECT_THROW(pipeline.submit(t.format, t.view(), 256, 0, false, SourceRequest{false, false, PixelRect{8, 0, 9, 8}}),
               std::invalid_argument);
  EXPECT_EQ(pipeline.in_flight(), 0u);
}

}  // namespace
}  // namespace vhist
