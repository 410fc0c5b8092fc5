// The viewer's picture tools, headless, on both engines and both drawing paths: the region of
// interest (its histograms equal the CPU reference's of its pixels). Validation on, any message
// fails the test.
#include "gpu_test_env.h"
#include "picture_draw.h"

#include "vhist/compute/colour.h"
#include "vhist/compute/cpu_reference.h"
#include "vhist/compute/region.h"

namespace vhist {
namespace {

// Parameter: (CPU engine, compute composite).
class PictureToolsTest : public test::GpuTest, public ::testing::WithParamInterface<std::tuple<bool, bool>> {
 protected:
  Engine engine() const { return std::get<0>(GetParam()) ? Engine::cpu : Engine::gpu; }
  bool composite() const { return std::get<1>(GetParam()); }
};

// A frame of many codes per channel, different in each part of the picture.
SyntheticVideoFrame busy_frame() {
  return pattern_frame(96, 54, [](std::uint32_t x, std::uint32_t y) {
    return std::array<int, 3>{static_cast<int>((x * 7 + y * 3) % 256), static_cast<int>((x * x + y * 11) % 256),
                              static_cast<int>((y * y * 5 + x) % 256)};
  });
}

Histogram region_reference(const SyntheticVideoFrame& frame, const PixelRect& rect, std::uint32_t bins) {
  const FrameFormat rgb = converted_format(frame.format);
  const auto converted = reference_convert(frame.format, frame.view());
  return reference_histogram(crop_frame(converted, rgb, rect), region_format(rgb, rect), bins);
}

TEST_P(PictureToolsTest, RegionHistogramsAreTheRegionsPixels) {
  const SyntheticVideoFrame frame = busy_frame();
  viewer::OffscreenTarget target(context(), {128, 72});
  viewer::FrameRenderer renderer(context(), target.render_pass(), engine());
  for (const PixelRect rect : {PixelRect{5, 3, 20, 11}, PixelRect{60, 0, 36, 54}, PixelRect{0, 53, 96, 1}}) {
    viewer::DrawStyle style;
    style.bins = 64;  // the display bins differ from the statistics' one level per code
    style.region = rect;
    draw_once(context(), renderer, target, frame, style, composite());
    renderer.begin();  // collects the last tick's readback
    const viewer::FrameStatistics& s = renderer.statistics();
    EXPECT_EQ(s.width, rect.width);
    EXPECT_EQ(s.height, rect.height);
    const Histogram want = region_reference(frame, rect, 256);
    ASSERT_EQ(s.levels.bins, 256u);
    EXPECT_EQ(s.levels.counts, want.counts) << rect.x << "," << rect.y << " " << rect.width << "x" << rect.height;
    renderer.end();  // the slot begun above is given back unused
  }
}

TEST_P(PictureToolsTest, RegionOutsideTheFrameCountsTheWholeFrame) {
  const SyntheticVideoFrame frame = busy_frame();
  viewer::OffscreenTarget target(context(), {128, 72});
  viewer::FrameRenderer renderer(context(), target.render_pass(), engine());
  viewer::DrawStyle style;
  style.region = PixelRect{90, 50, 10, 10};  // past the right and bottom edges: ignored
  draw_once(context(), renderer, target, frame, style, composite());
  renderer.begin();
  const Histogram want = region_reference(frame, {0, 0, 96, 54}, 256);
  EXPECT_EQ(renderer.statistics().levels.counts, want.counts);
  EXPECT_EQ(renderer.statistics().width, 96u);
}

INSTANTIATE_TEST_SUITE_P(EnginesAndPaths, PictureToolsTest,
                         ::testing::Combine(::testing::Bool(), ::testing::Bool()), [](const auto& p) {
                           return std::string(std::get<0>(p.param) ? "cpu_engine" : "gpu_engine") +
                                  (std::get<1>(p.param) ? "_composite" : "_raster");
                         });

}  // namespace
}  // namespace vhist
