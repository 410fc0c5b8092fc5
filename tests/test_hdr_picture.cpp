// An HDR picture on an SDR target, headless, on both engines: the video
// tone-mapped as the standards' equations say (computed independently in double precision,
// hdr_reference.h), the histograms, statistics and false colour unchanged by the mapping (they
// count code values). Validation on, any message fails the test.
#include "gpu_test_env.h"
#include "hdr_reference.h"
#include "picture_draw.h"

#include "vhist/compute/colour.h"
#include "vhist/compute/cpu_reference.h"
#include "vhist/picture/picture_geometry.h"

#include <cmath>

namespace vhist {
namespace {

class HdrPictureTest : public test::GpuTest, public ::testing::WithParamInterface<bool> {
 protected:
  Engine engine() const { return GetParam() ? Engine::cpu : Engine::gpu; }
};

constexpr VkExtent2D kExtent{256, 144};

// The target's size, so each pixel shows one stored pixel exactly: rows 0-47 grey ramps (code
// x), rows 48-95 a warm ramp (x, x/2, x/4), below a cool one (x/4, x/2, x).
SyntheticVideoFrame ramps() {
  return pattern_frame(kExtent.width, kExtent.height, [](std::uint32_t x, std::uint32_t y) {
    const int v = static_cast<int>(x);
    if (y < 48) return std::array<int, 3>{v, v, v};
    if (y < 96) return std::array<int, 3>{v, v / 2, v / 4};
    return std::array<int, 3>{v / 4, v / 2, v};
  });
}

std::array<int, 3> expected(std::array<int, 3> codes, bool hlg, double peak, double target) {
  const auto sdr = test::hdr_to_sdr({codes[0] / 255.0, codes[1] / 255.0, codes[2] / 255.0}, hlg, peak, target);
  return {static_cast<int>(std::lround(sdr[0] * 255)), static_cast<int>(std::lround(sdr[1] * 255)),
          static_cast<int>(std::lround(sdr[2] * 255))};
}

TEST_P(HdrPictureTest, VideoIsToneMappedAsTheStandardsSay) {
  viewer::OffscreenTarget target(context(), kExtent);
  viewer::FrameRenderer renderer(context(), engine());
  const SyntheticVideoFrame frame = ramps();
  viewer::DrawStyle style;
  style.channels = {false, false, false, false};
  for (const bool hlg : {false, true}) {
    style.hdr = {hlg ? viewer::LightScale::hlg : viewer::LightScale::pq, hlg ? 1000.0f : 4000.0f, 203.0f};
    const auto pixels = draw_once(context(), renderer, target, frame, style);
    int worst = 0;
    for (const int y : {20, 70}) {  // above the histogram panels
      for (int x = 0; x < 256; ++x) {
        const std::array<int, 3> codes = y < 48 ? std::array<int, 3>{x, x, x} : std::array<int, 3>{x, x / 2, x / 4};
        const auto want = expected(codes, hlg, style.hdr.source_peak, 203);
        const auto got = rgb_at(pixels, kExtent.width, x, y);
        for (int c = 0; c < 3; ++c) worst = std::max(worst, std::abs(got[static_cast<std::size_t>(c)] - want[static_cast<std::size_t>(c)]));
      }
    }
    EXPECT_LE(worst, 2) << (hlg ? "HLG" : "PQ") << ": codes off by up to " << worst;
    // Not the codes as they are: a dark PQ grey (code 64, 5 cd/m2, below the knee) is shown
    // at its light over 203 cd/m2, gamma 2.4: code 55.5.
    if (!hlg) {
      EXPECT_NEAR(rgb_at(pixels, kExtent.width, 64, 20)[0], 55.5, 1.0);
    }
  }
}

TEST_P(HdrPictureTest, HistogramsStatisticsAndFalseColourKeepTheCodes) {
  viewer::OffscreenTarget target(context(), kExtent);
  viewer::FrameRenderer renderer(context(), engine());
  const SyntheticVideoFrame frame = ramps();
  const Histogram reference =
      reference_histogram(reference_convert(frame.format, frame.view()), converted_format(frame.format), 256);
  viewer::DrawStyle style;
  style.opacity = 1.0f;  // the panels opaque: nothing of the video shows through them
  const auto quads = viewer::layout_quads(style, kExtent.width, kExtent.height);
  std::vector<std::vector<std::uint8_t>> pictures;
  for (const bool mapped : {false, true}) {
    style.hdr = {mapped ? viewer::LightScale::pq : viewer::LightScale::none, 1000.0f, 203.0f};
    style.false_colour = false;
    pictures.push_back(draw_once(context(), renderer, target, frame, style));
    renderer.begin();  // collects the last tick's readback
    EXPECT_EQ(renderer.statistics().levels.counts, reference.counts) << "mapped " << mapped;
    style.false_colour = true;
    pictures.push_back(draw_once(context(), renderer, target, frame, style));
  }
  EXPECT_EQ(pictures[1], pictures[3]) << "false colour reads the codes";
  // The panels, pixel for pixel.
  for (const auto& q : quads) {
    for (int y = static_cast<int>(q.rect[1]); y < static_cast<int>(q.rect[3]); ++y) {
      for (int x = static_cast<int>(q.rect[0]); x < static_cast<int>(q.rect[2]); ++x) {
        ASSERT_EQ(rgb_at(pictures[0], kExtent.width, x, y), rgb_at(pictures[2], kExtent.width, x, y)) << x << "," << y;
      }
    }
  }
  EXPECT_NE(rgb_at(pictures[0], kExtent.width, 128, 20), rgb_at(pictures[2], kExtent.width, 128, 20)) << "the video is mapped";
}

INSTANTIATE_TEST_SUITE_P(Engines, HdrPictureTest, ::testing::Bool(),
                         [](const auto& p) { return std::string(p.param ? "cpu" : "gpu"); });

}  // namespace
}  // namespace vhist
