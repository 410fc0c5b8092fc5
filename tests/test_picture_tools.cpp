// The viewer's picture tools, headless, on both engines: the region of
// interest (its histograms equal the CPU reference's of its pixels), the reference histogram's
// outline and histogram matching (the picture equals the CPU reference's matched frame).
// Validation on, any message fails the test.
#include "gpu_test_env.h"
#include "picture_draw.h"

#include "vhist/compute/colour.h"
#include "vhist/compute/cpu_reference.h"
#include "vhist/compute/region.h"
#include "vhist/compute/histogram_match.h"
#include "vhist/picture/picture_geometry.h"

#include <cstring>
#include <memory>

namespace vhist {
namespace {

// Parameter: the CPU engine (else the GPU engine).
class PictureToolsTest : public test::GpuTest, public ::testing::WithParamInterface<bool> {
 protected:
  Engine engine() const { return GetParam() ? Engine::cpu : Engine::gpu; }
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
  viewer::FrameRenderer renderer(context(), engine());
  for (const PixelRect rect : {PixelRect{5, 3, 20, 11}, PixelRect{60, 0, 36, 54}, PixelRect{0, 53, 96, 1}}) {
    viewer::DrawStyle style;
    style.bins = 64;  // the display bins differ from the statistics' one level per code
    style.region = rect;
    draw_once(context(), renderer, target, frame, style);
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
  viewer::FrameRenderer renderer(context(), engine());
  viewer::DrawStyle style;
  style.region = PixelRect{90, 50, 10, 10};  // past the right and bottom edges: ignored
  draw_once(context(), renderer, target, frame, style);
  renderer.begin();
  const Histogram want = region_reference(frame, {0, 0, 96, 54}, 256);
  EXPECT_EQ(renderer.statistics().levels.counts, want.counts);
  EXPECT_EQ(renderer.statistics().width, 96u);
}

// A 128x72 ramp in scan order, skewed differently per channel: R piles up at the low codes,
// G is even, B piles up at the high codes.
SyntheticVideoFrame ramp_frame() {
  return pattern_frame(128, 72, [](std::uint32_t x, std::uint32_t y) {
    const std::uint64_t i = std::uint64_t{y} * 128 + x, n = 128 * 72;
    const int r = static_cast<int>(i * i * 256 / (n * n));
    return std::array<int, 3>{r, static_cast<int>(i * 256 / n), 255 - r};
  });
}

Histogram frame_levels(const SyntheticVideoFrame& frame) {
  const FrameFormat f = converted_format(frame.format);
  return reference_histogram(reference_convert(frame.format, frame.view()), f, 256);
}

// The frame through the CPU reference's matching table to `reference`, as RGBA8.
std::vector<std::uint8_t> reference_matched(const SyntheticVideoFrame& frame, const Histogram& reference) {
  const auto rgb = reference_convert(frame.format, frame.view());
  const FrameFormat f = converted_format(frame.format);
  const auto table = reference_match_table(reference_cdf(frame_levels(frame)), reference_cdf(reference), f.bits);
  std::vector<std::byte> out(rgb.size());
  reference_equalize(rgb, f, table, EqualizeMode::channels, out);
  std::vector<std::uint8_t> pixels(out.size());
  std::memcpy(pixels.data(), out.data(), out.size());
  return pixels;
}

// Drawn with the frame's size and no panels, so the picture is the (matched) frame itself.
std::vector<std::uint8_t> draw_matched(render::Context& context, Engine engine,
                                       const SyntheticVideoFrame& frame, std::shared_ptr<const Histogram> reference) {
  viewer::OffscreenTarget target(context, {128, 72});
  viewer::FrameRenderer renderer(context, engine);
  viewer::DrawStyle style;
  style.channels = {false, false, false, false};
  style.equalize = EqualizeMode::channels;
  style.match = true;
  style.reference = std::move(reference);
  return draw_once(context, renderer, target, frame, style);
}

std::size_t differing_codes(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < a.size() && i < b.size(); i += 4) {
    for (std::size_t c = 0; c < 3; ++c) n += a[i + c] != b[i + c];
  }
  return n + (a.size() == b.size() ? 0 : 1);
}

TEST_P(PictureToolsTest, MatchingAFrameToItsOwnHistogramLeavesItUnchanged) {
  const SyntheticVideoFrame frame = ramp_frame();
  const auto own = std::make_shared<const Histogram>(frame_levels(frame));
  const auto pixels = draw_matched(context(), engine(), frame, own);
  const auto rgb = reference_convert(frame.format, frame.view());
  std::vector<std::uint8_t> original(rgb.size());
  std::memcpy(original.data(), rgb.data(), rgb.size());
  EXPECT_EQ(differing_codes(pixels, original), 0u);
}

TEST_P(PictureToolsTest, RampMatchedToAFlatReferenceIsTheReferenceTableAndFlat) {
  // The matched picture equals the CPU reference code for code; each channel's 16-band histogram
  // is then within two input levels' worth of pixels of flat (the levels at a band's two ends
  // move in or out whole), as equalization is.
  const SyntheticVideoFrame frame = ramp_frame();
  Histogram flat(64);  // a coarser reference: each of its levels stands for 4 codes
  for (auto& v : flat.counts) v = 1000;
  const auto pixels = draw_matched(context(), engine(), frame, std::make_shared<const Histogram>(flat));
  ASSERT_EQ(differing_codes(pixels, reference_matched(frame, flat)), 0u);
  const Histogram input = frame_levels(frame);
  for (std::size_t c = 0; c < 3; ++c) {
    std::array<std::size_t, 16> bands{};
    for (std::size_t i = 0; i < pixels.size(); i += 4) ++bands[pixels[i + c] / 16];
    std::uint32_t largest = 0;
    for (std::uint32_t l = 0; l < 256; ++l) largest = std::max(largest, input.at(static_cast<Channel>(c), l));
    for (std::size_t b = 0; b < 16; ++b) {
      EXPECT_NEAR(static_cast<double>(bands[b]), 128.0 * 72 / 16, 2.0 * largest) << "channel " << c << " band " << b;
    }
  }
}

TEST_P(PictureToolsTest, ReferenceIsOutlinedAtItsBins) {
  // A flat grey frame (every pixel code 50) with a reference of as many pixels at code 200: at
  // the logarithmic scale both are full height, so the top row of bin 200's column is the outline's
  // light stroke, where without the reference it is the panel's background.
  const SyntheticVideoFrame frame = pattern_frame(128, 72, [](std::uint32_t, std::uint32_t) {
    return std::array<int, 3>{50, 50, 50};
  });
  Histogram at_200(256);
  for (Channel c : kAllChannels) at_200.at(c, 200) = 128 * 72;
  viewer::OffscreenTarget target(context(), {512, 288});
  viewer::FrameRenderer renderer(context(), engine());
  viewer::DrawStyle style;
  style.layout = viewer::Layout::overlay;
  style.scale = viewer::ScaleMode::logarithmic;  // both spikes exactly full height
  style.opacity = 1.0f;
  const auto quads = viewer::layout_quads(style, 512, 288);
  ASSERT_FALSE(quads.empty());
  const auto& bars = quads[0].bars;
  const float bin_width = (bars[2] - bars[0]) / 256;
  const int x = static_cast<int>(bars[0] + bin_width * 200.5f), y = static_cast<int>(bars[1]);
  const auto plain = draw_once(context(), renderer, target, frame, style);
  style.reference = std::make_shared<const Histogram>(at_200);
  const auto outlined = draw_once(context(), renderer, target, frame, style);
  const auto before = rgb_at(plain, 512, x, y), after = rgb_at(outlined, 512, x, y);
  for (std::size_t c = 0; c < 3; ++c) {
    EXPECT_LT(before[c], 60) << c;
    EXPECT_GT(after[c], 180) << c;
  }
  // Away from it (bin 120's column, top row) nothing changes.
  const int x2 = static_cast<int>(bars[0] + bin_width * 120.5f);
  EXPECT_EQ(rgb_at(plain, 512, x2, y), rgb_at(outlined, 512, x2, y));
}

INSTANTIATE_TEST_SUITE_P(Engines, PictureToolsTest, ::testing::Bool(),
                         [](const auto& p) { return std::string(p.param ? "cpu_engine" : "gpu_engine"); });

}  // namespace
}  // namespace vhist
