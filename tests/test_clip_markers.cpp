// Clipping on the histograms, headless, on both engines: the clip
// markers in the bars' top corners grow with the share of pixels at the end code (none without
// one), a bar taller than the scale gets a cap, and the end bins drawn to their own scale leave
// the other bins scaled without them. Measured in the read-back picture. Validation on, any
// message fails the test.
#include "gpu_test_env.h"
#include "picture_draw.h"

#include "vhist/picture/picture_geometry.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

namespace vhist {
namespace {

// Parameter: the CPU engine (else the GPU engine).
class ClipMarkerTest : public test::GpuTest, public ::testing::WithParamInterface<bool> {
 protected:
  Engine engine() const { return GetParam() ? Engine::cpu : Engine::gpu; }
};

constexpr VkExtent2D kExtent{320, 180};

// A full-range grey frame, 256x64: `high` columns at 255 on the right, `low` at 0 on the left,
// the rest mid-tones (codes 96..159), far from both ends.
SyntheticVideoFrame banded_frame(std::uint32_t low, std::uint32_t high) {
  SyntheticVideoFrame frame = make_synthetic_frame("gray", 256, 64, 1, ColourMatrix::bt709, ColourRange::full);
  for (std::uint32_t y = 0; y < 64; ++y) {
    for (std::uint32_t x = 0; x < 256; ++x) {
      const std::uint32_t v = x < low ? 0 : x >= 256 - high ? 255 : 96 + x % 64;
      frame.planes[0][std::size_t{y} * frame.stride[0] + x] = std::byte(v);
    }
  }
  return frame;
}

viewer::DrawStyle bars_only(std::uint32_t bins) {
  viewer::DrawStyle style;
  style.bins = bins;
  style.opacity = 1.0f;
  style.video = false;
  return style;
}

// Pixels of the luma panel's top corner (left: low end) that differ from its empty background,
// in a square of 45% of the bars' height, leaving out the 3 columns at the edge where the end
// bin's own bar stands.
int corner_pixels(const std::vector<std::uint8_t>& pixels, const viewer::HistogramQuad& q, bool high) {
  const int x0 = static_cast<int>(q.bars[0]), x1 = static_cast<int>(q.bars[2]), top = static_cast<int>(q.bars[1]);
  const int side = static_cast<int>(0.45f * (q.bars[3] - q.bars[1]));
  const auto background = rgb_at(pixels, kExtent.width, (x0 + x1) / 4 + x0 / 2, top + 1);  // an empty bin, a quarter in
  int n = 0;
  for (int y = top; y < top + side; ++y) {
    for (int k = 3; k < side; ++k) {
      const int x = high ? x1 - 1 - k : x0 + k;
      n += rgb_at(pixels, kExtent.width, x, y) != background ? 1 : 0;
    }
  }
  return n;
}

TEST_P(ClipMarkerTest, MarkersGrowWithTheShareAtTheEndCode) {
  viewer::OffscreenTarget target(context(), kExtent);
  viewer::FrameRenderer renderer(context(), engine());
  const viewer::DrawStyle style = bars_only(256);
  const auto quads = viewer::layout_quads(style, kExtent.width, kExtent.height);
  ASSERT_EQ(quads.size(), 2u);
  // 0, 1, 8 and 64 of 256 columns at 255: 0%, 0.39%, 3.1%, 25% of the pixels.
  std::vector<int> sizes;
  for (std::uint32_t band : {0u, 1u, 8u, 64u}) {
    const auto pixels = draw_once(context(), renderer, target, banded_frame(0, band), style);
    sizes.push_back(corner_pixels(pixels, quads[1], true));
    EXPECT_EQ(corner_pixels(pixels, quads[1], false), 0) << "no pixel at code 0, no marker; band " << band;
    EXPECT_EQ(corner_pixels(pixels, quads[0], false), 0) << "band " << band;
  }
  RecordProperty("marker_pixels_0_0.39_3.1_25_percent", std::to_string(sizes[0]) + " " + std::to_string(sizes[1]) + " " +
                                                           std::to_string(sizes[2]) + " " + std::to_string(sizes[3]));
  EXPECT_EQ(sizes[0], 0);
  EXPECT_GT(sizes[1], 5) << "a small share still shows a marker";
  EXPECT_LT(sizes[1], sizes[2]);
  EXPECT_LT(sizes[2], sizes[3]);
  // The low end the same way, and the marker in the luma panel's colour.
  const auto pixels = draw_once(context(), renderer, target, banded_frame(8, 0), style);
  EXPECT_EQ(corner_pixels(pixels, quads[1], false), sizes[2]);
  EXPECT_EQ(corner_pixels(pixels, quads[1], true), 0);
  const auto palette = viewer::palette_colours(style.palette);
  const auto l = palette[8];
  const std::array<int, 3> luma{static_cast<int>(std::lround(l[0] * 255)), static_cast<int>(std::lround(l[1] * 255)),
                                static_cast<int>(std::lround(l[2] * 255))};
  EXPECT_EQ(rgb_at(pixels, kExtent.width, static_cast<int>(quads[1].bars[0]) + 3, static_cast<int>(quads[1].bars[1]) + 1),
            luma);
}

// The top `rows` pixels of the column at the centre of `bin` of `bins` in quad q.
std::vector<std::array<int, 3>> column_top(const std::vector<std::uint8_t>& pixels, const viewer::HistogramQuad& q,
                                           std::uint32_t bin, std::uint32_t bins, int rows) {
  const float x = q.bars[0] + (static_cast<float>(bin) + 0.5f) * (q.bars[2] - q.bars[0]) / static_cast<float>(bins);
  std::vector<std::array<int, 3>> out;
  for (int y = 0; y < rows; ++y) out.push_back(rgb_at(pixels, kExtent.width, static_cast<int>(x), static_cast<int>(q.bars[1]) + y));
  return out;
}

TEST_P(ClipMarkerTest, BarCutByTheScaleGetsACap) {
  viewer::OffscreenTarget target(context(), kExtent);
  viewer::FrameRenderer renderer(context(), engine());
  // Every pixel at 200: at 16 bins, bin 12 holds 16 times a flat bin's share, more than the
  // automatic scale's cap of 5 times: cut. The logarithmic scale draws it exactly full: no cap.
  SyntheticVideoFrame frame = banded_frame(0, 0);
  for (auto& plane : frame.planes) std::fill(plane.begin(), plane.end(), std::byte{200});
  viewer::DrawStyle style = bars_only(16);
  const auto quads = viewer::layout_quads(style, kExtent.width, kExtent.height);
  const std::array<int, 3> cap{255, 140, 51}, black{0, 0, 0};  // kClipCapR, G, B
  auto pixels = draw_once(context(), renderer, target, frame, style);
  auto top = column_top(pixels, quads[1], 12, 16, 4);
  EXPECT_EQ(top[0], cap);
  EXPECT_EQ(top[1], cap);
  EXPECT_EQ(top[2], black);
  const int mid = static_cast<int>((quads[1].bars[1] + quads[1].bars[3]) / 2);
  EXPECT_EQ(top[3], column_top(pixels, quads[1], 12, 16, mid - static_cast<int>(quads[1].bars[1]) + 1).back())
      << "the bar below the cap";
  EXPECT_EQ(column_top(pixels, quads[0], 12, 16, 1)[0], cap) << "the RGB panel's bar is capped too";
  style.scale = viewer::ScaleMode::logarithmic;
  pixels = draw_once(context(), renderer, target, frame, style);
  top = column_top(pixels, quads[0], 12, 16, 3);
  for (const auto& p : top) EXPECT_NE(p, cap) << "a full bar that is not cut has no cap";
}

// Pixels of the bar of `bin` (of `bins`) in quad q that differ from the background, counted up
// from the bottom of the bars.
int bar_height(const std::vector<std::uint8_t>& pixels, const viewer::HistogramQuad& q, std::uint32_t bin,
               std::uint32_t bins) {
  const int x = static_cast<int>(q.bars[0] + (static_cast<float>(bin) + 0.5f) * (q.bars[2] - q.bars[0]) / static_cast<float>(bins));
  const auto background = rgb_at(pixels, kExtent.width, static_cast<int>(q.bars[0] + (q.bars[2] - q.bars[0]) * 0.15f),
                                 static_cast<int>(q.bars[3]) - 1);  // bin 2 of 16: empty
  int n = 0;
  for (int y = static_cast<int>(q.bars[3]) - 1; y >= static_cast<int>(q.bars[1]); --y, ++n) {
    if (rgb_at(pixels, kExtent.width, x, y) == background) break;
  }
  return n;
}

TEST_P(ClipMarkerTest, EndBinsOnTheirOwnScale) {
  viewer::OffscreenTarget target(context(), kExtent);
  viewer::FrameRenderer renderer(context(), engine());
  // 64 of 256 columns at 255 (a quarter of the pixels, 4096, in bin 15 of 16); the mid-tones
  // fill bins 6..9 with 3072 each. The automatic scale is 1 / 4096: the mid-tone bars stand at
  // 3/4 of the height. On their own scale the end bins' full height is every pixel (16384):
  // bin 15 at 1/4; the others scaled by their own maximum: full height.
  const SyntheticVideoFrame frame = banded_frame(0, 64);
  viewer::DrawStyle style = bars_only(16);
  const auto quads = viewer::layout_quads(style, kExtent.width, kExtent.height);
  const auto& q = quads[1];
  const float h = q.bars[3] - q.bars[1];
  auto pixels = draw_once(context(), renderer, target, frame, style);
  EXPECT_NEAR(bar_height(pixels, q, 7, 16), 0.75 * h, 1.0);
  style.end_scale = true;
  pixels = draw_once(context(), renderer, target, frame, style);
  EXPECT_EQ(bar_height(pixels, q, 7, 16), static_cast<int>(h));
  EXPECT_NEAR(bar_height(pixels, q, 15, 16), 0.25 * h, 1.0);
  // No cap on the full mid-tone bars: exactly the scale's top.
  for (const auto& p : column_top(pixels, q, 7, 16, 3)) EXPECT_NE(p, (std::array<int, 3>{255, 140, 51}));
}

INSTANTIATE_TEST_SUITE_P(Engines, ClipMarkerTest, ::testing::Bool(),
                         [](const auto& p) { return std::string(p.param ? "cpu" : "gpu"); });

}  // namespace
}  // namespace vhist
