// The viewer's picture, headless, drawn by the compute composite: the bars sit where the
// histogram says, the exposure tools mark exactly their pixels, the equalized and split pictures
// are the CPU reference's, the frame is drawn upright at its display aspect, the overlay's axis
// and guides sit at their codes. Validation on, any message fails the test.
#include "gpu_test_env.h"
#include "picture_draw.h"
#include "vhist/compute/synthetic_frames.h"

#include "vhist/picture/offscreen.h"
#include "vhist/picture/frame_renderer.h"

#include "vhist/compute/cdf.h"
#include "vhist/compute/colour.h"
#include "vhist/compute/cpu_reference.h"
#include "vhist/compute/frame_stats.h"
#include "vhist/render/command_slot.h"
#include "vhist/render/vk_check.h"

#include <cmath>
#include <cstdlib>
#include <cstring>

namespace vhist {
namespace {

class OverlayTest : public test::GpuTest, public ::testing::WithParamInterface<bool> {};


// A 64x36 full-range grey frame, every pixel at code 200.
SyntheticVideoFrame flat_grey_frame() {
  SyntheticVideoFrame frame = make_synthetic_frame("gray", 64, 36, 1, ColourMatrix::bt709, ColourRange::full);
  for (auto& plane : frame.planes) std::fill(plane.begin(), plane.end(), std::byte{200});
  return frame;
}

TEST_P(OverlayTest, BarsShowTheHistogram) {
  // A flat grey frame (full-range gray, code 200): every channel has one bin full, at
  // 200 * 16 / 256 = 12; in the split layout that column of the RGB quad is grey (R+G+B) to
  // the top, and of the luma quad white; every other column is background only.
  const SyntheticVideoFrame frame = flat_grey_frame();
  const VkExtent2D extent{320, 180};
  viewer::OffscreenTarget target(context(), extent);
  viewer::FrameRenderer overlay(context(), GetParam() ? Engine::cpu : Engine::gpu);
  viewer::DrawStyle style;
  style.bins = 16;
  style.opacity = 1.0f;
  const auto pixels = draw_once(context(), overlay, target, frame, style);
  const auto at = [&](float x, float y) {
    const std::size_t i = (static_cast<std::size_t>(y) * extent.width + static_cast<std::size_t>(x)) * 4;
    return std::array<int, 3>{pixels[i], pixels[i + 1], pixels[i + 2]};
  };
  const auto quads = viewer::layout_quads(style, 320, 180);
  ASSERT_EQ(quads.size(), 2u);
  const float y_mid = (quads[0].bars[1] + quads[0].bars[3]) / 2;
  const auto column = [&](const viewer::HistogramQuad& q, int bin) {
    return q.bars[0] + (bin + 0.5f) * (q.bars[2] - q.bars[0]) / 16;
  };
  EXPECT_EQ(at(column(quads[0], 12), y_mid), (std::array<int, 3>{128, 128, 128}));
  EXPECT_EQ(at(column(quads[0], 5), y_mid), (std::array<int, 3>{0, 0, 0}));
  EXPECT_EQ(at(column(quads[1], 12), y_mid), (std::array<int, 3>{255, 255, 255}));
  EXPECT_EQ(at(column(quads[1], 3), y_mid), (std::array<int, 3>{0, 0, 0}));
  // Above the quads: the video, grey 200.
  EXPECT_EQ(at(160, 40), (std::array<int, 3>{200, 200, 200}));
}

// A full-range grey ramp, 128x36: column x holds code 2x (0..254).
SyntheticVideoFrame grey_ramp_frame() {
  SyntheticVideoFrame frame = make_synthetic_frame("gray", 128, 36, 1, ColourMatrix::bt709, ColourRange::full);
  for (std::uint32_t y = 0; y < 36; ++y) {
    for (std::uint32_t x = 0; x < 128; ++x) frame.planes[0][std::size_t{y} * frame.stride[0] + x] = std::byte(2 * x);
  }
  return frame;
}

TEST_P(OverlayTest, ZebrasCoverExactlyThePixelsPastTheThresholds) {
  // The ramp drawn at twice its size: window column X shows video column X / 2, code 2 (X / 2).
  // High zebra at 90% (code round(0.9 x 255) = 230: columns 115 and up), low at 2% (code 5:
  // columns 0 to 2), solid: magenta over, (0, 153, 255) under, the grey ramp elsewhere.
  const SyntheticVideoFrame frame = grey_ramp_frame();
  const VkExtent2D extent{256, 72};
  viewer::OffscreenTarget target(context(), extent);
  viewer::FrameRenderer overlay(context(), GetParam() ? Engine::cpu : Engine::gpu);
  viewer::DrawStyle style;
  style.zebra = viewer::ZebraMode::both;
  style.zebra_style = viewer::ZebraStyle::solid;
  style.zebra_high = 90;
  style.zebra_low = 2;
  const auto pixels = draw_once(context(), overlay, target, frame, style);
  for (std::uint32_t x = 0; x < extent.width; ++x) {
    const std::size_t i = (std::size_t{4} * extent.width + x) * 4;  // row 4: above the panels
    const std::array<int, 3> got{pixels[i], pixels[i + 1], pixels[i + 2]};
    const std::uint32_t code = 2 * (x / 2);
    if (code >= 230) {
      EXPECT_EQ(got, (std::array<int, 3>{255, 0, 255})) << "column " << x;
    } else if (code <= 5) {
      EXPECT_EQ(got, (std::array<int, 3>{0, 153, 255})) << "column " << x;
    } else {
      EXPECT_TRUE(got[0] == got[1] && got[1] == got[2]) << "column " << x;
    }
  }
}

TEST_P(OverlayTest, RgbZebrasMarkAnyChannelPastTheThresholds) {
  // Zebras on R'G'B': columns x of a 256-wide frame whose R' is x and G', B' stay mid-grey (luma
  // never reaches 90%): the high zebra (code 230) covers exactly R' >= 230, the low one (code 5)
  // exactly R' <= 5; with zebras on luma, neither end is marked.
  const SyntheticVideoFrame frame = pattern_frame(256, 72, [](std::uint32_t x, std::uint32_t) {
    return std::array<int, 3>{static_cast<int>(x), 128, 128};
  });
  const VkExtent2D extent{256, 72};
  viewer::OffscreenTarget target(context(), extent);
  viewer::FrameRenderer overlay(context(), GetParam() ? Engine::cpu : Engine::gpu);
  viewer::DrawStyle style;
  style.zebra = viewer::ZebraMode::both;
  style.zebra_style = viewer::ZebraStyle::solid;
  style.zebra_high = 90;
  style.zebra_low = 2;
  for (bool rgb : {true, false}) {
    style.zebra_rgb = rgb;
    const auto pixels = draw_once(context(), overlay, target, frame, style);
    for (std::uint32_t x = 0; x < extent.width; ++x) {
      const auto got = rgb_at(pixels, extent.width, static_cast<int>(x), 4);  // shown 1:1 horizontally
      const bool high = rgb && x >= 230, low = rgb && x <= 5;
      EXPECT_EQ(got == (std::array<int, 3>{255, 0, 255}), high) << x << " rgb " << rgb;
      EXPECT_EQ(got == (std::array<int, 3>{0, 153, 255}), low) << x << " rgb " << rgb;
    }
  }
}

TEST_P(OverlayTest, HistogramRangeHighlightsExactlyItsPixels) {
  // Luma codes 100..109 (a 16-bin range of 256 bins is 16 codes; here given in codes): the ramp's
  // columns 100..109 keep their grey, every other column is dimmed to a quarter.
  const SyntheticVideoFrame frame = grey_ramp_frame();
  const VkExtent2D extent{256, 72};
  viewer::OffscreenTarget target(context(), extent);
  viewer::FrameRenderer overlay(context(), GetParam() ? Engine::cpu : Engine::gpu);
  viewer::DrawStyle style;
  style.range_mask = 8;  // L
  style.range_low = 100;
  style.range_high = 109;
  const auto pixels = draw_once(context(), overlay, target, frame, style);
  for (std::uint32_t x = 80; x < 130; ++x) {
    const std::size_t i = (std::size_t{4} * extent.width + x) * 4;
    const std::uint32_t code = 2 * (x / 2);
    const int got = pixels[i];
    if (code >= 100 && code <= 109) {
      EXPECT_NEAR(got, code, 3) << "column " << x;
    } else {
      EXPECT_NEAR(got, code / 4.0, 3) << "column " << x;
    }
  }
}

// The colour drawn at row 4, column `code` of the grey ramp (column x shows code 2 * (x / 2), so
// an even code is drawn in its own column).
std::array<int, 3> ramp_rgb(const std::vector<std::uint8_t>& pixels, VkExtent2D extent, std::uint32_t code) {
  const std::size_t i = (std::size_t{4} * extent.width + code) * 4;
  return std::array<int, 3>{pixels[i], pixels[i + 1], pixels[i + 2]};
}

TEST_P(OverlayTest, FalseColourFollowsTheBands) {
  // The bands of the user guide: 98% (code 250) red, 47% (120) green, 23.5% (60) grey at its own
  // code, 1.6% (4) purple; columns chosen where the ramp has those codes.
  const SyntheticVideoFrame frame = grey_ramp_frame();
  const VkExtent2D extent{256, 72};
  viewer::OffscreenTarget target(context(), extent);
  viewer::FrameRenderer overlay(context(), GetParam() ? Engine::cpu : Engine::gpu);
  viewer::DrawStyle style;
  style.false_colour = true;
  const auto pixels = draw_once(context(), overlay, target, frame, style);
  const auto at = [&](std::uint32_t code) { return ramp_rgb(pixels, extent, code); };
  EXPECT_EQ(at(250), (std::array<int, 3>{255, 32, 32}));
  EXPECT_EQ(at(120), (std::array<int, 3>{32, 192, 64}));
  EXPECT_EQ(at(60), (std::array<int, 3>{60, 60, 60}));
  EXPECT_EQ(at(4), (std::array<int, 3>{128, 0, 192}));
}

TEST_P(OverlayTest, RangeHighlightDimsAFalseColourPicture) {
  // Both on: the range (luma 116..124) keeps its band colour, the rest is dimmed to a quarter.
  const SyntheticVideoFrame frame = grey_ramp_frame();
  const VkExtent2D extent{256, 72};
  viewer::OffscreenTarget target(context(), extent);
  viewer::FrameRenderer overlay(context(), GetParam() ? Engine::cpu : Engine::gpu);
  viewer::DrawStyle style;
  style.false_colour = true;
  style.range_mask = 8;  // L
  style.range_low = 116;
  style.range_high = 124;
  const auto pixels = draw_once(context(), overlay, target, frame, style);
  const auto at = [&](std::uint32_t code) { return ramp_rgb(pixels, extent, code); };
  EXPECT_EQ(at(120), (std::array<int, 3>{32, 192, 64}));
  const auto red = at(250);  // the red band (255, 32, 32) at a quarter
  EXPECT_NEAR(red[0], 64, 2);
  EXPECT_NEAR(red[1], 8, 2);
  EXPECT_NEAR(red[2], 8, 2);
}

// A low-contrast R'G'B' frame (rgb24, so the conversion is the identity): each channel holds
// codes 64..191 with a triangular distribution (more pixels mid-range), different per channel;
// with `grey` the three channels are equal.
SyntheticVideoFrame low_contrast_frame(std::uint32_t width, std::uint32_t height, bool grey) {
  SyntheticVideoFrame frame = make_synthetic_frame("rgb24", width, height, 1, ColourMatrix::bt709, ColourRange::full);
  std::uint32_t state = 12345;
  const auto next = [&] {
    state = state * 1664525u + 1013904223u;
    return state >> 8;
  };
  for (std::uint32_t y = 0; y < height; ++y) {
    for (std::uint32_t x = 0; x < width; ++x) {
      std::array<std::uint32_t, 3> v{};
      for (auto& c : v) c = 64 + (next() % 65 + next() % 64);  // the sum of two uniforms: triangular, 64..192
      if (grey) v[1] = v[2] = v[0];
      auto* p = frame.planes[0].data() + std::size_t{y} * frame.stride[0] + std::size_t{x} * 3;
      for (int c = 0; c < 3; ++c) p[c] = static_cast<std::byte>(std::min(v[static_cast<std::size_t>(c)], 191u));
    }
  }
  return frame;
}

// The frame equalized by the CPU reference (histogram -> CDF -> table -> pixels), as RGBA8.
std::vector<std::uint8_t> reference_equalized(const SyntheticVideoFrame& frame, EqualizeMode mode) {
  const auto rgb = reference_convert(frame.format, frame.view());
  const FrameFormat f = converted_format(frame.format);
  const auto table = reference_equalize_table(reference_cdf(reference_histogram(rgb, f, stats_levels(f.bits))), f.bits);
  std::vector<std::byte> out(rgb.size());
  reference_equalize(rgb, f, table, mode, out);
  std::vector<std::uint8_t> pixels(out.size());
  std::memcpy(pixels.data(), out.data(), out.size());
  return pixels;
}

TEST_P(OverlayTest, EqualizedPictureIsTheReferenceAndSpansTheRange) {
  // The target has the frame's size, so every pixel centre is a texel centre: the picture is the
  // equalized frame itself, which must equal the CPU reference code for code. No histogram
  // quads.
  for (bool grey : {true, false}) {
    const SyntheticVideoFrame frame = low_contrast_frame(128, 72, grey);
    const VkExtent2D extent{128, 72};
    viewer::OffscreenTarget target(context(), extent);
    viewer::FrameRenderer overlay(context(), GetParam() ? Engine::cpu : Engine::gpu);
    for (EqualizeMode mode : {EqualizeMode::luma, EqualizeMode::channels}) {
      viewer::DrawStyle style;
      style.channels = {false, false, false, false};
      style.equalize = mode;
      const auto expected = reference_equalized(frame, mode);
      SCOPED_TRACE(std::string(grey ? "grey" : "colour") + (mode == EqualizeMode::luma ? " luma" : " channels"));
      const auto pixels = draw_once(context(), overlay, target, frame, style);
      ASSERT_EQ(pixels.size(), expected.size());
      std::size_t differing = 0;
      for (std::size_t i = 0; i < pixels.size(); i += 4) {
        for (int c = 0; c < 3; ++c) differing += pixels[i + c] != expected[i + c];
      }
      ASSERT_EQ(differing, 0u);

      // What equalization is for: each channel (grey: the one value; colour, per channel: R,
      // G and B) spans the full range 0..255, and its 16-bin histogram is close to flat.
      // Tolerance: a bin may be off its share N/16 by at most two input levels' worth of
      // pixels (the levels at its two ends move in or out whole), checked against the
      // largest level of the input.
      if (!grey && mode == EqualizeMode::luma) continue;  // luma of colour: checked as exact above
      const std::size_t n = std::size_t{extent.width} * extent.height;
      for (int c = 0; c < (grey ? 1 : 3); ++c) {
        std::array<std::size_t, 256> input_levels{};
        std::array<std::size_t, 16> bins{};
        std::uint8_t lo = 255, hi = 0;
        for (std::uint32_t y = 0; y < extent.height; ++y) {
          for (std::uint32_t x = 0; x < extent.width; ++x) {
            const auto in = static_cast<std::uint8_t>(frame.planes[0][std::size_t{y} * frame.stride[0] + x * 3 + c]);
            ++input_levels[in];
            const std::uint8_t v = pixels[(std::size_t{y} * extent.width + x) * 4 + static_cast<std::size_t>(c)];
            ++bins[v / 16];
            lo = std::min(lo, v);
            hi = std::max(hi, v);
          }
        }
        EXPECT_EQ(lo, 0) << "channel " << c;
        EXPECT_EQ(hi, 255) << "channel " << c;
        const std::size_t largest_level = *std::max_element(input_levels.begin(), input_levels.end());
        for (std::size_t b = 0; b < 16; ++b) {
          const double off = std::abs(static_cast<double>(bins[b]) - static_cast<double>(n) / 16);
          EXPECT_LE(off, 2.0 * static_cast<double>(largest_level)) << "channel " << c << " bin " << b << ": " << bins[b]
                                                                   << " of " << n;
        }
      }
    }
  }
}

TEST_P(OverlayTest, SplitViewShowsOriginalLeftAndEqualizedRight) {
  const SyntheticVideoFrame frame = low_contrast_frame(128, 72, false);
  const VkExtent2D extent{128, 72};
  viewer::OffscreenTarget target(context(), extent);
  viewer::FrameRenderer overlay(context(), GetParam() ? Engine::cpu : Engine::gpu);
  viewer::DrawStyle style;
  style.channels = {false, false, false, false};
  style.equalize = EqualizeMode::channels;
  style.split_view = true;
  style.split_position = 0.25f;  // the divider at x = 32
  const auto equalized = reference_equalized(frame, EqualizeMode::channels);
  const auto original = reference_convert(frame.format, frame.view());
  const auto pixels = draw_once(context(), overlay, target, frame, style);
  for (std::uint32_t y = 0; y < extent.height; ++y) {
    for (std::uint32_t x = 0; x < extent.width; ++x) {
      const std::size_t i = (std::size_t{y} * extent.width + x) * 4;
      for (int c = 0; c < 3; ++c) {
        const int got = pixels[i + c];
        if (x == 31 || x == 32) {
          ASSERT_EQ(got, 230) << "divider at " << x << "," << y;  // 0.9 * 255
        } else if (x < 31) {
          ASSERT_EQ(got, static_cast<int>(original[i + c])) << x << "," << y;
        } else {
          ASSERT_EQ(got, static_cast<int>(equalized[i + c])) << x << "," << y;
        }
      }
    }
  }
}

TEST_P(OverlayTest, CumulativeHistogramReplacesOrOverlaysTheBars) {
  // A flat grey frame at code 200 (as above): its CDF is 0 below level 200 and 1 from there.
  // Instead of the histogram, the L quad shows the CDF's area: background left of 200/256 of
  // the width, white to the top right of it. Over the histogram, the curve runs along the
  // bottom left of the step and along the top right of it.
  const SyntheticVideoFrame frame = flat_grey_frame();
  const VkExtent2D extent{320, 180};
  viewer::OffscreenTarget target(context(), extent);
  viewer::FrameRenderer overlay(context(), GetParam() ? Engine::cpu : Engine::gpu);
  viewer::DrawStyle style;
  style.bins = 16;
  style.opacity = 1.0f;
  style.channels = {false, false, false, true};
  const auto quads = viewer::layout_quads(style, 320, 180);
  ASSERT_EQ(quads.size(), 1u);
  const auto& r = quads[0].bars;  // the bars: the panel less its axis strip (issue 15)
  const auto x_at = [&](float u) { return r[0] + u * (r[2] - r[0]); };
  const auto y_at = [&](float v) { return r[1] + v * (r[3] - r[1]); };  // v = 0 top
  style.cdf = {viewer::CdfMode::off, viewer::CdfMode::off, viewer::CdfMode::off, viewer::CdfMode::instead};
  auto pixels = draw_once(context(), overlay, target, frame, style);
  const auto at = [&](float x, float y) {
    const std::size_t i = (static_cast<std::size_t>(y) * extent.width + static_cast<std::size_t>(x)) * 4;
    return std::array<int, 3>{pixels[i], pixels[i + 1], pixels[i + 2]};
  };
  const std::array<int, 3> white{255, 255, 255}, black{0, 0, 0};
  // Histogram bin 12 (codes 192..207) would be full height at u = 12.5 / 16; the CDF at
  // u = 0.70 (level 179) is 0 and at u = 0.9 (level 230) is 1.
  EXPECT_EQ(at(x_at(0.70f), y_at(0.5f)), black);
  EXPECT_EQ(at(x_at(0.90f), y_at(0.1f)), white);
  EXPECT_EQ(at(x_at(0.30f), y_at(0.95f)), black);

  style.cdf[3] = viewer::CdfMode::over;
  pixels = draw_once(context(), overlay, target, frame, style);
  // The bars are back: bin 12 full height, white, where the CDF is 1 at the top. The step of
  // the curve at level 200 (u = 200/256) crosses the whole quad, darkened over the white bar.
  EXPECT_EQ(at(x_at(0.8f), y_at(0.5f)), white);
  EXPECT_EQ(at(x_at(200.0f / 256), y_at(0.5f)), (std::array<int, 3>{76, 76, 76}));
  // Left of the step the curve runs along the bottom, right of it (past the bar) along the
  // top: in each of those columns the only white pixels are within two rows of that edge.
  const auto white_rows = [&](float u) {
    std::vector<int> rows;
    for (int y = static_cast<int>(r[1]) + 1; y < static_cast<int>(r[3]); ++y) {
      if (at(x_at(u), static_cast<float>(y)) == white) rows.push_back(y);
    }
    return rows;
  };
  for (const auto& [u, edge] : {std::pair{0.3f, r[3]}, {0.95f, r[1]}}) {
    const auto rows = white_rows(u);
    ASSERT_FALSE(rows.empty()) << "no curve at u " << u;
    for (int y : rows) EXPECT_LE(std::abs(y + 0.5f - edge), 2.5f) << "u " << u << " row " << y;
  }
}


TEST_P(OverlayTest, PictureStaysInsideItsArea) {
  // A 240x140 area at (40, 20) of a 320x180 target: everything outside it is black (the clear),
  // the grey video fills it (cover fit), and the panels sit inside it.
  const SyntheticVideoFrame frame = flat_grey_frame();
  const VkExtent2D extent{320, 180};
  viewer::OffscreenTarget target(context(), extent);
  viewer::FrameRenderer overlay(context(), GetParam() ? Engine::cpu : Engine::gpu);
  viewer::DrawStyle style;
  style.bins = 16;
  style.area = {40, 20, 280, 160};
  const auto pixels = draw_once(context(), overlay, target, frame, style);
  std::size_t outside_lit = 0;
  for (int y = 0; y < 180; ++y) {
    for (int x = 0; x < 320; ++x) {
      const bool inside = x >= 40 && x < 280 && y >= 20 && y < 160;
      if (!inside && rgb_at(pixels, 320, x, y) != std::array<int, 3>{0, 0, 0}) ++outside_lit;
    }
  }
  EXPECT_EQ(outside_lit, 0u);
  // The video at the area's corners and above the panels (at 140 high, the panels start at
  // 20 + 140 * 0.725 = 121.5).
  for (const auto& [x, y] : {std::pair{40, 20}, {279, 20}, {160, 60}, {41, 110}, {279, 159}}) {
    EXPECT_EQ(rgb_at(pixels, 320, x, y), (std::array<int, 3>{200, 200, 200})) << x << "," << y;
  }
  // The RGB panel's bin 12 (grey: R, G and B reach the top) at 2.5% + 45% of the area's width.
  const float x0 = 40 + 0.025f * 240, w = 0.45f * 240;
  EXPECT_EQ(rgb_at(pixels, 320, static_cast<int>(x0 + 12.5f * w / 16), 150), (std::array<int, 3>{128, 128, 128}));
}

TEST_P(OverlayTest, AxisTicksAndLabelsSitUnderTheBars) {
  // 640x360, split layout, text scale 1. Worked out from the layout rules, not the code: the RGB
  // panel spans x 16..304 (2.5% and 45% of 640), y 261..351 (25% high, 2.5% up); its axis strip
  // is the bottom 13 pixels, so the axis line is row 338; ticks rows 339..341 one pixel wide at the
  // column of each labelled code's centre, floor(16 + (code + 0.5) * 288 / 256); labels from row
  // 343, 7 high, centred on the tick. The overlay's text is 0.8 grey: 204.
  const SyntheticVideoFrame frame = flat_grey_frame();
  const VkExtent2D extent{640, 360};
  viewer::OffscreenTarget target(context(), extent);
  viewer::FrameRenderer overlay(context(), GetParam() ? Engine::cpu : Engine::gpu);
  viewer::DrawStyle style;
  style.bins = 16;
  const std::array<int, 3> text{204, 204, 204};
  const auto pixels = draw_once(context(), overlay, target, frame, style);
  for (int x = 16; x < 304; x += 7) EXPECT_EQ(rgb_at(pixels, 640, x, 338), text) << "axis at x " << x;
  EXPECT_NE(rgb_at(pixels, 640, 100, 337), text) << "the bars' bottom row";
  for (int code : {0, 64, 128, 192, 255}) {
    const int tx = static_cast<int>(std::floor(16 + (code + 0.5) * 288 / 256));
    for (int y = 339; y <= 341; ++y) EXPECT_EQ(rgb_at(pixels, 640, tx, y), text) << "tick " << code << " row " << y;
    EXPECT_NE(rgb_at(pixels, 640, tx + 2, 340), text) << "beside tick " << code;
  }
  // "128": 3 glyphs, 17 pixels, centred on column 160: from 152. Its '1' has a stem in glyph
  // column 2 (x 154) rows 343..349, and the '2' a full bottom row (x 158..162, row 349).
  for (int y = 343; y <= 349; ++y) EXPECT_EQ(rgb_at(pixels, 640, 154, y), text) << "the 1 of 128, row " << y;
  for (int x = 158; x <= 162; ++x) EXPECT_EQ(rgb_at(pixels, 640, x, 349), text) << "the 2 of 128, x " << x;
  EXPECT_NE(rgb_at(pixels, 640, 153, 345), text);
  // "0" at the panel's left edge: clamped to start one pixel in (x 17): its left side, glyph column 0,
  // rows 1..5 (x 17, rows 344..348).
  for (int y = 344; y <= 348; ++y) EXPECT_EQ(rgb_at(pixels, 640, 17, y), text) << "the 0, row " << y;
  // The header: "auto" from (16 + 2, 261 + 1); its 't' stem (glyph column 1 of the third glyph,
  // x 18 + 12 + 1 = 31) rows 262..266.
  for (int y = 262; y <= 266; ++y) EXPECT_EQ(rgb_at(pixels, 640, 31, y), text) << "the t of auto, row " << y;
  // The count a full-height bar means: the flat 64x36 frame has all its 2304 pixels in bin 12
  // of every channel; the automatic scale caps that at five times a bin's share, 5 * 2304 / 16
  // = 720: "720" after "auto  max " (10 characters): its '7' top row at x 78..82, row 262.
  for (int x = 78; x <= 82; ++x) EXPECT_EQ(rgb_at(pixels, 640, x, 262), text) << "the 7 of 720, x " << x;
  // The legend at the right: "R G B" ends 2 pixels in from x 304: 'B' from 302 - 5 = 297, red 'R'
  // from 297 - 24 = 273; the 'R' stem (glyph column 0) is red and the 'B' blue, each 40% of the
  // way to white (0.4 * 255 = 102) so they read on the dark panel.
  for (int y = 262; y <= 268; ++y) {
    EXPECT_EQ(rgb_at(pixels, 640, 273, y), (std::array<int, 3>{255, 102, 102})) << "R row " << y;
    EXPECT_EQ(rgb_at(pixels, 640, 297, y), (std::array<int, 3>{102, 102, 255})) << "B row " << y;
  }
}

// The guides of 10-bit codes at both window scales: 64 (amber) in the RGB panel's bars.
TEST_P(OverlayTest, GuidesSitAtTheirCodes) {
  const SyntheticVideoFrame frame = make_synthetic_frame("yuv420p10", 96, 64, 3);
  viewer::DrawStyle style;
  style.guides = true;
  style.opacity = 0.6f;
  for (const auto& [extent, scale] : {std::pair{VkExtent2D{640, 360}, 1.0f}, {VkExtent2D{1280, 720}, 2.0f}}) {
    viewer::OffscreenTarget target(context(), extent);
    viewer::FrameRenderer overlay(context(), GetParam() ? Engine::cpu : Engine::gpu);
    for (viewer::Layout layout : {viewer::Layout::split, viewer::Layout::stacked}) {
      style.layout = layout;
      style.ui_scale = scale;
      style.scale = layout == viewer::Layout::split ? viewer::ScaleMode::automatic : viewer::ScaleMode::logarithmic;
      const auto pixels = draw_once(context(), overlay, target, frame, style);
      // The guides of 10-bit codes: 64 (amber) in the RGB panel's bars, x = floor(x0 + 64.5 * w / 1024).
      if (layout != viewer::Layout::split) continue;
      const auto q = viewer::layout_quads(style, static_cast<float>(extent.width), static_cast<float>(extent.height))[0];
      const int gx = static_cast<int>(std::floor(q.bars[0] + 64.5 * (q.bars[2] - q.bars[0]) / 1024));
      const int gy = static_cast<int>((q.bars[1] + q.bars[3]) / 2);
      EXPECT_EQ(rgb_at(pixels, extent.width, gx, gy), (std::array<int, 3>{255, 191, 51})) << extent.width;
    }
  }
}

// A 64x32 frame of four quadrants: red top left, green top right, blue bottom left, white bottom right.
SyntheticVideoFrame quadrant_frame() {
  return pattern_frame(64, 32, [](std::uint32_t x, std::uint32_t y) {
    if (y < 16) return x < 32 ? std::array<int, 3>{255, 0, 0} : std::array<int, 3>{0, 255, 0};
    return x < 32 ? std::array<int, 3>{0, 0, 255} : std::array<int, 3>{255, 255, 255};
  });
}

TEST_P(OverlayTest, RotatedFrameIsDrawnUpright) {
  // Turned clockwise by `rotation` to be upright: at 90 the stored left column becomes the top row.
  // The target has the display's shape, so nothing is cropped: each quadrant of the target shows
  // one stored quadrant.
  const std::array<int, 3> red{255, 0, 0}, green{0, 255, 0}, blue{0, 0, 255}, white{255, 255, 255};
  struct Case {
    std::uint32_t rotation;
    std::array<std::array<int, 3>, 4> shown;  // top left, top right, bottom left, bottom right
  };
  for (const Case& c : {Case{0, {red, green, blue, white}}, Case{90, {blue, red, white, green}},
                        Case{180, {white, blue, green, red}}, Case{270, {green, white, red, blue}}}) {
    SyntheticVideoFrame frame = quadrant_frame();
    frame.format.rotation = c.rotation;
    const bool quarter = c.rotation == 90 || c.rotation == 270;
    const VkExtent2D extent = quarter ? VkExtent2D{64, 128} : VkExtent2D{128, 64};
    viewer::OffscreenTarget target(context(), extent);
    viewer::FrameRenderer overlay(context(), GetParam() ? Engine::cpu : Engine::gpu);
    viewer::DrawStyle style;
    style.channels = {false, false, false, false};
    SCOPED_TRACE(std::to_string(c.rotation));
    const auto pixels = draw_once(context(), overlay, target, frame, style);
    const int w = static_cast<int>(extent.width), h = static_cast<int>(extent.height);
    EXPECT_EQ(rgb_at(pixels, extent.width, w / 4, h / 4), c.shown[0]);
    EXPECT_EQ(rgb_at(pixels, extent.width, 3 * w / 4, h / 4), c.shown[1]);
    EXPECT_EQ(rgb_at(pixels, extent.width, w / 4, 3 * h / 4), c.shown[2]);
    EXPECT_EQ(rgb_at(pixels, extent.width, 3 * w / 4, 3 * h / 4), c.shown[3]);
    EXPECT_EQ(rgb_at(pixels, extent.width, 2, 2), c.shown[0]);
    EXPECT_EQ(rgb_at(pixels, extent.width, w - 3, h - 3), c.shown[3]);
  }
}

TEST_P(OverlayTest, AnamorphicFrameIsStretchedBySampleAspect) {
  // 90x64 stored at 64:45 is 128x64 shown; in a 128x64 target it fills the target 1:1 vertically.
  // Rows 20..27 green, red above them and down to row 31, blue from row 32: shown at rows 20..27.
  // Drawn at the stored shape (the cover fit of 90x64 into 128x64 scales by 128/90 and crops
  // top and bottom), the band would sit at rows 15..25 and rows 26 and 29 would differ.
  SyntheticVideoFrame frame = pattern_frame(90, 64, [](std::uint32_t, std::uint32_t y) {
    if (y >= 20 && y < 28) return std::array<int, 3>{0, 255, 0};
    return y < 32 ? std::array<int, 3>{255, 0, 0} : std::array<int, 3>{0, 0, 255};
  });
  frame.format.sar_num = 64;
  frame.format.sar_den = 45;
  ASSERT_EQ(frame.format.display_width(), 128u);
  const VkExtent2D extent{128, 64};
  viewer::OffscreenTarget target(context(), extent);
  viewer::FrameRenderer overlay(context(), GetParam() ? Engine::cpu : Engine::gpu);
  viewer::DrawStyle style;
  style.channels = {false, false, false, false};
  const auto pixels = draw_once(context(), overlay, target, frame, style);
  for (int x : {2, 64, 125}) {
    EXPECT_EQ(rgb_at(pixels, 128, x, 18), (std::array<int, 3>{255, 0, 0})) << x;
    for (int y = 21; y <= 26; ++y) EXPECT_EQ(rgb_at(pixels, 128, x, y), (std::array<int, 3>{0, 255, 0})) << x << "," << y;
    EXPECT_EQ(rgb_at(pixels, 128, x, 29), (std::array<int, 3>{255, 0, 0})) << x;
    EXPECT_EQ(rgb_at(pixels, 128, x, 40), (std::array<int, 3>{0, 0, 255})) << x;
  }
}

TEST_P(OverlayTest, SplitViewFollowsTheRotation) {
  // The split view of a frame stored upside down (rotation 180): shown pixel (x, y) is stored
  // pixel (127 - x, 71 - y), the original left of the divider, the equalized frame right of it.
  SyntheticVideoFrame frame = low_contrast_frame(128, 72, false);
  frame.format.rotation = 180;
  const VkExtent2D extent{128, 72};
  viewer::OffscreenTarget target(context(), extent);
  viewer::FrameRenderer overlay(context(), GetParam() ? Engine::cpu : Engine::gpu);
  viewer::DrawStyle style;
  style.channels = {false, false, false, false};
  style.equalize = EqualizeMode::channels;
  style.split_view = true;
  style.split_position = 0.25f;
  const auto equalized = reference_equalized(frame, EqualizeMode::channels);
  const auto original = reference_convert(frame.format, frame.view());
  const auto pixels = draw_once(context(), overlay, target, frame, style);
  for (std::uint32_t y = 0; y < extent.height; ++y) {
    for (std::uint32_t x = 0; x < extent.width; ++x) {
      if (x == 31 || x == 32) continue;  // the divider
      const std::size_t i = (std::size_t{y} * extent.width + x) * 4;
      const std::size_t j = (std::size_t{71 - y} * extent.width + (127 - x)) * 4;
      for (std::size_t c = 0; c < 3; ++c) {
        const int want = x < 31 ? static_cast<int>(original[j + c]) : static_cast<int>(equalized[j + c]);
        ASSERT_EQ(pixels[i + c], want) << x << "," << y;
      }
    }
  }
}

TEST_P(OverlayTest, StatisticsCarryThePerCodeHistogram) {
  // FrameStatistics::levels: the drawn frame's histogram at one level per code (a tick late with
  // the GPU engine, at once with the CPU engine): the flat grey frame's 2304 pixels at code 200.
  const SyntheticVideoFrame frame = flat_grey_frame();
  viewer::OffscreenTarget target(context(), {64, 36});
  viewer::FrameRenderer overlay(context(), GetParam() ? Engine::cpu : Engine::gpu);
  viewer::DrawStyle style;
  draw_once(context(), overlay, target, frame, style);
  overlay.begin();  // collects the last tick's readback
  const auto& levels = overlay.statistics().levels;
  ASSERT_EQ(levels.bins, 256u);
  for (std::uint32_t c = 0; c < 4; ++c) {
    EXPECT_EQ(levels.counts[200 * 4 + c], 2304u) << c;
    EXPECT_EQ(levels.counts[199 * 4 + c], 0u) << c;
  }
}

INSTANTIATE_TEST_SUITE_P(Engines, OverlayTest, ::testing::Values(false, true),
                         [](const auto& p) { return std::string(p.param ? "cpu_engine" : "gpu_engine"); });

}  // namespace
}  // namespace vhist
